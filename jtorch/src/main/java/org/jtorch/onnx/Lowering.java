package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.TorchException;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;
import org.jtorch.onnx.proto.OnnxProto.AttributeProto;

/**
 * What one op's translation works with: the ONNX graph being written, the ONNX value each fx node computed, and the
 * node's arguments, with the integers that follow a dynamic dimension as {@link SymInt}s.
 */
final class Lowering {
    /** Where a symbol's value is read on each run: dimension {@code dim} of the ONNX graph input {@code input}. */
    record SymbolSource(String input, int dim) {}

    private final OnnxGraph graph;
    private final int opset;
    private final Map<Node, String> values = new HashMap<>();
    private final Map<Node, List<String>> tuples = new HashMap<>();
    private final IdentityHashMap<Node, List<Object>> symbolicArgs;
    private final List<SymbolSource> symbols;
    private final Map<Integer, String> symbolValues = new HashMap<>();
    private final Map<Object, String> computedInts = new HashMap<>();

    Lowering(OnnxGraph graph, int opset, IdentityHashMap<Node, List<Object>> symbolicArgs, List<SymbolSource> symbols) {
        this.graph = graph;
        this.opset = opset;
        this.symbolicArgs = symbolicArgs;
        this.symbols = symbols;
    }

    OnnxGraph graph() {
        return graph;
    }

    /** The opset being written. */
    int opset() {
        return opset;
    }

    /** Records the ONNX value an fx node computes. */
    void define(Node n, String value) {
        values.put(n, value);
    }

    /** Records the ONNX values of a node that returns several tensors (read with getitem). */
    void defineTuple(Node n, List<String> outputs) {
        tuples.put(n, outputs);
    }

    /** The ONNX values of a tuple-returning node. */
    List<String> tuple(Node n) {
        List<String> t = tuples.get(n);
        if (t == null) throw new TorchException("onnx export: " + n.name() + " is not a tuple");
        return t;
    }

    /** The ONNX value of an fx node already translated. */
    String value(Node n) {
        String v = values.get(n);
        if (v == null) throw new TorchException("onnx export: no ONNX value for " + n.name());
        return v;
    }

    /** Argument {@code i} of the node (null past the given ones: the op's default applies). */
    Object arg(Node n, int i) {
        List<Object> args = symbolicArgs.getOrDefault(n, n.args());
        return i < args.size() ? args.get(i) : null;
    }

    /** Argument {@code i}, which must be a node (a tensor). */
    Node tensorArg(Node n, int i) {
        if (arg(n, i) instanceof Node t) return t;
        throw unsupported(n, "argument " + i + " is not a tensor (" + arg(n, i) + ")");
    }

    /** The ONNX value of tensor argument {@code i}. */
    String input(Node n, int i) {
        return value(tensorArg(n, i));
    }

    /** Whether argument {@code i} is given and not None. */
    boolean has(Node n, int i) {
        return arg(n, i) != null;
    }

    /** A static integer argument, or {@code fallback} when not given. */
    long integer(Node n, int i, long fallback) {
        Object a = arg(n, i);
        return switch (a) {
            case null -> fallback;
            case Number v when !(a instanceof Double || a instanceof Float) -> v.longValue();
            case Boolean b -> b ? 1 : 0;
            case SymInt s when s.isConstant() -> s.constantValue();
            case SymInt s -> throw unsupported(n, "argument " + i + " (" + s + ") must not depend on a dynamic size");
            default -> throw unsupported(n, "argument " + i + " is not an integer (" + a + ")");
        };
    }

    /** A floating argument, or {@code fallback} when not given. */
    double number(Node n, int i, double fallback) {
        Object a = arg(n, i);
        if (a == null) return fallback;
        if (a instanceof Number v) return v.doubleValue();
        if (a instanceof Boolean b) return b ? 1 : 0;
        throw unsupported(n, "argument " + i + " is not a number (" + a + ")");
    }

    boolean bool(Node n, int i, boolean fallback) {
        Object a = arg(n, i);
        if (a == null) return fallback;
        if (a instanceof Boolean b) return b;
        if (a instanceof Number v) return v.longValue() != 0;
        throw unsupported(n, "argument " + i + " is not a bool (" + a + ")");
    }

    String string(Node n, int i, String fallback) {
        Object a = arg(n, i);
        return a == null ? fallback : a.toString();
    }

    /** An int[] argument whose elements are all static. */
    long[] ints(Node n, int i) {
        List<Object> elements = elements(n, i);
        long[] out = new long[elements.size()];
        for (int k = 0; k < out.length; k++) {
            Object e = elements.get(k);
            if (e instanceof SymInt s && s.isConstant()) out[k] = s.constantValue();
            else if (e instanceof Number v) out[k] = v.longValue();
            else throw unsupported(n, "argument " + i + " " + elements + " must not depend on a dynamic size");
        }
        return out;
    }

    /** Whether an int[] argument has an element that depends on a dynamic size. */
    boolean isSymbolic(Node n, int i) {
        return elements(n, i).stream().anyMatch(e -> e instanceof SymInt s && !s.isConstant());
    }

    /**
     * An int[] argument as a 1-D int64 ONNX value: an initializer when static, else computed from the inputs' sizes.
     */
    String intsValue(Node n, int i) {
        return intsValue(elements(n, i));
    }

    /** Integers (static numbers or {@link SymInt}s) as a 1-D int64 ONNX value. */
    String intsValue(List<Object> elements) {
        boolean symbolic = elements.stream().anyMatch(e -> e instanceof SymInt s && !s.isConstant());
        if (!symbolic)
            return graph.int64s(elements.stream().mapToLong(Lowering::longOf).toArray());
        // a shape computed from the inputs' sizes is computed once, however many nodes use it
        String known = computedInts.get(elements);
        if (known != null) return known;
        String value = computeInts(elements);
        computedInts.put(List.copyOf(elements), value);
        return value;
    }

    private static long longOf(Object e) {
        return e instanceof SymInt s ? s.constantValue() : ((Number) e).longValue();
    }

    private String computeInts(List<Object> elements) {
        List<String> pieces = new ArrayList<>();
        List<Long> run = new ArrayList<>();
        for (Object e : elements) {
            if (e instanceof SymInt s && !s.isConstant()) {
                if (!run.isEmpty())
                    pieces.add(
                            graph.int64s(run.stream().mapToLong(Long::longValue).toArray()));
                run.clear();
                pieces.add(symInt(s));
            } else {
                run.add(e instanceof SymInt s ? s.constantValue() : ((Number) e).longValue());
            }
        }
        if (!run.isEmpty())
            pieces.add(graph.int64s(run.stream().mapToLong(Long::longValue).toArray()));
        if (pieces.isEmpty()) return graph.int64s();
        return pieces.size() == 1 ? pieces.getFirst() : graph.node("Concat", pieces, OnnxGraph.attr("axis", 0L));
    }

    /** An integer argument as a 1-element int64 ONNX value (static or computed). */
    String intValue(Node n, int i) {
        Object a = arg(n, i);
        if (a instanceof SymInt s && !s.isConstant()) return symInt(s);
        return graph.int64s(integer(n, i, 0));
    }

    /** The elements of an int[] argument: numbers and {@link SymInt}s. */
    List<Object> elements(Node n, int i) {
        Object a = arg(n, i);
        return switch (a) {
            case null -> throw unsupported(n, "argument " + i + " is missing");
            case List<?> l -> new ArrayList<>(l);
            case SymIntArray s -> new ArrayList<>(s.elements());
            case long[] l -> new ArrayList<>(Arrays.stream(l).boxed().toList());
            case int[] l -> new ArrayList<>(Arrays.stream(l).boxed().toList());
            case Number v -> new ArrayList<>(List.of(v));
            case SymInt s -> new ArrayList<>(List.of(s));
            default -> throw unsupported(n, "argument " + i + " is not a list of integers (" + a + ")");
        };
    }

    /**
     * A symbolic integer as a 1-element int64 ONNX value: its polynomial's terms (coefficient times a product of
     * symbols, each symbol read with {@code Shape} from the input dimension it stands for), summed.
     */
    String symInt(SymInt s) {
        String known = computedInts.get(s);
        if (known != null) return known;
        String value = computeSymInt(s);
        computedInts.put(s, value);
        return value;
    }

    private String computeSymInt(SymInt s) {
        long mask = s.symbols();
        List<Integer> present = new ArrayList<>();
        for (int b = 0; b < 63; b++) if ((mask >>> b & 1) != 0) present.add(b);
        if (present.isEmpty()) return graph.int64s(s.constantValue());
        String sum = null;
        // the coefficient of each product of symbols, by inclusion-exclusion over the corners of {0, 1}^k
        for (int subset = 0; subset < (1 << present.size()); subset++) {
            long coefficient = 0;
            for (int sub = subset; ; sub = (sub - 1) & subset) {
                long[] at = new long[present.getLast() + 1];
                for (int k = 0; k < present.size(); k++) if ((sub >>> k & 1) != 0) at[present.get(k)] = 1;
                long sign = (Integer.bitCount(subset) - Integer.bitCount(sub)) % 2 == 0 ? 1 : -1;
                coefficient += sign * s.eval(at);
                if (sub == 0) break;
            }
            if (coefficient == 0) continue;
            String term = null;
            for (int k = 0; k < present.size(); k++) {
                if ((subset >>> k & 1) == 0) continue;
                String sym = symbol(present.get(k));
                term = term == null ? sym : graph.node("Mul", List.of(term, sym));
            }
            if (term == null) term = graph.int64s(coefficient);
            else if (coefficient != 1) term = graph.node("Mul", List.of(term, graph.int64s(coefficient)));
            sum = sum == null ? term : graph.node("Add", List.of(sum, term));
        }
        return sum == null ? graph.int64s(0) : sum;
    }

    /** Symbol {@code index}'s value, read once with {@code Shape(start, end)} from its input. */
    private String symbol(int index) {
        return symbolValues.computeIfAbsent(index, i -> {
            if (i >= symbols.size()) throw new TorchException("onnx export: symbol s" + i + " has no source");
            SymbolSource src = symbols.get(i);
            return graph.node(
                    "Shape",
                    List.of(src.input()),
                    OnnxGraph.attr("start", (long) src.dim()),
                    OnnxGraph.attr("end", (long) src.dim() + 1));
        });
    }

    /** The dtype of a tensor argument. */
    static DType dtype(Node n) {
        if (n.meta() == null) throw new TorchException("onnx export: " + n.name() + " has no tensor metadata");
        return n.meta().dtype();
    }

    /** The (example) shape of a tensor node. */
    static long[] shape(Node n) {
        if (n.meta() == null) throw new TorchException("onnx export: " + n.name() + " has no tensor metadata");
        return n.meta().shape();
    }

    /** {@code value} cast to {@code to} when its dtype {@code from} differs. */
    String cast(String value, DType from, DType to) {
        if (from == to) return value;
        return graph.node("Cast", List.of(value), OnnxGraph.attr("to", (long)
                TensorProtos.dataType(to).getNumber()));
    }

    /** A tensor or scalar operand as an ONNX value of dtype {@code as}. */
    String operand(Object a, DType as, Node n) {
        return switch (a) {
            case Node t -> cast(value(t), dtype(t), as);
            case Boolean b -> graph.scalar(as, b ? 1 : 0);
            case Number v -> graph.scalar(as, v.doubleValue());
            case null, default -> throw unsupported(n, "operand " + a + " is neither a tensor nor a number");
        };
    }

    /** Appends a node (shorthand for the graph's). */
    String node(String opType, List<String> inputs, AttributeProto... attributes) {
        return graph.node(opType, inputs, attributes);
    }

    /** The exception for what this exporter cannot write, naming the op and the node. */
    static TorchException unsupported(Node n, String why) {
        return new TorchException("onnx export: " + n.target() + " (node " + n.name() + "): " + why);
    }
}
