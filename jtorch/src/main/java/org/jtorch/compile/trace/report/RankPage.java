package org.jtorch.compile.trace.report;

import java.util.List;

/** The landing page of a report over several trace files (the ranks of a distributed job): one row per file. */
final class RankPage {
    /** One file's report: its directory in the output, the file's name, and what it holds. */
    record Entry(String directory, String file, TraceModel model) {}

    private RankPage() {}

    static String html(List<Entry> entries) {
        StringBuilder b = new StringBuilder("<h1>JTorch structured trace: ")
                .append(entries.size())
                .append(" ranks</h1>\n<table id=\"rank-table\">\n<tr><th>Report</th><th>Trace file</th>"
                        + "<th>Compiles</th><th>Graph breaks</th><th>Problems</th></tr>\n");
        for (Entry e : entries) {
            int breaks = 0;
            for (CompileEntry c : e.model().compiles.values()) breaks += c.graphBreaks.size();
            b.append("<tr><td>")
                    .append(Html.link(e.directory() + "/index.html", e.directory()))
                    .append("</td><td><code>")
                    .append(Html.escape(e.file()))
                    .append("</code></td><td>")
                    .append(e.model().compiles.size())
                    .append("</td><td>")
                    .append(breaks)
                    .append("</td><td class=\"")
                    .append(e.model().problems.isEmpty() ? "" : "problem")
                    .append("\">")
                    .append(e.model().problems.size())
                    .append("</td></tr>\n");
        }
        return Html.page(
                "JTorch trace: " + entries.size() + " ranks",
                b.append("</table>\n").toString());
    }
}
