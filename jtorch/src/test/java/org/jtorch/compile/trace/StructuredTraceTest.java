package org.jtorch.compile.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StructuredTraceTest {
    private static final CompileId FIRST = CompileId.of(0, 0);
    private static final CompileId RECOMPILE = CompileId.of(0, 1);

    private static GraphModule graph() {
        return Fx.makeFx(in -> new Tensor[] {in[0].mul(in[1]).add(in[0]).relu()}, Torch.ones(2, 3), Torch.ones(2, 3));
    }

    private static StackTraceElement[] userStack() {
        return new StackTraceElement[] {
            new StackTraceElement("org.example.Model", "forward", "Model.java", 42),
            new StackTraceElement("org.example.Train", "step", "Train.java", 17),
            new StackTraceElement("org.example.Train", "main", "Train.java", 5)
        };
    }

    @Test
    void aCompilesRecordsParseAndComeInOrderWithTheirIds(@TempDir Path dir) throws Exception {
        GraphModule gm = graph();
        try (TraceFile trace = StructuredTrace.start(dir, null)) {
            assertTrue(StructuredTrace.enabled());
            StructuredTrace.dynamoStart(FIRST, userStack());
            StructuredTrace.dynamoOutputGraph(FIRST, gm);
            StructuredTrace.aotJointGraph(FIRST, gm);
            StructuredTrace.aotForwardGraph(FIRST, gm);
            StructuredTrace.aotBackwardGraph(FIRST, gm);
            StructuredTrace.inductorPostGradGraph(FIRST, gm);
            StructuredTrace.inductorOutputCode(FIRST, "Kernel0.java", "final class Kernel0 {}\n");
            StructuredTrace.dynamoGuards(FIRST, List.of("x.shape == (2, 3)", "x.dtype == \"torch.float32\""));
            StructuredTrace.compilationMetrics(FIRST, Map.of("co_name", "forward", "graph_op_count", 3));
            StructuredTrace.recompileReasons(RECOMPILE, List.of("x.shape[0] == 2"));
            StructuredTrace.dynamoStart(RECOMPILE, userStack());
            assertEquals(dir, trace.path().orElseThrow().getParent());
        }
        assertFalse(StructuredTrace.enabled(), "closing the trace file turns tracing off");

        List<TraceLines.Line> records = TraceLines.read(TraceLines.only(dir));
        List<String> events = new ArrayList<>();
        for (TraceLines.Line r : records) {
            // The prefix names the code that emitted the record: here, this test.
            assertEquals("org/jtorch/compile/trace/StructuredTraceTest.java", r.pathname());
            if (r.event().equals("str")) continue;
            events.add(r.event());
            boolean recompile = events.size() > 9;
            assertEquals(0L, r.json().get("frame_id"));
            assertEquals(recompile ? 1L : 0L, r.json().get("frame_compile_id"));
            assertEquals(0L, r.json().get("attempt"));
            assertFalse(r.json().containsKey("rank"), "no rank outside a distributed job");
        }
        assertEquals(
                List.of(
                        "dynamo_start",
                        "dynamo_output_graph",
                        "aot_joint_graph",
                        "aot_forward_graph",
                        "aot_backward_graph",
                        "inductor_post_grad_graph",
                        "inductor_output_code",
                        "dynamo_guards",
                        "compilation_metrics",
                        "artifact",
                        "dynamo_start"),
                events);

        TraceLines.Line output = find(records, "dynamo_output_graph");
        assertEquals(gm.printReadable(), output.payload());
        Map<String, Object> sizes = new LinkedHashMap<>();
        for (Node n : gm.graph().nodes()) if (n.meta() != null) sizes.put(n.name(), List.of(2L, 3L));
        assertEquals(Map.of("sizes", sizes), output.json().get("dynamo_output_graph"));
        assertEquals(
                Map.of("filename", "Kernel0.java"),
                find(records, "inductor_output_code").json().get("inductor_output_code"));
        assertEquals(
                "[\n{\"code\": \"x.shape == (2, 3)\"},\n{\"code\": \"x.dtype == \\\"torch.float32\\\"\"}\n]",
                find(records, "dynamo_guards").payload());
        assertEquals(
                Map.of("co_name", "forward", "graph_op_count", 3L),
                find(records, "compilation_metrics").json().get("compilation_metrics"));
        TraceLines.Line reasons = find(records, "artifact");
        assertEquals(
                Map.of("name", "recompile_reasons", "encoding", "json"),
                reasons.json().get("artifact"));
        assertEquals(List.of("x.shape[0] == 2"), org.jtorch.testing.Json.parse(reasons.payload()));
    }

    @Test
    void hasPayloadIsTheMd5OfThePayload(@TempDir Path dir) throws Exception {
        try (TraceFile _ = StructuredTrace.start(dir, null)) {
            StructuredTrace.artifact(FIRST, "rfc1321", "string", "abc");
            StructuredTrace.artifact(FIRST, "empty", "string", "");
            StructuredTrace.artifact(FIRST, "lines", "string", "first\n\tindented\nlast\n");
            StructuredTrace.artifact(FIRST, "crlf", "string", "a\r\nb\rc");
            StructuredTrace.dynamoOutputGraph(FIRST, graph());
        }
        List<TraceLines.Line> records = TraceLines.read(TraceLines.only(dir));
        // RFC 1321's test suite: MD5("abc") and MD5("").
        assertEquals("900150983cd24fb0d6963f7d28e17f72", records.get(0).json().get("has_payload"));
        assertEquals("abc", records.get(0).payload());
        assertEquals("d41d8cd98f00b204e9800998ecf8427e", records.get(1).json().get("has_payload"));
        assertEquals("first\n\tindented\nlast\n", records.get(2).payload());
        assertEquals("a\nb\nc", records.get(3).payload(), "line ends become \\n, which every reader keeps");
        for (TraceLines.Line r : records)
            assertEquals(md5(r.payload()), r.json().get("has_payload"));
    }

    @Test
    void fileNamesAreInternedOnceAndBeforeTheirFirstUse(@TempDir Path dir) throws Exception {
        StackTraceElement[] other = {
            new StackTraceElement("org.example.Eval", "run", "Eval.java", 9),
            new StackTraceElement("org.example.Train", "main", "Train.java", 6)
        };
        StackTraceElement[] own = Thread.currentThread().getStackTrace();
        try (TraceFile _ = StructuredTrace.start(dir, null)) {
            StructuredTrace.dynamoStart(FIRST, userStack());
            StructuredTrace.dynamoStart(CompileId.of(1, 0), other);
            StructuredTrace.dynamoStart(CompileId.of(2, 0), own);
        }
        Map<Long, String> table = new HashMap<>();
        List<List<String>> stacks = new ArrayList<>();
        for (TraceLines.Line r : TraceLines.read(TraceLines.only(dir))) {
            if (r.event().equals("str")) {
                List<?> entry = (List<?>) r.json().get("str");
                assertEquals(1, r.json().size(), "a str record has no context keys");
                assertEquals((long) table.size(), entry.get(1), "ids count up from 0");
                assertFalse(table.containsValue((String) entry.get(0)), "each string is interned once");
                table.put((Long) entry.get(1), (String) entry.get(0));
                continue;
            }
            List<String> frames = new ArrayList<>();
            for (Object f : (List<?>) ((Map<?, ?>) r.json().get("dynamo_start")).get("stack")) {
                Map<?, ?> frame = (Map<?, ?>) f;
                assertEquals(List.of("line", "name", "filename"), List.copyOf(frame.keySet()));
                String file = table.get((Long) frame.get("filename"));
                assertNotNull(file, "the str record of " + frame + " comes first");
                frames.add(file + ":" + frame.get("line") + " " + frame.get("name"));
            }
            stacks.add(frames);
        }
        // A stack from getStackTrace: its own frame is dropped, so the innermost is this test.
        assertEquals(
                "org/jtorch/compile/trace/StructuredTraceTest.java:" + own[1].getLineNumber()
                        + " StructuredTraceTest.fileNamesAreInternedOnceAndBeforeTheirFirstUse",
                stacks.removeLast().getLast());
        assertEquals(
                List.of(
                        List.of(
                                "org/example/Train.java:5 Train.main",
                                "org/example/Train.java:17 Train.step",
                                "org/example/Model.java:42 Model.forward"),
                        List.of("org/example/Train.java:6 Train.main", "org/example/Eval.java:9 Eval.run")),
                stacks,
                "outermost frame first, as Python tracebacks");
    }

    @Test
    void offWritesNothing(@TempDir Path dir) throws Exception {
        TraceFile trace = StructuredTrace.start(dir, null);
        trace.close();
        assertFalse(StructuredTrace.enabled());
        StructuredTrace.dynamoStart(FIRST, userStack());
        StructuredTrace.dynamoOutputGraph(FIRST, graph());
        StructuredTrace.artifact(FIRST, "a", "string", "x");
        StructuredTrace.compilationMetrics(FIRST, Map.of());
        try (Span _ = StructuredTrace.span(FIRST, "compile")) {
            StructuredTrace.graphBreak(FIRST, "item", userStack());
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
        assertTrue(trace.path().isEmpty());
    }

    @Test
    void recordsOfConcurrentCompilesStayWhole(@TempDir Path dir) throws Exception {
        int threads = 4, each = 50;
        try (TraceFile _ = StructuredTrace.start(dir, null);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int frame = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        StructuredTrace.artifact(
                                CompileId.of(frame, i), "text", "string", ("line of " + frame + "\n").repeat(40 + i));
                    }
                }));
            }
            for (Future<?> f : done) f.get();
        }
        List<TraceLines.Line> records = TraceLines.read(TraceLines.only(dir));
        assertEquals(threads * each, records.size());
        for (TraceLines.Line r : records) {
            long frame = (Long) r.json().get("frame_id"), i = (Long) r.json().get("frame_compile_id");
            assertEquals(("line of " + frame + "\n").repeat(40 + (int) i), r.payload());
            assertEquals(md5(r.payload()), r.json().get("has_payload"));
        }
    }

    @Test
    void aRankNamesTheFileAndEveryRecord(@TempDir Path dir) throws Exception {
        try (TraceFile trace = StructuredTrace.start(dir, 3)) {
            StructuredTrace.dynamoStart(FIRST, userStack());
            assertEquals(3, trace.rank().orElseThrow());
        }
        Path file = TraceLines.only(dir);
        assertTrue(
                file.getFileName().toString().matches("dedicated_log_torch_trace_rank_3_.+\\.log"),
                file.getFileName().toString());
        for (TraceLines.Line r : TraceLines.read(file)) {
            if (!r.event().equals("str")) assertEquals(3L, r.json().get("rank"));
        }
        Path single = dir.resolve("single");
        try (TraceFile _ = StructuredTrace.start(single, null)) {
            StructuredTrace.dynamoStart(FIRST, userStack());
        }
        assertTrue(TraceLines.only(single).getFileName().toString().startsWith("dedicated_log_torch_trace_rank_0_"));
    }

    @Test
    void aGraphBreakIsPyTorchsArtifactWithTheReasonAndAPythonStyleTraceback(@TempDir Path dir) throws Exception {
        try (TraceFile _ = StructuredTrace.start(dir, null)) {
            StructuredTrace.graphBreak(FIRST, "Tensor.item() reads a value into Java", userStack());
        }
        TraceLines.Line r = TraceLines.read(TraceLines.only(dir)).getFirst();
        assertEquals(
                Map.of("name", "dynamo_graph_break_reason", "encoding", "string"),
                r.json().get("artifact"));
        assertEquals("""
                Graph break in user code at org/example/Model.java:42
                Reason: Tensor.item() reads a value into Java
                User code traceback:
                  File "org/example/Train.java", line 5, in Train.main
                  File "org/example/Train.java", line 17, in Train.step
                  File "org/example/Model.java", line 42, in Model.forward
                """, r.payload());
    }

    @Test
    void aSpanIsABeginAndAnEndChromiumEvent(@TempDir Path dir) throws Exception {
        try (TraceFile _ = StructuredTrace.start(dir, null)) {
            try (Span _ = StructuredTrace.span(FIRST, "entire_frame_compile")) {
                StructuredTrace.dynamoOutputGraph(FIRST, graph());
            }
        }
        List<TraceLines.Line> records = TraceLines.read(TraceLines.only(dir));
        assertEquals(
                List.of("chromium_event", "dynamo_output_graph", "chromium_event"),
                records.stream().map(TraceLines.Line::event).toList());
        Map<?, ?> begin =
                (Map<?, ?>) org.jtorch.testing.Json.parse(records.get(0).payload());
        Map<?, ?> end = (Map<?, ?>) org.jtorch.testing.Json.parse(records.get(2).payload());
        assertEquals("B", begin.get("ph"));
        assertEquals("E", end.get("ph"));
        assertEquals("entire_frame_compile", begin.get("name"));
        assertEquals(Map.of("compile_id", "[0/0]"), begin.get("args"));
        assertEquals("dynamo_timed", begin.get("cat"));
        assertEquals(begin.get("tid"), end.get("tid"));
        assertTrue((Long) end.get("ts") >= (Long) begin.get("ts"));
        long nowMicros = System.currentTimeMillis() * 1000;
        assertTrue(Math.abs(nowMicros - (Long) begin.get("ts")) < 60_000_000L, "microseconds since the epoch");
    }

    @Test
    void compileIdsPrintAsPyTorchWritesThem() {
        assertEquals("[0/0]", CompileId.of(0, 0).toString());
        assertEquals("[3/1_2]", new CompileId(3, 1, 2).toString());
        assertEquals("[3/1_1]", CompileId.of(3, 1).nextAttempt().toString());
        assertThrows(IllegalArgumentException.class, () -> new CompileId(-1, 0, 0));
    }

    private static TraceLines.Line find(List<TraceLines.Line> records, String event) {
        return records.stream().filter(r -> r.event().equals(event)).findFirst().orElseThrow();
    }

    private static String md5(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
