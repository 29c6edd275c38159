package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * {@code max_unpool2d}/{@code max_unpool3d}: the partial inverse of a max pool, every value written at its recorded
 * flat index of a zero output plane (or volume). A composite {@code scatter} into zeros, so the gradient is the gather
 * at the indices that ATen's backward computes, and tangents come from {@code scatter}. vmap folds the vmapped dim into
 * N before the composite runs ({@link PoolBatchRule}), so the index check reads the physical indices.
 */
public final class MaxUnpoolOps {
    private MaxUnpoolOps() {}

    /** {@code max_unpool2d(self, indices, output_size)}: [N, C, H, W] (or [C, H, W]) to [N, C, oH, oW]. */
    public static final OpDef MAX_UNPOOL2D = OpDef.composite(
                    "max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor",
                    a -> unpool(2, (Tensor) a[0], (Tensor) a[1], (long[]) a[2]))
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    /**
     * {@code max_unpool3d(self, indices, output_size, stride, padding)}: [N, C, D, H, W] (or 4-d) to [N, C, oD, oH,
     * oW].
     */
    public static final OpDef MAX_UNPOOL3D = OpDef.composite(
                    "max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, "
                            + "int[3] padding) -> Tensor",
                    a -> {
                        long[] size = (long[]) a[2], stride = (long[]) a[3], padding = (long[]) a[4];
                        if (size.length != 3) {
                            throw new TorchException("There should be exactly three elements (depth, height, width) in "
                                    + "output_size, but got: " + size.length + " elements.");
                        }
                        if (stride.length != 3) {
                            throw new TorchException("There should be exactly three elements (depth, height, width) in "
                                    + "stride, but got: " + stride.length + " elements.");
                        }
                        if (padding.length != 3) {
                            throw new TorchException("There should be exactly three elements (depth, height, width) in "
                                    + "padding, but got: " + padding.length + " elements.");
                        }
                        if (Arrays.stream(stride).anyMatch(v -> v <= 0)) {
                            throw new TorchException(
                                    "strides should be greater than zero, but got stride: " + Shapes.str(stride));
                        }
                        return unpool(3, (Tensor) a[0], (Tensor) a[1], size);
                    })
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    private static Tensor unpool(int spatial, Tensor x, Tensor indices, long[] size) {
        String fn = "max_unpooling" + spatial + "d";
        if (indices.dtype() != DType.INT64) {
            throw new TorchException("elements in indices should be type int64 but got: "
                    + indices.dtype().cppName());
        }
        if (spatial == 2 && size.length != 2) {
            throw new TorchException("There should be exactly two elements (height, width) in output_size, but got "
                    + size.length + " elements.");
        }
        int r = x.dim();
        if (r != spatial + 1 && r != spatial + 2) {
            throw new TorchException("Input to " + fn + " should be a " + (spatial + 1) + "d or " + (spatial + 2)
                    + "d Tensor, but got a tensor with " + r + " dimensions.");
        }
        if (!Arrays.equals(x.shape(), indices.shape())) {
            throw new TorchException("Expected shape of indices to be same as that of the input tensor ("
                    + Shapes.str(x.shape()) + ") but got indices tensor with shape: " + Shapes.str(indices.shape()));
        }
        for (int i = r - spatial - 1; i < r; i++) {
            if (i > 0 && x.size(i) <= 0) {
                throw new TorchException(fn + "(): Expected input to have non-zero size for non-batch dimensions, "
                        + "but got " + Shapes.str(x.shape()) + " with dimension " + i + " being empty.");
            }
        }
        if (!x.dtype().isFloatingPoint()) {
            throw new TorchException("\"max_unpool" + spatial + "d\" not implemented for '"
                    + x.dtype().cppName() + "'");
        }
        long volume = 1;
        for (long v : size) volume *= v;
        checkIndices(indices, volume, size);
        long[] lead = Arrays.copyOf(x.shape(), r - spatial);
        long planes = 1;
        for (long v : lead) planes *= v;
        long[] outShape = Arrays.copyOf(lead, r);
        System.arraycopy(size, 0, outShape, lead.length, spatial);
        Tensor zeros = Creation.full(new long[] {planes, volume}, 0L, x.dtype(), x.device());
        return ScatterOps.scatter(zeros, 1, indices.reshape(planes, -1), x.reshape(planes, -1))
                .view(outShape);
    }

    /** ATen's check that every index falls in the output plane (where the indices hold data: not meta or fake). */
    private static void checkIndices(Tensor indices, long volume, long[] size) {
        if (!indices.impl().hasData() || indices.device() != Device.CPU || indices.numel() == 0) return;
        for (long bad : indices.toLongArray()) {
            if (bad >= 0 && bad < volume) continue;
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < size.length; i++) s.append(i == 0 ? "" : "x").append(size[i]);
            throw new TorchException("Found an invalid max index: " + bad + " (output volumes are of size " + s + ")");
        }
    }
}
