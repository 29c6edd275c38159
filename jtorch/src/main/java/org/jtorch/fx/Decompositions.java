package org.jtorch.fx;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.CopyOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.TernaryOps;

/**
 * Decomposition to JTorch's core op set ({@code torch._decomp}: {@code core_aten_decompositions()} and
 * {@code make_fx(gm, decomposition_table=...)}).
 *
 * <p><b>The core op set</b> ({@link #isCore}) is, like PyTorch's Core ATen IR, the ops a backend must implement: every
 * registered op that has kernels of its own (structured ops and view ops) and is not a key of
 * {@link #coreAtenDecompositions()}. Composite ops are never core: they are written with other ops, into which they
 * decompose. The table's ops are non-core ops that PyTorch's own table decomposes too, each rewritten with core ops as
 * {@code torch._refs} / {@code torch._decomp} write them:
 *
 * <ul>
 *   <li>{@code aten.square.default}: {@code mul(x, x)} (of {@code x} as int64 for bool, as {@code pow(x, 2)} gives);
 *   <li>{@code aten.silu.default}: {@code mul(x, sigmoid(x))};
 *   <li>{@code aten.deg2rad.default}, {@code aten.rad2deg.default}: {@code mul} by {@code pi / 180} or {@code 180 /
 *       pi};
 *   <li>{@code aten.frac.default}: {@code sub(x, trunc(x))};
 *   <li>{@code aten.addcmul.default}, {@code aten.addcdiv.default}: {@code add(self, mul(mul(t1, t2), value))},
 *       {@code add(self, mul(div(t1, t2), value))};
 *   <li>{@code aten.hardtanh.default}: {@code clamp(x, min_val, max_val)}, converted back to {@code x}'s dtype (clamp
 *       promotes an integer tensor with float bounds; hardtanh does not).
 * </ul>
 *
 * A decomposition rounds each of its steps where the op's kernel may round once, so a decomposed graph agrees with
 * eager within floating-point tolerance rather than bit for bit (exactly, where only composites were expanded: the same
 * kernels run).
 */
public final class Decompositions {
    private Decompositions() {}

    /** A decomposition: computes an op's result from its arguments (in schema order) with other ops. */
    @FunctionalInterface
    public interface Rule {
        /** The op's result (a tensor or an array of them) for {@code args}. */
        Object apply(Object[] args);
    }

    private static final Map<String, Rule> CORE_ATEN = table();

    private static Map<String, Rule> table() {
        Map<String, Rule> t = new LinkedHashMap<>();
        t.put(Graph.targetOf(PointwiseOps.SQUARE), a -> {
            Tensor x = (Tensor) a[0];
            Tensor operand = x.dtype() == DType.BOOL ? CopyOps.to(x, DType.INT64) : x; // pow(bool, 2) is int64
            return PointwiseOps.MUL.call1(operand, operand);
        });
        t.put(Graph.targetOf(PointwiseOps.SILU), a -> PointwiseOps.MUL.call1(a[0], PointwiseOps.SIGMOID.call1(a[0])));
        t.put(Graph.targetOf(PointwiseOps.DEG2RAD), a -> PointwiseOps.MUL.call1(a[0], Math.PI / 180));
        t.put(Graph.targetOf(PointwiseOps.RAD2DEG), a -> PointwiseOps.MUL.call1(a[0], 180 / Math.PI));
        t.put(Graph.targetOf(PointwiseOps.FRAC), a -> PointwiseOps.SUB.call1(a[0], PointwiseOps.TRUNC.call1(a[0])));
        t.put(Graph.targetOf(TernaryOps.ADDCMUL), a -> addc(a, PointwiseOps.MUL.call1(a[1], a[2])));
        t.put(Graph.targetOf(TernaryOps.ADDCDIV), a -> addc(a, PointwiseOps.DIV.call1(a[1], a[2])));
        t.put(Graph.targetOf(ClampOps.HARDTANH), a -> {
            Tensor x = (Tensor) a[0];
            return CopyOps.to(ClampOps.CLAMP.call1(x, a[1], a[2]), x.dtype()); // hardtanh keeps x's dtype
        });
        return Map.copyOf(t);
    }

    /**
     * {@code self + value * product}, the shared tail of addcmul and addcdiv; a missing value is 1. With integer
     * tensors the kernel converts the value to their type ({@code value.to<scalar_t>()}), so the rule truncates a
     * floating value as that conversion does instead of letting it promote the result.
     */
    private static Tensor addc(Object[] a, Tensor product) {
        Object value = a.length > 3 && a[3] != null ? a[3] : 1L;
        if (!product.dtype().isFloatingPoint() && !product.dtype().isComplex() && value instanceof Double d) {
            value = d.longValue();
        }
        return PointwiseOps.ADD.call1(a[0], PointwiseOps.MUL.call1(product, value));
    }

    /** The default table ({@code core_aten_decompositions()}), keyed by graph target ({@code aten.silu.default}). */
    public static Map<String, Rule> coreAtenDecompositions() {
        return CORE_ATEN;
    }

    /** Whether {@code target} (an op overload as graph nodes name it) is in the core op set; see the class comment. */
    public static boolean isCore(String target) {
        if (CORE_ATEN.containsKey(target)) return false;
        for (OpDef op : OpRegistry.all()) if (Graph.targetOf(op).equals(target)) return op.compositeFn() == null;
        return false;
    }

    /**
     * {@code make_fx(gm, decomposition_table=table)(*exampleInputs)}: traces {@code gm} again on {@code exampleInputs}
     * (real, meta or fake tensors), with every composite op recorded as the ops it runs and every op in {@code table}
     * as the ops its rule runs, also where a composite or a rule calls it (an in-place or {@code out=} call as the
     * rule, then a copy into the written tensors). Like any trace it specializes what the example inputs decide (a
     * composite branching on a value takes the branch those values take).
     */
    public static GraphModule decompose(GraphModule gm, Map<String, Rule> table, Tensor... exampleInputs) {
        return Fx.trace(new Tracer(Map.copyOf(table)), gm::call, exampleInputs);
    }

    /** Writes {@code result} (a tensor or an array of them) into {@code outs}, as {@code copy_} does. */
    static void copyInto(Tensor[] outs, Object result) {
        Tensor[] results = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
        for (int i = 0; i < outs.length; i++) {
            Dispatcher.callOut(CopyOps.TO_COPY, new Tensor[] {outs[i]}, results[i], outs[i].dtype(), outs[i].shape());
        }
    }
}
