package org.jtorch.func;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.DtypeViewOps;
import org.jtorch.ops.FeatureMetaOps;
import org.jtorch.ops.ShapeOps;

/**
 * Batch rules of the ops that address storage directly: {@code as_strided}, whose sizes, strides and offset are the
 * example's, {@code _new_zeros_with_same_feature_meta}, which lays a tangent out as its primal, and
 * {@code view(dtype)}, which regroups the bytes of the last dim. All follow functorch: each example's geometry is the
 * batch's shifted by its batch stride.
 */
final class StridedBatchRules {
    private StridedBatchRules() {}

    static void install() {
        ShapeOps.AS_STRIDED.defineBatchRule(StridedBatchRules::asStrided);
        FeatureMetaOps.NEW_ZEROS_WITH_SAME_FEATURE_META.defineBatchRule(StridedBatchRules::newZerosWithSameFeatureMeta);
        DtypeViewOps.VIEW_DTYPE.defineBatchRule(StridedBatchRules::viewDtype);
    }

    /**
     * functorch's rule: the batch dim goes first and the physical tensor is viewed as the dtype, so with another
     * element size only the last dim changes (a view of the batch, sharing its memory). The checks run on the physical
     * tensor, as in PyTorch: a batch dim mapped last is refused for its stride, and a message names the physical dim. A
     * 0-d example cannot change its element size, which the physical tensor (1-d) would allow: refused with PyTorch's
     * message.
     */
    private static Object viewDtype(BatchCall c) {
        Tensor logical = (Tensor) c.args()[0];
        DType dtype = (DType) c.args()[1];
        if (logical.dim() == 0
                && dtype != null
                && dtype.itemSize() != logical.dtype().itemSize()) {
            throw new TorchException("self.dim() cannot be 0 to view "
                    + logical.dtype().cppName() + " as " + dtype.cppName() + " (different element sizes)");
        }
        return c.wrap(c.call(DtypeViewOps.VIEW_DTYPE, c.front(logical), dtype));
    }

    /**
     * functorch's rule: example i of {@code vmap(x -> x.as_strided(size, stride, offset))(xs)} has the given size and
     * stride and storage offset {@code offset + i * xs.stride(batch dim)}, as if every example's storage began where
     * the batch's does (a per-example loop would read the same absolute offset for every example), wherever the batch
     * dim lies in memory. Refused as PyTorch refuses it: a geometry reaching outside the memory of the first example.
     */
    private static Object asStrided(BatchCall c) {
        Tensor physical = c.front(c.args()[0]);
        long[] size = (long[]) c.args()[1], stride = (long[]) c.args()[2];
        if (size.length != stride.length) {
            throw new TorchException("Tensor.as_strided(size, stride, ...): size and stride must have the same length! "
                    + "Got size " + Shapes.str(size) + " and stride " + Shapes.str(stride));
        }
        long batchStride = physical.stride(0);
        long offset = c.args()[3] == null ? physical.storageOffset() : ((Number) c.args()[3]).longValue();
        checkInsideFirstExample(physical, size, stride, offset);
        long[] physicalStride = new long[stride.length + 1];
        physicalStride[0] = batchStride;
        System.arraycopy(stride, 0, physicalStride, 1, stride.length);
        return c.wrap(c.call(ShapeOps.AS_STRIDED, physical, c.withBatch(size), physicalStride, offset));
    }

    /** functorch's {@code checkBasicAsStridedValidForSlice}: the view stays inside the memory of example 0. */
    private static void checkInsideFirstExample(Tensor physical, long[] size, long[] stride, long offset) {
        long[] exampleSize = Arrays.copyOfRange(physical.shape(), 1, physical.dim());
        long[] exampleStride = Arrays.copyOfRange(physical.stride(), 1, physical.dim());
        long base = physical.storageOffset();
        long viewExtent = extent(size, stride), exampleExtent = extent(exampleSize, exampleStride);
        if (viewExtent == 0) return;
        String call = "result = tensor.as_strided(" + Shapes.str(size) + ", " + Shapes.str(stride) + ", " + offset
                + ") can access memory outside of `tensor`. ";
        if (exampleExtent == 0) {
            throw new TorchException(call + "`tensor` has no storage but the passed-in (size, stride, storage_offset) "
                    + "imply a result with some storage. This is not supported inside of vmap, please try to rewrite "
                    + "the `as_strided` call as a sequence of PyTorch view operations");
        }
        if (offset + viewExtent > base + exampleExtent || offset < base) {
            throw new TorchException(call + "`result` can access some memory in range [" + offset + ", "
                    + (offset + viewExtent) + "], but `tensor` can only access some memory in range [" + base + ", "
                    + (base + exampleExtent) + "]. This is not supported inside of vmap, please try to rewrite the "
                    + "`as_strided` call as a sequence of PyTorch view operations");
        }
    }

    /** ATen's {@code storage_size_for}: 0 for an empty geometry, else one past the furthest element. */
    private static long extent(long[] size, long[] stride) {
        long furthest = 1;
        for (int d = 0; d < size.length; d++) {
            if (size[d] == 0) return 0;
            furthest += (size[d] - 1) * stride[d];
        }
        return furthest;
    }

    /**
     * The batch dim of {@code self} (the tangent) becomes one more leading batch dim of the result; {@code other} (the
     * primal) is an example's, so a batched one is handled example by example.
     */
    private static Object newZerosWithSameFeatureMeta(BatchCall c) {
        if (c.batched(1)) return c.perExample();
        long batchDims = ((Number) c.args()[2]).longValue();
        return c.wrap(c.call(
                FeatureMetaOps.NEW_ZEROS_WITH_SAME_FEATURE_META, c.front(c.args()[0]), c.args()[1], batchDims + 1));
    }
}
