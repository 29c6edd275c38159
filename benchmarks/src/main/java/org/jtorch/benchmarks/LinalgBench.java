package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.linalg.Linalg;
import org.jtorch.linalg.Svd;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * float64 decompositions: eigh, svd and cholesky of one 512 x 512 matrix; polar and matrix_sqrth of a batch of 64
 * matrices 64 x 64, next to the SVD / eigh compositions a user would write by hand. Peer:
 * benchmarks/peers/torch_linalg.py.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LinalgBench {
    Tensor big, bigSpd, batch, batchSpd;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        big = Torch.randn(new long[] {512, 512}, DType.FLOAT64);
        bigSpd = big.matmul(big.mT())
                .add(Torch.eye(512, 512, DType.FLOAT64, Device.CPU).mul(512.0));
        batch = Torch.randn(new long[] {64, 64, 64}, DType.FLOAT64);
        batchSpd = batch.matmul(batch.mT())
                .add(Torch.eye(64, 64, DType.FLOAT64, Device.CPU).mul(64.0));
    }

    @Benchmark
    public Object eigh512() {
        return Linalg.eigh(bigSpd);
    }

    @Benchmark
    public Object svd512() {
        return Linalg.svd(big);
    }

    @Benchmark
    public Tensor cholesky512() {
        return Linalg.cholesky(bigSpd);
    }

    @Benchmark
    public Object polarBatch64x64() {
        return Linalg.polar(batch);
    }

    /** What a user writes without linalg.polar: a reduced SVD and two products. */
    @Benchmark
    public Object polarBySvdBatch64x64() {
        Svd s = Linalg.svd(batch, false);
        return new Tensor[] {
            s.u().matmul(s.vh()), s.vh().mH().matmul(s.s().unsqueeze(-1).mul(s.vh()))
        };
    }

    @Benchmark
    public Tensor matrixSqrthBatch64x64() {
        return Linalg.matrixSqrth(batchSpd);
    }

    /** What a user writes without linalg.matrix_sqrth: eigh and Q diag(sqrt(L)) Q^H. */
    @Benchmark
    public Tensor sqrthByEighBatch64x64() {
        var e = Linalg.eigh(batchSpd);
        return e.eigenvectors()
                .mul(e.eigenvalues().sqrt().unsqueeze(-2))
                .matmul(e.eigenvectors().mH());
    }
}
