package org.jtorch.examples.serve;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;

/**
 * Model inference over HTTP with the JDK's {@code com.sun.net.httpserver}: each connection is served on a virtual
 * thread, each example goes through the {@link BatchingQueue}, and the server never falls over on a bad request.
 *
 * <ul>
 *   <li>{@code POST /predict} with {@code {"input": <nested list of numbers>}} (one example) answers {@code {"output":
 *       <nested list>, "batch_size": <examples in the forward pass it joined>}};
 *   <li>{@code GET /health} answers {@code {"status": "ok", "model": ..., "batches": ..., "examples": ...}};
 *   <li>malformed JSON, a missing {@code input}, a ragged or wrongly shaped array, a wrong method or media type, or a
 *       body over the limit get a 4xx with {@code {"error": "<what was wrong>"}}, and so does an example the model
 *       itself refuses with a {@code TorchException} (422; the other examples of its batch are answered).
 * </ul>
 *
 * <p>{@link #close()} shuts down gracefully: it stops accepting connections, lets the exchanges in flight finish (their
 * examples are served), then stops the batching worker.
 */
public final class InferenceServer implements AutoCloseable {
    private final HttpServer http;
    private final ExecutorService connections = Executors.newVirtualThreadPerTaskExecutor();
    private final BatchingQueue batcher;
    private final ServedModel model;
    private final int maxBodyBytes;
    private final AtomicLong rejected = new AtomicLong();

    /**
     * Starts serving on {@code host:port} (port 0: any free port).
     *
     * @param maxBatch most examples per forward pass
     * @param maxWaitNanos longest a batch that is not full waits for more examples
     * @param maxBodyBytes largest request body accepted (larger: 413)
     */
    public InferenceServer(ServedModel model, String host, int port, int maxBatch, long maxWaitNanos, int maxBodyBytes)
            throws IOException {
        this.model = model;
        this.maxBodyBytes = maxBodyBytes;
        this.batcher = new BatchingQueue(model, maxBatch, maxWaitNanos);
        this.http = HttpServer.create(new InetSocketAddress(host, port), 1024);
        http.setExecutor(connections);
        http.createContext("/predict", this::predict);
        http.createContext("/health", this::health);
        http.createContext(
                "/",
                exchange -> send(
                        exchange,
                        404,
                        Map.of(
                                "error",
                                "no such endpoint: " + exchange.getRequestURI().getPath()
                                        + " (POST /predict, GET /health)")));
        http.start();
    }

    /** The port the server listens on. */
    public int port() {
        return http.getAddress().getPort();
    }

    /** The batching queue (its counters). */
    public BatchingQueue batcher() {
        return batcher;
    }

    /** Requests refused with a 4xx so far. */
    public long rejected() {
        return rejected.get();
    }

    private void health(HttpExchange exchange) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "ok");
        body.put("model", model.name());
        body.put("batches", batcher.batches());
        body.put("examples", batcher.examples());
        send(exchange, 200, body);
    }

    private void predict(HttpExchange exchange) throws IOException {
        try {
            java.util.concurrent.CompletableFuture<BatchingQueue.Result> pending;
            batcher.announce(); // a batch being formed may wait for this request's example
            try {
                pending = batcher.submit(readExample(exchange));
            } finally {
                batcher.withdraw(); // after the example is queued, so a batch waiting for it finds it
            }
            BatchingQueue.Result result = pending.get();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("output", toJson(result.output()));
            body.put("batch_size", result.batchSize());
            send(exchange, 200, body);
        } catch (BadRequest e) {
            rejected.incrementAndGet();
            send(exchange, e.status(), Map.of("error", e.getMessage()));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TorchException refused) {
                // the batching queue ran this example alone: the model refuses this input
                rejected.incrementAndGet();
                send(exchange, 422, Map.of("error", "the model refused this input: " + refused.getMessage()));
                return;
            }
            send(
                    exchange,
                    503,
                    Map.of("error", "inference failed: " + e.getCause().getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(exchange, 503, Map.of("error", "interrupted"));
        } catch (RuntimeException e) {
            send(exchange, 500, Map.of("error", "internal error: " + e));
        }
    }

    /** The request's example, read and checked; refused with a {@link BadRequest}. */
    private Tensor readExample(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestMethod().equals("POST")) {
            exchange.getResponseHeaders().add("Allow", "POST");
            throw new BadRequest(405, "use POST for /predict, not " + exchange.getRequestMethod());
        }
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw new BadRequest(415, "send application/json, not " + type);
        }
        Object parsed = Json.parse(readBody(exchange));
        if (!(parsed instanceof Map<?, ?> request) || !request.containsKey("input")) {
            throw new BadRequest(400, "the body must be an object with an \"input\" member");
        }
        Tensor example = toTensor(request.get("input"), model.inputDtype());
        model.check().accept(example);
        return example;
    }

    /** The body as UTF-8 text, refused past {@code maxBodyBytes} (by its declared length, or while reading). */
    private String readBody(HttpExchange exchange) throws IOException {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                throw new BadRequest(400, "bad Content-Length: " + declared);
            }
            if (length > maxBodyBytes) throw tooLarge();
        }
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(maxBodyBytes + 1);
            if (body.length > maxBodyBytes) throw tooLarge();
            try {
                return StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(body))
                        .toString();
            } catch (CharacterCodingException e) {
                throw new BadRequest(400, "the body is not UTF-8");
            }
        }
    }

    private BadRequest tooLarge() {
        return new BadRequest(413, "the body is larger than " + maxBodyBytes + " bytes");
    }

    /** A nested JSON list of numbers as a tensor of {@code dtype}; ragged lists and non-numbers are refused. */
    static Tensor toTensor(Object value, DType dtype) {
        List<Long> shape = new ArrayList<>();
        Object v = value;
        while (v instanceof List<?> l) {
            shape.add((long) l.size());
            if (l.isEmpty()) break;
            v = l.getFirst();
        }
        long numel = shape.stream().reduce(1L, Math::multiplyExact);
        if (numel > 1 << 24) throw new BadRequest(413, "the input has more than 2^24 elements");
        double[] flat = new double[(int) numel];
        int[] next = {0};
        flatten(value, 0, shape, flat, next, dtype);
        long[] dims = shape.stream().mapToLong(Long::longValue).toArray();
        return Torch.tensor(flat, dtype, dims);
    }

    private static void flatten(Object v, int depth, List<Long> shape, double[] out, int[] next, DType dtype) {
        if (depth == shape.size()) {
            if (!(v instanceof Number n)) {
                throw new BadRequest(422, "input must be a rectangular array of numbers, found " + Json.write(v));
            }
            if (!dtype.isFloatingPoint() && !(n instanceof Long)) {
                throw new BadRequest(422, "input must hold integers for a " + dtype + " model, found " + n);
            }
            out[next[0]++] = n.doubleValue();
            return;
        }
        if (!(v instanceof List<?> l) || l.size() != shape.get(depth)) {
            throw new BadRequest(
                    422,
                    "input is ragged: every list at depth " + depth + " must have " + shape.get(depth) + " elements");
        }
        for (Object e : l) flatten(e, depth + 1, shape, out, next, dtype);
    }

    /** A tensor as nested JSON lists: integers for an integral dtype, else float32 values. */
    static Object toJson(Tensor t) {
        Object flat = t.dtype().isFloatingPoint()
                ? t.to(DType.FLOAT32).contiguous().toFloatArray()
                : t.to(DType.INT64).contiguous().toLongArray();
        if (t.dim() == 0) return java.lang.reflect.Array.get(flat, 0);
        return nest(flat, t.shape(), 0, new int[] {0});
    }

    private static Object nest(Object flat, long[] shape, int depth, int[] next) {
        if (depth == shape.length - 1) {
            int from = next[0], to = from + (int) shape[depth];
            next[0] = to;
            return flat instanceof float[] f
                    ? java.util.Arrays.copyOfRange(f, from, to)
                    : java.util.Arrays.copyOfRange((long[]) flat, from, to);
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < shape[depth]; i++) out.add(nest(flat, shape, depth + 1, next));
        return out;
    }

    private static void send(HttpExchange exchange, int status, Map<String, ?> body) throws IOException {
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops accepting, waits up to 10 s for the exchanges in flight, serves the queued examples, stops. */
    @Override
    public void close() {
        http.stop(10);
        batcher.close();
        connections.close();
    }
}
