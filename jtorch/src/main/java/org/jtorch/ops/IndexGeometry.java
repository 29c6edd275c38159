package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.storage.TensorImpl;

/**
 * Geometry shared by the indexing kernels ({@link IndexingOps}, {@link ScatterOps}): the restrided views that let
 * {@link org.jtorch.kernels.cpu.IndexLoops} see every op as one gather or scatter loop.
 */
final class IndexGeometry {
    private IndexGeometry() {}

    /** {@code t} as an int64 tensor with a heap array, which the index loops read directly. */
    static Tensor longIndex(Tensor t) {
        if (t.dtype() == DType.INT64 && t.impl().storage().array() != null) return t;
        Tensor c = Tensor.of(TensorImpl.empty(t.shape(), DType.INT64));
        CopyOps.convert(t, c);
        return c;
    }

    /** ATen's {@code ensure_nonempty}: a 0-d tensor seen as shape [1]. */
    static Tensor atLeast1d(Tensor t) {
        return t.dim() > 0 ? t : Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), new long[] {1}, new long[] {1}));
    }

    /** The same storage seen with another geometry (the caller guarantees every reached element exists). */
    static Tensor restrided(Tensor t, long[] shape, long[] strides) {
        return Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), shape, strides));
    }

    /** {@code a} with element {@code i} replaced by {@code v}. */
    static long[] with(long[] a, int i, long v) {
        long[] r = a.clone();
        r[i] = v;
        return r;
    }

    /** Strides reading {@code index} (1-d or 0-d) along {@code dim} of an iteration space of {@code rank} dims. */
    static long[] alongDim(Tensor index, int rank, int dim) {
        long[] s = new long[rank];
        s[dim] = index.dim() == 0 ? 0 : index.impl().strideRef()[0];
        return s;
    }
}
