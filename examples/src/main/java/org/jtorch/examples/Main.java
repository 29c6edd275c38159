package org.jtorch.examples;

import static org.jtorch.Torch.*;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;

/**
 * The README's main job. Until the GPT training example lands it runs a real tensor workload:
 * least-squares regression solved by gradient descent written with JTorch tensor ops (closed-form
 * gradients, no autograd yet), checked against the known generating weights, plus a tour of dtypes,
 * promotion, views and the meta device.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("JTorch tensor demo");
        tour();
        regression();
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

    /** y = X w* + noise; minimise mean((X w - y)^2) with gradient 2/n X^T (X w - y). */
    private static void regression() {
        int n = 4096, d = 64;
        // deterministic pseudo-random features in [-0.5, 0.5): frac(43758.5453 sin(i)) - 0.5
        Tensor x = frac(sin(arange(0.0, (double) n * d, 1.0)).mul(43758.5453).abs()).sub(0.5).view(n, d);
        Tensor wTrue = cos(arange(0.0, d, 1.0));
        Tensor y = x.matmul(wTrue);
        Tensor w = zeros(d);
        double lr = 2.0;
        long start = System.nanoTime();
        for (int step = 0; step <= 300; step++) {
            Tensor residual = x.matmul(w).sub(y);
            Tensor grad = x.mT().matmul(residual).mul(2.0 / n);
            w = w.sub(grad.mul(lr));
            if (step % 50 == 0) {
                System.out.printf("step %3d  loss %.3e%n", step, residual.square().mean().item());
            }
        }
        double ms = (System.nanoTime() - start) / 1e6;
        double err = w.sub(wTrue).abs().amax().item();
        System.out.printf("recovered weights: max |w - w*| = %.2e after 300 steps in %.0f ms%n", err, ms);
    }
}
