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
 * checked against the model run serially on that example. Prints throughput, p50/p99 latency and the mean batch, then
 * the 64-client over 1-client throughput ratio. Run it with {@code -Dexample.main=org.jtorch.examples.ServeLoad}
 * ({@code -Dexample.args="--requests 1024 --context 16"}).
 */
public final class ServeLoad {
    private ServeLoad() {}

    public static void main(String[] args) throws IOException {
        int requests = 1024, context = 16, distinct = 256;
        String checkpoint = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--requests" -> requests = Integer.parseInt(args[i + 1]);
                case "--context" -> context = Integer.parseInt(args[i + 1]);
                case "--checkpoint" -> checkpoint = args[i + 1];
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
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
            references.add(model.forward()
                    .apply(tokens.unsqueeze(0))
                    .select(0, 0)
                    .contiguous()
                    .toFloatArray());
        }
        System.out.printf(
                "ServeLoad: %s, %d-token requests, %d distinct, load average %.2f, %d cores%n",
                model.name(),
                context,
                distinct,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        List<LoadTest.Level> levels = new ArrayList<>();
        try (InferenceServer server = new InferenceServer(model, "127.0.0.1", 0, 64, 1_000_000L, 1 << 20)) {
            // warm-up: JIT and allocation paths of both batch sizes
            LoadTest.run(server.port(), inputs, references, 8, 128, Duration.ofSeconds(60), 1e-4);
            for (int clients : new int[] {1, 8, 64}) {
                LoadTest.Level level = LoadTest.run(
                        server.port(), inputs, references, clients, requests, Duration.ofSeconds(120), 1e-4);
                levels.add(level);
                System.out.println(level);
            }
        }
        double ratio = levels.get(2).throughput() / levels.get(0).throughput();
        int bad = levels.stream().mapToInt(l -> l.wrong() + l.lost()).sum();
        System.out.printf(
                "64-client / 1-client throughput: %.2fx; wrong or lost answers: %d; load average %.2f%n",
                ratio, bad, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        if (bad > 0) System.exit(1);
    }
}
