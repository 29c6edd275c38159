package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * The {@code *_scatter} ops, the out-of-place inverses of the view ops ({@code slice_scatter}, {@code select_scatter},
 * {@code diagonal_scatter}): a copy of {@code self} with the view's elements replaced by {@code src}. Functionalization
 * writes a mutated view back into its base with them, as PyTorch's functionalization does.
 *
 * <p>Each is a composite written out of place, as PyTorch's decompositions of them are: the view's backward op places
 * {@code src} (converted to {@code self}'s dtype) and a mask of the view's elements in a tensor of {@code self}'s
 * shape, and {@code where} picks between that and {@code self}, element by element and bit for bit. Gradients, forward
 * AD and vmap come from those pieces; ATen's kernel (clone, then {@code copy_} into the view) could not be vmapped over
 * {@code src} alone.
 */
public final class ViewScatterOps {
    private ViewScatterOps() {}

    /** What the view's backward op does with a tensor of the view's shape: places it in a tensor of self's shape. */
    @FunctionalInterface
    private interface Placement {
        Tensor place(Tensor viewShaped, long[] selfShape);
    }

    /** {@code self} with the elements of its view {@code part} replaced by {@code src}, placed by {@code placement}. */
    private static Tensor scatter(Tensor self, Tensor src, Tensor part, Placement placement) {
        if (!Arrays.equals(part.impl().shapeRef(), src.impl().shapeRef())) {
            throw new TorchException("expected src to have a size equal to the slice of self. src size = "
                    + Shapes.str(src.impl().shapeRef()) + ", slice size = "
                    + Shapes.str(part.impl().shapeRef()));
        }
        long[] shape = self.shape();
        Tensor placed = placement.place(CopyOps.to(src, self.dtype()), shape);
        Tensor mask = placement.place(CopyOps.to(Creation.onesLike(src), DType.BOOL), shape);
        return TernaryOps.where(mask, placed, self);
    }

    private static long lng(Object o) {
        return ((Number) o).longValue();
    }

    /**
     * {@code slice_scatter(self, src, dim, start, end, step)}: {@code self} with {@code self[start:end:step]} = src.
     */
    public static final OpDef SLICE_SCATTER = OpDef.composite(
            "slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) "
                    + "-> Tensor",
            a -> {
                long start = a[3] == null ? 0 : lng(a[3]), end = a[4] == null ? Long.MAX_VALUE : lng(a[4]);
                Tensor part = ShapeOps.SLICE.call1(a[0], a[2], a[3], a[4], a[5]);
                return scatter(
                        (Tensor) a[0],
                        (Tensor) a[1],
                        part,
                        (t, shape) -> BackwardOps.sliceBackward(t, shape, lng(a[2]), start, end, lng(a[5])));
            });

    /** {@code select_scatter(self, src, dim, index)}: {@code self} with {@code select(dim, index)} = src. */
    public static final OpDef SELECT_SCATTER =
            OpDef.composite("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor", a -> {
                Tensor part = ShapeOps.SELECT.call1(a[0], a[2], a[3]);
                return scatter(
                        (Tensor) a[0],
                        (Tensor) a[1],
                        part,
                        (t, shape) -> BackwardOps.selectBackward(t, shape, lng(a[2]), lng(a[3])));
            });

    /** {@code diagonal_scatter(self, src, offset, dim1, dim2)}: {@code self} with its diagonal = src. */
    public static final OpDef DIAGONAL_SCATTER = OpDef.composite(
            "diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor", a -> {
                Tensor part = ShapeOps.DIAGONAL.call1(a[0], a[2], a[3], a[4]);
                return scatter(
                        (Tensor) a[0],
                        (Tensor) a[1],
                        part,
                        (t, shape) -> BackwardOps.diagonalBackward(t, shape, lng(a[2]), lng(a[3]), lng(a[4])));
            });
}
