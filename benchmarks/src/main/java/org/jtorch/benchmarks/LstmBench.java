package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.LSTM;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code nn.LSTM} float32, input and hidden 256, batch 32: {@code shape} "1x64" is one layer over 64 steps, "2x128" two
 * layers over 128 steps (issue 21's benchmark). Forward alone, and forward + backward of {@code (output · g).sum()}
 * with the parameter and input gradients reset after each call. PyTorch peer: benchmarks/peers/torch_lstm.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LstmBench {
    @Param({"1x64", "2x128"})
    public String shape;

    LSTM lstm;
    Tensor x, g;

    @Setup
    public void setup() {
        int layers = Integer.parseInt(shape.substring(0, shape.indexOf('x')));
        long steps = Long.parseLong(shape.substring(shape.indexOf('x') + 1));
        Torch.manualSeed(0);
        lstm = new LSTM(256, 256, LSTM.Options.defaults().numLayers(layers));
        x = Torch.randn(steps, 32, 256).requiresGrad(true);
        g = Torch.randn(steps, 32, 256);
    }

    @Benchmark
    public Tensor forward() {
        try (var _ = Torch.noGrad()) {
            return lstm.forward(x);
        }
    }

    @Benchmark
    public Tensor forwardBackward() {
        Tensor y = lstm.forward(x);
        y.mul(g).sum().backward();
        x.setGrad(null);
        lstm.zeroGrad();
        return y;
    }
}
