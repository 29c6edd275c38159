package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.nn.functional.F;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The compile front end's own costs. {@code cachedCall} minus {@code graphCall} is what a call of a compiled function
 * pays on a cache hit beyond running its graph: the guard check and the call's plumbing (the graph is three ops on
 * eight elements, so its run is short). {@code captureGptStep} is the first call of TrainGpt's compiled training step
 * (forward, cross-entropy loss, backward): capture on fake tensors, the traces of the shape generalizer, and the
 * backend's lowering.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CompileBench {
    private Tensor x;
    private Function<Tensor, Tensor> compiled;
    private GraphModule graph;

    private Gpt model;
    private Tensor idx, targets;

    private static Tensor small(Tensor t) {
        return t.mul(2.0).add(1.0).relu();
    }

    @Setup(Level.Trial)
    public void setup() {
        Torch.manualSeed(0);
        x = Torch.randn(8);
        compiled = Torch.compile(CompileBench::small, CompileOptions.defaults().backend("eager"));
        compiled.apply(x);
        graph = Fx.makeFx(in -> new Tensor[] {small(in[0])}, x);
        model = new Gpt(new GptConfig(65, 64, 4, 4, 128, "layernorm"));
        idx = Torch.randint(0, 65, 8, 64);
        targets = Torch.randint(0, 65, 8, 64);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public Tensor cachedCall() {
        return compiled.apply(x);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public Tensor[] graphCall() {
        return graph.call(x);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Tensor captureGptStep() {
        Compile.reset();
        BiFunction<Tensor, Tensor, Tensor> step = Torch.compile(
                (i, t) -> F.crossEntropy(model.logits(i).flatten(0, 1), t.flatten()),
                CompileOptions.defaults().dynamic(true).backend("aot_eager"));
        Tensor loss = step.apply(idx, targets);
        loss.backward();
        model.zeroGrad();
        return loss;
    }
}
