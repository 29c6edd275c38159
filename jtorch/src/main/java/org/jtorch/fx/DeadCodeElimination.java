package org.jtorch.fx;

import java.util.List;

/**
 * Removes the calls whose values nobody uses ({@code Graph.eliminate_dead_code()}), last first, so that a chain of
 * unused values goes in one pass. A call is kept, used or not, when it has an effect besides its value
 * ({@link Node#isImpure()}: an {@code out=} call, an op tagged in-place, side-effecting or random, or one that writes
 * an argument). Placeholders and the output stay: they are the graph's signature.
 */
public final class DeadCodeElimination {
    private DeadCodeElimination() {}

    /** Runs the pass on {@code graph}; returns how many nodes it removed. */
    public static int run(Graph graph) {
        int removed = 0;
        List<Node> nodes = graph.nodes();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            Node n = nodes.get(i);
            if (isRemovable(n) && n.users().isEmpty()) {
                graph.erase(n);
                removed++;
            }
        }
        return removed;
    }

    private static boolean isRemovable(Node n) {
        return switch (n.op()) {
            case Node.GET_ATTR -> true;
            case Node.CALL_FUNCTION -> !n.isImpure();
            default -> false;
        };
    }
}
