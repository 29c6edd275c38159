package org.jtorch.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.SGD;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Autograd overhead, defined as in the peers' harness (shared/peers): 100 chained adds of 16-element tensors with a
 * leaf that requires grad, then {@code sum().backward()} (per-op time); and one training step of an MLP 784-256-10 on a
 * batch of 64 (forward, backward, SGD), as the peers write it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
public class AutogradBench {
    Tensor x, b;
    Tensor w1, b1, w2, b2, input, target;
    SGD sgd;

    @Setup
    public void setup() {
        x = Torch.arange(0.0, 16.0, 1.0).requiresGrad(true);
        b = Torch.ones(16);
        Torch.manualSeed(0);
        input = Torch.randn(64, 784);
        target = Torch.randint(0, 10, 64);
        w1 = Torch.randn(256, 784).mul(0.05).requiresGrad(true);
        b1 = Torch.zeros(256).requiresGrad(true);
        w2 = Torch.randn(10, 256).mul(0.05).requiresGrad(true);
        b2 = Torch.zeros(10).requiresGrad(true);
        sgd = new SGD(List.of(w1, b1, w2, b2), SGD.Options.defaults().lr(0.01));
    }

    @Benchmark
    @OperationsPerInvocation(100)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public Tensor smallAddsWithGrad() {
        Tensor h = x;
        for (int i = 0; i < 100; i++) h = h.add(b);
        h.sum().backward();
        x.setGrad(null);
        return h;
    }

    /** The peers' step exactly: zero_grad(set_to_none), cross_entropy(linear(relu(linear(x)))), backward, SGD step. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Tensor mlpStep() {
        sgd.zeroGrad(true);
        Tensor loss = F.crossEntropy(F.linear(F.relu(F.linear(input, w1, b1)), w2, b2), target);
        loss.backward();
        sgd.step(null);
        return loss;
    }
}
