package org.jtorch.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * GELU and softmax forward and forward+backward on a [16, 4, 128, 128] float32 tensor (an attention score's shape in a
 * small GPT), on {@code threads} intra-op threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ActivationBench {
    @Param({"1"})
    public int threads;

    Tensor x, g;

    @Setup
    public void setup() {
        Torch.setNumThreads(threads);
        Torch.manualSeed(0);
        x = Torch.randn(16, 4, 128, 128).mul(2.0).requiresGrad(true);
        g = Torch.randn(16, 4, 128, 128);
    }

    private Tensor backward(Tensor y) {
        return Autograd.grad(
                        List.of(y), List.of(x), Autograd.GradOptions.defaults().gradOutputs(List.of(g)))
                .get(0);
    }

    @Benchmark
    public Tensor geluForward() {
        return Torch.gelu(x.detach());
    }

    @Benchmark
    public Tensor geluForwardBackward() {
        return backward(Torch.gelu(x));
    }

    @Benchmark
    public Tensor geluTanhForwardBackward() {
        return backward(Torch.gelu(x, "tanh"));
    }

    @Benchmark
    public Tensor softmaxForward() {
        return Torch.softmax(x.detach(), -1);
    }

    @Benchmark
    public Tensor softmaxForwardBackward() {
        return backward(Torch.softmax(x, -1));
    }
}
