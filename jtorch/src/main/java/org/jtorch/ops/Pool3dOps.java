package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * 3-d pooling over the last three dims of a 4-d or 5-d input: {@code max_pool3d_with_indices}, {@code avg_pool3d},
 * {@code _adaptive_avg_pool3d} and their backward ops. The plans are {@link PoolPlan}s with a real depth axis, run by
 * the same kernels as the 2-d pools ({@link PoolKernels}); the checks are ATen's {@code pool3d_shape_check}. The
 * backward ops are linear in the incoming gradient, so their gradients are the forward ops again (average pools) or a
 * gather at the saved indices (max pool): gradients of any order work.
 */
public final class Pool3dOps {
    private Pool3dOps() {}

    private static long[] triple(long[] v, long[] emptyMeans, String message) {
        return PoolOps.expand(v, 3, emptyMeans, message);
    }

    private static void requireRank(Tensor x) {
        if (x.dim() != 4 && x.dim() != 5)
            throw new TorchException("non-empty 4D or 5D (batch mode) tensor expected for input");
    }

    /** ATen's {@code pool3d_shape_check}, in its order and words ({@code checkInputSize}: the average pool's check). */
    private static void shapeCheck(
            String fn, Tensor x, long[] k, long[] s, long[] p, long[] d, long[] out, boolean checkInputSize) {
        if (k[0] <= 0 || k[1] <= 0 || k[2] <= 0) {
            throw new TorchException(
                    "kernel size should be greater than zero, but got kT: " + k[0] + " kH: " + k[1] + " kW: " + k[2]);
        }
        if (s[0] <= 0 || s[1] <= 0 || s[2] <= 0) {
            throw new TorchException(
                    "stride should be greater than zero, but got dT: " + s[0] + " dH: " + s[1] + " dW: " + s[2]);
        }
        if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0) {
            throw new TorchException("dilation should be greater than zero, but got dilationT: " + d[0] + " dilationH: "
                    + d[1] + " dilationW: " + d[2]);
        }
        int r = x.dim();
        for (int i = r == 5 ? 1 : 0; i < r; i++) {
            if (x.size(i) <= 0) {
                throw new TorchException(fn + ": Expected input's non-batch dimensions to have positive length, but "
                        + "input has a shape of " + Shapes.str(x.impl().shapeRef()) + " and non-batch dimension "
                        + x.size(i) + " has length zero!");
            }
        }
        long t = x.size(r - 3), h = x.size(r - 2), w = x.size(r - 1);
        if (checkInputSize && (t < k[0] || h < k[1] || w < k[2])) {
            throw new TorchException("input image (T: " + t + " H: " + h + " W: " + w
                    + ") smaller than kernel size (kT: " + k[0] + " kH: " + k[1] + " kW: " + k[2] + ")");
        }
        if (k[0] / 2 < p[0] || k[2] / 2 < p[2] || k[1] / 2 < p[1]) {
            throw new TorchException("pad should be smaller than or equal to half of kernel size, but got kT: " + k[0]
                    + " kW: " + k[2] + " kH: " + k[1] + " padT: " + p[0] + " padW: " + p[2] + " padH: " + p[1]);
        }
        if (out[0] < 1 || out[1] < 1 || out[2] < 1) {
            long slices = x.size(r - 4);
            throw new TorchException("Given input size: (" + slices + "x" + t + "x" + h + "x" + w
                    + "). Calculated output size: (" + slices + "x" + out[0] + "x" + out[1] + "x" + out[2]
                    + "). Output size is too small");
        }
    }

    // ---- max pool --------------------------------------------------------------------------------------

    /**
     * The meta rule of the max pool and its backward (args from {@code at}: kernel, stride, padding, dilation, ceil).
     */
    private static PoolPlan maxPlan(Tensor x, Object[] a, int at) {
        long[] k = triple(
                (long[]) a[at], null, "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
        long[] s = triple(
                (long[]) a[at + 1],
                k,
                "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints");
        long[] p = triple(
                (long[]) a[at + 2], null, "max_pool3d: padding must either be a single int, or a tuple of three ints");
        long[] d = triple(
                (long[]) a[at + 3], null, "max_pool3d: dilation must be either a single int, or a tuple of three ints");
        boolean ceil = Boolean.TRUE.equals(a[at + 4]);
        requireRank(x);
        int r = x.dim();
        long[] in = {x.size(r - 3), x.size(r - 2), x.size(r - 1)}, out = new long[3];
        for (int i = 0; i < 3; i++) out[i] = PoolOps.outputSize(in[i], k[i], p[i], s[i], d[i], ceil);
        shapeCheck("max_pool3d_with_indices_out_cpu_template()", x, k, s, p, d, out, false);
        PoolPlan.Axis[] axes = new PoolPlan.Axis[3];
        for (int i = 0; i < 3; i++) axes[i] = PoolPlan.Axis.sliding(in[i], k[i], s[i], p[i], d[i], out[i]);
        return PoolPlan.max(PoolOps.planesOf(x, 3), axes[0], axes[1], axes[2]);
    }

    private static long[] outShape(Tensor x, PoolPlan p) {
        return PoolOps.withSpatial(x, p.d().out(), p.h().out(), p.w().out());
    }

    /**
     * {@code max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)}: the maximum of each
     * window (NaN wins, the first maximum is kept) and its flat position in the input volume.
     */
    public static final OpDef MAX_POOL3D_WITH_INDICES = OpDef.structured(
                    "max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], "
                            + "int[3] padding=0, int[3] dilation=1, "
                            + "bool ceil_mode=False) -> (Tensor, Tensor)",
                    a -> {
                        Tensor x = (Tensor) a[0];
                        PoolPlan p = maxPlan(x, a, 1);
                        // ATen's CPU kernel also takes every integer type (not bool): compared exactly as int64
                        if (!x.dtype().isIntegral(false)) PoolOps.requireSupported("max_pool3d", x.dtype());
                        long[] shape = outShape(x, p);
                        return new Spec(
                                new long[][] {shape, shape.clone()},
                                new DType[] {x.dtype(), DType.INT64},
                                x.device(),
                                p);
                    },
                    (a, outs, spec) -> PoolKernels.maxForward((Tensor) a[0], outs[0], outs[1], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {
                g[0] == null
                        ? null
                        : Pool3dOps.MAX_POOL3D_WITH_INDICES_BACKWARD.call1(
                                g[0], a[0], a[1], a[2], a[3], a[4], a[5], o[1])
            })
            .deriveJvp(Jvps::transposedVjp)
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    /**
     * {@code max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
     * indices)}: zeros of self's shape into which each gradient element is added at its window's argmax.
     */
    public static final OpDef MAX_POOL3D_WITH_INDICES_BACKWARD = OpDef.structured(
                    "max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, "
                            + "int[3] kernel_size, int[3] stride, int[3] padding, "
                            + "int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], x = (Tensor) a[1], idx = (Tensor) a[7];
                        Device device = Devices.common("max_pool3d_with_indices_backward", go, x, idx);
                        PoolPlan p = maxPlan(x, a, 2);
                        PoolOps.checkMaxBackward("max_pool3d_with_indices_backward", go, x, idx, outShape(x, p));
                        return Spec.of(x.shape(), x.dtype(), device, p);
                    },
                    (a, outs, spec) -> PoolKernels.maxBackward(
                            "max_pool3d_with_indices_backward", (Tensor) a[0], (Tensor) a[7], outs[0], (PoolPlan)
                                    spec.plan()))
            .defineVjp(
                    OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {PoolOps.gatherAt(g[0], (Tensor) a[7], 3), null, null})
            .deriveJvp(Jvps.linearExcept(7))
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    // ---- average pools ---------------------------------------------------------------------------------

    /**
     * The meta rule of avg_pool3d and its backward (args from {@code at}: kernel, stride, padding, ceil, include,
     * divisor).
     */
    private static PoolPlan avgPlan(Tensor x, Object[] a, int at) {
        long[] k =
                triple((long[]) a[at], null, "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
        long[] s = triple(
                (long[]) a[at + 1], k, "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
        long[] p =
                triple((long[]) a[at + 2], null, "avg_pool3d: padding must be a single int, or a tuple of three ints");
        boolean ceil = Boolean.TRUE.equals(a[at + 3]);
        boolean include = !Boolean.FALSE.equals(a[at + 4]);
        Long divisor = a[at + 5] == null ? null : ((Number) a[at + 5]).longValue();
        requireRank(x);
        if (divisor != null && divisor == 0) throw new TorchException("divisor must be not zero");
        int r = x.dim();
        long[] in = {x.size(r - 3), x.size(r - 2), x.size(r - 1)}, out = new long[3];
        for (int i = 0; i < 3; i++) out[i] = PoolOps.outputSize(in[i], k[i], p[i], s[i], 1, ceil);
        shapeCheck("avg_pool3d()", x, k, s, p, new long[] {1, 1, 1}, out, true);
        PoolPlan.Axis[] axes = new PoolPlan.Axis[3];
        for (int i = 0; i < 3; i++) axes[i] = PoolPlan.Axis.averaging(in[i], k[i], s[i], p[i], out[i]);
        return PoolPlan.average(PoolOps.planesOf(x, 3), axes[0], axes[1], axes[2], include, divisor);
    }

    /** {@code avg_pool3d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}. */
    public static final OpDef AVG_POOL3D = OpDef.structured(
                    "avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
                            + "bool ceil_mode=False, "
                            + "bool count_include_pad=True, int? divisor_override=None) -> Tensor",
                    a -> {
                        Tensor x = (Tensor) a[0];
                        PoolPlan p = avgPlan(x, a, 1);
                        // ATen's 3-d kernels: float, double and int64 only (no half types)
                        requireAvg3dSupported("avg_pool3d_out_frame", x.dtype());
                        return Spec.of(outShape(x, p), x.dtype(), x.device(), p);
                    },
                    (a, outs, spec) -> PoolKernels.average((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {Pool3dOps.AVG_POOL3D_BACKWARD.call1(g[0], a[0], a[1], a[2], a[3], a[4], a[5], a[6])})
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    private static void requireAvg3dSupported(String kernel, DType d) {
        if (d != DType.FLOAT32 && d != DType.FLOAT64 && d != DType.INT64)
            throw new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    /**
     * {@code avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
     * divisor_override)}.
     */
    public static final OpDef AVG_POOL3D_BACKWARD = OpDef.structured(
                    "avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, "
                            + "int[3] stride, int[3] padding, bool ceil_mode, "
                            + "bool count_include_pad, int? divisor_override) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], x = (Tensor) a[1];
                        Device device = Devices.common("avg_pool3d_backward", go, x);
                        PoolPlan p = avgPlan(x, a, 2);
                        PoolOps.checkGrad("avg_pool3d_backward", go, x, outShape(x, p));
                        requireAvg3dSupported("avg_pool3d_backward_out_frame", x.dtype());
                        return Spec.of(x.shape(), x.dtype(), device, p);
                    },
                    (a, outs, spec) -> PoolKernels.averageBackward((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {AVG_POOL3D.call1(g[0], a[2], a[3], a[4], a[5], a[6], a[7]), null})
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    // ---- adaptive average pool -------------------------------------------------------------------------

    private static PoolPlan adaptivePlan(Tensor x, long[] outputSize) {
        if (outputSize == null || outputSize.length != 3) {
            throw new TorchException("adaptive_avg_pool3d: output_size must be 3");
        }
        if (x.dim() != 4 && x.dim() != 5) {
            throw new TorchException("adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got "
                    + Shapes.str(x.impl().shapeRef()));
        }
        for (int i = 1; i < x.dim(); i++) {
            if (x.size(i) == 0) {
                throw new TorchException(
                        "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, "
                                + "but input has sizes " + Shapes.str(x.impl().shapeRef()) + " with dimension " + i
                                + " being empty");
            }
        }
        return adaptiveAxes(x, outputSize, false);
    }

    /** The adaptive windows of x's last three dims; {@code max}: a max pool's plan. */
    static PoolPlan adaptiveAxes(Tensor x, long[] outputSize, boolean max) {
        int r = x.dim();
        long[] shape = PoolOps.withSpatial(x, outputSize);
        for (long v : outputSize) {
            if (v < 0) {
                throw new TorchException(
                        "Trying to create tensor with negative dimension " + v + ": " + Shapes.str(shape));
            }
        }
        PoolPlan.Axis d = PoolPlan.Axis.adaptive(x.size(r - 3), outputSize[0]);
        PoolPlan.Axis h = PoolPlan.Axis.adaptive(x.size(r - 2), outputSize[1]);
        PoolPlan.Axis w = PoolPlan.Axis.adaptive(x.size(r - 1), outputSize[2]);
        long planes = PoolOps.planesOf(x, 3);
        return max ? PoolPlan.max(planes, d, h, w) : PoolPlan.adaptiveAverage(planes, d, h, w);
    }

    /** {@code _adaptive_avg_pool3d(self, output_size)}: the mean of each of output_size's near-equal windows. */
    public static final OpDef ADAPTIVE_AVG_POOL3D = OpDef.structured(
                    "_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor",
                    a -> {
                        Tensor x = (Tensor) a[0];
                        PoolPlan p = adaptivePlan(x, (long[]) a[1]);
                        PoolOps.requireSupported("adaptive_avg_pool3d_cpu", x.dtype());
                        return Spec.of(outShape(x, p), x.dtype(), x.device(), p);
                    },
                    (a, outs, spec) -> {
                        Tensor x = (Tensor) a[0];
                        // ATen's 3-d adaptive kernel sums float16/bfloat16 in the element type (the 2-d one in float)
                        PoolPlan p = (PoolPlan) spec.plan();
                        if (PoolKernelsLowPrecision.handles(x.dtype()) && !PoolKernelsLowPrecision.isWholePlaneMean(p))
                            PoolKernelsLowPrecision.adaptiveAverage3d(x, outs[0], p);
                        else PoolKernels.average(x, outs[0], p);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {Pool3dOps.ADAPTIVE_AVG_POOL3D_BACKWARD.call1(g[0], a[0])})
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    /** {@code _adaptive_avg_pool3d_backward(grad_output, self)}. */
    public static final OpDef ADAPTIVE_AVG_POOL3D_BACKWARD = OpDef.structured(
                    "_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], x = (Tensor) a[1];
                        Device device = Devices.common("_adaptive_avg_pool3d_backward", go, x);
                        if (go.dim() != x.dim()) {
                            throw new TorchException("_adaptive_avg_pool3d_backward: expected grad_output of rank "
                                    + x.dim() + ", but got "
                                    + Shapes.str(go.impl().shapeRef()));
                        }
                        PoolPlan p = adaptivePlan(x, new long[] {go.size(-3), go.size(-2), go.size(-1)});
                        PoolOps.checkGrad("_adaptive_avg_pool3d_backward", go, x, outShape(x, p));
                        PoolOps.requireSupported("adaptive_avg_pool3d_backward_cpu", x.dtype());
                        return Spec.of(x.shape(), x.dtype(), device, p);
                    },
                    (a, outs, spec) -> PoolKernels.averageBackward((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor go = (Tensor) a[0];
                return new Tensor[] {
                    ADAPTIVE_AVG_POOL3D.call1(g[0], new long[] {go.size(-3), go.size(-2), go.size(-1)}), null
                };
            })
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_3D);

    // ---- entry points ------------------------------------------------------------------------------------

    /** {@code torch.max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)}. */
    public static Tensor[] maxPool3dWithIndices(
            Tensor self, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        return (Tensor[]) MAX_POOL3D_WITH_INDICES.call(
                self,
                kernelSize.clone(),
                stride == null ? new long[0] : stride.clone(),
                padding.clone(),
                dilation.clone(),
                ceilMode);
    }

    /** {@code torch.avg_pool3d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}. */
    public static Tensor avgPool3d(
            Tensor self,
            long[] kernelSize,
            long[] stride,
            long[] padding,
            boolean ceilMode,
            boolean countIncludePad,
            Long divisorOverride) {
        return AVG_POOL3D.call1(
                self,
                kernelSize.clone(),
                stride == null ? new long[0] : stride.clone(),
                padding.clone(),
                ceilMode,
                countIncludePad,
                divisorOverride);
    }

    /** {@code torch._adaptive_avg_pool3d(self, output_size)}. */
    public static Tensor adaptiveAvgPool3d(Tensor self, long[] outputSize) {
        return ADAPTIVE_AVG_POOL3D.call1(self, outputSize.clone());
    }
}
