package org.jtorch.ops;

import org.jtorch.Tensor;

/**
 * The {@code *_copy} variants of the view ops ({@code view_copy}, {@code permute_copy}, ...): the view, then a
 * contiguous copy that shares no storage with the input. Each is a composite of its view op and {@code _to_copy}, so
 * gradients, forward AD and vmap's batching rules come from those two pieces (2.14 lists these among the ops vmap must
 * batch without the per-example fallback).
 */
public final class ViewCopyOps {
    private ViewCopyOps() {}

    private static Tensor copyOf(Tensor view) {
        return CopyOps.clone(view);
    }

    /** {@code view_copy(self, size)}. */
    public static final OpDef VIEW_COPY = OpDef.composite(
            "view_copy(Tensor self, SymInt[] size) -> Tensor", a -> copyOf(ShapeOps.VIEW.call1(a[0], a[1])));

    /** {@code permute_copy(self, dims)}. */
    public static final OpDef PERMUTE_COPY = OpDef.composite(
            "permute_copy(Tensor self, int[] dims) -> Tensor", a -> copyOf(ShapeOps.PERMUTE.call1(a[0], a[1])));

    /** {@code transpose_copy(self, dim0, dim1)}. */
    public static final OpDef TRANSPOSE_COPY = OpDef.composite(
            "transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor",
            a -> copyOf(ShapeOps.TRANSPOSE.call1(a[0], a[1], a[2])));

    /** {@code t_copy(self)}. */
    public static final OpDef T_COPY =
            OpDef.composite("t_copy(Tensor self) -> Tensor", a -> copyOf(ShapeOps.T.call1(a[0])));

    /** {@code expand_copy(self, size, implicit=False)}. */
    public static final OpDef EXPAND_COPY = OpDef.composite(
            "expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor",
            a -> copyOf(ShapeOps.EXPAND.call1(a[0], a[1], a[2])));

    /** {@code squeeze_copy(self, dims=None)}. */
    public static final OpDef SQUEEZE_COPY = OpDef.composite(
            "squeeze_copy.dims(Tensor self, int[]? dim=None) -> Tensor",
            a -> copyOf(ShapeOps.SQUEEZE.call1(a[0], a[1])));

    /** {@code unsqueeze_copy(self, dim)}. */
    public static final OpDef UNSQUEEZE_COPY = OpDef.composite(
            "unsqueeze_copy(Tensor self, int dim) -> Tensor", a -> copyOf(ShapeOps.UNSQUEEZE.call1(a[0], a[1])));

    /** {@code select_copy(self, dim, index)}. */
    public static final OpDef SELECT_COPY = OpDef.composite(
            "select_copy.int(Tensor self, int dim, SymInt index) -> Tensor",
            a -> copyOf(ShapeOps.SELECT.call1(a[0], a[1], a[2])));

    /** {@code slice_copy(self, dim=0, start=None, end=None, step=1)}. */
    public static final OpDef SLICE_COPY = OpDef.composite(
            "slice_copy.Tensor(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor",
            a -> copyOf(ShapeOps.SLICE.call1(a[0], a[1], a[2], a[3], a[4])));

    /** {@code diagonal_copy(self, offset=0, dim1=0, dim2=1)}. */
    public static final OpDef DIAGONAL_COPY = OpDef.composite(
            "diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor",
            a -> copyOf(ShapeOps.DIAGONAL.call1(a[0], a[1], a[2], a[3])));

    /** {@code alias_copy(self)}. */
    public static final OpDef ALIAS_COPY =
            OpDef.composite("alias_copy(Tensor self) -> Tensor", a -> copyOf(IndexingOps.ALIAS.call1(a[0])));

    // ---------------------------------------------------------------- entry points

    public static Tensor viewCopy(Tensor self, long... size) {
        return VIEW_COPY.call1(self, size.clone());
    }

    public static Tensor permuteCopy(Tensor self, long... dims) {
        return PERMUTE_COPY.call1(self, dims.clone());
    }

    public static Tensor transposeCopy(Tensor self, long dim0, long dim1) {
        return TRANSPOSE_COPY.call1(self, dim0, dim1);
    }

    public static Tensor tCopy(Tensor self) {
        return T_COPY.call1(self);
    }

    public static Tensor expandCopy(Tensor self, long... size) {
        return EXPAND_COPY.call1(self, size.clone(), false);
    }

    public static Tensor squeezeCopy(Tensor self) {
        return SQUEEZE_COPY.call1(self, null);
    }

    public static Tensor squeezeCopy(Tensor self, long... dims) {
        return SQUEEZE_COPY.call1(self, dims.clone());
    }

    public static Tensor unsqueezeCopy(Tensor self, long dim) {
        return UNSQUEEZE_COPY.call1(self, dim);
    }

    public static Tensor selectCopy(Tensor self, long dim, long index) {
        return SELECT_COPY.call1(self, dim, index);
    }

    public static Tensor sliceCopy(Tensor self, long dim, Long start, Long end, long step) {
        return SLICE_COPY.call1(self, dim, start, end, step);
    }

    public static Tensor diagonalCopy(Tensor self, long offset, long dim1, long dim2) {
        return DIAGONAL_COPY.call1(self, offset, dim1, dim2);
    }

    public static Tensor aliasCopy(Tensor self) {
        return ALIAS_COPY.call1(self);
    }
}
