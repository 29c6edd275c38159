package org.jtorch.compile.trace.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.compile.trace.Span;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.compile.trace.TraceFile;
import org.jtorch.compile.trace.TraceLines;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of a realistic trace (graphs captured by {@code makeFx} from a small MLP's forward and backward, a
 * recompile, a graph break with a restart, a failed compile) opened in headless Chromium: the DOM the browser builds
 * lists every compile and every graph, the payloads come through the HTML parser unchanged, and every link resolves.
 */
class TraceReportBrowserTest {
    private static final Pattern HREF = Pattern.compile("href=\"([^\"]*)\"");
    private static final Pattern COMPILE_ID =
            Pattern.compile("<a class=\"compile-id [^\"]*\" href=\"[^\"]*\">([^<]*)</a>");
    private static final Pattern PRE = Pattern.compile("<pre[^>]*>(.*?)</pre>", Pattern.DOTALL);

    private static final String KERNEL = """
            final class Kernel0 {
                static final java.util.List<String> INPUTS = java.util.List.of("x&amp;y");

                static void run(float[] a, float[] b, float[] out) {
                    for (int i = 0; i < out.length; i++) out[i] = a[i] > 0 && b[i] < 1 ? a[i] : 0;
                }
            }
            """;

    private static StackTraceElement frame(String cls, String method, int line) {
        return new StackTraceElement("org.example." + cls, method, cls + ".java", line);
    }

    private static final StackTraceElement[] TRAIN = {frame("Mlp", "forward", 31), frame("Train", "main", 12)};
    private static final StackTraceElement[] EVAL = {frame("Eval", "score", 8), frame("Train", "main", 20)};

    record Graphs(GraphModule forward, GraphModule joint, GraphModule backward) {}

    private static Graphs mlpGraphs() {
        Tensor x = Torch.randn(4, 3), w = Torch.randn(3, 2), b = Torch.randn(2), g = Torch.ones(4, 2);
        GraphModule forward =
                Fx.makeFx(in -> new Tensor[] {in[0].matmul(in[1]).add(in[2]).relu()}, x, w, b);
        GraphModule joint = Fx.makeFx(
                in -> {
                    Tensor out = in[0].matmul(in[1]).add(in[2]).relu();
                    Tensor gz = in[3].mul(out.gt(0.0));
                    return new Tensor[] {out, in[0].t().matmul(gz), gz.sum(0)};
                },
                x,
                w,
                b,
                g);
        GraphModule backward = Fx.makeFx(
                in -> {
                    Tensor gz = in[2].mul(in[1].gt(0.0));
                    return new Tensor[] {in[0].t().matmul(gz), gz.sum(0)};
                },
                x,
                forward.call(x, w, b)[0],
                g);
        return new Graphs(forward, joint, backward);
    }

    private static void writeTrace(Path dir, Graphs graphs) {
        CompileId first = CompileId.of(0, 0), recompile = CompileId.of(0, 1);
        CompileId broken = CompileId.of(1, 0), failed = CompileId.of(2, 0);
        try (TraceFile _ = TraceLines.start(dir)) {
            try (Span _ = StructuredTrace.span(first, "entire_frame_compile")) {
                StructuredTrace.dynamoStart(first, TRAIN);
                StructuredTrace.dynamoOutputGraph(first, graphs.forward());
                StructuredTrace.aotJointGraph(first, graphs.joint());
                StructuredTrace.aotForwardGraph(first, graphs.forward());
                StructuredTrace.aotBackwardGraph(first, graphs.backward());
                StructuredTrace.inductorPostGradGraph(first, graphs.forward());
                StructuredTrace.inductorOutputCode(first, "Kernel0.java", KERNEL);
                StructuredTrace.dynamoGuards(first, List.of("x.shape == (4, 3)", "x.dtype == torch.float32"));
            }
            StructuredTrace.compilationMetrics(first, Map.of("co_name", "forward", "graph_op_count", 3));
            StructuredTrace.recompileReasons(recompile, List.of("x.shape[0] == 4 (x.shape[0] is 8)"));
            StructuredTrace.dynamoStart(recompile, TRAIN);
            StructuredTrace.dynamoOutputGraph(recompile, graphs.forward());
            StructuredTrace.compilationMetrics(recompile, Map.of("co_name", "forward", "graph_op_count", 3));
            StructuredTrace.dynamoStart(broken, EVAL);
            StructuredTrace.graphBreak(broken, "aten.item.default: Tensor.item() reads a value into Java", EVAL);
            StructuredTrace.compilationMetrics(
                    broken, Map.of("co_name", "score", "restart_reasons", List.of("graph break at aten.item.default")));
            StructuredTrace.dynamoStart(broken.nextAttempt(), EVAL);
            StructuredTrace.dynamoOutputGraph(broken.nextAttempt(), graphs.forward());
            StructuredTrace.compilationMetrics(broken.nextAttempt(), Map.of("co_name", "score", "graph_op_count", 3));
            StructuredTrace.dynamoStart(failed, EVAL);
            StructuredTrace.compilationMetrics(
                    failed,
                    Map.of(
                            "co_name", "score",
                            "fail_type", "Unsupported",
                            "fail_reason", "aten.nonzero.default has a data-dependent output shape",
                            "fail_user_frame_filename", "org/example/Eval.java",
                            "fail_user_frame_lineno", 8));
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theReportOpensInChromiumAndListsEveryCompileAndGraph(@TempDir Path dir) throws Exception {
        Graphs graphs = mlpGraphs();
        Path traces = dir.resolve("traces");
        writeTrace(traces, graphs);
        Path index = TraceReport.write(traces, dir.resolve("report"));
        HeadlessChromium chromium = HeadlessChromium.require(dir);

        String dom = chromium.dumpDom(index);
        assertEquals(List.of("[0/0]", "[0/1]", "[1/0]", "[1/0_1]", "[2/0]"), all(COMPILE_ID, dom));
        assertTrue(dom.contains("5 compiles, 1 graph break, 1 recompile, <span class=\"\">0 problems</span>"), dom);
        assertTrue(dom.contains("<code>org/example/Train.java:12 in Train.main</code>"), "the stack trie");
        assertTrue(dom.contains("aten.item.default: Tensor.item() reads a value into Java"), "the graph breaks");
        assertTrue(dom.contains("x.shape[0] == 4 (x.shape[0] is 8)"), "the recompiles");
        assertTrue(dom.contains("<tr class=\"failure\"><td><a href=\"compile_2_0_0/index.html\">[2/0]</a>"), dom);
        assertLinksResolve(index, dom);

        Path compilePage = index.resolveSibling("compile_0_0_0/index.html");
        String page = chromium.dumpDom(compilePage);
        List<String> pres = new ArrayList<>();
        for (String pre : all(PRE, page)) pres.add(unescape(pre));
        for (GraphModule gm : List.of(graphs.forward(), graphs.joint(), graphs.backward())) {
            assertTrue(pres.contains(gm.printReadable()), "the page shows\n" + gm.printReadable());
        }
        assertTrue(pres.contains(KERNEL), "the output code comes through the HTML parser unchanged");
        for (String heading : List.of(
                "Dynamo output graph",
                "AOT joint graph",
                "AOT forward graph",
                "AOT backward graph",
                "Post-grad graph",
                "Output code (Kernel0.java)",
                "Guards")) {
            assertTrue(page.contains("<h2>" + heading + "</h2>"), heading);
        }
        assertLinksResolve(compilePage, page);
        assertFalse(page.contains("class=\"problem\""), "no problem reading the trace");
    }

    /** Every link of the page names an existing file (the report links nothing outside itself). */
    private static void assertLinksResolve(Path page, String dom) {
        List<String> links = all(HREF, dom);
        assertFalse(links.isEmpty());
        for (String href : links) {
            Path target = Path.of(page.toUri().resolve(URI.create(unescape(href))));
            assertTrue(Files.isRegularFile(target), href + " from " + page + " resolves to " + target);
        }
    }

    private static List<String> all(Pattern p, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    /** What a browser's serializer escapes in text and attributes. */
    private static String unescape(String html) {
        return html.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&");
    }
}
