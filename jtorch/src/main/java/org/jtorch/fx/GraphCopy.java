package org.jtorch.fx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Copies a functional node into another graph, its node arguments replaced by their copies there. */
final class GraphCopy {
    private GraphCopy() {}

    /** The copy of {@code n} appended to {@code into}; {@code copies} maps every node {@code n} uses to its copy. */
    static Node node(Node n, Graph into, Map<Node, Node> copies) {
        Node copy =
                switch (n.op()) {
                    case Node.GET_ATTR -> into.getAttr(n.target());
                    case Node.CALL_FUNCTION ->
                        n.target().equals(Node.GETITEM)
                                ? into.getitem(copies.get((Node) n.args().get(0)), Math.toIntExact((Long)
                                        n.args().get(1)))
                                : into.callFunction(
                                        n.opDef(), mapped(n.args(), copies).toArray());
                    default -> throw new IllegalArgumentException("cannot copy the " + n.op() + " node " + n);
                };
        copy.setMeta(n.meta());
        return copy;
    }

    private static List<Object> mapped(List<?> args, Map<Node, Node> copies) {
        List<Object> out = new ArrayList<>(args.size());
        for (Object a : args) {
            if (a instanceof Node n) out.add(copies.get(n));
            else if (a instanceof List<?> l) out.add(mapped(l, copies));
            else out.add(a);
        }
        return out;
    }
}
