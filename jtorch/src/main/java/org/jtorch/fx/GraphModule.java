package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;

/**
 * A {@link Graph} with the constant tensors its {@code get_attr} nodes name, runnable like
 * {@code torch.fx.GraphModule}: {@link #call} interprets the graph node by node, each call through
 * {@link Dispatcher#call} with the node's op, so a graph runs exactly the kernels eager code runs and gives bitwise the
 * same results.
 */
public final class GraphModule {
    private final Graph graph;
    private final Map<String, Tensor> constants;

    /** A module running {@code graph}, whose {@code get_attr} nodes read {@code constants} by name. */
    public GraphModule(Graph graph, Map<String, Tensor> constants) {
        this.graph = graph;
        this.constants = Collections.unmodifiableMap(new LinkedHashMap<>(constants));
    }

    /** The graph this module runs ({@code torch.fx.GraphModule.graph}). */
    public Graph graph() {
        return graph;
    }

    /** The constant tensors, by the names their {@code get_attr} nodes use. */
    public Map<String, Tensor> constants() {
        return constants;
    }

    /** Runs the graph on {@code inputs}, one per placeholder in order; returns the output node's values. */
    public Tensor[] call(Tensor... inputs) {
        return run(inputs, (node, value) -> {});
    }

    /**
     * {@link #call}, handing each node's value (a tensor, an array of them for a call with several outputs, or null) to
     * {@code observer} as it runs: {@code torch.fx.Interpreter}'s per-node view, for passes that need every value's
     * metadata (run it on fake tensors).
     */
    public Tensor[] interpret(Tensor[] inputs, BiConsumer<Node, Object> observer) {
        return run(inputs, observer);
    }

    /** {@link #call}, handing each node's value (a tensor, a tuple of them or null) to {@code observer} as it runs. */
    Tensor[] run(Tensor[] inputs, BiConsumer<Node, Object> observer) {
        Map<Node, Object> values = new HashMap<>();
        long[] symbolValues = symbolValues(inputs);
        int next = 0;
        for (Node n : graph.nodes()) {
            switch (n.op()) {
                case Node.PLACEHOLDER -> {
                    if (next == inputs.length) {
                        throw new TorchException("graph expects more than " + inputs.length + " inputs");
                    }
                    values.put(n, inputs[next++]);
                    observer.accept(n, values.get(n));
                }
                case Node.GET_ATTR -> {
                    Tensor c = constants.get(n.target());
                    if (c == null) throw new TorchException("graph module has no constant " + n.target());
                    values.put(n, c);
                    observer.accept(n, c);
                }
                case Node.CALL_FUNCTION -> {
                    values.put(n, runNode(n, values, symbolValues));
                    observer.accept(n, values.get(n));
                }
                case Node.OUTPUT -> {
                    if (next != inputs.length) {
                        throw new TorchException("graph takes " + next + " inputs, got " + inputs.length);
                    }
                    Tensor[] results = new Tensor[n.args().size()];
                    for (int i = 0; i < results.length; i++)
                        results[i] = (Tensor) values.get((Node) n.args().get(i));
                    return results;
                }
                default -> throw new IllegalStateException("unknown op " + n.op());
            }
        }
        throw new TorchException("graph has no output node");
    }

    /** The values of the graph's symbols for these inputs, read from the dimensions that source them. */
    public long[] symbolValues(Tensor[] inputs) {
        List<Graph.SymbolSource> sources = graph.symbols();
        long[] out = new long[sources.size()];
        for (int i = 0; i < out.length; i++) {
            Graph.SymbolSource s = sources.get(i);
            if (s.input() >= inputs.length || inputs[s.input()].dim() <= s.dim()) {
                throw new TorchException("graph: symbol s" + i + " is the size of dimension " + s.dim() + " of input "
                        + s.input() + ", which the inputs given do not have");
            }
            out[i] = inputs[s.input()].size(s.dim());
        }
        return out;
    }

    static Object runNode(Node n, Map<Node, Object> values) {
        return runNode(n, values, new long[0]);
    }

    /**
     * Runs one call node on the values computed so far (by node), its symbolic arguments evaluated for
     * {@code symbolValues}: a tensor, or an array of them for a multi-output op. A compiled graph runs the nodes it
     * leaves to the dispatcher (its extern calls) with this.
     */
    public static Object runNode(Node n, Map<Node, Object> values, long[] symbolValues) {
        if (n.target().equals(Node.GETITEM)) {
            Tensor[] tuple = (Tensor[]) values.get((Node) n.args().get(0));
            return tuple[Math.toIntExact((Long) n.args().get(1))];
        }
        List<Object> args = n.args();
        int own = n.form() == Node.Form.OUT ? args.size() - 1 : args.size();
        Object[] actual = new Object[own];
        for (int i = 0; i < own; i++) actual[i] = actual(args.get(i), values, symbolValues);
        if (n.form() == Node.Form.FUNCTIONAL) return Dispatcher.call(n.opDef(), actual);
        Tensor[] outs = n.form() == Node.Form.IN_PLACE
                ? new Tensor[] {(Tensor) actual[0]}
                : (Tensor[]) actual(args.getLast(), values, symbolValues);
        Dispatcher.callOut(n.opDef(), outs, actual);
        return outs.length == 1 ? outs[0] : outs;
    }

    /**
     * Runs a functional call node as {@link #runNode} does, its results written into {@code outs} (the op's
     * {@code out=} path, {@link Dispatcher#callOut}) instead of tensors the op allocates: returns them as
     * {@link #runNode} would.
     */
    public static Object runNodeInto(Node n, Map<Node, Object> values, long[] symbolValues, Tensor[] outs) {
        if (n.form() != Node.Form.FUNCTIONAL) {
            throw new TorchException("graph: " + n.name() + " is not a functional call; only those run into outputs");
        }
        Object[] actual = new Object[n.args().size()];
        for (int i = 0; i < actual.length; i++) actual[i] = actual(n.args().get(i), values, symbolValues);
        Dispatcher.callOut(n.opDef(), outs, actual);
        return outs.length == 1 ? outs[0] : outs;
    }

    /**
     * A graph argument as the op takes it: nodes become their values, lists become {@code Tensor[]}, symbolic integers
     * their values.
     */
    private static Object actual(Object arg, Map<Node, Object> values, long[] symbolValues) {
        return switch (arg) {
            case Node n -> values.get(n);
            case List<?> list -> {
                Tensor[] ts = new Tensor[list.size()];
                for (int i = 0; i < ts.length; i++) ts[i] = (Tensor) actual(list.get(i), values, symbolValues);
                yield ts;
            }
            case SymInt s -> s.eval(symbolValues);
            case SymIntArray a -> a.eval(symbolValues);
            case long[] a -> a.clone();
            case double[] a -> a.clone();
            case boolean[] a -> a.clone();
            case null, default -> arg;
        };
    }

    /** The module as Python source, one line per node: {@code add: "f32[2, 3]" = torch.ops.aten.add.Tensor(x, y)}. */
    public String printReadable() {
        return GraphPrinter.readable(graph);
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>(constants.keySet());
        return printReadable() + (names.isEmpty() ? "" : "# constants: " + String.join(", ", names) + "\n");
    }
}
