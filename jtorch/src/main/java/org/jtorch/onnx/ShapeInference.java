package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.GraphProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.TensorShapeProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;

/**
 * The shapes of an ONNX graph's values, with each dynamic dimension of the inputs (a {@code dim_param}) as a symbol, so
 * that the graph passes can prove a reshape, an expand or a flattening valid at every size the model will see rather
 * than at the example's. Also follows the small int64 vectors that shapes are computed as ({@code Shape},
 * {@code Concat} of those and constants). A shape is a list of sizes, null where a size is not known; a value whose
 * rank is not known has no shape. Ops outside the list below get no shape, which only keeps the passes from rewriting
 * around them.
 */
final class ShapeInference {
    private final Map<String, List<SymInt>> shapes = new HashMap<>();
    private final Map<String, List<SymInt>> vectors = new HashMap<>();
    private final Map<String, Tensor> constants;

    private ShapeInference(Map<String, Tensor> constants) {
        this.constants = constants;
    }

    /** The shapes of {@code graph}'s values; {@code constants} are its initializers' values. */
    static ShapeInference of(GraphProto.Builder graph, Map<String, Tensor> constants) {
        ShapeInference s = new ShapeInference(constants);
        Map<String, Integer> symbols = new HashMap<>();
        for (ValueInfoProto in : graph.getInputList()) {
            List<SymInt> dims = new ArrayList<>();
            for (TensorShapeProto.Dimension d :
                    in.getType().getTensorType().getShape().getDimList()) {
                if (d.hasDimValue()) dims.add(SymbolicDims.of(d.getDimValue()));
                else if (d.hasDimParam() && symbols.size() < 63)
                    dims.add(SymInt.symbol(symbols.computeIfAbsent(d.getDimParam(), k -> symbols.size())));
                else dims.add(null);
            }
            s.shapes.put(in.getName(), dims);
        }
        for (var c : constants.entrySet()) {
            Tensor t = c.getValue();
            List<SymInt> dims = new ArrayList<>();
            for (long d : t.shape()) dims.add(SymbolicDims.of(d));
            s.shapes.put(c.getKey(), dims);
            if (t.dim() <= 1 && t.dtype() == DType.INT64 && t.numel() <= 64) {
                List<SymInt> v = new ArrayList<>();
                for (long e : t.reshape(-1).toLongArray()) v.add(SymbolicDims.of(e));
                s.vectors.put(c.getKey(), v);
            }
        }
        for (NodeProto n : graph.getNodeList()) {
            try {
                s.infer(n);
            } catch (RuntimeException e) {
                // a malformed or unusual node only leaves its outputs without a shape
            }
        }
        return s;
    }

    /** The shape of {@code value}, or null when its rank is not known. */
    List<SymInt> shape(String value) {
        return shapes.get(value);
    }

    /** The shape of {@code value} when every size of it is known, else null. */
    List<SymInt> fullShape(String value) {
        List<SymInt> s = shapes.get(value);
        return s == null || s.contains(null) ? null : s;
    }

    /** The elements of an int64 vector value (a shape computed in the graph or a constant), or null. */
    List<SymInt> vector(String value) {
        return vectors.get(value);
    }

    private void infer(NodeProto n) {
        List<String> in = n.getInputList();
        String out = n.getOutputCount() > 0 ? n.getOutput(0) : "";
        List<SymInt> x = in.isEmpty() ? null : shapes.get(in.getFirst());
        switch (n.getOpType()) {
            case "Identity",
                    "Relu",
                    "Gelu",
                    "Erf",
                    "Sqrt",
                    "Reciprocal",
                    "Neg",
                    "Cast",
                    "Softmax",
                    "LogSoftmax",
                    "Tanh",
                    "Sigmoid",
                    "Exp",
                    "Log",
                    "Abs",
                    "Not",
                    "Dropout",
                    "LayerNormalization",
                    "BatchNormalization",
                    "Trilu",
                    "Sin",
                    "Cos",
                    "IsNaN",
                    "IsInf" -> {
                put(out, x);
                if (n.getOpType().equals("Identity") && vectors.containsKey(in.getFirst()))
                    vectors.put(out, vectors.get(in.getFirst()));
            }
            case "Add",
                    "Sub",
                    "Mul",
                    "Div",
                    "Pow",
                    "Equal",
                    "Less",
                    "Greater",
                    "LessOrEqual",
                    "GreaterOrEqual",
                    "And",
                    "Or",
                    "Where",
                    "Max",
                    "Min" -> {
                List<SymInt> s = x;
                for (int i = 1; i < in.size() && s != null; i++) s = broadcast(s, shapes.get(in.get(i)));
                put(out, s);
            }
            case "Transpose" -> {
                if (x == null) return;
                long[] perm = Nodes.ints(n, "perm");
                List<SymInt> s = new ArrayList<>();
                for (int i = 0; i < x.size(); i++) s.add(x.get((int) (perm == null ? x.size() - 1 - i : perm[i])));
                put(out, s);
            }
            case "Reshape" -> put(out, reshape(x, vectors.get(in.get(1)), Nodes.integer(n, "allowzero", 0) != 0));
            case "Expand" -> put(out, x == null ? null : broadcast(x, vectors.get(in.get(1))));
            case "MatMul" -> put(out, matmul(x, shapes.get(in.get(1))));
            case "Gemm" -> {
                List<SymInt> b = shapes.get(in.get(1));
                if (x == null || b == null || x.size() != 2 || b.size() != 2) return;
                boolean ta = Nodes.integer(n, "transA", 0) != 0, tb = Nodes.integer(n, "transB", 0) != 0;
                put(out, Arrays.asList(x.get(ta ? 1 : 0), b.get(tb ? 0 : 1)));
            }
            case "Shape" -> shape(n, x, out);
            case "Concat" -> concat(n, in, out);
            case "Slice" -> put(out, slice(x, in));
            case "Gather" -> {
                List<SymInt> idx = shapes.get(in.get(1));
                if (x == null || idx == null) return;
                int axis = (int) normalize(Nodes.integer(n, "axis", 0), x.size());
                List<SymInt> s = new ArrayList<>(x.subList(0, axis));
                s.addAll(idx);
                s.addAll(x.subList(axis + 1, x.size()));
                put(out, s);
            }
            case "Unsqueeze" -> {
                List<SymInt> axes = vectors.get(in.get(1));
                if (x == null || axes == null || axes.stream().anyMatch(a -> !SymbolicDims.isStatic(a))) return;
                int rank = x.size() + axes.size();
                List<Long> at = axes.stream()
                        .map(a -> normalize(a.constantValue(), rank))
                        .sorted()
                        .toList();
                List<SymInt> s = new ArrayList<>(x);
                for (long a : at) s.add((int) a, SymbolicDims.of(1));
                put(out, s);
            }
            case "Split" -> split(n, x, in);
            case "ReduceMin", "ReduceMax", "ReduceMean", "ReduceSum", "ReduceProd" -> put(out, reduce(n, x, in));
            case "Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool" -> {
                if (x == null) return;
                // the rank and the batch size are kept; the channels are the weight's; spatial sizes are not followed
                List<SymInt> s = new ArrayList<>(java.util.Collections.nCopies(x.size(), (SymInt) null));
                s.set(0, x.getFirst());
                List<SymInt> w = n.getOpType().equals("Conv") ? shapes.get(in.get(1)) : null;
                s.set(1, n.getOpType().equals("Conv") ? (w == null ? null : w.getFirst()) : x.get(1));
                if (n.getOpType().startsWith("Global")) for (int i = 2; i < s.size(); i++) s.set(i, SymbolicDims.of(1));
                put(out, s);
            }
            default -> {}
        }
    }

    /** Split along {@code axis}: by the sizes given, or into {@code num_outputs} pieces of a static size. */
    private void split(NodeProto n, List<SymInt> x, List<String> in) {
        if (x == null) return;
        int axis = (int) normalize(Nodes.integer(n, "axis", 0), x.size());
        List<SymInt> sizes = in.size() > 1 && !in.get(1).isEmpty() ? vectors.get(in.get(1)) : null;
        if (sizes == null) {
            SymInt whole = x.get(axis);
            long count = n.getOutputCount();
            if (!SymbolicDims.isStatic(whole) || whole.constantValue() % count != 0) return;
            sizes = java.util.Collections.nCopies((int) count, SymbolicDims.of(whole.constantValue() / count));
        }
        if (sizes.size() != n.getOutputCount()) return;
        for (int i = 0; i < sizes.size(); i++) {
            List<SymInt> s = new ArrayList<>(x);
            s.set(axis, sizes.get(i));
            put(n.getOutput(i), s);
        }
    }

    /**
     * A reduction (opset 18+: the axes as an input; none given reduces every dimension unless noop_with_empty_axes).
     */
    private List<SymInt> reduce(NodeProto n, List<SymInt> x, List<String> in) {
        if (x == null) return null;
        boolean keep = Nodes.integer(n, "keepdims", 1) != 0;
        List<SymInt> axes = in.size() > 1 && !in.get(1).isEmpty() ? vectors.get(in.get(1)) : List.of();
        if (axes == null || axes.stream().anyMatch(a -> !SymbolicDims.isStatic(a))) return null;
        if (axes.isEmpty() && Nodes.integer(n, "noop_with_empty_axes", 0) != 0) return x;
        java.util.Set<Long> reduced = new java.util.HashSet<>();
        for (SymInt a : axes) reduced.add(normalize(a.constantValue(), x.size()));
        List<SymInt> s = new ArrayList<>();
        for (int d = 0; d < x.size(); d++) {
            boolean r = axes.isEmpty() || reduced.contains((long) d);
            if (!r) s.add(x.get(d));
            else if (keep) s.add(SymbolicDims.of(1));
        }
        return s;
    }

    private void put(String value, List<SymInt> shape) {
        if (shape != null && !value.isEmpty()) shapes.put(value, shape);
    }

    private void shape(NodeProto n, List<SymInt> x, String out) {
        if (x == null) return;
        long start = normalizeClamped(Nodes.integer(n, "start", 0), x.size());
        long end = normalizeClamped(Nodes.integer(n, "end", x.size()), x.size());
        List<SymInt> v = new ArrayList<>(x.subList((int) start, (int) Math.max(start, end)));
        put(out, List.of(SymbolicDims.of(v.size())));
        if (!v.contains(null)) vectors.put(out, v);
    }

    private void concat(NodeProto n, List<String> in, String out) {
        int rank = -1;
        List<SymInt> vector = new ArrayList<>();
        List<SymInt> joined = null;
        for (String i : in) {
            List<SymInt> v = vectors.get(i);
            if (vector != null && v != null) vector.addAll(v);
            else vector = null;
            List<SymInt> s = shapes.get(i);
            if (s == null) return;
            if (rank < 0) {
                rank = s.size();
                joined = new ArrayList<>(s);
                continue;
            }
            if (s.size() != rank) return;
            int axis = (int) normalize(Nodes.integer(n, "axis", 0), rank);
            for (int d = 0; d < rank; d++) {
                joined.set(d, d == axis ? plus(joined.get(d), s.get(d)) : same(joined.get(d), s.get(d)));
            }
        }
        put(out, joined);
        if (vector != null) vectors.put(out, vector);
    }

    private static SymInt plus(SymInt a, SymInt b) {
        if (a == null || b == null) return null;
        var terms = new java.util.TreeMap<Long, Long>(a.terms());
        for (var t : b.terms().entrySet()) terms.merge(t.getKey(), t.getValue(), Long::sum);
        return SymInt.of(terms);
    }

    private static SymInt same(SymInt a, SymInt b) {
        return a != null && a.equals(b) ? a : a == null ? b : a;
    }

    /** ONNX Reshape: a 0 copies the input's size there unless {@code allowzero}, one -1 takes what is left. */
    private static List<SymInt> reshape(List<SymInt> x, List<SymInt> target, boolean allowZero) {
        if (target == null) return null;
        List<SymInt> s = new ArrayList<>(target);
        int inferred = -1;
        for (int i = 0; i < s.size(); i++) {
            SymInt d = s.get(i);
            if (SymbolicDims.is(d, 0) && !allowZero) s.set(i, x == null || i >= x.size() ? null : x.get(i));
            else if (SymbolicDims.is(d, -1)) inferred = i;
        }
        if (inferred >= 0) {
            List<SymInt> rest = new ArrayList<>(s);
            rest.remove(inferred);
            SymInt numel = x == null || x.contains(null) ? null : SymbolicDims.product(x);
            s.set(inferred, rest.contains(null) ? null : SymbolicDims.quotient(numel, SymbolicDims.product(rest)));
        }
        return s;
    }

    /** Multidirectional broadcasting; null when the ranks are unknown. */
    static List<SymInt> broadcast(List<SymInt> a, List<SymInt> b) {
        if (a == null || b == null) return null;
        int rank = Math.max(a.size(), b.size());
        List<SymInt> s = new ArrayList<>();
        for (int i = 0; i < rank; i++) {
            SymInt da = i - (rank - a.size()) >= 0 ? a.get(i - (rank - a.size())) : SymbolicDims.of(1);
            SymInt db = i - (rank - b.size()) >= 0 ? b.get(i - (rank - b.size())) : SymbolicDims.of(1);
            if (SymbolicDims.is(da, 1)) s.add(db);
            else if (SymbolicDims.is(db, 1)) s.add(da);
            else if (da != null && da.equals(db)) s.add(da);
            else s.add(null); // unknown, or sizes that do not broadcast
        }
        return s;
    }

    private static List<SymInt> matmul(List<SymInt> a, List<SymInt> b) {
        if (a == null || b == null || a.size() < 2 || b.size() < 2) return null;
        List<SymInt> batch = broadcast(a.subList(0, a.size() - 2), b.subList(0, b.size() - 2));
        List<SymInt> s = new ArrayList<>(batch);
        s.add(a.get(a.size() - 2));
        s.add(b.getLast());
        return s;
    }

    /** Slice with constant starts, ends, axes and steps, on dimensions of static size. */
    private List<SymInt> slice(List<SymInt> x, List<String> in) {
        if (x == null || in.size() < 3) return null;
        List<SymInt> starts = vectors.get(in.get(1)), ends = vectors.get(in.get(2));
        List<SymInt> axes = in.size() > 3 && !in.get(3).isEmpty() ? vectors.get(in.get(3)) : null;
        List<SymInt> steps = in.size() > 4 && !in.get(4).isEmpty() ? vectors.get(in.get(4)) : null;
        if (starts == null || ends == null || (in.size() > 3 && !in.get(3).isEmpty() && axes == null)) return null;
        if (in.size() > 4 && !in.get(4).isEmpty() && steps == null) return null;
        List<SymInt> s = new ArrayList<>(x);
        for (int i = 0; i < starts.size(); i++) {
            int axis = (int) normalize(axes == null ? i : axes.get(i).constantValue(), x.size());
            SymInt size = x.get(axis);
            long step = steps == null ? 1 : steps.get(i).constantValue();
            if (!SymbolicDims.isStatic(size)
                    || step != 1
                    || !SymbolicDims.isStatic(starts.get(i))
                    || !SymbolicDims.isStatic(ends.get(i))) {
                s.set(axis, null);
                continue;
            }
            long dim = size.constantValue();
            long start = clampIndex(starts.get(i).constantValue(), dim);
            long end = clampIndex(ends.get(i).constantValue(), dim);
            s.set(axis, SymbolicDims.of(Math.max(0, end - start)));
        }
        return s;
    }

    private static long clampIndex(long i, long dim) {
        if (i < 0) i += dim;
        return Math.max(0, Math.min(dim, i));
    }

    private static long normalize(long axis, int rank) {
        return axis < 0 ? axis + rank : axis;
    }

    private static long normalizeClamped(long axis, int rank) {
        return Math.max(0, Math.min(rank, normalize(axis, rank)));
    }

    /** The constant's tensor, or null. */
    Tensor constant(String value) {
        return constants.get(value);
    }
}
