package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges calls that compute the same value: the same target on the same arguments (the same nodes, equal constants).
 * The later call's users are redirected to the earlier one and the later call is erased. Calls with an effect besides
 * their value ({@link Node#isImpure()}: random, side-effecting, in-place or mutating calls) are never merged: two draws
 * of {@code rand} are two different values. Constant tensors ({@code get_attr}) are merged when they name the same
 * constant.
 */
public final class CommonSubexpressionElimination {
    private CommonSubexpressionElimination() {}

    /** Runs the pass on {@code graph}; returns how many nodes it removed. */
    public static int run(Graph graph) {
        if (graph.nodes().stream().anyMatch(CommonSubexpressionElimination::mutates)) return 0;
        Map<List<Object>, Node> seen = new HashMap<>();
        int removed = 0;
        for (Node n : graph.nodes()) {
            if (!isMergeable(n)) continue;
            List<Object> key = new ArrayList<>();
            key.add(n.op());
            key.add(n.target());
            for (Object a : n.args()) key.add(keyOf(a));
            Node earlier = seen.putIfAbsent(key, n);
            if (earlier != null) {
                n.replaceAllUsesWith(earlier);
                graph.erase(n);
                removed++;
            }
        }
        return removed;
    }

    private static boolean mutates(Node n) {
        return n.form() != Node.Form.FUNCTIONAL
                || n.opDef() != null && n.opDef().schema().isMutable();
    }

    private static boolean isMergeable(Node n) {
        return switch (n.op()) {
            case Node.GET_ATTR -> true;
            case Node.CALL_FUNCTION -> !n.isImpure();
            default -> false;
        };
    }

    /**
     * A value that compares by content: arrays become lists, and a constant is tagged with its class, so that
     * {@code 1L} and {@code 1.0} (an int and a float argument) stay apart. Nodes compare by identity.
     */
    private static Object keyOf(Object a) {
        return switch (a) {
            case null -> "None";
            case Node n -> n;
            case long[] x -> List.of(long[].class, Arrays.stream(x).boxed().toList());
            case double[] x -> List.of(double[].class, Arrays.stream(x).boxed().toList());
            case boolean[] x -> List.of(boolean[].class, Arrays.toString(x));
            case List<?> l ->
                l.stream().map(CommonSubexpressionElimination::keyOf).toList();
            default -> List.of(a.getClass(), a);
        };
    }
}
