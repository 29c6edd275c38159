package org.jtorch.fx;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaType;

/**
 * The checks of {@link Graph#lint()}: nodes in topological order (every argument defined earlier in the same graph),
 * each call's arguments matching its op's schema in number and type, multi-output reads within the op's outputs (any
 * index of an op returning one {@code Tensor[]}), in-place and out= calls writing nodes, and exactly one output, last,
 * returning nodes or None (a joint forward-backward graph returns None for an input that gets no gradient). None may
 * stand for an argument with a default, and a number for a tensor (PyTorch's wrapped numbers), as the ops' entry points
 * accept them. Non-tensor arguments are checked where their Java type is fixed (numbers, booleans, dtypes) and must
 * never be nodes: a graph has no symbolic scalars.
 */
final class GraphLint {
    private GraphLint() {}

    static void check(Graph graph) {
        List<Node> nodes = graph.nodes();
        Set<Node> defined = new HashSet<>();
        int outputs = 0;
        for (Node n : nodes) {
            for (Node in : n.inputNodes()) {
                if (in.graph() != graph || !nodes.contains(in)) fail(n, "uses " + in + ", which is not in the graph");
                if (!defined.contains(in)) fail(n, "uses " + in + " before it is defined");
                if (in.op().equals(Node.OUTPUT)) fail(n, "uses the output node");
            }
            switch (n.op()) {
                case Node.PLACEHOLDER, Node.GET_ATTR -> {
                    if (!n.args().isEmpty()) fail(n, "a " + n.op() + " takes no arguments");
                }
                case Node.CALL_FUNCTION -> checkCall(n);
                case Node.OUTPUT -> {
                    outputs++;
                    if (n != nodes.getLast()) fail(n, "the output is not the last node");
                    for (Object a : n.args()) {
                        if (a != null && !(a instanceof Node)) fail(n, "returns " + a + ", not a node or None");
                    }
                }
                default -> fail(n, "unknown op " + n.op());
            }
            defined.add(n);
        }
        if (outputs != 1) throw new IllegalStateException("graph has " + outputs + " output nodes, expected exactly 1");
    }

    private static void checkCall(Node n) {
        if (n.target().equals(Node.GETITEM)) {
            List<Object> a = n.args();
            if (a.size() != 2 || !(a.get(0) instanceof Node tuple) || !(a.get(1) instanceof Long index) || index < 0) {
                fail(n, "a getitem takes (node, index >= 0), got " + a);
                return;
            }
            if (tuple.opDef() == null) fail(n, "reads an output of " + tuple + ", which calls no op");
            int outputs = tuple.schema().returns().size();
            boolean oneList =
                    outputs == 1 && tuple.schema().returns().getFirst().type().isList();
            if (!oneList && index >= outputs)
                fail(n, "reads output " + index + " of " + tuple + ", which has " + outputs);
            return;
        }
        if (n.opDef() == null) {
            fail(n, "calls " + n.target() + ", which is not an op");
            return;
        }
        Schema schema = n.schema();
        List<Schema.Argument> params = schema.arguments();
        List<Object> args = n.args();
        if (n.form() == Node.Form.OUT) {
            if (args.isEmpty() || !(args.getLast() instanceof List<?> outs) || outs.isEmpty()) {
                fail(n, "an out= call ends with the list of tensors it writes");
                return;
            }
            for (Object o : outs) if (!(o instanceof Node)) fail(n, "writes " + describe(o) + ", not a node");
            args = args.subList(0, args.size() - 1);
        }
        if (n.form() == Node.Form.IN_PLACE && (args.isEmpty() || !(args.getFirst() instanceof Node))) {
            fail(n, "an in-place call writes its first argument, which must be a node");
        }
        int required = (int) params.stream().filter(p -> !p.hasDefault()).count();
        if (args.size() > params.size() || args.size() < required) {
            fail(
                    n,
                    schema.qualifiedName() + " takes " + required + " to " + params.size() + " arguments, got "
                            + args.size());
        }
        for (int i = 0; i < args.size(); i++) {
            Schema.Argument p = params.get(i);
            if (!(args.get(i) == null && p.hasDefault()) && !accepts(p.type(), args.get(i))) {
                fail(n, "argument " + p.name() + " of type " + p.type() + " cannot be " + describe(args.get(i)));
            }
        }
    }

    /** Whether {@code value} is a graph value of schema type {@code type}. */
    private static boolean accepts(SchemaType type, Object value) {
        if (value == null) return type.isOptional();
        SchemaType t = type.required();
        if (t instanceof SchemaType.ListType list && list.element().holdsTensors()) {
            if (!(value instanceof List<?> elements)) return false;
            for (Object e : elements) if (!accepts(list.element(), e)) return false;
            return true;
        }
        if (t.isTensor()) return value instanceof Node || value instanceof Number || value instanceof Boolean;
        if (value instanceof Node || value instanceof List<?>) return false;
        if (t.isList()) return true; // int[], float[]...: arrays, or one element repeated
        return switch (t.base()) {
            case INT, SYM_INT -> value instanceof Long || value instanceof Integer || value instanceof SymInt;
            case FLOAT -> value instanceof Number;
            case BOOL -> value instanceof Boolean;
            case SCALAR_TYPE -> value instanceof DType;
            default -> true;
        };
    }

    private static String describe(Object value) {
        return value == null
                ? "None"
                : value instanceof Node n ? "node " + n : value.getClass().getSimpleName();
    }

    private static void fail(Node n, String fault) {
        throw new IllegalStateException("graph lint: node " + n.name() + ": " + fault);
    }
}
