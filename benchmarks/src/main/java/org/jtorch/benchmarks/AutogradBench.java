package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Autograd overhead, defined as in the peers' harness (shared/peers): 100 chained adds of 16-element
 * tensors with a leaf that requires grad, then {@code sum().backward()} (per-op time); and one
 * training step of an MLP 784-256-10 on a batch of 64 (forward, backward, SGD) written with tensor ops.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
public class AutogradBench {
    Tensor x, b;
    Tensor w1, b1, w2, b2, input, target;

    @Setup
    public void setup() {
        x = Torch.arange(0.0, 16.0, 1.0).requiresGrad(true);
        b = Torch.ones(16);
        input = Torch.sin(Torch.arange(0.0, 64.0 * 784, 1.0)).view(64, 784);
        target = Torch.zeros(64, 10);
        for (int i = 0; i < 64; i++) target.select(0, i).select(0, i % 10).fill_(1.0);
        w1 = Torch.sin(Torch.arange(0.0, 256.0 * 784, 1.0)).mul(0.05).view(256, 784).requiresGrad(true);
        b1 = Torch.zeros(256).requiresGrad(true);
        w2 = Torch.cos(Torch.arange(0.0, 10.0 * 256, 1.0)).mul(0.05).view(10, 256).requiresGrad(true);
        b2 = Torch.zeros(10).requiresGrad(true);
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

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Tensor mlpStep() {
        Tensor hidden = Torch.addmm(b1, input, w1.t()).relu();
        Tensor logits = Torch.addmm(b2, hidden, w2.t());
        Tensor logp = Torch.logSoftmax(logits, 1);
        Tensor loss = logp.mul(target).sum().div(-64.0);
        loss.backward();
        try (var g = Torch.noGrad()) {
            for (Tensor p : new Tensor[] {w1, b1, w2, b2}) {
                p.sub_(p.grad().mul(0.01));
                p.setGrad(null);
            }
        }
        return loss;
    }
}
