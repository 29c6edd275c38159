package org.jtorch.compile.trace.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The compiled call sites as a tree, tlparse's stack trie: the stacks of the compiles' {@code dynamo_start} records,
 * outermost frame first, merged where they share a prefix, each compile hung at its last frame. Children keep the order
 * they were first seen in, so the tree reads roughly in time order.
 */
final class StackTrie {
    private final Map<Frame, StackTrie> children = new LinkedHashMap<>();
    private final List<CompileEntry> compiles = new ArrayList<>();

    void insert(List<Frame> stack, CompileEntry compile) {
        StackTrie node = this;
        for (Frame f : stack) node = node.children.computeIfAbsent(f, k -> new StackTrie());
        node.compiles.add(compile);
    }

    boolean isEmpty() {
        return children.isEmpty() && compiles.isEmpty();
    }

    /** Nested lists: each frame with links to the compiles that end there. */
    String html() {
        StringBuilder out = new StringBuilder("<ul class=\"stack-trie\">");
        render(out);
        return out.append("</ul>").toString();
    }

    private void render(StringBuilder out) {
        for (Map.Entry<Frame, StackTrie> e : children.entrySet()) {
            StackTrie child = e.getValue();
            out.append("<li>");
            for (CompileEntry c : child.compiles) {
                out.append("<a class=\"compile-link ")
                        .append(c.status().css)
                        .append("\" href=\"")
                        .append(Html.escape(c.directory() + "/index.html"))
                        .append("\">")
                        .append(Html.escape(c.label()))
                        .append("</a> ");
            }
            out.append("<code>").append(Html.escape(e.getKey().toString())).append("</code>");
            if (!child.children.isEmpty()) {
                out.append("<ul>");
                child.render(out);
                out.append("</ul>");
            }
            out.append("</li>");
        }
    }
}
