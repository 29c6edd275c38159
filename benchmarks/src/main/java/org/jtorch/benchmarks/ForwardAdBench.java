package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.DualLevel;
import org.jtorch.autograd.ForwardAD;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Forward-mode AD overhead, per op: 100 chained adds of 16-element tensors inside a dual level, with a dual input (each
 * op runs its primal and its JVP) and with plain inputs (the level's pass-through cost).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ForwardAdBench {
    Tensor x, t, b;

    @Setup
    public void setup() {
        x = Torch.arange(0.0, 16.0, 1.0);
        t = Torch.ones(16);
        b = Torch.ones(16);
    }

    @Benchmark
    @OperationsPerInvocation(100)
    public Tensor smallAddsDual() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor h = ForwardAD.makeDual(x, t);
            for (int i = 0; i < 100; i++) h = h.add(b);
            return ForwardAD.unpackDual(h).tangent();
        }
    }

    @Benchmark
    @OperationsPerInvocation(100)
    public Tensor smallAddsPlainInsideLevel() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor h = x;
            for (int i = 0; i < 100; i++) h = h.add(b);
            return h;
        }
    }
}
