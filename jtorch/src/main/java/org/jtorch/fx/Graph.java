package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jtorch.ops.OpDef;

/**
 * A program as a list of {@link Node}s in execution order, in the style of {@code torch.fx.Graph}: placeholders,
 * constants, calls of registered op overloads and one output. Graphs are built by {@link Fx#makeFx} or by hand, and
 * edited in place: new nodes go at the insertion point (the end, unless {@link #insertingBefore} or
 * {@link #insertingAfter} moved it), {@link Node#replaceAllUsesWith} redirects uses, {@link #erase} removes a node
 * nobody uses, and {@link #lint} checks that the result is still a well-formed program.
 */
public final class Graph {
    private final List<Node> nodes = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    /** Where the next node goes: before this node, or at the end when null. */
    private Node insertBefore;

    private final List<SymbolSource> symbols = new ArrayList<>();

    /** An empty graph. */
    public Graph() {}

    /**
     * Where a symbol's value comes from on each call: dimension {@code dim} of the graph's input number {@code input}
     * (placeholders in order), as PyTorch's shape environment sources a symbol from {@code L['x'].size()[0]}.
     */
    public record SymbolSource(int input, int dim) {}

    /**
     * A new symbol {@code s<n>} (n the number of symbols so far), bound on each call to the size of dimension
     * {@code dim} of input {@code input}; {@link SymInt} arguments of the graph's nodes may use it.
     */
    public SymInt defineSymbol(int input, int dim) {
        if (input < 0 || dim < 0) throw new IllegalArgumentException("defineSymbol: negative input or dimension");
        symbols.add(new SymbolSource(input, dim));
        return SymInt.symbol(symbols.size() - 1);
    }

    /** The symbols' sources, {@code s0} first. */
    public List<SymbolSource> symbols() {
        return List.copyOf(symbols);
    }

    /** The nodes in execution order (a snapshot). */
    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /** An input of the graph, named {@code name} (made unique). */
    public Node placeholder(String name) {
        String unique = uniqueName(name);
        return insert(new Node(this, Node.PLACEHOLDER, unique, unique, null, Node.Form.FUNCTIONAL, List.of()));
    }

    /** A constant tensor that the {@link GraphModule} holds under {@code target}. */
    public Node getAttr(String target) {
        return insert(new Node(this, Node.GET_ATTR, target, uniqueName(target), null, Node.Form.FUNCTIONAL, List.of()));
    }

    /**
     * A call of {@code op} with {@code args} in schema order (nodes, constants, lists of nodes for tensor lists; see
     * {@link Node}). Arguments are checked against the schema by {@link #lint}, not here, so that a graph can be edited
     * through states that are not yet valid.
     */
    public Node callFunction(@SuppressWarnings("exports") OpDef op, Object... args) {
        String target = targetOf(op);
        return insert(new Node(
                this, Node.CALL_FUNCTION, target, uniqueName(op.name()), op, Node.Form.FUNCTIONAL, argList(args)));
    }

    /** The in-place form of {@code op}, writing its first argument ({@link Node.Form#IN_PLACE}). */
    public Node callFunctionInPlace(@SuppressWarnings("exports") OpDef op, Object... args) {
        var s = op.schema();
        String target =
                s.namespace() + "." + s.name() + "_." + (s.overloadName().isEmpty() ? "default" : s.overloadName());
        String name = uniqueName(op.name() + "_");
        return insert(new Node(this, Node.CALL_FUNCTION, target, name, op, Node.Form.IN_PLACE, argList(args)));
    }

    /** The {@code out=} form of {@code op}, writing {@code outs} ({@link Node.Form#OUT}). */
    public Node callFunctionOut(@SuppressWarnings("exports") OpDef op, List<Node> outs, Object... args) {
        Object[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = outs;
        String name = uniqueName(op.name());
        return insert(new Node(this, Node.CALL_FUNCTION, outTargetOf(op), name, op, Node.Form.OUT, argList(all)));
    }

    /** Output {@code index} of a multi-output call. */
    public Node getitem(Node tuple, int index) {
        return insert(new Node(
                this,
                Node.CALL_FUNCTION,
                Node.GETITEM,
                uniqueName(Node.GETITEM),
                null,
                Node.Form.FUNCTIONAL,
                argList(tuple, (long) index)));
    }

    /** The graph's result: the values it returns, in order. */
    public Node output(Node... results) {
        return insert(new Node(
                this, Node.OUTPUT, Node.OUTPUT, uniqueName(Node.OUTPUT), null, Node.Form.FUNCTIONAL, argList((Object[])
                        results)));
    }

    /**
     * PyTorch's spelling of an op overload as a graph target: {@code aten.add.Tensor}, {@code aten.hypot.default} for
     * the overload without a name.
     */
    public static String targetOf(@SuppressWarnings("exports") OpDef op) {
        var s = op.schema();
        return s.namespace() + "." + s.name() + "." + (s.overloadName().isEmpty() ? "default" : s.overloadName());
    }

    /**
     * PyTorch's usual name of an op's {@code out=} overload: {@code aten.add.out}, {@code aten.pow.Tensor_Scalar_out}.
     */
    public static String outTargetOf(@SuppressWarnings("exports") OpDef op) {
        var s = op.schema();
        return s.namespace() + "." + s.name() + "." + (s.overloadName().isEmpty() ? "out" : s.overloadName() + "_out");
    }

    /** Inserts the following nodes before {@code node} until the returned scope closes. */
    public InsertionPoint insertingBefore(Node node) {
        requireMember(node);
        return moveInsertionPoint(node);
    }

    /** Inserts the following nodes after {@code node} until the returned scope closes. */
    public InsertionPoint insertingAfter(Node node) {
        int at = requireMember(node);
        return moveInsertionPoint(at + 1 < nodes.size() ? nodes.get(at + 1) : null);
    }

    /** Restores the previous insertion point when closed. */
    public interface InsertionPoint extends AutoCloseable {
        @Override
        void close();
    }

    private InsertionPoint moveInsertionPoint(Node before) {
        Node previous = insertBefore;
        insertBefore = before;
        return () -> insertBefore = previous;
    }

    /** Removes {@code node}, which no other node may still use. */
    public void erase(Node node) {
        int at = requireMember(node);
        if (node.hasUsers()) {
            throw new IllegalStateException("cannot erase " + node + ": it is still used by " + node.users());
        }
        if (node == insertBefore) insertBefore = at + 1 < nodes.size() ? nodes.get(at + 1) : null;
        nodes.remove(at);
        names.remove(node.name());
        node.unlink();
    }

    /** Checks the graph (see {@link GraphLint}); throws {@link IllegalStateException} naming the first fault. */
    public void lint() {
        GraphLint.check(this);
    }

    /** The graph as {@link GraphModule#printReadable()} prints it. */
    @Override
    public String toString() {
        return GraphPrinter.readable(this);
    }

    private Node insert(Node node) {
        if (insertBefore == null) nodes.add(node);
        else nodes.add(nodes.indexOf(insertBefore), node);
        node.link();
        return node;
    }

    private int requireMember(Node node) {
        int at = node.graph() == this ? nodes.indexOf(node) : -1;
        if (at < 0) throw new IllegalArgumentException(node + " is not a node of this graph");
        return at;
    }

    /** {@code base}, or {@code base_1}, {@code base_2}... as torch.fx numbers repeated names. */
    private String uniqueName(String base) {
        String name = base;
        for (int i = 1; !names.add(name); i++) name = base + "_" + i;
        return name;
    }

    /** The arguments as the node keeps them: tensor lists become unmodifiable lists, arrays of numbers are copied. */
    private static List<Object> argList(Object... args) {
        List<Object> out = new ArrayList<>(args.length);
        for (Object a : args) out.add(argValue(a));
        return Collections.unmodifiableList(out);
    }

    private static Object argValue(Object a) {
        return switch (a) {
            case Object[] list -> argList(list);
            case List<?> list -> argList(list.toArray());
            case long[] longs -> longs.clone();
            case double[] doubles -> doubles.clone();
            case boolean[] booleans -> booleans.clone();
            case null, default -> a;
        };
    }
}
