package org.jtorch.fx;

import java.util.List;
import org.jtorch.TorchException;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.ShapeOps;
import org.jtorch.ops.ViewScatterOps;

/**
 * How functionalization writes a new value of a view back into the view's base: the out-of-place inverse of each view
 * op, as PyTorch's functionalization replays a view's {@code ViewMeta} in reverse. Views that select elements
 * ({@code slice}, {@code select}, {@code diagonal}) scatter the value into the base with their {@code *_scatter} op;
 * views that only rearrange all the elements ({@code view}, {@code squeeze}, {@code unsqueeze}, {@code permute},
 * {@code transpose}, {@code alias}, an {@code expand} that broadcasts nothing) rearrange the value back. Views whose
 * elements cannot be mapped back this way ({@code as_strided}, which may overlap or skip its base's elements, and
 * {@code view_as_real}/{@code view_as_complex}, which change the dtype) are refused.
 */
final class ViewInverses {
    private ViewInverses() {}

    /** Whether {@link #writeBack} can invert {@code view}; throws naming the view when it cannot. */
    static void requireInvertible(Node view) {
        OpDef op = view.opDef();
        boolean known = op == ShapeOps.SLICE
                || op == ShapeOps.SELECT
                || op == ShapeOps.DIAGONAL
                || op == IndexingOps.ALIAS
                || op == ShapeOps.TRANSPOSE
                || op == ShapeOps.PERMUTE
                || op == ShapeOps.VIEW
                || op == ShapeOps.SQUEEZE
                || op == ShapeOps.UNSQUEEZE
                || (op == ShapeOps.EXPAND
                        && numel(view.meta().shape())
                                == numel(parent(view).meta().shape()));
        if (!known) {
            throw new TorchException("functionalization cannot write through a view made by " + view.target() + " ("
                    + view.name() + "): its elements do not map back onto its base's one to one");
        }
    }

    /**
     * The node computing the base after {@code value} is written into {@code view} of {@code base}: {@code base} is the
     * functional graph's node for the view's base, {@code view} the original graph's view node (its arguments give the
     * view's parameters, its base's metadata the shape to restore).
     */
    static Node writeBack(Graph g, Node view, Node base, Node value) {
        requireInvertible(view);
        OpDef op = view.opDef();
        List<Object> a = view.args();
        if (op == ShapeOps.SLICE)
            return g.callFunction(ViewScatterOps.SLICE_SCATTER, base, value, a.get(1), a.get(2), a.get(3), a.get(4));
        if (op == ShapeOps.SELECT)
            return g.callFunction(ViewScatterOps.SELECT_SCATTER, base, value, a.get(1), a.get(2));
        if (op == ShapeOps.DIAGONAL)
            return g.callFunction(ViewScatterOps.DIAGONAL_SCATTER, base, value, a.get(1), a.get(2), a.get(3));
        if (op == IndexingOps.ALIAS) return value;
        if (op == ShapeOps.TRANSPOSE) return g.callFunction(ShapeOps.TRANSPOSE, value, a.get(1), a.get(2));
        if (op == ShapeOps.PERMUTE)
            return g.callFunction(ShapeOps.PERMUTE, value, inversePermutation((long[]) a.get(1)));
        return g.callFunction(ShapeOps.RESHAPE, value, parent(view).meta().shape());
    }

    private static Node parent(Node view) {
        return (Node) view.args().getFirst();
    }

    private static long[] inversePermutation(long[] dims) {
        long[] inverse = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            int d = (int) (dims[i] < 0 ? dims[i] + dims.length : dims[i]);
            inverse[d] = i;
        }
        return inverse;
    }

    private static long numel(long[] shape) {
        long n = 1;
        for (long s : shape) n *= s;
        return n;
    }
}
