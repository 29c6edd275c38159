package org.jtorch.benchmarks;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * The twelve matrix products of one TrainGpt block's training step (width 128, MLP 512, batch 16 x 128 positions),
 * timed as their peer ({@code benchmarks/peers/torch_gpt_gemms.py}) times them: per product the fastest of 40 calls
 * after 5 warm-up calls, float32, the operands laid out as the step has them — {@code x @ W^T} forward, {@code dY @ W}
 * for the input gradient, {@code dY^T @ x} for the weight gradient — and the sum of the twelve; then each product again
 * into an output allocated once ({@code addmm_} with beta 0), whose difference is the cost of fresh output memory.
 *
 * <pre>
 * ./mvnw -B -q -pl jtorch,examples,benchmarks -am -DskipTests package
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector \
 *     -cp benchmarks/target/classes:$(cat examples/target/launcher.classpath) org.jtorch.benchmarks.GptGemmsRun
 * </pre>
 */
public final class GptGemmsRun {
    private GptGemmsRun() {}

    /** Rows (tokens) of the step. */
    private static final int TOKENS = 16 * 128;

    /** Input and output features of the block's four linear layers: qkv, attention projection, MLP up, MLP down. */
    private static final int[][] LAYERS = {{128, 384}, {128, 128}, {128, 512}, {512, 128}};

    public static void main(String[] args) {
        Torch.manualSeed(0);
        double total = 0, totalInto = 0;
        for (int[] layer : LAYERS) {
            int in = layer[0], out = layer[1];
            Tensor x = Torch.randn(TOKENS, in), w = Torch.randn(out, in), dy = Torch.randn(TOKENS, out);
            Tensor y = Torch.empty(TOKENS, out), dx = Torch.empty(TOKENS, in), dw = Torch.empty(out, in);
            total += report("forward   x @ W^T  " + TOKENS + "x" + in + "x" + out, () -> x.matmul(w.t()));
            totalInto += report("  into an existing output", () -> y.addmm_(x, w.t(), 0.0, 1.0));
            total += report("input grad dY @ W  " + TOKENS + "x" + out + "x" + in, () -> dy.matmul(w));
            totalInto += report("  into an existing output", () -> dx.addmm_(dy, w, 0.0, 1.0));
            total += report("weight grad dY^T @ x " + out + "x" + TOKENS + "x" + in, () -> dy.t()
                    .matmul(x));
            totalInto += report("  into an existing output", () -> dw.addmm_(dy.t(), x, 0.0, 1.0));
        }
        System.out.printf("all twelve: %.0f us%n", total);
        // the same products writing into outputs allocated once: the difference is the cost of fresh output memory
        System.out.printf("all twelve into existing outputs: %.0f us%n", totalInto);
    }

    private static double report(String name, Runnable product) {
        for (int i = 0; i < 5; i++) product.run();
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 40; i++) {
            long t0 = System.nanoTime();
            product.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e3);
        }
        System.out.printf("%-40s %8.0f us%n", name, best);
        return best;
    }
}
