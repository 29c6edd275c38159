package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code F.layer_norm(x, [256], w, b)} on x of [16, 128, 256] float32 (the transformer-block benchmark's activations),
 * forward alone and forward + backward with a given output gradient, grads reset to none after each call. PyTorch peer:
 * benchmarks/peers/torch_layer_norm.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LayerNormBench {
    static final long[] NORMALIZED = {256};

    Tensor x, w, b, g;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        x = Torch.randn(16, 128, 256).requiresGrad(true);
        w = Torch.randn(256).requiresGrad(true);
        b = Torch.randn(256).requiresGrad(true);
        g = Torch.randn(16, 128, 256);
    }

    @Benchmark
    public Tensor forward() {
        return F.layerNorm(x, NORMALIZED, w, b, 1e-5);
    }

    @Benchmark
    public Tensor forwardBackward() {
        Tensor y = F.layerNorm(x, NORMALIZED, w, b, 1e-5);
        y.backward(g);
        x.setGrad(null);
        w.setGrad(null);
        b.setGrad(null);
        return y;
    }
}
