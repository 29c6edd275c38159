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
 * float32 {@code mm} of m x k by k x n, which JTorch splits into row or column blocks over its Java workers with
 * single-threaded OpenBLAS calls, against one raw {@code cblas_sgemm} threaded by OpenBLAS itself, on the same heap
 * arrays. Shapes are those of a small GPT's projections and MLP.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GemmSplitBench {
    @Param({"2048x128x384", "2048x512x128", "128x2048x512", "256x256x256"})
    String mkn;

    int m, k, n;
    Tensor a, b;
    float[] ra, rb;

    @Setup
    public void setup() {
        String[] p = mkn.split("x");
        m = Integer.parseInt(p[0]);
        k = Integer.parseInt(p[1]);
        n = Integer.parseInt(p[2]);
        a = Torch.randn(m, k);
        b = Torch.randn(k, n);
        ra = a.toFloatArray();
        rb = b.toFloatArray();
    }

    @Benchmark
    public Tensor jtorchMm() {
        return a.mm(b);
    }

    @Benchmark
    public float[] rawSgemmOpenBlasThreads() {
        float[] c = new float[m * n];
        OpenBlas.sgemm(
                OpenBlas.Transpose.NONE,
                OpenBlas.Transpose.NONE,
                m,
                n,
                k,
                1f,
                MemorySegment.ofArray(ra),
                0,
                k,
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
