package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** add / mul / exp / sum on 16 Mi float32 elements, allocating and into an existing output (peers: BASELINE.md). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ElementwiseBench {
    static final long N = 1L << 24;
    Tensor a, b, out;

    @Setup
    public void setup() {
        a = Torch.sin(Torch.arange(0.0, (double) N, 1.0));
        b = Torch.cos(Torch.arange(0.0, (double) N, 1.0));
        out = Torch.zeros(N);
    }

    @Benchmark
    public Tensor addAlloc() {
        return a.add(b);
    }

    @Benchmark
    public Tensor mulAlloc() {
        return a.mul(b);
    }

    @Benchmark
    public Tensor expAlloc() {
        return a.exp();
    }

    @Benchmark
    public Tensor addOut() {
        return Torch.addOut(out, a, b);
    }

    @Benchmark
    public Tensor mulOut() {
        return Torch.mulOut(out, a, b);
    }

    @Benchmark
    public Tensor expOut() {
        return Torch.expOut(out, a);
    }

    @Benchmark
    public Tensor sum() {
        return a.sum();
    }
}
