package org.jtorch.examples;

import static org.jtorch.Torch.*;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.optim.AdamW;

/**
 * A small first example: a two-layer MLP written with bare tensors, autograd and AdamW learns to classify points of two
 * interleaved spirals (a problem no linear model solves), and reports the loss curve and the accuracy on held-out
 * points. It starts with a short tour of dtypes, promotion and the meta device. Run it with
 * {@code -Dexample.main=org.jtorch.examples.Spirals}.
 */
public final class Spirals {
    private Spirals() {}

    public static void main(String[] args) {
        System.out.println("JTorch demo: spirals");
        tour();
        trainSpirals();
    }

    private static void tour() {
        Tensor a = tensor(new float[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor b = tensor(new float[] {10, 20, 30});
        System.out.println("a + b (broadcast) =\n" + a.add(b));
        System.out.println("int64 + 2.5 promotes to " + arange(4).add(2.5).dtype());
        System.out.println("float16 linspace(0, 1, 7) = " + linspace(0, 1, 7, DType.FLOAT16));
        Tensor meta = zeros(new long[] {1 << 20, 1 << 20}, DType.BFLOAT16, Device.META);
        System.out.println("a 2^40-element bfloat16 tensor on the meta device: shape "
                + java.util.Arrays.toString(meta.exp().shape()) + ", no memory used");
    }

    /** Two spirals of {@code n} points each: class 0 and class 1, with a little noise. */
    private static Tensor[] spirals(int n, Generator gen) {
        Tensor t = rand(new long[] {n}, gen).mul(3 * Math.PI).add(0.5); // angle along the arm
        Tensor r = t.div(3 * Math.PI); // radius grows with the angle
        Tensor noise = randn(new long[] {2L * n, 2}, gen).mul(0.02);
        Tensor arm0 = stack(List.of(r.mul(cos(t)), r.mul(sin(t))), 1);
        Tensor arm1 = arm0.neg(); // the second arm: rotated by π
        Tensor x = cat(List.of(arm0, arm1), 0).add(noise);
        Tensor y = cat(List.of(zeros(new long[] {n}, DType.INT64), ones(new long[] {n}, DType.INT64)), 0);
        return new Tensor[] {x, y};
    }

    private static void trainSpirals() {
        Generator gen = new Generator();
        gen.manualSeed(0);
        Tensor[] train = spirals(1000, gen), test = spirals(250, gen);
        int hidden = 64;
        Tensor w1 = randn(new long[] {hidden, 2}, gen).mul(Math.sqrt(2.0 / 2)).requiresGrad(true);
        Tensor b1 = zeros(hidden).requiresGrad(true);
        Tensor w2 =
                randn(new long[] {2, hidden}, gen).mul(Math.sqrt(1.0 / hidden)).requiresGrad(true);
        Tensor b2 = zeros(2).requiresGrad(true);
        AdamW opt = new AdamW(
                List.of(w1, b1, w2, b2), AdamW.Options.defaults().lr(0.01).weightDecay(1e-4));
        long start = System.nanoTime();
        for (int step = 0; step <= 1500; step++) {
            Tensor loss = crossEntropy(forward(train[0], w1, b1, w2, b2), train[1]);
            opt.zeroGrad();
            loss.backward();
            opt.step();
            if (step % 250 == 0) System.out.printf("step %4d  loss %.4f%n", step, loss.item());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        try (var _ = noGrad()) {
            Tensor predicted = argmax(forward(test[0], w1, b1, w2, b2), 1L);
            double accuracy = predicted.eq(test[1]).to(DType.FLOAT32).mean().item();
            System.out.printf(
                    "held-out accuracy %.1f%% (a linear model gets ~50%%), 1500 AdamW steps in %.1f s%n",
                    100 * accuracy, seconds);
        }
    }

    private static Tensor forward(Tensor x, Tensor w1, Tensor b1, Tensor w2, Tensor b2) {
        return addmm(b2, addmm(b1, x, w1.t()).relu(), w2.t());
    }

    /** Mean cross entropy of logits [N, C] against class indices [N], written with log_softmax and a one-hot mask. */
    private static Tensor crossEntropy(Tensor logits, Tensor target) {
        Tensor logp = logSoftmax(logits, 1L);
        Tensor oneHot =
                eq(target.unsqueeze(1), arange(logits.size(1)).unsqueeze(0)).to(logp.dtype());
        return logp.mul(oneHot).sum().div(-(double) logits.size(0));
    }
}
