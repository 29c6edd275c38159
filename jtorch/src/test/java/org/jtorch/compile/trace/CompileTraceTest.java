package org.jtorch.compile.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a real compile writes to the structured trace (the spec's test of {@code TORCH_TRACE}). */
class CompileTraceTest {
    private static String md5(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aTwoOpCompileWritesStartThenOutputGraphWithIdsAndPayloadDigests(@TempDir Path dir) throws Exception {
        Compile.reset();
        Function<Tensor, Tensor> f =
                Torch.compile(x -> x.sin().mul(2.0), CompileOptions.defaults().backend("eager"));
        try (TraceFile _ = TraceLines.start(dir)) {
            f.apply(Torch.randn(3));
            f.apply(Torch.randn(3)); // a cache hit writes nothing
        }
        List<TraceLines.Line> lines = TraceLines.read(TraceLines.only(dir));
        List<String> events = lines.stream()
                .map(TraceLines.Line::event)
                .filter(e -> !e.equals("str") && !e.equals("chromium_event"))
                .toList();
        assertEquals(List.of("dynamo_start", "dynamo_output_graph", "dynamo_guards", "compilation_metrics"), events);
        for (TraceLines.Line l : lines) {
            if (l.event().equals("str")) continue;
            assertEquals(0L, ((Number) l.json().get("frame_id")).longValue());
            assertEquals(0L, ((Number) l.json().get("frame_compile_id")).longValue());
            assertEquals(0L, ((Number) l.json().get("attempt")).longValue());
            if (l.payload() != null) assertEquals(md5(l.payload()), l.json().get("has_payload"));
        }
        String graph = lines.stream()
                .filter(l -> l.event().equals("dynamo_output_graph"))
                .findFirst()
                .orElseThrow()
                .payload();
        assertTrue(graph.contains("torch.ops.aten.sin.default(arg0_1)"), graph);
        assertTrue(graph.contains("torch.ops.aten.mul.Tensor(sin, 2.0)"), graph);
    }

    @Test
    void aRecompileAndAGraphBreakAreTraced(@TempDir Path dir) throws Exception {
        Compile.reset();
        Function<Tensor, Tensor> f = Torch.compile(
                x -> x.sum().item() > 0 ? x : x.neg(), CompileOptions.defaults().dynamic(false));
        try (TraceFile _ = TraceLines.start(dir)) {
            f.apply(Torch.ones(2));
            f.apply(Torch.ones(3));
        }
        List<TraceLines.Line> lines = TraceLines.read(TraceLines.only(dir));
        List<String> artifacts = lines.stream()
                .filter(l -> l.event().equals("artifact"))
                .map(l -> String.valueOf(((java.util.Map<?, ?>) l.json().get("artifact")).get("name")))
                .toList();
        assertEquals(List.of("dynamo_graph_break_reason", "recompile_reasons", "dynamo_graph_break_reason"), artifacts);
        String reason = lines.stream()
                .filter(l -> l.event().equals("artifact")
                        && l.payload() != null
                        && l.payload().contains("item"))
                .findFirst()
                .orElseThrow()
                .payload();
        assertTrue(reason.contains("CompileTraceTest"), reason);
    }
}
