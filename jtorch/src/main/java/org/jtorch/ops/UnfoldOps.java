package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * {@code Tensor.unfold(dimension, size, step)}: every window of {@code size} elements along {@code dimension}, taken
 * every {@code step}, as a new last dim of a view (no copy): dimension's size becomes {@code (n - size) / step + 1} and
 * its stride {@code stride · step}. Written as an {@code as_strided} of the input's geometry, so its gradient (windows
 * may overlap) sums into the shared elements, as ATen's {@code unfold_backward} does.
 */
public final class UnfoldOps {
    private UnfoldOps() {}

    /** {@code unfold(self, dimension, size, step)}. */
    public static final OpDef UNFOLD = OpDef.composite(
                    "unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)",
                    a -> unfoldView(
                            (Tensor) a[0],
                            ((Number) a[1]).longValue(),
                            ((Number) a[2]).longValue(),
                            ((Number) a[3]).longValue()))
            // the view's strides must be the physical tensor's: unfold the batch-first tensor one dim further on
            .defineBatchRule(call -> {
                Tensor logical = (Tensor) call.args()[0];
                if (!call.batched(0) || logical.dim() == 0) return call.perExample();
                long dim = Shapes.wrapDim(((Number) call.args()[1]).longValue(), logical.dim()) + 1;
                return call.wrap(
                        call.call1(UnfoldOps.UNFOLD, call.front(logical), dim, call.args()[2], call.args()[3]));
            });

    private static Tensor unfoldView(Tensor self, long dimension, long size, long step) {
        int rank = self.dim();
        int dim = Shapes.wrapDim(dimension, Math.max(rank, 1));
        long[] shape = self.shape(), stride = self.stride();
        long extent = rank == 0 ? 1 : shape[dim];
        if (size > extent) {
            throw new TorchException(
                    "maximum size for tensor at dimension " + dim + " is " + extent + " but size is " + size);
        }
        if (size < 0) throw new TorchException("size is " + size + " but must be >= 0");
        if (step <= 0) throw new TorchException("step is " + step + " but must be > 0");
        long[] outShape = new long[rank + 1], outStride = new long[rank + 1];
        if (rank == 0) {
            outShape[0] = size;
            outStride[0] = 1;
        } else {
            System.arraycopy(shape, 0, outShape, 0, rank);
            System.arraycopy(stride, 0, outStride, 0, rank);
            outShape[dim] = (extent - size) / step + 1;
            outStride[dim] = stride[dim] * step;
            outShape[rank] = size;
            outStride[rank] = stride[dim];
        }
        return ShapeOps.asStrided(self, outShape, outStride, self.storageOffset());
    }

    /** {@code self.unfold(dimension, size, step)}. */
    public static Tensor unfold(Tensor self, long dimension, long size, long step) {
        return UNFOLD.call1(self, dimension, size, step);
    }
}
