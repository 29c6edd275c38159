package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.PointwiseLoops;
import org.jtorch.kernels.cpu.StridedArrayCopy;
import org.jtorch.kernels.cpu.StridedIter;
import org.jtorch.kernels.cpu.TiledTranspose;

/** Conversion and copy: {@code to(dtype)}, {@code clone}, {@code contiguous}, {@code copy_}. */
public final class CopyOps {
    private CopyOps() {}

    private static final Fns.Unary IDENTITY = new Fns.Unary(
            x -> x,
            x -> x,
            x -> x,
            (re, im, o) -> {
                o[0] = re;
                o[1] = im;
            },
            null);

    /**
     * {@code _to_copy(self, dtype, size)}: a fresh contiguous copy, converted to {@code dtype} and broadcast to
     * {@code size}.
     */
    public static final OpDef TO_COPY = OpDef.structured(
                    "_to_copy(Tensor self, *, ScalarType? dtype=None, SymInt[]? size=None) -> Tensor",
                    args -> {
                        Tensor src = (Tensor) args[0];
                        DType dtype = args[1] != null ? (DType) args[1] : src.dtype();
                        long[] shape =
                                args[2] != null ? (long[]) args[2] : src.impl().shapeRef();
                        if (args[2] != null
                                && !java.util.Arrays.equals(
                                        Shapes.broadcast(shape, src.impl().shapeRef()), shape)) {
                            throw new TorchException("copy_: the size of src "
                                    + Shapes.str(src.impl().shapeRef())
                                    + " must be broadcastable to the destination size " + Shapes.str(shape));
                        }
                        return Spec.of(shape, dtype, src.device(), null);
                    },
                    (args, outs, spec) -> convert((Tensor) args[0], outs[0]))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0]})
            .deriveJvp(Jvps::linear);

    /** Writes {@code src}, broadcast and converted, into {@code dst} (C-cast semantics, as ATen's copy kernel). */
    static void convert(Tensor src, Tensor dst) {
        if (dst.numel() == 0) return;
        if (src.dtype() == dst.dtype() && src.numel() == dst.numel()) {
            copySameDtype(src, dst);
            return;
        }
        if (src.dtype() == dst.dtype() && src.dim() <= dst.dim()) {
            // a broadcast of the same dtype (a bias row into a GEMM's output): runs of bulk copies, not the
            // element-wise conversion loop; src is expandable here (the callers' meta rules checked it)
            copySameDtype(broadcastView(src, dst.impl().shapeRef()), dst);
            return;
        }
        if (src.isComplex() && !dst.isComplex()) {
            Warnings.warnOnce(
                    Warnings.Category.USER_WARNING, "Casting complex values to real discards the imaginary part");
        }
        DType compute;
        if (src.isComplex() || dst.isComplex()) compute = DType.COMPLEX128;
        else if (src.isFloatingPoint() || dst.isFloatingPoint()) compute = DType.FLOAT64;
        else compute = DType.INT64;
        PointwiseLoops.unary(IDENTITY, compute, dst.impl(), src.impl());
    }

    /**
     * {@code src} viewed with {@code shape} (stride 0 along broadcast dims), built directly: kernels do not dispatch.
     */
    private static Tensor broadcastView(Tensor src, long[] shape) {
        long[] stride = new long[shape.length];
        int lead = shape.length - src.dim();
        for (int d = lead; d < shape.length; d++) {
            stride[d] =
                    src.size(d - lead) == 1 && shape[d] != 1 ? 0 : src.impl().strideRef()[d - lead];
        }
        return Tensor.viewOf(src, src.impl().viewOf(src.storageOffset(), shape.clone(), stride));
    }

    /** Bulk copy of runs; the layouts may differ but the dtype and element count match. */
    private static void copySameDtype(Tensor src, Tensor dst) {
        long item = dst.dtype().itemSize();
        MemorySegment s = src.impl().storage().segment(),
                d = dst.impl().storage().segment();
        if (src.isContiguous() && dst.isContiguous()) {
            MemorySegment.copy(s, src.storageOffset() * item, d, dst.storageOffset() * item, dst.numel() * item);
            return;
        }
        Object sa = src.impl().storage().array(), da = dst.impl().storage().array();
        int slots = dst.dtype().slotsPerElement();
        boolean arrays = sa != null && da != null && sa.getClass() == da.getClass();
        if (arrays
                && slots == 1
                && dst.isContiguous()
                && java.util.Arrays.equals(src.impl().shapeRef(), dst.impl().shapeRef())
                && TiledTranspose.tryCopy(
                        sa,
                        src.storageOffset(),
                        src.impl().strideRef(),
                        da,
                        dst.storageOffset(),
                        dst.impl().shapeRef())) {
            return;
        }
        StridedIter it = new StridedIter(dst.impl().shapeRef(), dst.impl(), src.impl());
        Parallel.forRange(
                dst.numel(),
                Parallel.GRAIN,
                (start, end) -> it.forEachRun(start, end, (base, stride, n) -> {
                    if (stride[0] == 1 && stride[1] == 1) {
                        MemorySegment.copy(s, base[1] * item, d, base[0] * item, n * item);
                    } else if (arrays) { // strided heap copy: plain array loads and stores (a segment call per element
                        // is ~10x slower)
                        StridedArrayCopy.copy(
                                sa,
                                base[1] * slots,
                                stride[1] * slots,
                                da,
                                base[0] * slots,
                                stride[0] * slots,
                                n,
                                slots);
                    } else {
                        for (long i = 0; i < n; i++) {
                            MemorySegment.copy(
                                    s, (base[1] + i * stride[1]) * item, d, (base[0] + i * stride[0]) * item, item);
                        }
                    }
                }));
    }

    /** {@code self.to(dtype)}: returns self when the dtype already matches, as PyTorch does. */
    public static Tensor to(Tensor self, DType dtype) {
        if (self.dtype() == dtype) return self;
        return TO_COPY.call1(self, dtype, null);
    }

    public static Tensor clone(Tensor self) {
        return TO_COPY.call1(self, null, null);
    }

    public static Tensor contiguous(Tensor self) {
        return self.isContiguous() ? self : clone(self);
    }

    /** {@code self.copy_(src)}: broadcasts and converts src into self. */
    public static Tensor copy_(Tensor self, Tensor src) {
        Dispatcher.callOut(
                TO_COPY, new Tensor[] {self}, src, self.dtype(), self.impl().shapeRef());
        return self;
    }
}
