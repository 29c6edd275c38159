package org.jtorch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.optim.AdamW;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One AdamW step over 100 float32 parameters totalling 50M elements (sizes proportional to 1 + i % 10), for-loop vs
 * foreach vs fused vs compiled ({@code Optimizer.compileStep()}: the foreach update as one graph, its per-parameter
 * kernels in combo kernels; the setup fails unless {@code Compile.counters().comboKernels() > 0}). Peer:
 * benchmarks/peers/torch_optim.py (same sizes; its "compiled" is {@code torch.compile} of {@code opt.step}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class OptimBench {
    static final int PARAMS = 100;
    static final long TOTAL = 50_000_000L;

    @Param({"forloop", "foreach", "fused", "compiled"})
    public String impl;

    AdamW opt;

    /** The parameter sizes: {@code TOTAL} split in proportion to {@code 1 + i % 10}, the rest on the last. */
    static long[] sizes() {
        long[] n = new long[PARAMS];
        long weights = 0, used = 0;
        for (int i = 0; i < PARAMS; i++) weights += 1 + i % 10;
        for (int i = 0; i < PARAMS; i++) {
            n[i] = TOTAL * (1 + i % 10) / weights;
            used += n[i];
        }
        n[PARAMS - 1] += TOTAL - used;
        return n;
    }

    @Setup(Level.Trial)
    public void setup() {
        List<Tensor> params = new ArrayList<>();
        for (long n : sizes()) {
            Tensor p = Torch.randn(n).requiresGrad(true);
            p.setGrad(Torch.randn(n).mul(0.01));
            params.add(p);
        }
        AdamW.Options o = AdamW.Options.defaults().lr(1e-3);
        o = switch (impl) {
            case "forloop" -> o.foreach(false);
            case "foreach", "compiled" -> o.foreach(true);
            default -> o.fused(true);
        };
        opt = new AdamW(params, o);
        if (impl.equals("compiled")) {
            Compile.reset();
            opt.compileStep();
        }
        opt.step(); // creates the state (and compiles) outside the measurement
        if (impl.equals("compiled") && Compile.counters().comboKernels() == 0) {
            throw new IllegalStateException("the compiled step made no combo kernel: " + Compile.counters());
        }
    }

    @Benchmark
    public void step() {
        opt.step();
    }
}
