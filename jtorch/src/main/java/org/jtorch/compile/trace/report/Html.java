package org.jtorch.compile.trace.report;

/**
 * The report's HTML: escaping of everything that comes from a trace (graphs hold {@code <}, {@code >} and {@code &}; a
 * trace from elsewhere may hold anything) and the page frame with its style sheet.
 */
final class Html {
    private static final String STYLE = """
            body { font-family: sans-serif; margin: 1.5em; max-width: 110em; }
            code, pre { font-family: monospace; }
            pre { background: #f6f8fa; padding: .6em; overflow-x: auto; }
            table { border-collapse: collapse; margin: .5em 0; }
            th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
            .status-ok { color: #1a7f37; }
            .status-break { color: #9a6700; }
            .status-empty { color: #6e7781; }
            .status-error, .problem { color: #cf222e; font-weight: bold; }
            .status-missing { color: #8250df; }
            tr.failure, section.failure { background: #ffebe9; }
            section.break { background: #fff8c5; }
            ul.stack-trie, ul.stack-trie ul { list-style: none; padding-left: 1.2em; }
            """;

    private Html() {}

    /** Text or an attribute value, escaped for HTML. */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    static String page(String title, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
                + "</title>\n<style>\n" + STYLE + "</style></head>\n<body>\n" + body + "\n</body></html>\n";
    }

    /** A link whose target and text are both escaped. */
    static String link(String href, String text) {
        return "<a href=\"" + escape(href) + "\">" + escape(text) + "</a>";
    }
}
