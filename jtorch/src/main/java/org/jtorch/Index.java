package org.jtorch;

import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * One item of an index spec, the Java spelling of what goes between Python's brackets: {@code x[1, ::2, None, ...,
 * mask]} is {@code x.index(Index.of(1), Index.slice(null, null, 2), Index.NONE, Index.ELLIPSIS, Index.of(mask))}.
 *
 * <p>Integers, slices, {@link #NONE} and {@link #ELLIPSIS} are basic indexing: the result is a view that shares storage
 * with the indexed tensor. Tensors (integer indices or bool masks) and booleans are advanced indexing: the result is a
 * copy, laid out by PyTorch's (NumPy's) rules.
 */
public sealed interface Index {
    /** An integer: selects one position and removes the dim; negative counts from the end. */
    record IntIndex(long value) implements Index {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    /** {@code start:stop:step}; {@code null} bounds are open, and the step is positive. */
    record SliceIndex(Long start, Long stop, long step) implements Index {
        /**
         * Checks the step: PyTorch rejects a zero step ("slice step cannot be zero") and, unlike Python lists, a
         * negative one.
         */
        public SliceIndex {
            if (step == 0) throw new IllegalArgumentException("slice step cannot be zero");
            if (step < 0) throw new IllegalArgumentException("step must be greater than zero");
        }

        @Override
        public String toString() {
            return str(start) + ":" + str(stop) + (step == 1 ? "" : ":" + step);
        }

        private static String str(Long v) {
            return v == null ? "" : v.toString();
        }
    }

    /** {@code None}: inserts a dim of size 1. */
    record NewAxisIndex() implements Index {
        @Override
        public String toString() {
            return "None";
        }
    }

    /** {@code ...}: as many full slices as the dims the other items leave unindexed. */
    record EllipsisIndex() implements Index {
        @Override
        public String toString() {
            return "...";
        }
    }

    /** {@code True}/{@code False}: a new dim of size 1 or 0 (advanced indexing). */
    record BoolIndex(boolean value) implements Index {
        @Override
        public String toString() {
            return value ? "True" : "False";
        }
    }

    /** An index tensor: int64/int32 positions, or a bool mask that indexes as many dims as it has. */
    record TensorIndex(Tensor tensor) implements Index {
        /** Rejects a null index tensor. */
        public TensorIndex {
            if (tensor == null) throw new NullPointerException("index tensor");
        }

        @Override
        public String toString() {
            return "tensor" + org.jtorch.internal.Shapes.str(tensor.impl().shapeRef());
        }
    }

    /** Python's {@code None}: a new size-1 dim. */
    Index NONE = new NewAxisIndex();

    /** NumPy's name for {@link #NONE}. */
    Index NEW_AXIS = NONE;

    /** Python's {@code ...}. */
    Index ELLIPSIS = new EllipsisIndex();

    /** Python's {@code :}, every position of a dim. */
    Index ALL = new SliceIndex(null, null, 1);

    /** An integer index. */
    static Index of(long index) {
        return new IntIndex(index);
    }

    /** A bool index ({@code x[True]}). */
    static Index of(boolean value) {
        return new BoolIndex(value);
    }

    /** An index tensor (integer positions or a bool mask). */
    static Index of(Tensor tensor) {
        return new TensorIndex(tensor);
    }

    /** A list of positions, {@code x[[2, 0]]}: an int64 index tensor. */
    static Index indices(long... positions) {
        return new TensorIndex(vector(Storage.wrap(positions.clone()), positions.length, DType.INT64));
    }

    /** A bool mask, {@code x[[True, False]]}. */
    static Index mask(boolean... mask) {
        byte[] bytes = new byte[mask.length];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (mask[i] ? 1 : 0);
        return new TensorIndex(vector(Storage.wrap(bytes), mask.length, DType.BOOL));
    }

    /** {@code start:stop}. */
    static Index slice(long start, long stop) {
        return new SliceIndex(start, stop, 1);
    }

    /** {@code start:stop}; a {@code null} bound is open ({@code slice(1, null)} is {@code 1:}). */
    static Index slice(Number start, Number stop) {
        return slice(start, stop, 1);
    }

    /**
     * {@code start:stop:step}; a {@code null} bound is open. The step must be positive (PyTorch raises ValueError, here
     * {@link IllegalArgumentException}, for others).
     */
    static Index slice(Number start, Number stop, long step) {
        return new SliceIndex(start == null ? null : start.longValue(), stop == null ? null : stop.longValue(), step);
    }

    /** A 1-d tensor over {@code storage}. */
    private static Tensor vector(Storage storage, long length, DType dtype) {
        return Tensor.of(TensorImpl.of(storage, 0, new long[] {length}, new long[] {1}, dtype));
    }
}
