package org.jtorch.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.Flatten;
import org.jtorch.nn.Linear;
import org.jtorch.nn.MaxPool2d;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-sample gradients of a small CNN (float32, cross entropy) for a batch of 64 MNIST-sized inputs [1, 28, 28]:
 * torch.func's recipe {@code vmap(grad(loss), in_dims=(None, 0, 0))} over {@code functional_call}, against the loop of
 * 64 single-sample backward passes. {@code maxPool}: conv(1→8, 3) relu maxpool(2) conv(8→16, 3) relu maxpool(2) linear
 * (400→10); {@code stridedConv}: the same with each pooling replaced by a stride-2 convolution (576→10). The peer is
 * benchmarks/peers/torch_per_sample_cnn_grad.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PerSampleCnnGradBench {
    static final int BATCH = 64;

    /** How the CNN halves its feature maps: max pooling, or stride-2 convolutions instead. */
    @Param({"maxPool", "stridedConv"})
    public String downsample;

    Sequential model;
    Map<String, Tensor> params;
    Tensor xs, ys;
    Function<Object[], Object> perSample;

    /** The CNN of {@link #downsample}. */
    static Sequential cnn(String downsample) {
        if (downsample.equals("maxPool")) {
            return new Sequential(
                    new Conv2d(1, 8, 3),
                    new ReLU(),
                    new MaxPool2d(2),
                    new Conv2d(8, 16, 3),
                    new ReLU(),
                    new MaxPool2d(2),
                    new Flatten(),
                    new Linear(16 * 5 * 5, 10));
        }
        ConvOptions stride2 = ConvOptions.defaults().stride(2);
        return new Sequential(
                new Conv2d(1, 8, new long[] {3}, stride2),
                new ReLU(),
                new Conv2d(8, 16, new long[] {3}, stride2),
                new ReLU(),
                new Flatten(),
                new Linear(16 * 6 * 6, 10));
    }

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        model = cnn(downsample);
        params = PerSampleGrads.detachedParameters(model);
        xs = Torch.randn(BATCH, 1, 28, 28);
        ys = Torch.randint(0, 10, BATCH);
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
