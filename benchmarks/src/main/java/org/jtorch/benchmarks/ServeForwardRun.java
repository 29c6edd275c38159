package org.jtorch.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.ServeModel;
import org.jtorch.examples.serve.ServedModel;
import org.jtorch.storage.ArrayPool;

/**
 * Whole-program benchmark of the serving example's forward alone: TrainGpt's default-size GPT
 * ({@link ServeModel#demoModel()}) as {@link ServedModel#gptNextToken} runs it (no-grad, in a
 * {@link org.jtorch.MemoryScope}, the LM head on the last position), for batches of 1, 8 and 64 requests of 4 and 16
 * tokens, with the array pool on and off in turn ({@link ArrayPool#setCapacity}: off, a scope still frees its memory at
 * close but no array is reused). Prints the median milliseconds per forward of each.
 *
 * <pre>
 *   ./mvnw -B -q -pl benchmarks -am -DskipTests package exec:exec@serve-forward
 * </pre>
 *
 * Peer: {@code benchmarks/peers/torch_serve_forward.py} (the same model and weights under {@code inference_mode}).
 */
public final class ServeForwardRun {
    private ServeForwardRun() {}

    public static void main(String[] args) {
        Function<Tensor, Tensor> forward =
                ServedModel.gptNextToken("GPT", ServeModel.demoModel()).forward();
        Generator g = new Generator().manualSeed(0);
        long poolBytes = 256L << 20;
        for (int round = 0; round < 3; round++) { // round 0 warms up
            for (int tokens : new int[] {4, 16}) {
                for (int batch : new int[] {1, 8, 64}) {
                    Tensor x =
                            Torch.randint(0, 72, new long[] {batch, tokens}, g).to(DType.INT64);
                    int reps = Math.max(20, 1600 / batch);
                    ArrayPool.setCapacity(poolBytes);
                    double on = median(reps, forward, x);
                    ArrayPool.setCapacity(0);
                    double off = median(reps, forward, x);
                    if (round > 0) {
                        System.out.printf(
                                Locale.ROOT,
                                "bench=serve_forward tokens=%d batch=%d pool_on_ms=%.3f pool_off_ms=%.3f%n",
                                tokens,
                                batch,
                                on,
                                off);
                    }
                }
            }
        }
        ArrayPool.setCapacity(poolBytes);
    }

    private static double median(int reps, Function<Tensor, Tensor> forward, Tensor x) {
        for (int i = 0; i < 5; i++) forward.apply(x);
        double[] ms = new double[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            forward.apply(x);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return ms[reps / 2];
    }
}
