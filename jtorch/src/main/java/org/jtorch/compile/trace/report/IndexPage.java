package org.jtorch.compile.trace.report;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The landing page of one trace file, tlparse's {@code index.html}: the stack trie of compiled call sites, the table of
 * compiles with their artifacts, the graph-break, recompile and failure summaries, the timeline file and the problems
 * met while reading.
 */
final class IndexPage {
    private IndexPage() {}

    static String html(TraceModel model, String source) {
        int breaks = 0, recompiles = 0;
        for (CompileEntry c : model.compiles.values()) {
            breaks += c.graphBreaks.size();
            if (!c.recompileReasons.isEmpty()) recompiles++;
        }
        StringBuilder b = new StringBuilder("<h1>JTorch structured trace</h1>\n");
        b.append("<p class=\"summary\">Trace <code>")
                .append(Html.escape(source))
                .append("</code>: ")
                .append(count(model.records, "record"))
                .append(", ")
                .append(count(model.compiles.size(), "compile"))
                .append(", ")
                .append(count(breaks, "graph break"))
                .append(", ")
                .append(count(recompiles, "recompile"))
                .append(", <span class=\"")
                .append(model.problems.isEmpty() ? "" : "problem")
                .append("\">")
                .append(count(model.problems.size(), "problem"))
                .append("</span>.</p>\n");
        b.append("<h2 id=\"stack-trie\">Stack trie</h2>\n");
        b.append(model.trie.isEmpty() ? "<p>No compile recorded its call site.</p>\n" : model.trie.html() + "\n");
        compiles(b, model);
        graphBreaks(b, model);
        recompiles(b, model);
        failures(b, model);
        b.append("<h2 id=\"timeline\">Timeline</h2>\n<p>")
                .append(Html.link(TraceReport.CHROMIUM_EVENTS, TraceReport.CHROMIUM_EVENTS))
                .append(": ")
                .append(model.chromiumEvents.size())
                .append(" events in the Chrome trace event format; open it in Perfetto (ui.perfetto.dev) or"
                        + " chrome://tracing.</p>\n");
        b.append("<h2 id=\"raw\">Raw trace</h2>\n<p>")
                .append(Html.link(TraceReport.RAW_LOG, TraceReport.RAW_LOG))
                .append("</p>\n");
        problems(b, model);
        return Html.page("JTorch trace: " + source, b.toString());
    }

    private static void compiles(StringBuilder b, TraceModel model) {
        b.append(
                "<h2 id=\"compiles\">Compiles</h2>\n<table id=\"compile-table\">\n<tr><th>Compile</th><th>Function</th>"
                        + "<th>Status</th><th>Graph ops</th><th>Compile time (s)</th><th>Artifacts</th></tr>\n");
        for (CompileEntry c : model.compiles.values()) {
            String dir = c.directory() + "/";
            b.append("<tr class=\"")
                    .append(c.status() == CompileEntry.Status.FAILED ? "failure" : "")
                    .append("\"><td><a class=\"compile-id ")
                    .append(c.status().css)
                    .append("\" href=\"")
                    .append(Html.escape(dir + "index.html"))
                    .append("\">")
                    .append(Html.escape(c.label()))
                    .append("</a></td><td><code>")
                    .append(Html.escape(c.frameName()))
                    .append("</code></td><td class=\"")
                    .append(c.status().css)
                    .append("\">")
                    .append(c.status().name().toLowerCase(Locale.ROOT))
                    .append("</td><td>")
                    .append(metric(c.metrics, "graph_op_count"))
                    .append("</td><td>")
                    .append(seconds(c.metrics, "entire_frame_compile_time_s"))
                    .append("</td><td>");
            for (Artifact a : c.artifacts)
                b.append(Html.link(dir + a.fileName(), a.fileName())).append("<br>");
            b.append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void graphBreaks(StringBuilder b, TraceModel model) {
        b.append("<h2 id=\"graph-breaks\">Graph breaks</h2>\n");
        StringBuilder rows = new StringBuilder();
        for (CompileEntry c : model.compiles.values()) {
            for (String gb : c.graphBreaks) {
                rows.append("<tr><td>")
                        .append(compileLink(c))
                        .append("</td><td><pre>")
                        .append(Html.escape(firstLines(gb, 2)))
                        .append("</pre></td></tr>\n");
            }
        }
        table(b, rows, "<tr><th>Compile</th><th>Where and why</th></tr>", "No graph breaks.");
    }

    private static void recompiles(StringBuilder b, TraceModel model) {
        b.append("<h2 id=\"recompiles\">Recompiles</h2>\n");
        StringBuilder rows = new StringBuilder();
        for (CompileEntry c : model.compiles.values()) {
            if (c.recompileReasons.isEmpty()) continue;
            rows.append("<tr><td>").append(compileLink(c)).append("</td><td><ul>");
            for (String r : c.recompileReasons)
                rows.append("<li><code>").append(Html.escape(r)).append("</code></li>");
            rows.append("</ul></td></tr>\n");
        }
        table(b, rows, "<tr><th>Compile</th><th>Failed guards</th></tr>", "No recompiles.");
    }

    private static void failures(StringBuilder b, TraceModel model) {
        b.append("<h2 id=\"failures\">Failures and restarts</h2>\n");
        StringBuilder rows = new StringBuilder();
        for (CompileEntry c : model.compiles.values()) {
            if (c.metrics == null) continue;
            if (c.metrics.get("fail_type") != null) {
                String where = c.metrics.getOrDefault("fail_user_frame_filename", "N/A") + ":"
                        + c.metrics.getOrDefault("fail_user_frame_lineno", 0);
                rows.append("<tr class=\"failure\"><td>")
                        .append(compileLink(c))
                        .append("</td><td>")
                        .append(Html.escape(String.valueOf(c.metrics.get("fail_type"))))
                        .append("</td><td><pre>")
                        .append(Html.escape(String.valueOf(c.metrics.get("fail_reason"))))
                        .append("</pre></td><td><code>")
                        .append(Html.escape(where))
                        .append("</code></td></tr>\n");
            }
            if (c.metrics.get("restart_reasons") instanceof List<?> restarts) {
                for (Object r : restarts) {
                    rows.append("<tr><td>")
                            .append(compileLink(c))
                            .append("</td><td>restart</td><td><pre>")
                            .append(Html.escape(String.valueOf(r)))
                            .append("</pre></td><td></td></tr>\n");
                }
            }
        }
        table(b, rows, "<tr><th>Compile</th><th>Type</th><th>Reason</th><th>User frame</th></tr>", "No failures.");
    }

    private static void problems(StringBuilder b, TraceModel model) {
        b.append("<h2 id=\"problems\">Problems reading the trace</h2>\n");
        if (model.problems.isEmpty()) {
            b.append("<p>None: every line was read.</p>\n");
            return;
        }
        b.append("<ul id=\"problem-list\">\n");
        for (TraceParser.Problem p : model.problems) {
            b.append("<li class=\"problem\">line ")
                    .append(p.line())
                    .append(": ")
                    .append(Html.escape(p.message()))
                    .append("</li>\n");
        }
        b.append("</ul>\n");
    }

    private static void table(StringBuilder b, StringBuilder rows, String header, String none) {
        if (rows.isEmpty()) b.append("<p>").append(none).append("</p>\n");
        else b.append("<table>\n").append(header).append('\n').append(rows).append("</table>\n");
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String compileLink(CompileEntry c) {
        return Html.link(c.directory() + "/index.html", c.label());
    }

    private static String metric(Map<String, Object> metrics, String key) {
        return metrics == null || metrics.get(key) == null ? "" : Html.escape(String.valueOf(metrics.get(key)));
    }

    private static String seconds(Map<String, Object> metrics, String key) {
        return metrics != null && metrics.get(key) instanceof Number n
                ? String.format(Locale.ROOT, "%.3f", n.doubleValue())
                : "";
    }

    private static String firstLines(String text, int n) {
        String[] lines = text.split("\n", n + 1);
        return String.join("\n", Arrays.asList(lines).subList(0, Math.min(n, lines.length)));
    }
}
