package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;

/**
 * Ops that exist for backward rules (as ATen's {@code select_backward}, {@code slice_backward}): they place a gradient
 * into zeros of the input's shape out of place, so that they too are differentiable and double backward through views
 * and selections works. Each one's backward is the op it undoes: {@code select}, {@code slice}, {@code diagonal}, a
 * gather at indices, or the swapped storage transfer.
 *
 * <p>Kernels written with other ops run with grad mode off: the op records itself as one node.
 */
public final class BackwardOps {
    private BackwardOps() {}

    private static Spec zerosLike(Object[] args) {
        Tensor g = (Tensor) args[0];
        return Spec.of(Shapes.checkSizes("backward", ((long[]) args[1]).clone()), g.dtype(), g.device(), null);
    }

    /**
     * Zeros of {@code input_sizes}, once {@code grad_output} is known to broadcast to {@code slot}, the part of them it
     * is copied into: the kernel's {@code copy_} would refuse it otherwise, and the meta rule must refuse it alike.
     */
    private static Spec gradInto(Object[] args, String op, long[] slot) {
        long[] grad = ((Tensor) args[0]).shape();
        if (!Arrays.equals(Shapes.broadcast(slot, grad), slot)) {
            throw new TorchException(op + "(): grad_output with shape " + Shapes.str(grad)
                    + " doesn't match the broadcast shape " + Shapes.str(slot));
        }
        return zerosLike(args);
    }

    private static OpDef.Kernel noGrad(OpDef.Kernel k) {
        return (args, outs, spec) -> {
            try (var _ = DispatchState.gradEnabled(false)) {
                k.run(args, outs, spec);
            }
        };
    }

    private static int i(Object o) {
        return (int) ((Number) o).longValue();
    }

    private static boolean bool(Object o) {
        return (Boolean) o;
    }

    /**
     * {@code select_backward(grad, input_sizes, dim, index)}: zeros with {@code grad} at {@code index} of {@code dim}.
     */
    public static final OpDef SELECT_BACKWARD = OpDef.structured(
                    "select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor",
                    args -> {
                        long[] sizes = (long[]) args[1];
                        if (sizes.length == 0)
                            throw new IndexOutOfBoundsException("select() cannot be applied to a 0-dim tensor.");
                        int d = Shapes.wrapDim(((Number) args[2]).longValue(), sizes.length);
                        ShapeOps.selectIndex(sizes, d, (Long) args[3]);
                        long[] slot = new long[sizes.length - 1];
                        for (int k = 0, j = 0; k < sizes.length; k++) if (k != d) slot[j++] = sizes[k];
                        return gradInto(args, "select_backward", slot);
                    },
                    OpDef.Kernel.intoZeros(noGrad((args, outs, spec) ->
                            ShapeOps.select(outs[0], i(args[2]), (Long) args[3]).copy_((Tensor) args[0]))))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {ShapeOps.select(g[0], i(a[2]), (Long) a[3])})
            .deriveJvp(Jvps::linear);

    /** {@code slice_backward(grad, input_sizes, dim, start, end, step)}. */
    public static final OpDef SLICE_BACKWARD = OpDef.structured(
                    "slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, "
                            + "SymInt end, SymInt step) -> Tensor",
                    args -> {
                        long[] slot = ((long[]) args[1]).clone();
                        if (slot.length == 0)
                            throw new IndexOutOfBoundsException("slice() cannot be applied to a 0-dim tensor.");
                        int d = Shapes.wrapDim(((Number) args[2]).longValue(), slot.length);
                        long step = (Long) args[5];
                        if (step <= 0) throw new TorchException("slice step must be positive");
                        long start = ShapeOps.sliceStart(slot[d], (Long) args[3]);
                        slot[d] = ShapeOps.slicedLength(slot[d], start, (Long) args[4], step);
                        return gradInto(args, "slice_backward", slot);
                    },
                    OpDef.Kernel.intoZeros(noGrad((args, outs, spec) -> ShapeOps.slice(
                                    outs[0], i(args[2]), (Long) args[3], (Long) args[4], (Long) args[5])
                            .copy_((Tensor) args[0]))))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ShapeOps.slice(g[0], i(a[2]), (Long) a[3], (Long) a[4], (Long) a[5])})
            .deriveJvp(Jvps::linear);

    /** {@code diagonal_backward(grad, input_sizes, offset, dim1, dim2)}: zeros with {@code grad} on that diagonal. */
    public static final OpDef DIAGONAL_BACKWARD = OpDef.structured(
                    "diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, "
                            + "int dim2) -> Tensor",
                    args -> {
                        Spec spec = zerosLike(args);
                        Tensor g = (Tensor) args[0];
                        Tensor diag = ShapeOps.diagonal(
                                Tensor.of(TensorImpl.meta(spec.shapes()[0], g.dtype())),
                                (Long) args[2],
                                i(args[3]),
                                i(args[4]));
                        if (!java.util.Arrays.equals(
                                diag.impl().shapeRef(), g.impl().shapeRef())) {
                            throw new TorchException("diagonal_backward: grad of shape "
                                    + Shapes.str(g.impl().shapeRef()) + " does not match the diagonal's shape "
                                    + Shapes.str(diag.impl().shapeRef()));
                        }
                        return spec;
                    },
                    OpDef.Kernel.intoZeros(noGrad(
                            (args, outs, spec) -> ShapeOps.diagonal(outs[0], (Long) args[2], i(args[3]), i(args[4]))
                                    .copy_((Tensor) args[0]))))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ShapeOps.diagonal(g[0], (Long) a[2], i(a[3]), i(a[4]))})
            .deriveJvp(Jvps::linear);

    // ---- selections at indices (max/min with dim) -------------------------------------------------

    private static Tensor checkIndices(String op, Tensor indices, long[] reducedShape) {
        if (indices.dtype() != DType.INT64) {
            throw new TorchException(op + ": expected indices of dtype Long but got "
                    + indices.dtype().cppName());
        }
        if (!java.util.Arrays.equals(indices.impl().shapeRef(), reducedShape)) {
            throw new TorchException(
                    op + ": indices of shape " + Shapes.str(indices.impl().shapeRef())
                            + " do not match the reduced shape " + Shapes.str(reducedShape));
        }
        return indices;
    }

    /** {@code sizes} reduced along {@code dim} (kept as 1 or removed). */
    private static long[] reduced(long[] sizes, int dim, boolean keepdim) {
        if (sizes.length == 0) return sizes;
        if (keepdim) {
            long[] r = sizes.clone();
            r[dim] = 1;
            return r;
        }
        long[] r = new long[sizes.length - 1];
        System.arraycopy(sizes, 0, r, 0, dim);
        System.arraycopy(sizes, dim + 1, r, dim, sizes.length - dim - 1);
        return r;
    }

    /**
     * Copies, for each line along {@code dim} of a tensor of {@code sizes}, one element between the line's position
     * {@code indices[k]} in {@code full} and element k of {@code selected} (row-major over the reduced shape, which is
     * the same order with or without the kept dim). Raw element copies: any dtype.
     */
    private static void moveSelected(
            Tensor full, Tensor selected, Tensor indices, long[] sizes, int dim, boolean intoFull) {
        long n = indices.numel();
        long size = sizes.length == 0 ? 1 : sizes[dim];
        long inner = 1;
        for (int d = dim + 1; d < sizes.length; d++) inner *= sizes[d];
        long item = full.dtype().itemSize();
        MemorySegment f = full.impl().storage().segment(),
                sel = selected.impl().storage().segment(),
                idx = indices.impl().storage().segment();
        ElementIO longs = ElementIO.of(DType.INT64);
        for (long k = 0; k < n; k++) {
            long i = longs.getLong(idx, indices.impl().elementIndex(k));
            if (i < 0 || i >= size)
                throw new IndexOutOfBoundsException(
                        "index " + i + " is out of bounds for dimension " + dim + " with size " + size);
            long at = full.impl().elementIndex(((k / inner) * size + i) * inner + k % inner) * item,
                    other = selected.impl().elementIndex(k) * item;
            if (intoFull) MemorySegment.copy(sel, other, f, at, item);
            else MemorySegment.copy(f, at, sel, other, item);
        }
    }

    /**
     * {@code value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim)}: zeros of {@code sizes} with each
     * gradient element at its line's index along {@code dim} (the backward of {@code max.dim}).
     */
    public static final OpDef VALUE_SELECTING_REDUCTION_BACKWARD = OpDef.structured(
                    "value_selecting_reduction_backward(Tensor grad, int dim, Tensor indices, "
                            + "SymInt[] sizes, bool keepdim) -> Tensor",
                    args -> {
                        String op = "value_selecting_reduction_backward";
                        Tensor g = (Tensor) args[0];
                        long[] sizes = Shapes.checkSizes(op, ((long[]) args[3]).clone());
                        long[] r = reduced(sizes, Shapes.wrapDim((Long) args[1], sizes.length), bool(args[4]));
                        checkIndices(op, (Tensor) args[2], r);
                        if (!java.util.Arrays.equals(g.impl().shapeRef(), r)) {
                            throw new TorchException(op + ": grad of shape "
                                    + Shapes.str(g.impl().shapeRef()) + " does not match the reduced shape "
                                    + Shapes.str(r));
                        }
                        return Spec.of(sizes, g.dtype(), Devices.common(op, g, args[2]), null);
                    },
                    OpDef.Kernel.intoZeros((args, outs, spec) -> {
                        long[] sizes = (long[]) args[3];
                        moveSelected(
                                outs[0],
                                (Tensor) args[0],
                                (Tensor) args[2],
                                sizes,
                                Shapes.wrapDim((Long) args[1], sizes.length),
                                true);
                    }))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {gatherSelected(g[0], (Long) a[1], (Tensor) a[2], bool(a[4])), null})
            .deriveJvp(Jvps.linearExcept(2));

    /**
     * {@code _value_selecting_reduction_gather(self, dim, indices, keepdim)}: the element of each line of {@code dim}
     * at its index (ATen's {@code gather} with one index per line), the adjoint of
     * {@link #VALUE_SELECTING_REDUCTION_BACKWARD}.
     */
    public static final OpDef VALUE_SELECTING_REDUCTION_GATHER = OpDef.structured(
                    "_value_selecting_reduction_gather(Tensor self, int dim, Tensor indices, bool keepdim) -> Tensor",
                    args -> {
                        String op = "_value_selecting_reduction_gather";
                        Tensor self = (Tensor) args[0];
                        long[] r = reduced(
                                self.impl().shapeRef(), Shapes.wrapDim((Long) args[1], self.dim()), bool(args[3]));
                        checkIndices(op, (Tensor) args[2], r);
                        return Spec.of(r, self.dtype(), Devices.common(op, self, args[2]), null);
                    },
                    (args, outs, spec) -> {
                        Tensor self = (Tensor) args[0];
                        moveSelected(
                                self,
                                outs[0],
                                (Tensor) args[2],
                                self.impl().shapeRef(),
                                Shapes.wrapDim((Long) args[1], self.dim()),
                                false);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                valueSelectingReductionBackward(g[0], (Long) a[1], (Tensor) a[2], ((Tensor) a[0]).shape(), bool(a[3])),
                null
            })
            .deriveJvp(Jvps.linearExcept(2));

    // ---- as_strided -------------------------------------------------------------------------------

    /**
     * {@code _as_strided_transfer(src, src_size, src_stride, src_offset, size, stride, storage_offset)}: sums each
     * element of {@code src} into the storage position the source geometry gives it, then reads the positions of the
     * destination geometry (positions no source element reached read 0). With the output's geometry as source and the
     * input's as destination this is {@code as_strided}'s backward (overlapping outputs sum); it is linear and its
     * adjoint is the same op with the geometries swapped.
     */
    public static final OpDef AS_STRIDED_TRANSFER = OpDef.structured(
                    "_as_strided_transfer(Tensor src, SymInt[] src_size, SymInt[] src_stride, SymInt src_offset, "
                            + "SymInt[] size, SymInt[] stride, SymInt storage_offset) -> Tensor",
                    args -> {
                        Tensor src = (Tensor) args[0];
                        long[] srcSize = (long[]) args[1], size = (long[]) args[4];
                        if (!java.util.Arrays.equals(src.impl().shapeRef(), srcSize)
                                || srcSize.length != ((long[]) args[2]).length
                                || size.length != ((long[]) args[5]).length) {
                            throw new TorchException("_as_strided_transfer: src of shape "
                                    + Shapes.str(src.impl().shapeRef()) + " does not match its geometry "
                                    + Shapes.str(srcSize) + " / " + Shapes.str((long[]) args[2]));
                        }
                        long[] sizes = Shapes.checkSizes("_as_strided_transfer", size.clone());
                        return Spec.of(sizes, src.dtype(), src.device(), null);
                    },
                    OpDef.Kernel.intoZeros((args, outs, spec) -> transfer(
                            (Tensor) args[0],
                            (long[]) args[1],
                            (long[]) args[2],
                            (Long) args[3],
                            outs[0],
                            (long[]) args[4],
                            (long[]) args[5],
                            (Long) args[6])))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {
                asStridedTransfer(
                        g[0], (long[]) a[4], (long[]) a[5], (Long) a[6], (long[]) a[1], (long[]) a[2], (Long) a[3])
            })
            .deriveJvp(Jvps::linear)
            .vmapFallsBack("addresses storage directly: sizes and strides are the example's, not the batch's");

    /** Storage position of the element with row-major index {@code linear} in a geometry. */
    private static long position(long linear, long[] size, long[] stride, long offset) {
        long p = offset;
        for (int d = size.length - 1; d >= 0; d--) {
            p += (linear % size[d]) * stride[d];
            linear /= size[d];
        }
        return p;
    }

    /** Lowest and highest storage positions a non-empty geometry touches. */
    private static long[] extent(long[] size, long[] stride, long offset) {
        long lo = offset, hi = offset;
        for (int d = 0; d < size.length; d++) {
            long span = (size[d] - 1) * stride[d];
            if (span < 0) lo += span;
            else hi += span;
        }
        return new long[] {lo, hi};
    }

    private static void transfer(
            Tensor src,
            long[] srcSize,
            long[] srcStride,
            long srcOffset,
            Tensor out,
            long[] size,
            long[] stride,
            long offset) {
        long n = src.numel(), m = out.numel();
        if (n == 0 || m == 0) return; // out is already zeros
        long[] a = extent(srcSize, srcStride, srcOffset), b = extent(size, stride, offset);
        long lo = Math.min(a[0], b[0]);
        int span = Math.toIntExact(Math.max(a[1], b[1]) - lo + 1);
        boolean complex = src.isComplex();
        double[] re = new double[span], im = complex ? new double[span] : null;
        ElementIO in = ElementIO.of(src.dtype()), io = ElementIO.of(out.dtype());
        MemorySegment s = src.impl().storage().segment(),
                o = out.impl().storage().segment();
        for (long k = 0; k < n; k++) {
            int p = (int) (position(k, srcSize, srcStride, srcOffset) - lo);
            long e = src.impl().elementIndex(k);
            re[p] += in.getDouble(s, e);
            if (complex) im[p] += in.getImag(s, e);
        }
        for (long k = 0; k < m; k++) {
            int p = (int) (position(k, size, stride, offset) - lo);
            if (complex) io.setComplex(o, out.impl().elementIndex(k), re[p], im[p]);
            else io.setDouble(o, out.impl().elementIndex(k), re[p]);
        }
    }

    // ---- entry points (used by backward rules) ----------------------------------------------------

    public static Tensor selectBackward(Tensor grad, long[] inputSizes, long dim, long index) {
        return SELECT_BACKWARD.call1(grad, inputSizes, dim, index);
    }

    public static Tensor sliceBackward(Tensor grad, long[] inputSizes, long dim, long start, long end, long step) {
        return SLICE_BACKWARD.call1(grad, inputSizes, dim, start, end, step);
    }

    /** {@code diagonal_backward(grad, input_sizes, offset, dim1, dim2)}. */
    public static Tensor diagonalBackward(Tensor grad, long[] inputSizes, long offset, long dim1, long dim2) {
        return DIAGONAL_BACKWARD.call1(grad, inputSizes, offset, dim1, dim2);
    }

    /** {@code value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim)}. */
    public static Tensor valueSelectingReductionBackward(
            Tensor grad, long dim, Tensor indices, long[] sizes, boolean keepdim) {
        return VALUE_SELECTING_REDUCTION_BACKWARD.call1(grad, dim, indices, sizes, keepdim);
    }

    /** {@code _value_selecting_reduction_gather(self, dim, indices, keepdim)}. */
    public static Tensor gatherSelected(Tensor self, long dim, Tensor indices, boolean keepdim) {
        return VALUE_SELECTING_REDUCTION_GATHER.call1(self, dim, indices, keepdim);
    }

    /** {@code _as_strided_transfer(src, src_size, src_stride, src_offset, size, stride, storage_offset)}. */
    public static Tensor asStridedTransfer(
            Tensor src,
            long[] srcSize,
            long[] srcStride,
            long srcOffset,
            long[] size,
            long[] stride,
            long storageOffset) {
        return AS_STRIDED_TRANSFER.call1(src, srcSize, srcStride, srcOffset, size, stride, storageOffset);
    }
}
