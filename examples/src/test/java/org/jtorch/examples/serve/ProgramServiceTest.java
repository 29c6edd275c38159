package org.jtorch.examples.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.ExportPt2;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.export.Export;
import org.jtorch.export.ExportedProgram;
import org.jtorch.io.Npy;
import org.jtorch.nn.Linear;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Serving a {@code .pt2} archive: one JTorch wrote (TrainGpt's model with a dynamic batch, saved and read back) answers
 * as the eager model does at every batch the queue forms; one PyTorch 2.13 wrote (the export tests' GPT fixture, made
 * by {@code jtorch/src/test/python/make_pt2_fixtures.py}) answers with PyTorch's own outputs; requests of the wrong
 * shape, and an example the program refuses, get a 422 without failing the others.
 */
class ProgramServiceTest {
    private static final int VOCAB = 20, CONTEXT = 8;
    /** The export tests' fixtures: tests run in examples/. */
    private static final Path FIXTURES =
            Path.of("").toAbsolutePath().resolveSibling("jtorch").resolve("src/test/resources/export");

    @Test
    void aJTorchArchiveServesEveryBatchAsTheEagerModelAnswers(@TempDir Path dir) throws Exception {
        Torch.manualSeed(5);
        Gpt gpt = new Gpt(new GptConfig(VOCAB, 16, 2, 2, 32, "layernorm"));
        gpt.eval();
        Path archive = dir.resolve("gpt.pt2");
        Export.save(ExportPt2.program(gpt, CONTEXT, 6), archive);
        ServedModel served = ProgramService.of("gpt", Export.load(archive), 64);
        ServedModel eager = ServedModel.gptNextToken("eager", gpt);
        Generator g = new Generator().manualSeed(9);
        List<Tensor> inputs = new ArrayList<>();
        List<float[]> refs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Tensor t = Torch.randint(0, VOCAB, new long[] {CONTEXT}, g).to(DType.INT64);
            inputs.add(t);
            refs.add(LoadTest.reference(eager, t));
        }
        try (InferenceServer server = new InferenceServer(served, "127.0.0.1", 0, 16, 1_000_000L, 1 << 16);
                HttpClient client = HttpClient.newHttpClient()) {
            for (int clients : new int[] {1, 16}) {
                LoadTest.Level level =
                        LoadTest.run(server.port(), inputs, refs, clients, 80, Duration.ofSeconds(120), 1e-5);
                assertEquals(80, level.answered(), level.toString());
                assertEquals(0, level.wrong(), level.toString());
            }
            String base = "http://127.0.0.1:" + server.port();
            assertStatus(client, base, "{\"input\": [1, 2, 3]}", 422, "input dimension 0 must be 8");
            assertStatus(client, base, "{\"input\": [[1, 2], [3, 4]]}", 422, "input must have 1 dimensions");
            assertStatus(client, base, "{\"input\": [1.5, 1, 1, 1, 1, 1, 1, 1]}", 422, "integers");
            // a token id past the vocabulary: the program's embedding refuses it, alone, while others are served
            assertStatus(client, base, "{\"input\": [1, 2, 3, 4, 5, 6, 7, 99]}", 422, "the model refused this input");
            HttpResponse<String> health = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(health.body().contains("input torch.int64 [s0, 8]"), health.body());
        }
    }

    @Test
    void aPyTorchArchiveAnswersWithPyTorchsOutputs() throws IOException {
        ExportedProgram program = Export.load(FIXTURES.resolve("gpt.pt2"));
        ServedModel served = ProgramService.of("PyTorch's GPT", program, 64);
        Tensor x = Npy.load(FIXTURES.resolve("gpt_input_5.npy"));
        Tensor y = Npy.load(FIXTURES.resolve("gpt_output_5.npy"));
        List<Tensor> inputs = new ArrayList<>();
        List<float[]> refs = new ArrayList<>();
        for (int i = 0; i < x.size(0); i++) {
            inputs.add(x.select(0, i).contiguous());
            refs.add(y.select(0, i).contiguous().toFloatArray());
        }
        try (InferenceServer server = new InferenceServer(served, "127.0.0.1", 0, 8, 2_000_000L, 1 << 16)) {
            for (int clients : new int[] {1, 5}) {
                LoadTest.Level level =
                        LoadTest.run(server.port(), inputs, refs, clients, 20, Duration.ofSeconds(120), 1e-5);
                assertEquals(20, level.answered(), level.toString());
                assertEquals(0, level.wrong(), level.toString());
            }
        }
    }

    @Test
    void aProgramOfTwoInputsOrWithoutABatchDimensionIsRefusedAtLoad() {
        // a program of a [3] input: its first dimension is the batch, of 3
        ExportedProgram vector = Export.export(new Linear(3, 2), Torch.randn(3));
        ServedModel served = ProgramService.of("vector", vector, 8);
        assertTrue(served.name().contains("input torch.float32 [3]"), served.name());
        ExportedProgram scalar = Export.export(
                new org.jtorch.nn.Module() {
                    @Override
                    public Tensor forward(Tensor input) {
                        return input.mul(2);
                    }
                },
                Torch.randn());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ProgramService.of("scalar", scalar, 8));
        assertTrue(e.getMessage().contains("scalar"), e.getMessage());
        Linear lin = new Linear(3, 2);
        ExportedProgram two = Export.export(
                lin,
                in -> new Tensor[] {lin.call(in[0]).add(in[1])},
                org.jtorch.export.ExportOptions.defaults(),
                Torch.randn(2, 3),
                Torch.randn(2, 2));
        IllegalArgumentException twoInputs =
                assertThrows(IllegalArgumentException.class, () -> ProgramService.of("two", two, 8));
        assertTrue(twoInputs.getMessage().contains("has 2 inputs and 1 outputs"), twoInputs.getMessage());
    }

    private static void assertStatus(HttpClient client, String base, String body, int status, String message)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/predict"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(status, r.statusCode(), r.body());
        Object error = ((Map<?, ?>) Json.parse(r.body())).get("error");
        assertTrue(String.valueOf(error).contains(message), "'" + error + "' mentions '" + message + "'");
    }
}
