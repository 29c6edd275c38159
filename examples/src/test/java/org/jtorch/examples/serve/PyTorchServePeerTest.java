package org.jtorch.examples.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.ServeModel;
import org.junit.jupiter.api.Test;

/**
 * The PyTorch serving peer of docs/benchmarks.md ({@code benchmarks/peers/torch_serve.py}, PyTorch 2.13 from
 * {@code JTORCH_PYTHON}) serves the same model as ServeModel's demo model: driven by the load test's clients on the
 * loopback interface, every one of its answers equals JTorch's model run alone on that example (the reference, computed
 * here), at 8 concurrent clients so that the peer batches them. This is what makes the side-by-side throughput figures
 * compare like for like; it also checks that PyTorch draws TrainGpt's initialisation bit for bit.
 */
class PyTorchServePeerTest {
    private static final Path PEER = (Path.of("")
                            .toAbsolutePath()
                            .getFileName()
                            .toString()
                            .equals("examples")
                    ? Path.of("").toAbsolutePath().getParent()
                    : Path.of("").toAbsolutePath())
            .resolve("benchmarks/peers/torch_serve.py");
    private static final Pattern LISTENING = Pattern.compile("^listening on (\\d+)");

    @Test
    void thePeerAnswersAsJTorchsModel() throws Exception {
        String python = System.getenv("JTORCH_PYTHON");
        if (python == null || !Files.isExecutable(Path.of(python))) {
            if ("1".equals(System.getenv("JTORCH_REQUIRE_TORCH"))) fail("JTORCH_REQUIRE_TORCH=1 without JTORCH_PYTHON");
            assumeTrue(false, "JTORCH_PYTHON is not set");
        }
        ServedModel model = ServedModel.gptNextToken("demo", ServeModel.demoModel());
        Generator g = new Generator().manualSeed(3);
        List<Tensor> inputs = new ArrayList<>();
        List<float[]> references = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            Tensor tokens =
                    Torch.randint(0, 72, new long[] {i % 3 == 0 ? 5 : 16}, g).to(DType.INT64);
            inputs.add(tokens);
            references.add(LoadTest.reference(model, tokens));
        }
        Process peer = new ProcessBuilder(python, PEER.toString(), "--port", "0")
                .redirectErrorStream(true)
                .start();
        try {
            int port = awaitPort(peer);
            LoadTest.Level level = LoadTest.run(port, inputs, references, 8, 96, Duration.ofSeconds(90), 1e-4);
            assertEquals(96, level.answered(), level.toString());
            assertEquals(0, level.wrong(), level.toString());
            assertEquals(0, level.lost(), level.toString());
        } finally {
            peer.destroy();
            if (!peer.waitFor(20, TimeUnit.SECONDS)) peer.destroyForcibly();
        }
    }

    /** The port the peer prints once it accepts connections (PyTorch's import takes seconds). */
    private static int awaitPort(Process peer) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            StringBuilder seen = new StringBuilder();
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) return Integer.parseInt(m.group(1));
                    seen.append(line).append('\n');
                }
            } catch (java.io.IOException e) {
                seen.append(e);
            }
            throw new IllegalStateException("the peer exited without listening:\n" + seen);
        });
        Integer p = port.get(120, TimeUnit.SECONDS);
        assertNotNull(p);
        return p;
    }
}
