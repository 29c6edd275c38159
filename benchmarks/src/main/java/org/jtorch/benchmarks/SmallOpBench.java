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

/** Eager small-op overhead: add of two 16-element float32 tensors through the full dispatcher. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SmallOpBench {
    Tensor a, b;

    @Setup
    public void setup() {
        a = Torch.arange(0.0, 16.0, 1.0);
        b = Torch.ones(16);
    }

    @Benchmark
    public Tensor add16() {
        return a.add(b);
    }

    @Benchmark
    public Tensor mulScalar16() {
        return a.mul(0.5);
    }
}
