package org.jtorch.benchmarks;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.utils.data.DataLoader;
import org.jtorch.utils.data.Dataset;

/**
 * Items per second a {@code DataLoader} delivers when each item costs about 1 ms, for 0, 1, 2 and 4 worker threads,
 * with two kinds of cost: {@code wait} (the item sleeps 1 ms, as reading from disk or network waits) and
 * {@code compute} (the item runs a fixed amount of arithmetic, calibrated at start to take 1 ms on one thread, as
 * decoding or augmenting does). The loop itself does nothing with a batch, so the figure is the loader's supply rate.
 * Each configuration runs one warm-up epoch, then {@code rounds} timed epochs; the best is printed.
 *
 * <pre>./mvnw -B -q -pl benchmarks -am -DskipTests package exec:exec@dataloader -Ddl.args="1000 3"</pre>
 *
 * {@code -Ddl.jvm=-Djtorch.dataloader.virtualThreads=true} runs the workers as virtual threads.
 */
public final class DataLoaderRun {
    private DataLoaderRun() {}

    private static long spinIterations;
    private static volatile double sink;

    public static void main(String[] args) {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        spinIterations = calibrate();
        System.out.printf(
                "threads: %s, %d cores, %d items of ~1 ms, batch 16%n",
                Boolean.getBoolean("jtorch.dataloader.virtualThreads") ? "virtual" : "platform",
                Runtime.getRuntime().availableProcessors(),
                items);
        for (String kind : new String[] {"wait", "compute"}) {
            double base = 0;
            for (int workers : new int[] {0, 1, 2, 4}) {
                double rate = best(kind, items, workers, rounds);
                if (workers == 0) base = rate;
                System.out.printf(
                        "%-8s workers=%d: %7.0f items/s  (%.2fx numWorkers(0))%n", kind, workers, rate, rate / base);
            }
        }
    }

    private static double best(String kind, int items, int workers, int rounds) {
        Dataset<Tensor> ds = new Dataset<>() {
            @Override
            public Tensor get(int index) {
                if (kind.equals("wait")) sleepMillis();
                else compute(spinIterations);
                return Torch.tensor(new float[] {index});
            }

            @Override
            public int size() {
                return items;
            }
        };
        double best = 0;
        try (DataLoader<Tensor> loader =
                DataLoader.builder(ds).batchSize(16).numWorkers(workers).build()) {
            for (int r = 0; r <= rounds; r++) {
                long start = System.nanoTime();
                long n = 0;
                for (Tensor b : loader) n += b.size(0);
                double rate = n / ((System.nanoTime() - start) / 1e9);
                if (r > 0) best = Math.max(best, rate);
            }
        }
        return best;
    }

    private static void sleepMillis() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A fixed amount of floating-point work (a dependent chain the JIT cannot drop). */
    private static void compute(long iterations) {
        double x = 1.0;
        for (long i = 0; i < iterations; i++) x = x * 1.0000001 + 1e-9;
        sink = x;
    }

    /** The iteration count of {@link #compute} that takes 1 ms on this thread (best of several tries). */
    private static long calibrate() {
        long n = 100_000;
        for (int i = 0; i < 5; i++) compute(n);
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            compute(n);
            best = Math.min(best, (System.nanoTime() - start) / 1e6);
        }
        return Math.round(n / best);
    }
}
