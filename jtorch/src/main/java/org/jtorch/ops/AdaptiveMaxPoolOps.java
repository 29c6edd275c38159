package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * Adaptive max pooling: {@code adaptive_max_pool2d}/{@code adaptive_max_pool3d} (values and the flat index of each
 * maximum in its input plane or volume), their backward ops, and {@code adaptive_max_pool1d} as ATen composes it (the
 * 2-d op over a unit height). The windows are the adaptive ones, [floor(i·in/out), ceil((i+1)·in/out)), run by the max
 * pool kernel of every pool ({@link PoolKernels}); the backward's gradient is a gather at the saved indices, so
 * gradients of any order work.
 */
public final class AdaptiveMaxPoolOps {
    private AdaptiveMaxPoolOps() {}

    /** ATen's adaptive_max_pool{2,3}d checks: rank, non-empty non-batch dims, then output_size's length. */
    private static PoolPlan plan(int spatial, Tensor x, long[] outputSize) {
        String fn = "adaptive_max_pool" + spatial + "d()";
        int r = x.dim();
        if (r != spatial + 1 && r != spatial + 2) {
            throw new TorchException(fn + ": Expected " + (spatial + 1) + "D or " + (spatial + 2)
                    + "D tensor, but got: " + Shapes.str(x.impl().shapeRef()));
        }
        for (int i = 1; i < r; i++) {
            if (x.size(i) <= 0) {
                throw new TorchException(fn + ": Expected input to have non-zero size for non-batch dimensions, but "
                        + "input has sizes " + Shapes.str(x.impl().shapeRef()) + " with dimension " + i
                        + " being empty");
            }
        }
        if (outputSize == null || outputSize.length != spatial) {
            throw new TorchException(fn + ": internal error: output_size.size() must be " + spatial);
        }
        PoolOps.requireSupported(spatial == 2 ? "adaptive_max_pool2d" : "adaptive_max_pool3d_cpu", x.dtype());
        long[] size = spatial == 3 ? outputSize : new long[] {1, outputSize[0], outputSize[1]};
        Tensor volume = spatial == 3 ? x : x.unsqueeze(-3);
        return Pool3dOps.adaptiveAxes(volume, size, true);
    }

    private static long[] outShape(int spatial, Tensor x, PoolPlan p) {
        return spatial == 3
                ? PoolOps.withSpatial(x, p.d().out(), p.h().out(), p.w().out())
                : PoolOps.withSpatial(x, p.h().out(), p.w().out());
    }

    private static OpDef forward(int spatial) {
        return OpDef.structured(
                        "adaptive_max_pool" + spatial + "d(Tensor self, int[" + spatial
                                + "] output_size) -> (Tensor, Tensor)",
                        a -> {
                            Tensor x = (Tensor) a[0];
                            PoolPlan p = plan(spatial, x, (long[]) a[1]);
                            long[] shape = outShape(spatial, x, p);
                            return new Spec(
                                    new long[][] {shape, shape.clone()},
                                    new DType[] {x.dtype(), DType.INT64},
                                    x.device(),
                                    p);
                        },
                        (a, outs, spec) ->
                                PoolKernels.maxForward((Tensor) a[0], outs[0], outs[1], (PoolPlan) spec.plan()))
                .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                        new Tensor[] {g[0] == null ? null : backwardOp(spatial).call1(g[0], a[0], o[1])})
                .deriveJvp(Jvps::transposedVjp)
                .defineBatchRule(spatial == 3 ? PoolBatchRule.FOLD_3D : PoolBatchRule.FOLD_2D);
    }

    private static OpDef backward(int spatial) {
        String name = "adaptive_max_pool" + spatial + "d_backward";
        return OpDef.structured(
                        name + "(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
                        a -> {
                            Tensor go = (Tensor) a[0], x = (Tensor) a[1], idx = (Tensor) a[2];
                            Device device = Devices.common(name, go, x, idx);
                            if (go.dim() != x.dim()) {
                                throw new TorchException(name + ": expected grad_output of rank " + x.dim()
                                        + ", but got " + Shapes.str(go.impl().shapeRef()));
                            }
                            long[] size = new long[spatial];
                            for (int i = 0; i < spatial; i++) size[i] = go.size(go.dim() - spatial + i);
                            PoolPlan p = plan(spatial, x, size);
                            PoolOps.checkMaxBackward(name, go, x, idx, outShape(spatial, x, p));
                            return Spec.of(x.shape(), x.dtype(), device, p);
                        },
                        (a, outs, spec) -> PoolKernels.maxBackward(
                                name, (Tensor) a[0], (Tensor) a[2], outs[0], (PoolPlan) spec.plan()))
                .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                        new Tensor[] {PoolOps.gatherAt(g[0], (Tensor) a[2], spatial), null, null})
                .deriveJvp(Jvps.linearExcept(2))
                .defineBatchRule(spatial == 3 ? PoolBatchRule.FOLD_3D : PoolBatchRule.FOLD_2D);
    }

    private static OpDef backwardOp(int spatial) {
        return spatial == 3 ? ADAPTIVE_MAX_POOL3D_BACKWARD : ADAPTIVE_MAX_POOL2D_BACKWARD;
    }

    /** {@code adaptive_max_pool2d_backward(grad_output, self, indices)}. */
    public static final OpDef ADAPTIVE_MAX_POOL2D_BACKWARD = backward(2);

    /** {@code adaptive_max_pool3d_backward(grad_output, self, indices)}. */
    public static final OpDef ADAPTIVE_MAX_POOL3D_BACKWARD = backward(3);

    /**
     * {@code adaptive_max_pool2d(self, output_size)}: the maximum of each adaptive window of the last two dims (NaN
     * wins, the first maximum is kept) and its flat position in the input plane.
     */
    public static final OpDef ADAPTIVE_MAX_POOL2D = forward(2);

    /** {@code adaptive_max_pool3d(self, output_size)}: as {@link #ADAPTIVE_MAX_POOL2D} over the last three dims. */
    public static final OpDef ADAPTIVE_MAX_POOL3D = forward(3);

    /**
     * {@code adaptive_max_pool1d(self, output_size)}: the 2-d op over a unit height, after ATen's 1-d checks; values
     * and positions along the last dim.
     */
    public static final OpDef ADAPTIVE_MAX_POOL1D =
            OpDef.composite("adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", a -> {
                Tensor x = (Tensor) a[0];
                long[] size = (long[]) a[1];
                if (x.dim() < 2 || x.dim() > 3) {
                    throw new TorchException("Expected 2 to 3 dimensions, but got " + x.dim() + "-dimensional tensor "
                            + "for argument #1 'self' (while checking arguments for adaptive_max_pool1d)");
                }
                if (size.length != 1) {
                    throw new TorchException("adaptive_max_pool1d() argument 'output_size' should contain one int (got "
                            + size.length + ")");
                }
                for (int i = 1; i < x.dim(); i++) {
                    if (x.size(i) <= 0) {
                        throw new TorchException("adaptive_max_pool1d(): Expected input to have non-zero size for "
                                + "non-batch dimensions, but input has sizes " + Shapes.str(x.shape())
                                + " with dimension " + i + " being empty");
                    }
                }
                Tensor[] r = (Tensor[]) ADAPTIVE_MAX_POOL2D.call(x.unsqueeze(-2), new long[] {1, size[0]});
                return new Tensor[] {r[0].squeeze(-2), r[1].squeeze(-2)};
            });
}
