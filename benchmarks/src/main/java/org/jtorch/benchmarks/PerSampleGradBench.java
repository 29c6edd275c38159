package org.jtorch.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-sample gradients of a 784-256-10 MLP (float32, cross entropy) for a batch of 64: torch.func's recipe
 * {@code vmap(grad(loss), in_dims=(None, 0, 0))} over {@code functional_call}, against the loop of 64 single-sample
 * backward passes. The peer is benchmarks/peers/torch_per_sample_grad.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PerSampleGradBench {
    Sequential model;
    Map<String, Tensor> params;
    Tensor xs, ys;
    Function<Object[], Object> perSample;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        model = new Sequential(new Linear(784, 256), new ReLU(), new Linear(256, 10));
        params = PerSampleGrads.detachedParameters(model);
        xs = Torch.randn(64, 784);
        ys = Torch.randint(0, 10, 64);
        perSample = PerSampleGrads.vmapGrad(model);
    }

    @Benchmark
    public Object vmapGrad() {
        return perSample.apply(new Object[] {params, xs, ys});
    }

    @Benchmark
    public Object loop() {
        return PerSampleGrads.loop(model, xs, ys);
    }
}
