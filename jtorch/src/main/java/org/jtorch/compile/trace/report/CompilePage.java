package org.jtorch.compile.trace.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The page of one compile: its call site, each payload in full, and its metrics, failures highlighted. */
final class CompilePage {
    private CompilePage() {}

    static String html(CompileEntry c) {
        StringBuilder b = new StringBuilder();
        b.append("<h1>Compile ").append(Html.escape(c.label())).append("</h1>\n");
        b.append("<p>")
                .append(Html.link("../index.html", "Index"))
                .append(" · status: <span class=\"")
                .append(c.status().css)
                .append("\">")
                .append(c.status().name().toLowerCase(Locale.ROOT))
                .append("</span></p>\n");
        b.append("<h2>Call site</h2>\n");
        if (c.stack.isEmpty()) {
            b.append("<p>No dynamo_start record gave a stack.</p>\n");
        } else {
            b.append("<pre class=\"stack\">");
            for (Frame f : c.stack) b.append(Html.escape(f.toString())).append('\n');
            b.append("</pre>\n");
        }
        for (Artifact a : c.artifacts) section(b, a);
        metrics(b, c.metrics);
        return Html.page("Compile " + c.label(), b.toString());
    }

    private static void section(StringBuilder b, Artifact a) {
        String css = a.isGraphBreak() ? " break" : "";
        b.append("<section class=\"artifact")
                .append(css)
                .append("\" id=\"")
                .append(Html.escape(a.fileName()))
                .append("\">\n<h2>")
                .append(Html.escape(a.title()))
                .append("</h2>\n<p>")
                .append(Html.link(a.fileName(), a.fileName()))
                .append(" (line ")
                .append(a.line())
                .append(" of the trace)");
        if (!a.intact()) b.append(" <span class=\"problem\">the payload does not match its MD5</span>");
        b.append("</p>\n<pre>").append(Html.escape(a.payload())).append("</pre>\n</section>\n");
    }

    private static void metrics(StringBuilder b, Map<String, Object> metrics) {
        b.append("<h2 id=\"metrics\">Compilation metrics</h2>\n");
        if (metrics == null) {
            b.append("<p class=\"problem\">No compilation_metrics record: the compile did not finish.</p>\n");
            return;
        }
        b.append("<table class=\"metrics\">\n");
        for (Map.Entry<String, Object> e : metrics.entrySet()) {
            boolean failure = e.getKey().startsWith("fail_") && e.getValue() != null;
            b.append(failure ? "<tr class=\"failure\">" : "<tr>")
                    .append("<th>")
                    .append(Html.escape(e.getKey()))
                    .append("</th><td>")
                    .append(Html.escape(display(e.getValue())))
                    .append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    /** A metric's value as text: lists one element per line. */
    static String display(Object v) {
        if (v instanceof List<?> l) {
            StringBuilder s = new StringBuilder();
            for (Object o : l) s.append(s.isEmpty() ? "" : "\n").append(o);
            return s.toString();
        }
        return String.valueOf(v);
    }
}
