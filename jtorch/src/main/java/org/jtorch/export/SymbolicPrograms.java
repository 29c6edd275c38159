package org.jtorch.export;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.compile.ShapeGeneralizer;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.Graph;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;
import org.jtorch.fx.TensorMeta;
import org.jtorch.internal.Shapes;

/**
 * Programs over symbolic sizes. JTorch's traces see numbers, so a program that serves every size of its dynamic
 * dimensions is made the way {@code torch.compile(dynamic=True)} makes its graphs: by tracing at several sizes and
 * fitting each integer of the graph as a polynomial in the symbols ({@link ShapeGeneralizer}). A symbol the fit cannot
 * keep symbolic (the graph changes with it, or a value depends on it otherwise) is an error here, where compile would
 * specialize it: the user asked for that dimension to be dynamic.
 */
final class SymbolicPrograms {
    private SymbolicPrograms() {}

    /**
     * The graph {@code traceAt} gives, generalized over symbols whose example values are {@code base} (at least 2,
     * distinct; {@code names} name them in errors); {@code avoid} lists sizes the other traces must not give a symbol.
     */
    static GraphModule generalize(
            long[] base, List<Long> avoid, List<String> names, Function<long[], GraphModule> traceAt) {
        ShapeGeneralizer.Outcome outcome = ShapeGeneralizer.generalize(
                base, avoid, values -> new ShapeGeneralizer.Lowered(List.of(traceAt.apply(values)), List.of()));
        if (outcome.symbolic().size() != base.length) {
            List<String> lost = new ArrayList<>();
            for (int j = 0; j < base.length; j++) {
                if (!outcome.symbolic().contains(j)) lost.add(names.get(j));
            }
            throw new TorchException("export: Constraints violated (" + String.join(", ", lost) + ")! The program "
                    + "cannot keep them dynamic: " + outcome.note());
        }
        return outcome.lowered().graphs().getFirst();
    }

    /**
     * Traces {@code retrace} on fake inputs shaped as {@code gm}'s placeholders and, when {@code gm} has symbols,
     * generalizes the result over them again, so a rewritten program keeps serving every size.
     */
    static GraphModule retrace(GraphModule gm, RetraceFn retrace) {
        Graph graph = gm.graph();
        List<Node> placeholders =
                graph.nodes().stream().filter(n -> n.op().equals("placeholder")).toList();
        if (graph.symbols().isEmpty()) return traceAt(placeholders, new long[0], fakes -> retrace.apply(gm, fakes));
        List<Graph.SymbolSource> sources = graph.symbols();
        long[] base = new long[sources.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < base.length; i++) {
            Graph.SymbolSource s = sources.get(i);
            base[i] = placeholders.get(s.input()).meta().shape()[s.dim()];
            names.add("s" + i);
        }
        return generalize(
                base,
                staticSizes(placeholders),
                names,
                values -> traceAt(placeholders, values, fakes -> retrace.apply(specialized(gm, values), fakes)));
    }

    /** A re-trace of a program: {@code gm} (specialized to the sizes of {@code fakes}) traced on {@code fakes}. */
    interface RetraceFn {
        GraphModule apply(GraphModule gm, List<Tensor> fakes);
    }

    private static GraphModule traceAt(
            List<Node> placeholders, long[] values, Function<List<Tensor>, GraphModule> retrace) {
        try (FakeTensorMode fake = FakeTensorMode.open()) {
            List<Tensor> fakes = new ArrayList<>();
            for (Node p : placeholders) fakes.add(fake.fromMeta(metaAt(p, values)));
            return retrace.apply(fakes);
        }
    }

    /**
     * {@code gm} with its symbolic integers evaluated at {@code values}: a graph of the sizes one trace sees, which
     * passes that read a graph's arguments as numbers (decomposition) can run.
     */
    static GraphModule specialized(GraphModule gm, long[] values) {
        if (gm.graph().symbols().isEmpty()) return gm;
        Graph out = new Graph();
        Map<Node, Node> copies = new IdentityHashMap<>();
        for (Node n : gm.graph().nodes()) {
            Node copy =
                    switch (n.op()) {
                        case "placeholder" -> out.placeholder(n.name());
                        case "get_attr" -> out.getAttr(n.target());
                        case "output" ->
                            out.output(n.args().stream()
                                    .map(a -> copies.get((Node) a))
                                    .toArray(Node[]::new));
                        default -> {
                            Object[] args = n.args().stream()
                                    .map(a -> evaluated(a, copies, values))
                                    .toArray();
                            if (n.target().equals(Node.GETITEM))
                                yield out.getitem((Node) args[0], Math.toIntExact((Long) args[1]));
                            yield switch (n.form()) {
                                case FUNCTIONAL -> out.callFunction(n.opDef(), args);
                                case IN_PLACE -> out.callFunctionInPlace(n.opDef(), args);
                                case OUT -> throw new TorchException("a program with out= calls cannot be retraced");
                            };
                        }
                    };
            if (n.meta() != null) {
                copy.setMeta(n.op().equals("placeholder") ? metaAt(n, values) : n.meta());
            }
            copies.put(n, copy);
        }
        return new GraphModule(out, gm.constants());
    }

    private static Object evaluated(Object a, Map<Node, Node> copies, long[] values) {
        return switch (a) {
            case Node n -> copies.get(n);
            case List<?> l ->
                l.stream().map(e -> e == null ? null : copies.get((Node) e)).toList();
            case SymInt s -> s.eval(values);
            case SymIntArray s -> s.eval(values);
            case null, default -> a;
        };
    }

    /** A placeholder's metadata with its symbolic sizes evaluated at {@code values}. */
    static TensorMeta metaAt(Node placeholder, long[] values) {
        TensorMeta m = placeholder.meta();
        SymIntArray symbolic = placeholder.symbolicShape();
        if (symbolic == null) return m;
        long[] shape = symbolic.eval(values);
        return new TensorMeta(shape, Shapes.contiguousStrides(shape), m.dtype(), m.device(), m.requiresGrad());
    }

    private static List<Long> staticSizes(List<Node> placeholders) {
        List<Long> out = new ArrayList<>();
        for (Node p : placeholders) {
            long[] shape = p.meta().shape();
            for (int d = 0; d < shape.length; d++) {
                if (p.symbolicShape() == null
                        || p.symbolicShape().elements().get(d).isConstant()) out.add(shape[d]);
            }
        }
        return out;
    }
}
