package org.jtorch.examples;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.serve.InferenceServer;
import org.jtorch.examples.serve.LoadTest;
import org.jtorch.examples.serve.ServedModel;

/**
 * The serving load test: ServeModel's server on the loopback interface with a TrainGpt-size GPT (or {@code --checkpoint
 * FILE}), hit by 1, 8 and 64 concurrent clients with a bounded number of requests (and a time limit), every answer
 * checked against the model run serially on that example. The server is warmed up at 8 and at 64 clients first (the JIT
 * compiles the forward at the batch sizes each forms: a level run before that measures the compiler), then the three
 * levels run {@code --rounds} times in turn, so a change in the machine's load falls on all of them alike. Prints each
 * level's throughput, p50/p99 latency and mean batch, then the median throughput of each level and the 64-client over
 * 1-client ratio of the medians. Run it with {@code -Dexample.main=org.jtorch.examples.ServeLoad}
 * ({@code -Dexample.args="--requests 1024 --context 16 --rounds 3"}).
 *
 * <p>{@code --port P} drives a server already listening on 127.0.0.1:P instead (the same protocol: the PyTorch peer
 * benchmarks/peers/torch_serve.py serves the same weights as the demo model), with the same clients and the same checks
 * against this process's model.
 */
public final class ServeLoad {
    private ServeLoad() {}

    public static void main(String[] args) throws IOException {
        int requests = 1024, context = 16, distinct = 256, rounds = 3, port = -1;
        String checkpoint = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--requests" -> requests = Integer.parseInt(args[i + 1]);
                case "--context" -> context = Integer.parseInt(args[i + 1]);
                case "--checkpoint" -> checkpoint = args[i + 1];
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        if (rounds < 1) throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
        Gpt gpt = ServeModel.loadGpt(checkpoint == null ? null : java.nio.file.Path.of(checkpoint));
        ServedModel model = ServedModel.gptNextToken(
                checkpoint == null ? "TrainGpt-size GPT (untrained)" : "TrainGpt checkpoint " + checkpoint, gpt);
        int vocab = gpt.config().vocabSize();
        Generator g = new Generator().manualSeed(7);
        List<Tensor> inputs = new ArrayList<>();
        List<float[]> references = new ArrayList<>();
        for (int i = 0; i < distinct; i++) {
            Tensor tokens = Torch.randint(0, vocab, new long[] {context}, g).to(DType.INT64);
            inputs.add(tokens);
            references.add(LoadTest.reference(model, tokens));
        }
        System.out.printf(
                "ServeLoad: %s, %d-token requests, %d distinct, load average %.2f, %d cores%n",
                port < 0 ? model.name() : "the server on 127.0.0.1:" + port + ", checked against " + model.name(),
                context,
                distinct,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        int[] clientCounts = {1, 8, 64};
        List<List<LoadTest.Level>> byLevel = new ArrayList<>();
        for (int ignored : clientCounts) byLevel.add(new ArrayList<>());
        // an external server (port given) is neither started nor closed here
        try (InferenceServer server =
                port < 0 ? new InferenceServer(model, "127.0.0.1", 0, 64, 1_000_000L, 1 << 20) : null) {
            int target = server == null ? port : server.port();
            // warm-up: the JIT compiles the forward, the HTTP paths and the batch sizes 8 and 64 clients form
            for (int clients : new int[] {8, 64}) {
                LoadTest.run(target, inputs, references, clients, 512, Duration.ofSeconds(60), 1e-4);
            }
            for (int round = 0; round < rounds; round++) {
                for (int l = 0; l < clientCounts.length; l++) {
                    LoadTest.Level level = LoadTest.run(
                            target, inputs, references, clientCounts[l], requests, Duration.ofSeconds(120), 1e-4);
                    byLevel.get(l).add(level);
                    System.out.println(level);
                }
            }
        }
        double[] medians = new double[clientCounts.length];
        for (int l = 0; l < clientCounts.length; l++) {
            double[] t = byLevel.get(l).stream()
                    .mapToDouble(LoadTest.Level::throughput)
                    .sorted()
                    .toArray();
            medians[l] = t.length % 2 == 1 ? t[t.length / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;
            System.out.printf(
                    "%3d clients: median %7.1f req/s over %d rounds%n", clientCounts[l], medians[l], t.length);
        }
        int bad = byLevel.stream()
                .flatMap(List::stream)
                .mapToInt(l -> l.wrong() + l.lost())
                .sum();
        System.out.printf(
                "64-client / 1-client throughput (medians): %.2fx; wrong or lost answers: %d; load average %.2f%n",
                medians[2] / medians[0],
                bad,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        if (bad > 0) System.exit(1);
    }
}
