package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.storage.TensorImpl;

/**
 * Dense {@code float[]}/{@code double[]} views of tensors for kernels that compute in float32 (half types included, as
 * ATen's CPU kernels accumulate them) or float64: the inputs as heap arrays, the output as an array written directly or
 * through a buffer converted at the end.
 */
final class ComputeArrays {
    private ComputeArrays() {}

    /** The precision a floating dtype is computed in: float64 for float64, float32 for the others. */
    static DType computeType(DType d) {
        return d == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
    }

    /**
     * A dense array copy of a tensor in the compute precision: {@code float[]} or {@code double[]} from {@code offset}.
     */
    record Dense(Object array, int offset) {}

    /** The tensor's own heap array when it is already dense in the compute type, else a dense copy. */
    static Dense dense(Tensor t, DType compute) {
        Tensor c = t;
        if (c.dtype() != compute) c = CopyOps.to(c, compute);
        if (!c.isContiguous() || c.impl().storage().array() == null) c = CopyOps.clone(c);
        return new Dense(c.impl().storage().array(), Math.toIntExact(c.storageOffset()));
    }

    /**
     * Where a kernel writes: the output's own array when it can, else a float32/float64 buffer copied out at the end.
     */
    record Target(Tensor out, Tensor buffer, Object array, int offset) {
        static Target of(Tensor out, DType compute) {
            boolean direct = out.dtype() == compute
                    && out.isContiguous()
                    && out.impl().storage().array() != null;
            Tensor buffer = direct ? out : Tensor.of(TensorImpl.empty(out.impl().shapeRef(), compute));
            return new Target(out, buffer, buffer.impl().storage().array(), Math.toIntExact(buffer.storageOffset()));
        }

        void finish() {
            if (buffer != out) CopyOps.convert(buffer, out);
        }
    }
}
