package org.jtorch.ops;

import java.util.EnumSet;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * 2-d pooling over the last two dims of a 3-d or 4-d input: {@code max_pool2d_with_indices}, {@code avg_pool2d},
 * {@code _adaptive_avg_pool2d}, and their backward ops. The backward ops are linear in the incoming gradient, so their
 * own gradients are the forward ops again (average pools) or a gather at the saved indices (max pool): gradients of any
 * order work.
 *
 * <p>Average pools of both kinds are one kernel: every output position averages a rectangle of the input divided by a
 * per-position divisor; the meta rule works the windows out ({@link PoolPlan}), and the kernels are those of every pool
 * ({@link PoolKernels}). vmap folds the vmapped dim into N ({@link PoolBatchRule}).
 */
public final class PoolOps {
    private PoolOps() {}

    /** Dtypes the pooling kernels take (ATen's CPU kernels: floating types with the half ones). */
    private static final Set<DType> POOL_DTYPES =
            EnumSet.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64);

    static void requireSupported(String kernel, DType d) {
        if (!POOL_DTYPES.contains(d))
            throw new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    /**
     * avg_pool2d's CPU kernels also take int64 (ATen dispatches them over the floating types and Long): the window sum
     * is an int64 divided by the divisor in C++'s integer division, which truncates toward zero.
     */
    static void requireAvgSupported(String kernel, DType d) {
        if (d != DType.INT64) requireSupported(kernel, d);
    }

    /**
     * ATen's int-or-tuple expansion to {@code n} values with the op's message; {@code emptyMeans} stands in for an
     * empty list (stride).
     */
    static long[] expand(long[] v, int n, long[] emptyMeans, String message) {
        if (v == null || v.length == 0) {
            if (emptyMeans != null) return emptyMeans;
            throw new TorchException(message);
        }
        if (v.length == 1) {
            long[] r = new long[n];
            java.util.Arrays.fill(r, v[0]);
            return r;
        }
        if (v.length != n) throw new TorchException(message);
        return v;
    }

    private static long[] pair(long[] v, long[] emptyMeans, String message) {
        return expand(v, 2, emptyMeans, message);
    }

    /** ATen's {@code pooling_output_shape} with its checks. */
    static long outputSize(long in, long k, long pad, long stride, long dilation, boolean ceil) {
        if (stride == 0) throw new TorchException("stride should not be zero");
        if (pad < 0) throw new TorchException("pad must be non-negative, but got pad: " + pad);
        if (pad > ((k - 1) * dilation + 1) / 2) {
            throw new TorchException("pad should be at most half of effective kernel size, but got pad=" + pad
                    + ", kernel_size=" + k + " and dilation=" + dilation);
        }
        long num = in + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
        long out = Math.floorDiv(num, stride) + 1;
        if (ceil && (out - 1) * stride >= in + pad) out--;
        return out;
    }

    /** ATen's {@code pool2d_shape_check}. */
    private static void shapeCheck(Tensor x, long kh, long kw, long sh, long sw, long dh, long dw, long oh, long ow) {
        if (kh <= 0 || kw <= 0)
            throw new TorchException("kernel size should be greater than zero, but got kH: " + kh + " kW: " + kw);
        if (sh <= 0 || sw <= 0)
            throw new TorchException("stride should be greater than zero, but got dH: " + sh + " dW: " + sw);
        if (dh <= 0 || dw <= 0) {
            throw new TorchException(
                    "dilation should be greater than zero, but got dilationH: " + dh + " dilationW: " + dw);
        }
        int r = x.dim();
        boolean valid = x.size(r - 3) != 0 && x.size(r - 2) != 0 && x.size(r - 1) != 0;
        if (!valid) {
            throw new TorchException(
                    "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                            + Shapes.str(x.impl().shapeRef()));
        }
        if (oh < 1 || ow < 1) {
            throw new TorchException("Given input size: (" + x.size(r - 3) + "x" + x.size(r - 2) + "x" + x.size(r - 1)
                    + "). Calculated output size: (" + x.size(r - 3) + "x" + oh + "x" + ow
                    + "). Output size is too small");
        }
    }

    private static void requireRank(Tensor x) {
        if (x.dim() != 3 && x.dim() != 4)
            throw new TorchException("non-empty 3D or 4D (batch mode) tensor expected for input");
    }

    /** x's shape with its last spatial dims replaced by {@code out}. */
    static long[] withSpatial(Tensor x, long... out) {
        long[] s = x.shape();
        System.arraycopy(out, 0, s, s.length - out.length, out.length);
        return s;
    }

    /** x's shape with the plan's output sizes as its last two dims. */
    private static long[] withSpatial2d(Tensor x, PoolPlan p) {
        return withSpatial(x, p.h().out(), p.w().out());
    }

    /** The number of independent planes (N·C) of x pooled over its last {@code spatial} dims. */
    static long planesOf(Tensor x, int spatial) {
        long volume = 1;
        for (int i = x.dim() - spatial; i < x.dim(); i++) volume *= x.size(i);
        return volume == 0 ? 0 : x.numel() / volume;
    }

    // ---- max pool --------------------------------------------------------------------------------------

    /**
     * The meta rule shared by the max pool and its backward (args from index {@code at}: kernel, stride, padding,
     * dilation, ceil).
     */
    private static PoolPlan maxPlan(Tensor x, Object[] a, int at) {
        long[] k = pair(
                (long[]) a[at], null, "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
        long[] s = pair(
                (long[]) a[at + 1],
                k,
                "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
        long[] p = pair(
                (long[]) a[at + 2], null, "max_pool2d: padding must either be a single int, or a tuple of two ints");
        long[] d = pair(
                (long[]) a[at + 3], null, "max_pool2d: dilation must be either a single int, or a tuple of two ints");
        boolean ceil = Boolean.TRUE.equals(a[at + 4]);
        requireRank(x);
        if (k[0] <= 0 || k[1] <= 0) {
            throw new TorchException("kernel size should be greater than zero, but got kH: " + k[0] + " kW: " + k[1]);
        }
        if (d[0] <= 0 || d[1] <= 0) {
            throw new TorchException(
                    "dilation should be greater than zero, but got dilationH: " + d[0] + " dilationW: " + d[1]);
        }
        int r = x.dim();
        long h = x.size(r - 2), w = x.size(r - 1);
        long oh = outputSize(h, k[0], p[0], s[0], d[0], ceil), ow = outputSize(w, k[1], p[1], s[1], d[1], ceil);
        shapeCheck(x, k[0], k[1], s[0], s[1], d[0], d[1], oh, ow);
        return PoolPlan.max(
                planesOf(x, 2),
                PoolPlan.Axis.UNIT,
                PoolPlan.Axis.sliding(h, k[0], s[0], p[0], d[0], oh),
                PoolPlan.Axis.sliding(w, k[1], s[1], p[1], d[1], ow));
    }

    /**
     * {@code max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)}: the maximum of each
     * window (NaN wins, the first maximum is kept) and its flat position in the input plane.
     */
    public static final OpDef MAX_POOL2D_WITH_INDICES = OpDef.structured(
                    "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], "
                            + "int[2] padding=0, int[2] dilation=1, "
                            + "bool ceil_mode=False) -> (Tensor, Tensor)",
                    a -> {
                        Tensor x = (Tensor) a[0];
                        PoolPlan p = maxPlan(x, a, 1);
                        // ATen's CPU kernel also takes every integer type (not bool): compared exactly as int64
                        if (!x.dtype().isIntegral(false)) requireSupported("max_pool2d", x.dtype());
                        long[] shape = withSpatial2d(x, p);
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
                        : maxPool2dWithIndicesBackward(
                                g[0],
                                (Tensor) a[0],
                                (long[]) a[1],
                                (long[]) a[2],
                                (long[]) a[3],
                                (long[]) a[4],
                                Boolean.TRUE.equals(a[5]),
                                o[1])
            })
            .deriveJvp(Jvps::transposedVjp)
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    /**
     * {@code max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
     * indices)}: zeros of self's shape into which each gradient element is added at its window's argmax.
     */
    public static final OpDef MAX_POOL2D_WITH_INDICES_BACKWARD = OpDef.structured(
                    "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, "
                            + "int[2] kernel_size, int[2] stride, int[2] padding, "
                            + "int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], x = (Tensor) a[1], idx = (Tensor) a[7];
                        Device device = Devices.common("max_pool2d_with_indices_backward", go, x, idx);
                        PoolPlan p = maxPlan(x, a, 2);
                        long[] shape = withSpatial2d(x, p);
                        checkMaxBackward("max_pool2d_with_indices_backward", go, x, idx, shape);
                        return Spec.of(x.shape(), x.dtype(), device, p);
                    },
                    (a, outs, spec) -> PoolKernels.maxBackward(
                            "max_pool2d_with_indices_backward", (Tensor) a[0], (Tensor) a[7], outs[0], (PoolPlan)
                                    spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {gatherAt(g[0], (Tensor) a[7], 2), null, null})
            .deriveJvp(Jvps.linearExcept(7))
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    /**
     * The checks of a max pool's backward (ATen's): grad_output and indices of the pooled shape, int64 indices, and
     * grad_output of self's dtype, which is a floating one.
     */
    static void checkMaxBackward(String op, Tensor go, Tensor x, Tensor idx, long[] shape) {
        if (!java.util.Arrays.equals(go.impl().shapeRef(), shape)
                || !java.util.Arrays.equals(idx.impl().shapeRef(), shape)) {
            throw new TorchException(op + ": expected grad_output and indices of shape " + Shapes.str(shape)
                    + ", but got " + Shapes.str(go.impl().shapeRef()) + " and "
                    + Shapes.str(idx.impl().shapeRef()));
        }
        if (idx.dtype() != DType.INT64) {
            throw new TorchException(op + ": expected indices of dtype Long, but got "
                    + idx.dtype().cppName());
        }
        if (go.dtype() != x.dtype()) {
            throw new TorchException("expected scalar type " + x.dtype().cppName() + " but found "
                    + go.dtype().cppName());
        }
        requireSupported(op, x.dtype());
    }

    /**
     * The gradient of a max pool's backward with respect to grad_output (ATen's {@code max_pool_double_backward}): the
     * incoming gradient read at the saved indices of each plane of {@code spatial} dims.
     */
    static Tensor gatherAt(Tensor grad, Tensor indices, int spatial) {
        Tensor flat = grad.flatten(-spatial, -1).gather(-1, indices.flatten(-spatial, -1));
        return flat.reshape(indices.shape());
    }

    // ---- average pools ---------------------------------------------------------------------------------

    /**
     * The meta rule shared by avg_pool2d and its backward (args from {@code at}: kernel, stride, padding, ceil,
     * include, divisor).
     */
    private static PoolPlan avgPlan(Tensor x, Object[] a, int at) {
        long[] k = pair(
                (long[]) a[at], null, "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
        long[] s = pair(
                (long[]) a[at + 1],
                k,
                "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
        long[] p = pair(
                (long[]) a[at + 2], null, "avg_pool2d: padding must either be a single int, or a tuple of two ints");
        boolean ceil = Boolean.TRUE.equals(a[at + 3]);
        boolean include = !Boolean.FALSE.equals(a[at + 4]);
        Long divisor = a[at + 5] == null ? null : ((Number) a[at + 5]).longValue();
        if (divisor != null && divisor == 0) throw new TorchException("divisor must be not zero");
        requireRank(x);
        if (k[0] <= 0 || k[1] <= 0) {
            throw new TorchException("kernel size should be greater than zero, but got kH: " + k[0] + " kW: " + k[1]);
        }
        int r = x.dim();
        long h = x.size(r - 2), w = x.size(r - 1);
        long oh = outputSize(h, k[0], p[0], s[0], 1, ceil), ow = outputSize(w, k[1], p[1], s[1], 1, ceil);
        shapeCheck(x, k[0], k[1], s[0], s[1], 1, 1, oh, ow);
        return PoolPlan.average(
                planesOf(x, 2),
                PoolPlan.Axis.UNIT,
                PoolPlan.Axis.averaging(h, k[0], s[0], p[0], oh),
                PoolPlan.Axis.averaging(w, k[1], s[1], p[1], ow),
                include,
                divisor);
    }

    /** {@code avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}. */
    public static final OpDef AVG_POOL2D = OpDef.structured(
                    "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                            + "bool ceil_mode=False, "
                            + "bool count_include_pad=True, int? divisor_override=None) -> Tensor",
                    a -> {
                        Tensor x = (Tensor) a[0];
                        PoolPlan p = avgPlan(x, a, 1);
                        requireAvgSupported("avg_pool2d", x.dtype());
                        return Spec.of(withSpatial2d(x, p), x.dtype(), x.device(), p);
                    },
                    (a, outs, spec) -> PoolKernels.average((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                avgPool2dBackward(
                        g[0],
                        (Tensor) a[0],
                        (long[]) a[1],
                        (long[]) a[2],
                        (long[]) a[3],
                        Boolean.TRUE.equals(a[4]),
                        !Boolean.FALSE.equals(a[5]),
                        (Long) a[6])
            })
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    /**
     * {@code avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
     * divisor_override)}.
     */
    public static final OpDef AVG_POOL2D_BACKWARD = OpDef.structured(
                    "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, "
                            + "int[2] stride, int[2] padding, bool ceil_mode, "
                            + "bool count_include_pad, int? divisor_override) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], x = (Tensor) a[1];
                        Device device = Devices.common("avg_pool2d_backward", go, x);
                        PoolPlan p = avgPlan(x, a, 2);
                        checkGrad("avg_pool2d_backward", go, x, withSpatial2d(x, p));
                        requireAvgSupported("avg_pool2d_backward_out_frame", x.dtype());
                        return Spec.of(x.shape(), x.dtype(), device, p);
                    },
                    (a, outs, spec) -> PoolKernels.averageBackward((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                avgPool2d(
                        g[0],
                        (long[]) a[2],
                        (long[]) a[3],
                        (long[]) a[4],
                        Boolean.TRUE.equals(a[5]),
                        !Boolean.FALSE.equals(a[6]),
                        (Long) a[7]),
                null
            })
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    static void checkGrad(String op, Tensor go, Tensor x, long[] shape) {
        if (!java.util.Arrays.equals(go.impl().shapeRef(), shape)) {
            throw new TorchException(op + ": expected grad_output of shape " + Shapes.str(shape) + ", but got "
                    + Shapes.str(go.impl().shapeRef()));
        }
        if (go.dtype() != x.dtype()) {
            throw new TorchException("expected scalar type " + x.dtype().cppName() + " but found "
                    + go.dtype().cppName());
        }
    }

    private static PoolPlan adaptivePlan(Tensor x, long[] outputSize) {
        if (x.dim() != 3 && x.dim() != 4) {
            throw new TorchException("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                    + Shapes.str(x.impl().shapeRef()));
        }
        if (outputSize == null || outputSize.length != 2) {
            throw new TorchException("adaptive_avg_pool2d: output_size must be 2");
        }
        for (int i = 1; i < x.dim(); i++) {
            if (x.size(i) == 0) {
                throw new TorchException(
                        "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                                + "but input has sizes " + Shapes.str(x.impl().shapeRef()) + " with dimension " + i
                                + " being empty");
            }
        }
        if (outputSize[0] < 0 || outputSize[1] < 0) {
            throw new TorchException(
                    "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {"
                            + outputSize[0] + ", " + outputSize[1] + "}");
        }
        int r = x.dim();
        long h = x.size(r - 2), w = x.size(r - 1);
        return PoolPlan.adaptiveAverage(
                planesOf(x, 2),
                PoolPlan.Axis.UNIT,
                PoolPlan.Axis.adaptive(h, outputSize[0]),
                PoolPlan.Axis.adaptive(w, outputSize[1]));
    }

    /** {@code _adaptive_avg_pool2d(self, output_size)}: the mean of each of output_size's near-equal windows. */
    public static final OpDef ADAPTIVE_AVG_POOL2D = OpDef.structured(
                    "_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
                    a -> {
                        Tensor x = (Tensor) a[0];
                        PoolPlan p = adaptivePlan(x, (long[]) a[1]);
                        requireSupported("adaptive_avg_pool2d", x.dtype());
                        return Spec.of(withSpatial2d(x, p), x.dtype(), x.device(), p);
                    },
                    (a, outs, spec) -> PoolKernels.average((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {adaptiveAvgPool2dBackward(g[0], (Tensor) a[0])})
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    /** {@code _adaptive_avg_pool2d_backward(grad_output, self)}. */
    public static final OpDef ADAPTIVE_AVG_POOL2D_BACKWARD = OpDef.structured(
                    "_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], x = (Tensor) a[1];
                        Device device = Devices.common("_adaptive_avg_pool2d_backward", go, x);
                        if (go.dim() != x.dim()) {
                            throw new TorchException("_adaptive_avg_pool2d_backward: expected grad_output of rank "
                                    + x.dim() + ", but got "
                                    + Shapes.str(go.impl().shapeRef()));
                        }
                        PoolPlan p = adaptivePlan(x, new long[] {go.size(-2), go.size(-1)});
                        checkGrad("_adaptive_avg_pool2d_backward", go, x, withSpatial2d(x, p));
                        requireSupported("adaptive_avg_pool2d_backward_cpu", x.dtype());
                        return Spec.of(x.shape(), x.dtype(), device, p);
                    },
                    (a, outs, spec) -> PoolKernels.averageBackward((Tensor) a[0], outs[0], (PoolPlan) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor go = (Tensor) a[0];
                return new Tensor[] {adaptiveAvgPool2d(g[0], new long[] {go.size(-2), go.size(-1)}), null};
            })
            .deriveJvp(Jvps::linear)
            .defineBatchRule(PoolBatchRule.FOLD_2D);

    // ---- entry points ------------------------------------------------------------------------------------

    /**
     * {@code torch.max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)}: values and
     * indices.
     */
    public static Tensor[] maxPool2dWithIndices(
            Tensor self, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        return (Tensor[]) Dispatcher.call(
                MAX_POOL2D_WITH_INDICES,
                self,
                kernelSize.clone(),
                stride == null ? new long[0] : stride.clone(),
                padding.clone(),
                dilation.clone(),
                ceilMode);
    }

    /** The gradient of {@link #maxPool2dWithIndices} with respect to self. */
    public static Tensor maxPool2dWithIndicesBackward(
            Tensor gradOutput,
            Tensor self,
            long[] kernelSize,
            long[] stride,
            long[] padding,
            long[] dilation,
            boolean ceilMode,
            Tensor indices) {
        return MAX_POOL2D_WITH_INDICES_BACKWARD.call1(
                gradOutput,
                self,
                kernelSize.clone(),
                stride.clone(),
                padding.clone(),
                dilation.clone(),
                ceilMode,
                indices);
    }

    /** {@code torch.avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}. */
    public static Tensor avgPool2d(
            Tensor self,
            long[] kernelSize,
            long[] stride,
            long[] padding,
            boolean ceilMode,
            boolean countIncludePad,
            Long divisorOverride) {
        return AVG_POOL2D.call1(
                self,
                kernelSize.clone(),
                stride == null ? new long[0] : stride.clone(),
                padding.clone(),
                ceilMode,
                countIncludePad,
                divisorOverride);
    }

    /** The gradient of {@link #avgPool2d} with respect to self. */
    public static Tensor avgPool2dBackward(
            Tensor gradOutput,
            Tensor self,
            long[] kernelSize,
            long[] stride,
            long[] padding,
            boolean ceilMode,
            boolean countIncludePad,
            Long divisorOverride) {
        return AVG_POOL2D_BACKWARD.call1(
                gradOutput,
                self,
                kernelSize.clone(),
                stride.clone(),
                padding.clone(),
                ceilMode,
                countIncludePad,
                divisorOverride);
    }

    /** {@code torch._adaptive_avg_pool2d(self, output_size)}. */
    public static Tensor adaptiveAvgPool2d(Tensor self, long[] outputSize) {
        return ADAPTIVE_AVG_POOL2D.call1(self, outputSize.clone());
    }

    /** The gradient of {@link #adaptiveAvgPool2d} with respect to self. */
    public static Tensor adaptiveAvgPool2dBackward(Tensor gradOutput, Tensor self) {
        return ADAPTIVE_AVG_POOL2D_BACKWARD.call1(gradOutput, self);
    }
}
