package org.jtorch.examples.serve;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.Tensor;

/**
 * A bounded load test of an {@link InferenceServer} on the loopback interface: {@code clients} concurrent clients
 * (virtual threads), each sending its share of a fixed number of requests one after another, stopping early when a time
 * limit passes. Every answer is compared with a serial reference (the model run on that example alone): within
 * {@code tolerance} of the reference's scale, since a batched matrix product may round differently from a single one.
 * Reports throughput, p50/p99 latency, the mean batch size, and wrong answers and lost ones (issued, not answered with
 * a 200).
 */
public final class LoadTest {
    private LoadTest() {}

    /** One level's figures. */
    public record Level(
            int clients,
            int answered,
            double seconds,
            double throughput,
            double p50Millis,
            double p99Millis,
            double meanBatch,
            int wrong,
            int lost) {
        @Override
        public String toString() {
            return String.format(
                    "%3d clients: %5d requests in %6.2f s = %7.1f req/s, p50 %7.2f ms, p99 %7.2f ms, mean batch %5.1f,"
                            + " wrong %d, lost %d",
                    clients, answered, seconds, throughput, p50Millis, p99Millis, meanBatch, wrong, lost);
        }
    }

    /**
     * Runs one level against {@code http://127.0.0.1:port}.
     *
     * @param inputs the examples (cycled through)
     * @param references the serial reference output of each example (flattened)
     * @param requests total requests, shared among the clients
     * @param limit stop issuing requests after this long
     */
    public static Level run(
            int port,
            List<Tensor> inputs,
            List<float[]> references,
            int clients,
            int requests,
            Duration limit,
            double tolerance) {
        List<String> bodies = inputs.stream()
                .map(t -> Json.write(Map.of("input", InferenceServer.toJson(t))))
                .toList();
        URI uri = URI.create("http://127.0.0.1:" + port + "/predict");
        long[] latencies = new long[requests];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger(), wrong = new AtomicInteger();
        AtomicLong batchSum = new AtomicLong();
        long start = System.nanoTime(), deadline = start + limit.toNanos();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
                HttpClient client = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .executor(pool)
                        .connectTimeout(Duration.ofSeconds(10))
                        .build()) {
            List<java.util.concurrent.Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                running.add(pool.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        int i = next.getAndIncrement();
                        if (i >= requests) return;
                        int example = i % bodies.size();
                        HttpRequest request = HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(60))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(bodies.get(example)))
                                .build();
                        long t0 = System.nanoTime();
                        try {
                            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                            latencies[i] = System.nanoTime() - t0;
                            if (r.statusCode() != 200) continue; // counted as lost: issued, not answered
                            Map<?, ?> body = (Map<?, ?>) Json.parse(r.body());
                            batchSum.addAndGet(((Number) body.get("batch_size")).longValue());
                            answered.incrementAndGet();
                            if (!matches(body.get("output"), references.get(example), tolerance)) {
                                wrong.incrementAndGet();
                            }
                        } catch (IOException | RuntimeException e) {
                            // lost: issued, not answered
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }));
            }
            for (var f : running) {
                try {
                    f.get();
                } catch (Exception e) {
                    throw new IllegalStateException("a load-test client failed", e);
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int issued = Math.min(next.get(), requests);
        long[] done =
                Arrays.stream(latencies, 0, issued).filter(l -> l > 0).sorted().toArray();
        int n = answered.get();
        return new Level(
                clients,
                n,
                seconds,
                n / seconds,
                percentile(done, 0.50) / 1e6,
                percentile(done, 0.99) / 1e6,
                n == 0 ? 0 : (double) batchSum.get() / n,
                wrong.get(),
                issued - n);
    }

    /** The serial reference of one example: the model run on it alone, flattened. */
    public static float[] reference(ServedModel model, Tensor example) {
        return model.forward()
                .apply(example.unsqueeze(0))
                .select(0, 0)
                .contiguous()
                .toFloatArray();
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) return Double.NaN;
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static void flatten(List<?> nested, List<Object> out) {
        for (Object e : nested) {
            if (e instanceof List<?> inner) flatten(inner, out);
            else out.add(e);
        }
    }

    /**
     * Whether a JSON output (nested lists of numbers, read in order) equals the reference within tolerance of its
     * scale.
     */
    static boolean matches(Object output, float[] reference, double tolerance) {
        if (!(output instanceof List<?> nested)) return false;
        List<Object> l = new ArrayList<>();
        flatten(nested, l);
        if (l.size() != reference.length) return false;
        double scale = 1;
        for (float f : reference) scale = Math.max(scale, Math.abs(f));
        for (int i = 0; i < reference.length; i++) {
            if (!(l.get(i) instanceof Number v)) return false;
            if (Math.abs(v.doubleValue() - reference[i]) > tolerance * scale) return false;
        }
        return true;
    }
}
