package org.jtorch.compile.inductor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Scalar;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.Expr.BinaryOp;
import org.jtorch.compile.inductor.ir.Expr.CompareOp;
import org.jtorch.compile.inductor.ir.Expr.UnaryOp;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.compile.inductor.ir.ScalarKind;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;
import org.jtorch.fx.TensorMeta;

/**
 * Lowers a graph, for one set of concrete input sizes, to steps: extern calls (GEMM, convolution, scatter and every op
 * without a lowering run through the dispatcher, as eager code runs them) and kernels.
 *
 * <p>Pointwise ops and views become {@link Value.Virtual} expressions that each consumer inlines, so a chain of them is
 * one loop; a value is stored only when something needs a tensor (an extern call, a graph output), when it feeds a
 * reduction of another shape as a gather, or when inlining it again would repeat a large computation. Reductions and
 * the row ops (softmax, log-softmax, their backwards, layer norm) become row kernels whose input expression is inlined
 * into the reduction loop (prologue fusion); the {@link Scheduler} then fuses row kernels with the pointwise kernels
 * that read their results (epilogue fusion).
 */
final class Lowering {
    /** Past this many expression nodes a value read by several consumers is stored rather than recomputed. */
    private static final int SHARED_INLINE_LIMIT = 24;
    /** Past this many expression nodes any value is stored. */
    private static final int INLINE_LIMIT = 160;

    private final Map<Node, TensorMeta> metas;
    private final long[] symbolValues;
    private final Map<Node, Value> values = new HashMap<>();
    private final Map<Node, Integer> slotOf = new HashMap<>();
    final List<Node> slots = new ArrayList<>();
    /** The layout of each realized node's tensor. */
    final Map<Node, TensorMeta> layouts = new LinkedHashMap<>();

    final List<Object> steps = new ArrayList<>();

    /** An extern call: the node runs through the dispatcher on its realized arguments. */
    record ExternStep(Node node) {}

    private Lowering(Map<Node, TensorMeta> metas, long[] symbolValues) {
        this.metas = metas;
        this.symbolValues = symbolValues;
    }

    /** Lowers {@code gm}, whose nodes have the concrete {@code metas}; returns the lowering with its steps. */
    static Lowering lower(GraphModule gm, Map<Node, TensorMeta> metas, long[] symbolValues) {
        Lowering l = new Lowering(metas, symbolValues);
        List<InputWritebacks.Copy> writebacks = InputWritebacks.of(gm);
        for (Node n : gm.graph().nodes()) {
            if (writebacks != null
                    && !writebacks.isEmpty()
                    && n == writebacks.getFirst().node()) {
                // every written value exists before the first write: none may read an input already overwritten
                for (InputWritebacks.Copy w : writebacks) l.realize(w.value());
            }
            switch (n.op()) {
                case "placeholder", "get_attr" -> l.realizedAs(n, metas.get(n));
                case "output" -> {
                    for (Object a : n.args()) if (a instanceof Node m) l.realize(m);
                }
                default -> l.lowerCall(n);
            }
        }
        return l;
    }

    int slot(Node n) {
        return slotOf.computeIfAbsent(n, k -> {
            slots.add(k);
            return slots.size() - 1;
        });
    }

    private void realizedAs(Node n, TensorMeta layout) {
        values.put(n, new Value.Realized(n));
        if (layout != null) layouts.put(n, layout);
    }

    // ---------------------------------------------------------------- calls

    private void lowerCall(Node n) {
        if (n.target().equals(Node.GETITEM)) {
            Node tuple = (Node) n.args().get(0);
            int i = Math.toIntExact((Long) n.args().get(1));
            if (values.get(tuple) instanceof Value.Tuple t) {
                values.put(n, t.items()[i]);
            } else {
                extern(n);
            }
            return;
        }
        Value v = null;
        if (lowerable(n)) v = Lowerings.lower(this, n);
        if (v == null) {
            extern(n);
            return;
        }
        values.put(n, v);
        if (v instanceof Value.Virtual virtual) {
            int size = virtual.body().nodeCount();
            if (size > INLINE_LIMIT || (size > SHARED_INLINE_LIMIT && n.users().size() > 1)) realize(n);
        }
    }

    /** Whether every tensor the node reads and writes has a dtype kernels handle. */
    private boolean lowerable(Node n) {
        if (n.form() != Node.Form.FUNCTIONAL || n.isImpure()) return false;
        TensorMeta out = metas.get(n);
        if (out != null && (Elem.of(out.dtype()) == null || !out.device().type().equals("cpu"))) return false;
        for (Node in : n.inputNodes()) {
            TensorMeta m = metas.get(in);
            if (m == null && !(values.get(in) instanceof Value.Tuple)) return false;
            if (m != null && (Elem.of(m.dtype()) == null || !m.device().type().equals("cpu"))) return false;
        }
        return true;
    }

    private void extern(Node n) {
        for (Node in : n.inputNodes()) realize(in);
        steps.add(new ExternStep(n));
        TensorMeta meta = metas.get(n);
        if (meta != null) layouts.put(n, meta);
        values.put(n, new Value.Realized(n));
    }

    /** Makes {@code n}'s tensor exist at run time (for an extern call, an output, a gather's table). */
    void realize(Node n) {
        Value v = values.get(n);
        if (v instanceof Value.Realized r && r.node() == n) return;
        if (v instanceof Value.Tuple) return; // read through getitem nodes, each realized on its own
        if (Lowerings.isView(n.target())) {
            // a view of a realized tensor is the view op itself, as eager code runs it
            for (Node in : n.inputNodes()) realize(in);
            steps.add(new ExternStep(n));
            layouts.put(n, metas.get(n));
            values.put(n, new Value.Realized(n));
            return;
        }
        if (!(v instanceof Value.Virtual virtual)) throw new IllegalStateException("no value for " + n);
        TensorMeta meta = metas.get(n);
        long[] stride = isDense(meta.shape(), meta.stride()) ? meta.stride() : Views.contiguous(meta.shape());
        TensorMeta layout = new TensorMeta(meta.shape(), stride, meta.dtype(), meta.device(), false);
        KernelPlan k = new KernelPlan(n.name(), new long[0], meta.shape());
        k.elementStores.add(new LoopKernel.Store(slot(n), Access.of(stride), virtual.body()));
        k.outputs.add(n);
        layouts.put(n, layout);
        steps.add(k);
        values.put(n, new Value.Realized(n));
    }

    /** Adds a kernel whose outputs are the given nodes, stored with their metadata's layouts (dense ones). */
    void addKernel(KernelPlan k) {
        for (Node out : k.outputs) {
            layouts.put(out, metas.get(out));
            values.put(out, new Value.Realized(out));
        }
        steps.add(k);
    }

    static boolean isDense(long[] shape, long[] stride) {
        Integer[] order = new Integer[shape.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(stride[a], stride[b]));
        long expected = 1;
        for (int d : order) {
            if (shape[d] == 1) continue;
            if (stride[d] != expected) return false;
            expected *= shape[d];
        }
        return true;
    }

    // ---------------------------------------------------------------- what lowerings read

    TensorMeta meta(Node n) {
        return metas.get(n);
    }

    long[] shape(Node n) {
        return metas.get(n).shape();
    }

    Elem elem(Node n) {
        return Elem.of(metas.get(n).dtype());
    }

    Value value(Node n) {
        return values.get(n);
    }

    /** A realized node's tensor: whether its layout is known (a get_attr or input without metadata is not). */
    boolean hasLayout(Node n) {
        return layouts.containsKey(n);
    }

    /** {@code n}'s value at each point of its own shape. */
    Expr expr(Node n) {
        Value v = values.get(n);
        return switch (v) {
            case Value.Virtual virtual -> virtual.body();
            case Value.Realized r -> {
                TensorMeta layout = layouts.get(r.node());
                yield new Expr.Load(slot(r.node()), Access.of(layout.stride()), Elem.of(layout.dtype()));
            }
            case Value.Tuple t -> throw new IllegalStateException("a tuple is read through getitem: " + n);
        };
    }

    /** {@code n}'s value broadcast to {@code shape} and converted to {@code kind}. */
    Expr operand(Object arg, long[] shape, ScalarKind kind) {
        if (arg instanceof Node n) {
            Expr e = Views.remap(expr(n), Views.expand(shape(n), shape));
            return cast(e, kind);
        }
        return constant(arg, kind);
    }

    /** A constant of a number argument ({@code Double}, {@code Long}, {@code Boolean}, {@code Scalar}). */
    static Expr constant(Object arg, ScalarKind kind) {
        double v =
                switch (arg) {
                    case Double d -> d;
                    case Float f -> f;
                    case Long l -> l;
                    case Integer i -> i;
                    case Boolean b -> b ? 1 : 0;
                    case Scalar s -> s.isFloatingPoint() ? s.doubleValue() : s.longValue();
                    default -> throw new IllegalArgumentException("not a number: " + arg);
                };
        if (kind == ScalarKind.LONG) v = (long) v;
        if (kind == ScalarKind.BOOL) v = v != 0 ? 1 : 0;
        return new Expr.Constant(v, kind);
    }

    static Expr cast(Expr e, ScalarKind kind) {
        return e.kind() == kind ? e : new Expr.Cast(e, kind);
    }

    static boolean isNumber(Object arg) {
        return arg instanceof Number || arg instanceof Boolean || arg instanceof Scalar;
    }

    static boolean isFloatNumber(Object arg) {
        return arg instanceof Double || arg instanceof Float || (arg instanceof Scalar s && s.isFloatingPoint());
    }

    /** The kind operands compute in: the widest tensor operand's, widened to float for a float number. */
    ScalarKind promoted(List<?> operands) {
        ScalarKind best = ScalarKind.BOOL;
        boolean floatNumber = false, intNumber = false;
        for (Object o : operands) {
            if (o instanceof Node n) {
                ScalarKind k = elem(n).kind();
                if (k.ordinal() > best.ordinal()) best = k;
            } else if (isFloatNumber(o)) {
                floatNumber = true;
            } else if (isNumber(o) && !(o instanceof Boolean)) {
                intNumber = true;
            }
        }
        if (floatNumber && !best.isFloating()) best = ScalarKind.FLOAT;
        if (intNumber && best == ScalarKind.BOOL) best = ScalarKind.LONG;
        return best;
    }

    long concrete(Object arg) {
        return switch (arg) {
            case SymInt s -> s.eval(symbolValues);
            case Number x -> x.longValue();
            default -> throw new IllegalArgumentException("not an integer: " + arg);
        };
    }

    /** An int[] argument's values; null for None. */
    long[] concreteList(Object arg) {
        return switch (arg) {
            case null -> null;
            case Number x -> new long[] {x.longValue()};
            case long[] a -> a.clone();
            case SymIntArray a -> a.eval(symbolValues);
            case List<?> l -> l.stream().mapToLong(this::concrete).toArray();
            default -> throw new IllegalArgumentException("not a list of integers: " + arg);
        };
    }

    static Expr unary(UnaryOp op, Expr x) {
        return new Expr.Unary(op, x);
    }

    static Expr binary(BinaryOp op, Expr a, Expr b) {
        return new Expr.Binary(op, a, b);
    }

    static Expr compare(CompareOp op, Expr a, Expr b) {
        return new Expr.Compare(op, a, b);
    }

    // ---------------------------------------------------------------- row kernels

    /**
     * A row kernel over {@code input}'s shape with the dimensions {@code reduced} as the row (moved last, in order):
     * returns the index map that re-expresses any expression over {@code input}'s shape in the kernel's order, and the
     * kernel's outer and inner sizes.
     */
    RowSpace rows(long[] inputShape, int[] reduced) {
        boolean[] isReduced = new boolean[inputShape.length];
        for (int d : reduced) isReduced[d] = true;
        int[] perm = new int[inputShape.length];
        int i = 0;
        for (int d = 0; d < inputShape.length; d++) if (!isReduced[d]) perm[i++] = d;
        int nOuter = i;
        for (int d : reduced) perm[i++] = d;
        long[] outer = new long[nOuter];
        long[] inner = new long[reduced.length];
        for (int d = 0; d < perm.length; d++) {
            if (d < nOuter) outer[d] = inputShape[perm[d]];
            else inner[d - nOuter] = inputShape[perm[d]];
        }
        return new RowSpace(perm, outer, inner);
    }

    /** The loop order of a row kernel: kernel dimension {@code d} is input dimension {@code perm[d]}. */
    record RowSpace(int[] perm, long[] outer, long[] inner) {
        Expr reorder(Expr e) {
            return Views.remap(e, Views.permute(perm));
        }

        /** The access storing an output laid out as {@code stride} over the input's dimensions. */
        Access store(long[] strideOverInput) {
            return Views.permute(perm).apply(Access.of(strideOverInput));
        }

        long rowLength() {
            long n = 1;
            for (long s : inner) n *= s;
            return n;
        }
    }

    /**
     * The strides over the input's dimensions of an output of {@code out} that drops (or keeps as size one) the reduced
     * dimensions: reduced dimensions get stride 0.
     */
    static long[] reducedOutputStride(long[] inputShape, boolean[] isReduced, long[] outStride, boolean keepDim) {
        long[] s = new long[inputShape.length];
        for (int d = 0, o = 0; d < inputShape.length; d++) {
            if (isReduced[d]) {
                if (keepDim) o++;
            } else {
                s[d] = outStride[o++];
            }
        }
        return s;
    }
}
