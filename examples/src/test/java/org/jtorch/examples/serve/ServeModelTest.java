package org.jtorch.examples.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.ServeModel;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.junit.jupiter.api.Test;

/**
 * The inference server with a small GPT: 1, 8 and 64 concurrent clients get every answer, each equal to the model run
 * alone on that example; concurrent requests share forward passes; bad requests get a 4xx with a message and the server
 * keeps serving; an exported program serves through padding and pieces; shutdown finishes queued work.
 */
class ServeModelTest {
    private static final int VOCAB = 20, CONTEXT = 8;

    private static Gpt smallGpt() {
        Torch.manualSeed(5);
        Gpt gpt = new Gpt(new GptConfig(VOCAB, 16, 2, 2, 32, "layernorm"));
        gpt.eval();
        return gpt;
    }

    private static List<Tensor> examples(int n) {
        Generator g = new Generator().manualSeed(9);
        List<Tensor> out = new ArrayList<>();
        for (int i = 0; i < n; i++)
            out.add(Torch.randint(0, VOCAB, new long[] {CONTEXT}, g).to(DType.INT64));
        return out;
    }

    /** The serial reference: the model on each example alone, batch of one. */
    private static List<float[]> references(ServedModel model, List<Tensor> inputs) {
        return inputs.stream()
                .map(t -> model.forward()
                        .apply(t.unsqueeze(0))
                        .select(0, 0)
                        .contiguous()
                        .toFloatArray())
                .toList();
    }

    @Test
    void everyAnswerAt1And8And64ClientsEqualsTheSerialReference() throws IOException {
        ServedModel model = ServedModel.gptNextToken("small", smallGpt());
        List<Tensor> inputs = examples(48);
        List<float[]> refs = references(model, inputs);
        try (InferenceServer server = new InferenceServer(model, "127.0.0.1", 0, 64, 1_000_000L, 1 << 16)) {
            for (int clients : new int[] {1, 8, 64}) {
                LoadTest.Level level =
                        LoadTest.run(server.port(), inputs, refs, clients, 192, Duration.ofSeconds(120), 1e-5);
                assertEquals(192, level.answered(), level.toString());
                assertEquals(0, level.wrong(), level.toString());
                assertEquals(0, level.lost(), level.toString());
                if (clients == 64) assertTrue(level.meanBatch() > 1, "concurrent requests share forward passes");
            }
            assertEquals(3 * 192, server.batcher().examples());
        }
    }

    @Test
    void badRequestsGetA4xxWithAMessageAndTheServerKeepsServing() throws Exception {
        ServedModel model = ServedModel.gptNextToken("small", smallGpt());
        try (InferenceServer server = new InferenceServer(model, "127.0.0.1", 0, 64, 0, 4096);
                HttpClient client = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + server.port();
            assertStatus(client, post(base, "{\"input\": [1, 2"), 400, "malformed JSON");
            assertStatus(client, post(base, "[1, 2]"), 400, "\"input\"");
            assertStatus(client, post(base, "{\"input\": [[1, 2], [3]]}"), 422, "ragged");
            assertStatus(client, post(base, "{\"input\": [[1, 2], [3, 4]]}"), 422, "list of 1 to 16 token ids");
            assertStatus(client, post(base, "{\"input\": [1, 99]}"), 422, "[0, 20)");
            assertStatus(client, post(base, "{\"input\": [1.5]}"), 422, "integers");
            assertStatus(client, post(base, "{\"input\": [" + "1,".repeat(3000) + "1]}"), 413, "larger than 4096");
            assertStatus(client, post(base, "[".repeat(100) + "]".repeat(100)), 400, "nesting");
            assertStatus(
                    client,
                    HttpRequest.newBuilder(URI.create(base + "/predict")).GET().build(),
                    405,
                    "POST");
            assertStatus(
                    client,
                    HttpRequest.newBuilder(URI.create(base + "/nope")).GET().build(),
                    404,
                    "endpoint");
            HttpRequest text = HttpRequest.newBuilder(URI.create(base + "/predict"))
                    .header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"input\": [1]}"))
                    .build();
            assertStatus(client, text, 415, "application/json");
            HttpResponse<String> ok =
                    client.send(post(base, "{\"input\": [1, 2, 3]}"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(VOCAB, ((List<?>) ((Map<?, ?>) Json.parse(ok.body())).get("output")).size());
            HttpResponse<String> health = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode());
            assertEquals("ok", ((Map<?, ?>) Json.parse(health.body())).get("status"));
            assertEquals(10, server.rejected(), "the ten refused on /predict");
        }
    }

    @Test
    void anExportedProgramServesEveryBatchSizeThroughPaddingAndPieces() throws IOException {
        Gpt gpt = smallGpt();
        ServedModel eager = ServedModel.gptNextToken("eager", gpt);
        ServedModel program = ServeModel.program("small", gpt, 4, CONTEXT);
        List<Tensor> inputs = examples(40);
        List<float[]> refs = references(eager, inputs);
        try (InferenceServer server = new InferenceServer(program, "127.0.0.1", 0, 11, 1_000_000L, 1 << 16)) {
            for (int clients : new int[] {1, 16}) {
                LoadTest.Level level =
                        LoadTest.run(server.port(), inputs, refs, clients, 80, Duration.ofSeconds(120), 1e-5);
                assertEquals(80, level.answered(), level.toString());
                assertEquals(0, level.wrong(), level.toString());
            }
        }
    }

    @Test
    void closingAnswersWhatIsQueuedAndRefusesWhatComesAfter() throws Exception {
        ServedModel model = ServedModel.gptNextToken("small", smallGpt());
        List<Tensor> inputs = examples(32);
        List<float[]> refs = references(model, inputs);
        BatchingQueue queue = new BatchingQueue(model, 8, 0);
        List<CompletableFuture<BatchingQueue.Result>> futures = new ArrayList<>();
        for (Tensor t : inputs) futures.add(queue.submit(t));
        queue.close();
        for (int i = 0; i < futures.size(); i++) {
            float[] got = futures.get(i).get().output().toFloatArray();
            assertTrue(LoadTest.matches(toList(got), refs.get(i), 1e-5), "queued example " + i + " answered");
        }
        assertThrows(Exception.class, () -> queue.submit(inputs.getFirst()).get());
    }

    private static List<Object> toList(float[] values) {
        List<Object> out = new ArrayList<>();
        for (float v : values) out.add((double) v);
        return out;
    }

    private static HttpRequest post(String base, String body) {
        return HttpRequest.newBuilder(URI.create(base + "/predict"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static void assertStatus(HttpClient client, HttpRequest request, int status, String message)
            throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(status, r.statusCode(), r.body());
        Object error = ((Map<?, ?>) Json.parse(r.body())).get("error");
        assertTrue(String.valueOf(error).contains(message), "'" + error + "' mentions '" + message + "'");
    }
}
