package org.jtorch.compile;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.fx.Graph;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;

/**
 * Makes graphs traced at one set of sizes serve every size of their dynamic dimensions: the symbolic-shapes step of
 * {@code torch.compile(dynamic=True)}, done by tracing rather than by symbolic meta rules.
 *
 * <p>JTorch's op rules compute on {@code long} sizes, and Java code reading {@code x.size(0)} gets a {@code long}, so a
 * trace sees numbers, not symbols. This class recovers the symbols from several traces. Each dynamic dimension gets a
 * symbol ({@code s0, s1...}; dimensions of equal size share one, as PyTorch's "duck sizing" does). The function is
 * traced at the sizes of the call (the base), then once per symbol with only that symbol moved to another value. A
 * symbol whose trace fails or records a different graph (different ops, a float that depends on it, a branch in Java)
 * is <i>specialized</i>: it keeps its size and the guards require that size, as PyTorch specializes a symbol a guard
 * pins. For the symbols left, every integer in the graphs (op arguments such as view sizes and slice bounds, and the
 * sizes of the inputs) is fitted as a polynomial with integer coefficients in which each symbol appears at most once
 * per term ({@code s0*s1}, {@code s1 - 1}, {@code 4*s0}), from the traces at the corners of the symbols it depends on.
 * A last trace with every symbol moved at once must give the graph the fit predicts, integer for integer; otherwise
 * nothing is generalized and the graph stays specialized to the base sizes. So a generalized graph has been checked at
 * two independent points beyond the ones it was fitted on, and its guards require what the traces assumed: each symbol
 * at least 2 (sizes 0 and 1 are always specialized) and duck-sized dimensions equal.
 */
public final class ShapeGeneralizer {
    private ShapeGeneralizer() {}

    /** Most symbols an integer may depend on: its fit needs a trace per subset of them. */
    private static final int MAX_SYMBOLS_PER_VALUE = 4;

    /**
     * The graphs of one trace and the tensors it lifted (compared by identity across traces).
     *
     * @param graphs the trace's graphs
     * @param lifted the tensors it lifted
     */
    public record Lowered(List<GraphModule> graphs, List<Tensor> lifted) {}

    /** Traces the function with each symbol at the given value. */
    public interface Sampler {
        /** The trace with symbol {@code si} at {@code symbolValues[i]}. */
        Lowered sample(long[] symbolValues);
    }

    /**
     * The result: the graphs (symbolic when {@code symbolic} is not empty), and which of the planned symbols stayed
     * symbolic, in the order of the graphs' symbols {@code s0, s1...}; {@code note} says why symbols were specialized.
     *
     * @param lowered the graphs
     * @param symbolic the planned symbols that stayed symbolic
     * @param note why the others were specialized
     */
    public record Outcome(Lowered lowered, List<Integer> symbolic, String note) {}

    /**
     * Generalizes over symbols whose base values are {@code base} (all at least 2 and distinct); {@code avoid} lists
     * sizes the moved values must not take (the static sizes of the inputs, which a moved symbol must not collide
     * with).
     */
    public static Outcome generalize(long[] base, List<Long> avoid, Sampler sampler) {
        int m = base.length;
        Traces traces = new Traces(sampler);
        Trace reference = traces.at(base);
        if (m == 0) return new Outcome(reference.lowered, List.of(), "");
        long[] moved = new long[m], check = new long[m];
        List<Long> used = new ArrayList<>(avoid);
        for (long b : base) used.add(b);
        for (int j = 0; j < m; j++) moved[j] = freshValue(base[j], used);
        for (int j = 0; j < m; j++) check[j] = freshValue(base[j], used);
        List<Integer> active = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            long[] values = base.clone();
            values[j] = moved[j];
            try {
                Trace t = traces.at(values);
                if (t.sameShapeAs(reference)) active.add(j);
                else notes.add("s" + j + " specialized to " + base[j] + ": the graph changes with it");
            } catch (RuntimeException e) {
                notes.add("s" + j + " specialized to " + base[j] + ": tracing at " + moved[j] + " fails ("
                        + e.getMessage() + ")");
            }
        }
        if (active.isEmpty()) return new Outcome(reference.lowered, List.of(), String.join("; ", notes));
        try {
            SymInt[] fits = fit(reference, traces, base, moved, active);
            long[] all = base.clone();
            for (int j : active) all[j] = check[j];
            Trace validation = traces.at(all);
            long[] activeCheck = active.stream().mapToLong(j -> check[j]).toArray();
            if (!validation.sameShapeAs(reference)) throw new NotGeneralizable("the graph changes when all sizes move");
            for (int slot = 0; slot < fits.length; slot++) {
                if (fits[slot].eval(activeCheck) != validation.ints[slot]) {
                    throw new NotGeneralizable("an integer of the graph is not " + fits[slot]);
                }
            }
            return new Outcome(reference.rebuild(fits), List.copyOf(active), String.join("; ", notes));
        } catch (RuntimeException e) { // a fit that fails, or a trace at moved sizes that the function refuses
            notes.add("all sizes specialized: " + e.getMessage());
            return new Outcome(reference.lowered, List.of(), String.join("; ", notes));
        }
    }

    /** The fit of every integer slot, over the active symbols (bit {@code k} for {@code active.get(k)}). */
    private static SymInt[] fit(Trace reference, Traces traces, long[] base, long[] moved, List<Integer> active) {
        int slots = reference.ints.length;
        SymInt[] fits = new SymInt[slots];
        Map<Long, long[][]> cornersBySet = new HashMap<>();
        for (int slot = 0; slot < slots; slot++) {
            long dependsOn = 0; // bit k: the slot moves with active.get(k)
            for (int k = 0; k < active.size(); k++) {
                long[] values = base.clone();
                values[active.get(k)] = moved[active.get(k)];
                if (traces.at(values).ints[slot] != reference.ints[slot]) dependsOn |= 1L << k;
            }
            if (dependsOn == 0) {
                fits[slot] = SymInt.constant(reference.ints[slot]);
                continue;
            }
            if (Long.bitCount(dependsOn) > MAX_SYMBOLS_PER_VALUE) {
                throw new NotGeneralizable("an integer depends on more than " + MAX_SYMBOLS_PER_VALUE + " sizes");
            }
            long[][] corners =
                    cornersBySet.computeIfAbsent(dependsOn, set -> corners(set, traces, base, moved, active));
            fits[slot] = interpolate(dependsOn, corners, slot, base, moved, active);
        }
        return fits;
    }

    /** The traces at the corners of a set of symbols (index: subset of the set's bits, in the set's bit order). */
    private static long[][] corners(long set, Traces traces, long[] base, long[] moved, List<Integer> active) {
        int[] members = bits(set);
        long[][] ints = new long[1 << members.length][];
        Trace reference = traces.at(base);
        for (int subset = 0; subset < ints.length; subset++) {
            long[] values = base.clone();
            for (int b = 0; b < members.length; b++) {
                if ((subset & (1 << b)) != 0) values[active.get(members[b])] = moved[active.get(members[b])];
            }
            Trace t = traces.at(values);
            if (!t.sameShapeAs(reference)) throw new NotGeneralizable("the graph changes at the corner " + subset);
            ints[subset] = t.ints;
        }
        return ints;
    }

    /**
     * The multilinear polynomial through the corner values: with {@code t_j = (x_j - b_j) / (a_j - b_j)} the value is
     * {@code sum_U d_U prod_{j in U} t_j} where {@code d_U} is the Möbius difference of the corner values; expanded
     * back in the {@code x_j}, every coefficient must be an integer.
     */
    private static SymInt interpolate(
            long set, long[][] corners, int slot, long[] base, long[] moved, List<Integer> active) {
        int[] members = bits(set);
        int n = members.length;
        Fraction[] coefficient = new Fraction[1 << n]; // by subset V of members: coefficient of prod_{j in V} x_j
        Arrays.fill(coefficient, Fraction.ZERO);
        for (int u = 0; u < (1 << n); u++) {
            long d = 0;
            for (int t = u; ; t = (t - 1) & u) {
                long sign = ((Integer.bitCount(u) - Integer.bitCount(t)) & 1) == 0 ? 1 : -1;
                d = Math.addExact(d, Math.multiplyExact(sign, corners[t][slot]));
                if (t == 0) break;
            }
            if (d == 0) continue;
            BigInteger denominator = BigInteger.ONE;
            for (int b = 0; b < n; b++) {
                if ((u & (1 << b)) == 0) continue;
                int j = active.get(members[b]);
                denominator = denominator.multiply(BigInteger.valueOf(moved[j] - base[j]));
            }
            for (int v = u; ; v = (v - 1) & u) {
                BigInteger numerator = BigInteger.valueOf(d);
                for (int b = 0; b < n; b++) {
                    if ((u & (1 << b)) != 0 && (v & (1 << b)) == 0) {
                        numerator = numerator.multiply(BigInteger.valueOf(-base[active.get(members[b])]));
                    }
                }
                coefficient[v] = coefficient[v].plus(new Fraction(numerator, denominator));
                if (v == 0) break;
            }
        }
        Map<Long, Long> terms = new HashMap<>();
        for (int v = 0; v < coefficient.length; v++) {
            long mask = 0;
            for (int b = 0; b < n; b++) if ((v & (1 << b)) != 0) mask |= 1L << members[b];
            terms.put(mask, coefficient[v].exactLong());
        }
        return SymInt.of(terms);
    }

    private static int[] bits(long set) {
        int[] out = new int[Long.bitCount(set)];
        for (int i = 0, k = 0; k < out.length; i++) if ((set & (1L << i)) != 0) out[k++] = i;
        return out;
    }

    /**
     * A size near {@code base}, at least 2, not yet used: smaller ones first ({@code base-1, base-2...}, then
     * {@code base+1...}), since a function more often bounds a size from above (a context length) than from below.
     */
    private static long freshValue(long base, List<Long> used) {
        for (long candidate = base - 1; candidate >= 2; candidate--) {
            if (!used.contains(candidate)) {
                used.add(candidate);
                return candidate;
            }
        }
        for (long candidate = base + 1; ; candidate++) {
            if (!used.contains(candidate)) {
                used.add(candidate);
                return candidate;
            }
        }
    }

    /** The traces made so far, by symbol values. */
    private static final class Traces {
        private final Sampler sampler;
        private final Map<List<Long>, Trace> done = new HashMap<>();

        Traces(Sampler sampler) {
            this.sampler = sampler;
        }

        Trace at(long[] values) {
            List<Long> key = Arrays.stream(values).boxed().toList();
            Trace t = done.get(key);
            if (t == null) {
                t = new Trace(sampler.sample(values.clone()));
                done.put(key, t);
            }
            return t;
        }
    }

    /**
     * One trace flattened: a signature of its graphs with every integer left out, and the integers in order (op
     * arguments, and each value's sizes: those of a graph's inputs are where its symbols' sources are found).
     */
    private static final class Trace {
        final Lowered lowered;
        final String signature;
        final long[] ints;
        /** Per graph, per placeholder, the slot of each of its sizes. */
        final List<List<int[]>> inputSizeSlots = new ArrayList<>();
        /** The first slot of each graph, and the slot count at the end. */
        final int[] slotStart;

        Trace(Lowered lowered) {
            this.lowered = lowered;
            StringBuilder sig = new StringBuilder();
            List<Long> values = new ArrayList<>();
            slotStart = new int[lowered.graphs.size() + 1];
            for (int g = 0; g < lowered.graphs.size(); g++) {
                GraphModule gm = lowered.graphs.get(g);
                slotStart[g] = values.size();
                Map<Node, Integer> index = new IdentityHashMap<>();
                List<int[]> placeholderSlots = new ArrayList<>();
                for (Node n : gm.graph().nodes()) {
                    index.put(n, index.size());
                    sig.append(n.op())
                            .append(' ')
                            .append(n.target())
                            .append(' ')
                            .append(n.form())
                            .append('(');
                    for (Object a : n.args()) flatten(a, index, sig, values);
                    sig.append(")\n");
                    long[] shape = n.meta() == null ? new long[0] : n.meta().shape();
                    int[] slots = new int[shape.length];
                    for (int d = 0; d < shape.length; d++) {
                        slots[d] = values.size();
                        values.add(shape[d]);
                    }
                    sig.append(" rank ").append(shape.length);
                    if (n.op().equals("placeholder")) placeholderSlots.add(slots);
                    if (n.op().equals("get_attr")) {
                        Tensor c = gm.constants().get(n.target());
                        sig.append(" const ").append(Arrays.toString(c.shape())).append(c.dtype());
                    }
                }
                inputSizeSlots.add(placeholderSlots);
                sig.append("--\n");
            }
            slotStart[lowered.graphs.size()] = values.size();
            this.signature = sig.toString();
            this.ints = values.stream().mapToLong(Long::longValue).toArray();
        }

        boolean sameShapeAs(Trace other) {
            if (!signature.equals(other.signature) || lowered.lifted.size() != other.lowered.lifted.size()) {
                return false;
            }
            for (int i = 0; i < lowered.lifted.size(); i++) {
                if (lowered.lifted.get(i) != other.lowered.lifted.get(i)) return false;
            }
            for (int g = 0; g < lowered.graphs.size(); g++) {
                Map<String, Tensor> mine = lowered.graphs.get(g).constants();
                Map<String, Tensor> theirs = other.lowered.graphs.get(g).constants();
                for (var e : mine.entrySet()) {
                    if (!sameConstant(e.getValue(), theirs.get(e.getKey()))) return false;
                }
            }
            return true;
        }

        private static boolean sameConstant(Tensor a, Tensor b) {
            if (a == b) return true;
            if (b == null || !Arrays.equals(a.shape(), b.shape()) || a.dtype() != b.dtype()) return false;
            try {
                return Arrays.equals(a.toDoubleArray(), b.toDoubleArray());
            } catch (RuntimeException e) {
                return false; // contents that cannot be compared (a fake constant) are not assumed equal
            }
        }

        private static void flatten(Object a, Map<Node, Integer> index, StringBuilder sig, List<Long> values) {
            switch (a) {
                case null -> sig.append("None,");
                case Node n -> sig.append('%').append(index.get(n)).append(',');
                case List<?> list -> {
                    sig.append('[');
                    for (Object e : list) flatten(e, index, sig, values);
                    sig.append("],");
                }
                case Long v -> {
                    sig.append("#,");
                    values.add(v);
                }
                case Integer v -> {
                    sig.append("#i,");
                    values.add(v.longValue());
                }
                case long[] arr -> {
                    sig.append("L").append(arr.length).append(',');
                    for (long v : arr) values.add(v);
                }
                case double[] arr -> sig.append(Arrays.toString(arr)).append(',');
                case boolean[] arr -> sig.append(Arrays.toString(arr)).append(',');
                case Double d ->
                    sig.append("d").append(Double.doubleToLongBits(d)).append(',');
                default ->
                    sig.append(a.getClass().getSimpleName())
                            .append(':')
                            .append(a)
                            .append(',');
            }
        }

        /**
         * The graphs with each integer replaced by its fit, each graph numbering the symbols it uses in order and
         * sourcing each from the first of its inputs' sizes whose fit is exactly that symbol.
         */
        Lowered rebuild(SymInt[] fits) {
            int[] cursor = {0};
            List<GraphModule> out = new ArrayList<>();
            for (int g = 0; g < lowered.graphs.size(); g++) {
                GraphModule gm = lowered.graphs.get(g);
                Graph graph = new Graph();
                SymInt[] local = localFits(fits, g, graph);
                Map<Node, Node> copies = new IdentityHashMap<>();
                for (Node n : gm.graph().nodes()) {
                    Node copy = copy(graph, n, copies, local, cursor);
                    copy.setMeta(n.meta());
                    int rank = n.meta() == null ? 0 : n.meta().shape().length;
                    List<SymInt> sizes = Arrays.asList(local).subList(cursor[0], cursor[0] + rank);
                    if (sizes.stream().anyMatch(f -> !f.isConstant())) copy.setSymbolicShape(new SymIntArray(sizes));
                    cursor[0] += rank;
                    copies.put(n, copy);
                }
                out.add(new GraphModule(graph, gm.constants()));
            }
            return new Lowered(out, lowered.lifted);
        }

        /** The fits with graph {@code g}'s slots renumbered to its own symbols, which are defined on {@code graph}. */
        private SymInt[] localFits(SymInt[] fits, int g, Graph graph) {
            long used = 0;
            for (int slot = slotStart[g]; slot < slotStart[g + 1]; slot++) used |= fits[slot].symbols();
            int[] newIndex = new int[64];
            Arrays.fill(newIndex, -1);
            int next = 0;
            for (int k = 0; k < 64; k++) {
                if ((used & (1L << k)) == 0) continue;
                SymInt wanted = SymInt.symbol(k);
                int[] source = null;
                List<int[]> placeholderSlots = inputSizeSlots.get(g);
                for (int input = 0; input < placeholderSlots.size() && source == null; input++) {
                    int[] slots = placeholderSlots.get(input);
                    for (int d = 0; d < slots.length && source == null; d++) {
                        if (fits[slots[d]].equals(wanted)) source = new int[] {input, d};
                    }
                }
                if (source == null) throw new NotGeneralizable("no input of a graph has the size s" + k);
                graph.defineSymbol(source[0], source[1]);
                newIndex[k] = next++;
            }
            SymInt[] local = fits.clone();
            for (int slot = slotStart[g]; slot < slotStart[g + 1]; slot++)
                local[slot] = fits[slot].renumbered(newIndex);
            return local;
        }

        private static Node copy(Graph graph, Node n, Map<Node, Node> copies, SymInt[] fits, int[] cursor) {
            switch (n.op()) {
                case "placeholder" -> {
                    return graph.placeholder(n.name());
                }
                case "get_attr" -> {
                    return graph.getAttr(n.target());
                }
                case "output" -> {
                    List<Object> args = rebuildArgs(n.args(), copies, fits, cursor);
                    return graph.output(args.stream().map(a -> (Node) a).toArray(Node[]::new));
                }
                default -> {
                    List<Object> args = rebuildArgs(n.args(), copies, fits, cursor);
                    if (n.target().equals(Node.GETITEM)) {
                        return graph.getitem((Node) args.get(0), Math.toIntExact((Long) args.get(1)));
                    }
                    return switch (n.form()) {
                        case FUNCTIONAL -> graph.callFunction(n.opDef(), args.toArray());
                        case IN_PLACE -> graph.callFunctionInPlace(n.opDef(), args.toArray());
                        case OUT -> {
                            @SuppressWarnings("unchecked")
                            List<Node> outs = (List<Node>) (List<?>) args.getLast();
                            yield graph.callFunctionOut(
                                    n.opDef(),
                                    outs,
                                    args.subList(0, args.size() - 1).toArray());
                        }
                    };
                }
            }
        }

        private static List<Object> rebuildArgs(
                List<Object> args, Map<Node, Node> copies, SymInt[] fits, int[] cursor) {
            List<Object> out = new ArrayList<>(args.size());
            for (Object a : args) out.add(rebuild(a, copies, fits, cursor));
            return out;
        }

        private static Object rebuild(Object a, Map<Node, Node> copies, SymInt[] fits, int[] cursor) {
            return switch (a) {
                case Node n -> copies.get(n);
                case List<?> list -> {
                    List<Object> out = new ArrayList<>(list.size());
                    for (Object e : list) out.add(rebuild(e, copies, fits, cursor));
                    yield out;
                }
                case Long v -> {
                    SymInt f = fits[cursor[0]++];
                    yield f.isConstant() ? v : f;
                }
                case Integer v -> {
                    SymInt f = fits[cursor[0]++];
                    yield f.isConstant() ? v : f;
                }
                case long[] arr -> {
                    List<SymInt> elements = new ArrayList<>(arr.length);
                    boolean symbolic = false;
                    for (int i = 0; i < arr.length; i++) {
                        SymInt f = fits[cursor[0]++];
                        symbolic |= !f.isConstant();
                        elements.add(f);
                    }
                    yield symbolic ? new SymIntArray(elements) : arr;
                }
                case null, default -> a;
            };
        }
    }

    /** A fit that fails: the graph stays specialized. */
    private static final class NotGeneralizable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotGeneralizable(String message) {
            super(message);
        }
    }

    /** An exact rational number, for the interpolation's coefficients. */
    private record Fraction(BigInteger numerator, BigInteger denominator) {
        static final Fraction ZERO = new Fraction(BigInteger.ZERO, BigInteger.ONE);

        Fraction {
            if (denominator.signum() < 0) {
                numerator = numerator.negate();
                denominator = denominator.negate();
            }
            BigInteger g = numerator.gcd(denominator);
            if (g.signum() != 0 && !g.equals(BigInteger.ONE)) {
                numerator = numerator.divide(g);
                denominator = denominator.divide(g);
            }
        }

        Fraction plus(Fraction o) {
            return new Fraction(
                    numerator.multiply(o.denominator).add(o.numerator.multiply(denominator)),
                    denominator.multiply(o.denominator));
        }

        long exactLong() {
            if (!denominator.equals(BigInteger.ONE)) throw new NotGeneralizable("a fitted coefficient is not integral");
            return numerator.longValueExact();
        }
    }
}
