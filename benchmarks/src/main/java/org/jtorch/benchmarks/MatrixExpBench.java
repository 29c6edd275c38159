package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.linalg.Linalg;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code linalg.matrix_exp} of one n x n float64 matrix {@code A[i, j] = sin(i n + j) / sqrt(n)} (1-norm about 10: the
 * degree-18 Taylor polynomial after 4 squarings). Same input as benchmarks/peers/torch_linalg_solve.py, which times
 * scipy.linalg.expm and torch.linalg.matrix_exp.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MatrixExpBench {
    @Param({"256"})
    int n;

    Tensor a;

    @Setup
    public void setup() {
        a = Torch.sin(Torch.arange(0, (double) n * n, 1, DType.FLOAT64))
                .view(n, n)
                .div(Math.sqrt(n));
    }

    @Benchmark
    public Tensor matrixExp() {
        return Linalg.matrixExp(a);
    }
}
