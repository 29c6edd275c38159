package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * {@code _new_zeros_with_same_feature_meta}: the zero tangent forward AD writes into, laid out as the primal it belongs
 * to. An op of its own, rather than a tensor built in place, so that vmap sees it: a tangent batched by vmap needs a
 * batched destination, each example with the primal's geometry.
 */
public final class FeatureMetaOps {
    private FeatureMetaOps() {}

    /**
     * {@code _new_zeros_with_same_feature_meta(self, other, self_num_batch_dims=0)}: zeros with {@code other}'s sizes,
     * strides, storage offset and storage size, behind the first {@code self_num_batch_dims} dims of {@code self} laid
     * out outermost, one whole copy of {@code other}'s storage per batch element (ATen's definition).
     */
    public static final OpDef NEW_ZEROS_WITH_SAME_FEATURE_META = OpDef.composite(
            "_new_zeros_with_same_feature_meta(Tensor self, Tensor other, *, int self_num_batch_dims=0) -> Tensor",
            a -> newZeros((Tensor) a[0], (Tensor) a[1], ((Number) a[2]).intValue()),
            OpDef.Flag.NOT_DIFFERENTIABLE);

    private static Tensor newZeros(Tensor self, Tensor other, int batchDims) {
        if (batchDims < 0 || batchDims > self.dim()) {
            throw new TorchException("_new_zeros_with_same_feature_meta: self_num_batch_dims (" + batchDims
                    + ") must lie in [0, self.dim()] = [0, " + self.dim() + "]");
        }
        long[] otherShape = other.shape(), otherStride = other.stride();
        long[] shape = new long[batchDims + otherShape.length], stride = new long[shape.length];
        int slotsPerElement = other.dtype().slotsPerElement(); // strides count elements, storages slots
        long elements = other.impl().storage().slots() / slotsPerElement;
        for (int d = batchDims - 1; d >= 0; d--) {
            shape[d] = self.size(d);
            stride[d] = elements;
            elements = Math.multiplyExact(elements, self.size(d));
        }
        long slots = elements * slotsPerElement;
        System.arraycopy(otherShape, 0, shape, batchDims, otherShape.length);
        System.arraycopy(otherStride, 0, stride, batchDims, otherStride.length);
        DType.StorageKind kind = other.dtype().storageKind();
        Storage storage = other.impl().isFake()
                ? Storage.fake(other.device(), kind, slots)
                : other.isMeta() ? Storage.meta(kind, slots) : Storage.allocate(kind, slots);
        return Tensor.of(TensorImpl.of(storage, other.storageOffset(), shape, stride, other.dtype()));
    }

    /** {@code torch._new_zeros_with_same_feature_meta(self, other, self_num_batch_dims)}. */
    public static Tensor newZerosWithSameFeatureMeta(Tensor self, Tensor other, long selfNumBatchDims) {
        return NEW_ZEROS_WITH_SAME_FEATURE_META.call1(self, other, selfNumBatchDims);
    }
}
