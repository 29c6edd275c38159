package org.jtorch.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;

/**
 * Whole-program benchmark of causal self-attention at TrainGpt's size (batch 16, 4 heads, 128 positions, head dim 32,
 * float32): {@code F.scaledDotProductAttention(q, k, v, is_causal=true)} forward and backward, which runs the fused
 * kernel, against the math decomposition TrainGpt ran before it ({@code q kᵀ·scale + additive causal mask}, safe
 * softmax, {@code · v}), the two taking turns in one JVM. Prints the median forward and backward times of each.
 *
 * <pre>
 *   ./mvnw -B -q -pl benchmarks -am -DskipTests package exec:exec@attention
 * </pre>
 *
 * Peer: {@code benchmarks/peers/torch_attention.py} (PyTorch's CPU flash attention on the same problem).
 */
public final class AttentionRun {
    private static final long B = 16, H = 4, T = 128, D = 32;

    private AttentionRun() {}

    public static void main(String[] args) {
        int reps = 60;
        Torch.manualSeed(0);
        Tensor q = Torch.randn(B, H, T, D).requiresGrad(true);
        Tensor k = Torch.randn(B, H, T, D).requiresGrad(true);
        Tensor v = Torch.randn(B, H, T, D).requiresGrad(true);
        Tensor grad = Torch.randn(B, H, T, D);
        Tensor above = Torch.ones(new long[] {T, T}, DType.BOOL, Device.CPU).triu(1L);
        Tensor mask = Torch.zeros(T, T).maskedFill(above, Double.NEGATIVE_INFINITY);
        for (int round = 0; round < 4; round++) { // round 0 warms up
            double[] fused = time(reps, () -> F.scaledDotProductAttention(q, k, v, null, 0.0, true, null, false), grad);
            double[] math = time(reps, () -> math(q, k, v, mask), grad);
            if (round > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "bench=attention_causal fused_fwd_ms=%.3f fused_bwd_ms=%.3f"
                                + " math_fwd_ms=%.3f math_bwd_ms=%.3f%n",
                        fused[0],
                        fused[1],
                        math[0],
                        math[1]);
            }
        }
    }

    /** The math path with an explicit additive mask, as ATen's math SDPA spells it (safe softmax included). */
    private static Tensor math(Tensor q, Tensor k, Tensor v, Tensor mask) {
        Tensor scores = q.matmul(k.mT()).mul(1 / Math.sqrt(D)).add(mask);
        Tensor masked = scores.eq(Double.NEGATIVE_INFINITY).all(new long[] {-1}, true);
        return scores.maskedFill(masked, 0.0)
                .softmax(-1)
                .maskedFill(masked, 0.0)
                .matmul(v);
    }

    /** Median forward and backward milliseconds over {@code reps} calls. */
    private static double[] time(int reps, java.util.function.Supplier<Tensor> forward, Tensor grad) {
        double[] f = new double[reps], b = new double[reps];
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            Tensor y = forward.get();
            long t1 = System.nanoTime();
            y.backward(grad);
            long t2 = System.nanoTime();
            f[r] = (t1 - t0) / 1e6;
            b[r] = (t2 - t1) / 1e6;
        }
        Arrays.sort(f);
        Arrays.sort(b);
        return new double[] {f[reps / 2], b[reps / 2]};
    }
}
