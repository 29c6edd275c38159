package org.jtorch.compile.trace.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.compile.trace.Span;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.compile.trace.TraceFile;
import org.jtorch.compile.trace.TraceLines;
import org.jtorch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReportTest {
    private static final CompileId ID = CompileId.of(0, 0);
    private static final StackTraceElement[] STACK = {
        new StackTraceElement("org.example.Model", "forward", "Model.java", 7)
    };

    /** A trace with one compile written by the library, then {@code tail} appended as raw text. */
    private static Path trace(Path dir, String tail) throws Exception {
        try (TraceFile _ = TraceLines.start(dir)) {
            StructuredTrace.dynamoStart(ID, STACK);
            StructuredTrace.artifact(ID, "note", "string", "a < b && c > d <script>alert(1)</script>");
            StructuredTrace.compilationMetrics(ID, Map.of("co_name", "forward", "graph_op_count", 1));
        }
        Path file = TraceLines.only(dir);
        Files.writeString(file, tail, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        return file;
    }

    @Test
    void badRecordsAreReportedByLineAndTheRestIsStillRead(@TempDir Path dir) throws Exception {
        String prefix = "V1201 10:00:00.000001 1 org/example/X.java:3] ";
        String tail = "not a record\n"
                + prefix + "{\"dynamo_start\": {\"stack\": [}\n"
                + prefix + "{\"artifact\": {\"name\": \"bad\", \"encoding\": \"string\"}, \"frame_id\": 1, "
                + "\"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"0123456789abcdef0123456789abcdef\"}\n"
                + "\tpayload\n"
                + prefix + "{\"frame_id\": 2, \"frame_compile_id\": 0}\n"
                + prefix + "{\"artifact\": {\"name\": \"cut\", \"encoding\": \"string\"}, \"frame_id\": 3, \"frame_";
        Path file = trace(dir, tail);
        int firstTail = Files.readAllLines(file).indexOf("not a record") + 1;
        Path index = TraceReport.write(dir, dir.resolve("out"));

        String html = Files.readString(index);
        for (String expected : List.of(
                "line " + firstTail + ": no glog prefix: not a record",
                "line " + (firstTail + 1) + ": bad JSON: invalid JSON at character",
                "line " + (firstTail + 2) + ": the payload&#39;s MD5 differs from has_payload",
                "line " + (firstTail + 4) + ": expected one event key, found []",
                "line " + (firstTail + 5) + ": the file ends in the middle of a line")) {
            assertTrue(html.contains(expected), expected + " in\n" + html);
        }
        // The good compile and the record with a bad payload are both there, the latter marked.
        assertTrue(Files.exists(dir.resolve("out/compile_0_0_0/index.html")));
        String bad = Files.readString(dir.resolve("out/compile_1_0_0/index.html"));
        assertTrue(bad.contains("the payload does not match its MD5"));
    }

    @Test
    void payloadsAreEscapedAndWrittenRaw(@TempDir Path dir) throws Exception {
        Path file = trace(dir, "");
        TraceReport.write(dir, null);
        Path out = dir.resolve("tl_out");
        String page = Files.readString(out.resolve("compile_0_0_0/index.html"));
        assertTrue(page.contains("a &lt; b &amp;&amp; c &gt; d &lt;script&gt;alert(1)&lt;/script&gt;"));
        assertFalse(page.contains("<script>"));
        assertEquals(
                "a < b && c > d <script>alert(1)</script>", Files.readString(out.resolve("compile_0_0_0/note_0.txt")));
        assertTrue(page.contains("<td>forward</td>"), "the metrics table");
        assertEquals(Files.readString(file), Files.readString(out.resolve("raw.log")));
    }

    @Test
    void spansBecomeAChromeTraceEventArray(@TempDir Path dir) throws Exception {
        try (TraceFile _ = TraceLines.start(dir)) {
            try (Span _ = StructuredTrace.span(ID, "entire_frame_compile")) {
                try (Span _ = StructuredTrace.span(ID, "backend_compile")) {
                    StructuredTrace.artifact(ID, "note", "string", "x");
                }
            }
        }
        TraceReport.write(dir, dir.resolve("out"));
        List<?> events = (List<?>) Json.parse(Files.readString(dir.resolve("out/chromium_events.json")));
        assertEquals(
                List.of("B entire_frame_compile", "B backend_compile", "E backend_compile", "E entire_frame_compile"),
                events.stream()
                        .map(e -> ((Map<?, ?>) e).get("ph") + " " + ((Map<?, ?>) e).get("name"))
                        .toList());
    }

    @Test
    void severalRanksGetALandingPage(@TempDir Path dir) throws Exception {
        Path traces = dir.resolve("traces");
        for (int rank = 0; rank < 2; rank++) {
            Path own = dir.resolve("r" + rank);
            trace(own, "");
            Path file = TraceLines.only(own);
            Files.createDirectories(traces);
            Files.move(file, traces.resolve(file.getFileName().toString().replace("rank_0_", "rank_" + rank + "_")));
        }
        Path index = TraceReport.write(traces, null);
        assertEquals(traces.resolve("tl_out/index.html"), index);
        String html = Files.readString(index);
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(html.contains("<a href=\"rank_" + rank + "/index.html\">rank_" + rank + "</a>"), html);
            assertTrue(Files.exists(index.resolveSibling("rank_" + rank + "/compile_0_0_0/index.html")));
        }
    }

    @Test
    void theCommandLineSaysWhatIsWrong(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, TraceReport.run(new String[] {}, o, e));
        assertEquals(2, TraceReport.run(new String[] {"-o"}, o, e));
        assertEquals(2, TraceReport.run(new String[] {"--bogus", dir.toString()}, o, e));
        assertEquals(1, TraceReport.run(new String[] {dir.toString()}, o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("holds no trace file"));
        trace(dir, "");
        assertEquals(0, TraceReport.run(new String[] {"-o", dir.resolve("r").toString(), dir.toString()}, o, e));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("wrote " + dir.resolve("r/index.html")));
    }
}
