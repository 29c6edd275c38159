package org.jtorch.benchmarks;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.kernels.blas.OpenBlas;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * float32 matmul n³ through JTorch against raw OpenBLAS sgemm on the same heap arrays (GFLOP/s = 2n³/t), and the
 * attention-shaped batched products of a transformer block (32 heads-times-batch of T 128, head dim 64).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MatmulBench {
    @Param({"1024"})
    int n;

    Tensor a, b;
    Tensor q, kt, scores;
    float[] ra, rb, rc;

    @Setup
    public void setup() {
        a = Torch.sin(Torch.arange(0.0, (double) n * n, 1.0)).view(n, n);
        b = Torch.cos(Torch.arange(0.0, (double) n * n, 1.0)).view(n, n);
        ra = a.toFloatArray();
        rb = b.toFloatArray();
        rc = new float[n * n];
        q = Torch.randn(32, 128, 64);
        kt = Torch.randn(32, 64, 128);
        scores = Torch.randn(32, 128, 128);
    }

    /** Q K^T of attention: 32 products of 128x64 by 64x128. */
    @Benchmark
    public Tensor bmmScores() {
        return q.bmm(kt);
    }

    /** softmax(Q K^T) V of attention: 32 products of 128x128 by 128x64. */
    @Benchmark
    public Tensor bmmValues() {
        return scores.bmm(q);
    }

    @Benchmark
    public Tensor jtorchMatmul() {
        return a.matmul(b);
    }

    @Benchmark
    public float[] rawSgemm() {
        float[] c = new float[n * n]; // a fresh output, as matmul allocates one
        OpenBlas.sgemm(
                OpenBlas.Transpose.NONE,
                OpenBlas.Transpose.NONE,
                n,
                n,
                n,
                1f,
                MemorySegment.ofArray(ra),
                0,
                n,
                MemorySegment.ofArray(rb),
                0,
                n,
                0f,
                MemorySegment.ofArray(c),
                0,
                n);
        return c;
    }
}
