package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * {@code Tensor.view(dtype)} ({@code aten::view.dtype}): the tensor's bytes read as another dtype, sharing its memory.
 *
 * <p>As in PyTorch, elements of the same size keep sizes, strides and offset. Elements of another size regroup the
 * bytes of the last dimension, which must therefore have stride 1: a smaller element multiplies the last size, the
 * other strides and the offset by the size ratio; a larger one divides them, so each must be divisible by it. The
 * checks run in ATen's order with ATen's messages. The result shares the storage's memory and version counter (writes
 * through either show in the other) but is not an autograd view and never requires grad: PyTorch declares the op not
 * differentiable, since a gradient does not carry across a reinterpretation of bits.
 */
public final class DtypeViewOps {
    private DtypeViewOps() {}

    /** {@code view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)}. */
    public static final OpDef VIEW_DTYPE =
            OpDef.nondifferentiableView("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", args -> {
                Tensor self = (Tensor) args[0];
                DType dtype = (DType) args[1];
                if (dtype == null) throw new TorchException("view.dtype: dtype must not be None");
                return Tensor.of(reinterpreted(self, dtype));
            });

    private static TensorImpl reinterpreted(Tensor self, DType dtype) {
        TensorImpl impl = self.impl();
        Storage storage = impl.storage().reinterpret(dtype.storageKind());
        long[] sizes = impl.shapeRef().clone(), strides = impl.strideRef().clone();
        long offset = impl.storageOffset();
        int from = self.dtype().itemSize(), to = dtype.itemSize();
        if (from == to) return TensorImpl.of(storage, offset, sizes, strides, dtype);
        String what = " to view " + self.dtype().cppName() + " as " + dtype.cppName() + " (different element sizes)";
        int n = sizes.length;
        if (n == 0) throw new TorchException("self.dim() cannot be 0" + what);
        if (from > to) {
            int ratio = from / to;
            requireUnitLastStride(strides[n - 1], what);
            for (int i = 0; i < n - 1; i++) strides[i] *= ratio;
            sizes[n - 1] *= ratio;
            return TensorImpl.of(storage, offset * ratio, sizes, strides, dtype);
        }
        // ATen's order, which decides the message when several checks fail: size, offset, last stride, other strides
        int ratio = to / from;
        if (sizes[n - 1] % ratio != 0) {
            throw new TorchException(
                    "self.size(-1) must be divisible by " + ratio + what + ", but got " + sizes[n - 1]);
        }
        if (offset % ratio != 0) {
            throw new TorchException(
                    "self.storage_offset() must be divisible by " + ratio + what + ", but got " + offset);
        }
        requireUnitLastStride(strides[n - 1], what);
        for (int i = 0; i < n - 1; i++) {
            if (strides[i] % ratio != 0) {
                throw new TorchException(
                        "self.stride(" + i + ") must be divisible by " + ratio + what + ", but got " + strides[i]);
            }
            strides[i] /= ratio;
        }
        sizes[n - 1] /= ratio;
        return TensorImpl.of(storage, offset / ratio, sizes, strides, dtype);
    }

    private static void requireUnitLastStride(long stride, String what) {
        if (stride != 1) throw new TorchException("self.stride(-1) must be 1" + what + ", but got " + stride);
    }
}
