package org.jtorch.compile.inductor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.OpDef;

/**
 * An extern call whose results the compiled plan places in storage of its own ({@link MemoryPlan}, {@link Arena}) and
 * writes through the op's {@code out=} path, instead of letting the op allocate them on every call: a newly allocated
 * output is memory the CPU has not touched for a while, so every cache line of it is fetched before it is overwritten.
 *
 * <p>Only a structured op qualifies (a meta rule and a kernel, no composite expansion, not a view), functional and
 * without side effects, whose schema says its results alias nothing. Its kernel then writes every element of its
 * outputs without reading them (the contract of {@link OpDef.Kernel}; kernels that place values into zeros, the
 * scatters, gradients of gathers and unpoolings, zero their outputs themselves through {@link OpDef.Kernel#intoZeros}),
 * which {@code UninitializedOutputsTest} checks for the op table with poisoned outputs, so stale values of an earlier
 * buffer never show. Left to allocate: random ops (that sweep does not run them), ops whose output sizes depend on the
 * data, and results whose layout is not the contiguous one the op allocates (the arena tensor must have exactly the
 * eager result's strides for the kernel to write the same bits).
 *
 * @param node the call
 * @param layouts its outputs' layouts: one for a tensor result, one per item of a tuple result
 * @param holders per output, the nodes whose values it is: the call itself, or the {@code getitem} nodes reading that
 *     item of its tuple (none for an item nobody reads)
 */
record ExternCall(Node node, TensorMeta[] layouts, Node[][] holders) {

    /**
     * The call of {@code n} into planned outputs, or null when its results stay allocated by the op; {@code metas} are
     * the tensor nodes' layouts, {@code tuples} the items' layouts of tuple results.
     */
    static ExternCall of(Node n, Map<Node, TensorMeta> metas, Map<Node, TensorMeta[]> tuples) {
        if (n.form() != Node.Form.FUNCTIONAL || n.isImpure() || InputWritebacks.copyOf(n) != null) return null;
        OpDef op = n.opDef();
        if (op == null || op.meta() == null || op.kernel() == null) return null;
        if (op.compositeFn() != null || op.viewFn() != null) return null;
        if (op.has(OpDef.Flag.VIEW)
                || op.has(OpDef.Flag.RANDOM)
                || op.has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE)
                || op.has(OpDef.Flag.SIDE_EFFECTS)) return null;
        if (n.schema() == null || n.schema().returnsAlias()) return null;
        TensorMeta single = metas.get(n);
        if (single != null) {
            return allocatedLayout(single) ? new ExternCall(n, new TensorMeta[] {single}, new Node[][] {{n}}) : null;
        }
        TensorMeta[] items = tuples.get(n);
        if (items == null) return null;
        List<List<Node>> readers = new ArrayList<>();
        for (TensorMeta item : items) {
            if (item == null || !allocatedLayout(item)) return null;
            readers.add(new ArrayList<>());
        }
        for (Node user : n.users()) {
            // a tuple is read only item by item; anything else might hold the whole tuple
            if (!user.target().equals(Node.GETITEM)) return null;
            readers.get(Math.toIntExact((Long) user.args().get(1))).add(user);
        }
        Node[][] holders = readers.stream().map(l -> l.toArray(Node[]::new)).toArray(Node[][]::new);
        return new ExternCall(n, items, holders);
    }

    /** Whether a result of this layout is what the op allocates: contiguous, on the CPU's heap. */
    private static boolean allocatedLayout(TensorMeta m) {
        return m.device().type().equals("cpu") && Arrays.equals(m.stride(), Shapes.contiguousStrides(m.shape()));
    }
}
