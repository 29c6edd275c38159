package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.nn.GELU;
import org.jtorch.nn.LayerNorm;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.TransformerEncoderLayer;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.AdamW;
import org.junit.jupiter.api.Test;

/**
 * The concurrency contract of docs/threading.md: results never depend on what other threads do. Many threads running
 * inference on one module get bit-identical outputs to the same calls made alone, and two models trained in two threads
 * end bit-identical to the same training done one after the other. The run lasts {@code -Djtorch.concurrency.seconds}
 * (default 2; the figures in docs/threading.md use 30) with {@code -Djtorch.concurrency.threads} threads (default 8).
 */
class ConcurrencyContractTest {
    static final double SECONDS = Double.parseDouble(System.getProperty("jtorch.concurrency.seconds", "2"));
    static final int THREADS = Integer.getInteger("jtorch.concurrency.threads", 8);
    static final int INPUTS = 16;

    @Test
    void concurrentInferenceIsBitIdenticalToSerial() throws Exception {
        Torch.manualSeed(20);
        Module model = new Sequential(
                        new TransformerEncoderLayer(128, 4, 256, 0.1, "gelu", 1e-5, false, false, true),
                        new Linear(128, 256),
                        new GELU(),
                        new Linear(256, 128),
                        new LayerNorm(128))
                .eval();
        List<Tensor> inputs = new ArrayList<>();
        Generator g = new Generator().manualSeed(21);
        for (int i = 0; i < INPUTS; i++) inputs.add(Torch.randn(new long[] {16 + 8 * i, 4, 128}, g));
        List<double[]> serial = new ArrayList<>();
        try (var _ = Torch.noGrad()) {
            for (Tensor x : inputs) serial.add(model.call(x).toDoubleArray());
        }
        AtomicLong forwards = new AtomicLong(), mismatches = new AtomicLong();
        long deadline = System.nanoTime() + (long) (SECONDS * 1e9);
        runConcurrently(THREADS, t -> {
            try (var _ = Torch.noGrad()) {
                for (int i = t; System.nanoTime() < deadline || i < t + INPUTS; i++) {
                    double[] y = model.call(inputs.get(i % INPUTS)).toDoubleArray();
                    forwards.incrementAndGet();
                    if (!java.util.Arrays.equals(y, serial.get(i % INPUTS))) mismatches.incrementAndGet();
                }
            }
        });
        System.out.println("ConcurrencyContractTest: " + THREADS + " threads, " + SECONDS + " s: " + forwards.get()
                + " forwards, " + mismatches.get() + " not bit-identical to serial");
        assertEquals(0, mismatches.get(), "of " + forwards.get() + " forwards");
    }

    @Test
    void twoModelsTrainedConcurrentlyEndAsTrainedSerially() throws Exception {
        int steps = (int) Math.max(10, SECONDS * 10);
        List<Map<String, Tensor>> initial = List.of(initialState(1), initialState(2));
        List<Map<String, Tensor>> serial = List.of(train(initial.get(0), 1, steps), train(initial.get(1), 2, steps));
        List<Map<String, Tensor>> concurrent = new ArrayList<>(List.of(Map.of(), Map.of()));
        runConcurrently(2, t -> concurrent.set(t, train(initial.get(t), t + 1, steps)));
        for (int t = 0; t < 2; t++) {
            for (var e : serial.get(t).entrySet()) {
                assertArrayEquals(
                        e.getValue().toDoubleArray(),
                        concurrent.get(t).get(e.getKey()).toDoubleArray(),
                        "model " + t + ", " + e.getKey() + " after " + steps + " steps");
            }
        }
    }

    private static Module mlp() {
        return new Sequential(new Linear(64, 512), new GELU(), new Linear(512, 64), new LayerNorm(64));
    }

    private static Map<String, Tensor> initialState(long seed) {
        Torch.manualSeed(seed);
        return mlp().stateDict();
    }

    /** AdamW on a regression task whose data come from the model's own generator: nothing shared between threads. */
    private static Map<String, Tensor> train(Map<String, Tensor> initial, long seed, int steps) {
        Module model = mlp();
        model.loadStateDict(initial);
        AdamW opt = new AdamW(model.parameters(), 1e-3);
        Generator g = new Generator().manualSeed(seed);
        for (int s = 0; s < steps; s++) {
            Tensor x = Torch.randn(new long[] {256, 64}, g);
            Tensor loss = F.mseLoss(model.call(x), x.mul(0.5));
            opt.zeroGrad();
            loss.backward();
            opt.step();
        }
        return model.stateDict();
    }

    private interface Body {
        void run(int thread) throws Exception;
    }

    /** Starts {@code threads} bodies together and rethrows the first failure. */
    private static void runConcurrently(int threads, Body body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            var start = new java.util.concurrent.CountDownLatch(1);
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                runs.add(pool.submit(() -> {
                    start.await();
                    body.run(id);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : runs) f.get(10, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
    }
}
