package org.jtorch.ops;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * 1-d and 2-d convolution ({@code aten::convolution} for batched inputs, transposed or not) and its two gradients. The
 * three ops are bilinear in their two tensor operands and are each other's adjoints, so every backward rule is written
 * with these same ops and gradients of any order work:
 *
 * <ul>
 *   <li>{@code y = conv(x, W)};
 *   <li>{@code gx = convolution_backward_input(g, W)}, the adjoint of {@code x ↦ conv(x, W)} (a transposed
 *       convolution); its gradients are {@code conv(h, W)} for g and {@code convolution_backward_weight(g, h)} for W;
 *   <li>{@code gW = convolution_backward_weight(g, x)}, the adjoint of {@code W ↦ conv(x, W)}; its gradients are
 *       {@code conv(x, H)} for g and {@code convolution_backward_input(g, H)} for x.
 * </ul>
 *
 * A transposed convolution is the input gradient of the convolution whose weight it takes: its kernel is the grad-input
 * kernel, and its gradients are a convolution (for the input) and a grad-weight (for the weight). Kernels are im2col +
 * GEMM ({@link ConvKernels}).
 */
public final class ConvOps {
    private ConvOps() {}

    /** Dtypes the CPU kernels compute (half types in float32, as ATen's slow_conv2d does). */
    private static final Set<DType> CONV_DTYPES =
            EnumSet.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64);

    /** Integer dtypes the plain (not transposed) convolution computes, as ATen's slow_conv2d does; no gradients. */
    private static final Set<DType> INTEGER_CONV_DTYPES =
            EnumSet.of(DType.UINT8, DType.INT8, DType.INT16, DType.INT32, DType.INT64);

    /**
     * The geometry of one convolution, with 1-d problems lifted to 2-d (height 1, kernel height 1): the batch,
     * channels, spatial sizes of input, kernel and output, and the per-dim stride, padding, dilation.
     */
    record Geometry(
            boolean oneD,
            long n,
            long cin,
            long h,
            long w,
            long cout,
            long kh,
            long kw,
            long oh,
            long ow,
            long sh,
            long sw,
            long ph,
            long pw,
            long dh,
            long dw,
            long groups) {

        long[] outputShape() {
            return oneD ? new long[] {n, cout, ow} : new long[] {n, cout, oh, ow};
        }

        long[] inputShape() {
            return oneD ? new long[] {n, cin, w} : new long[] {n, cin, h, w};
        }
    }

    /** PyTorch's expansion of an int-or-list argument to one value per spatial dim, with its message. */
    static long[] perDim(String name, long[] v, int spatial) {
        if (v == null) throw new TorchException("convolution: " + name + " must be given");
        if (v.length == 1 && spatial > 1) {
            long[] r = new long[spatial];
            Arrays.fill(r, v[0]);
            return r;
        }
        if (v.length != spatial) {
            throw new TorchException("expected " + name + " to be a single integer value or a list of " + spatial
                    + " values to match the convolution dimensions, but got " + name + "=" + Shapes.str(v));
        }
        return v;
    }

    /**
     * ATen's {@code check_shape_forward} on an input of {@code in} and a weight of {@code wt}, in its order and words;
     * returns the geometry. {@code op} names the op in messages of our own.
     */
    static Geometry geometry(
            String op, long[] in, long[] wt, long[] stride, long[] padding, long[] dilation, long groups) {
        return geometry(op, in, wt, stride, padding, dilation, NO_OUTPUT_PADDING, groups);
    }

    /** As above, with the output padding a non-transposed convolution checks but does not use. */
    private static Geometry geometry(
            String op,
            long[] in,
            long[] wt,
            long[] stride,
            long[] padding,
            long[] dilation,
            long[] outputPadding,
            long groups) {
        int k = checkRanks(op, in, wt, false);
        int spatial = k - 2;
        long[] s = perDim("stride", stride, spatial),
                p = perDim("padding", padding, spatial),
                d = perDim("dilation", dilation, spatial);
        checkParameters(s, p, d, perDim("output_padding", outputPadding, spatial), groups, wt);
        if (in[1] != wt[1] * groups) {
            throw new TorchException("Given groups=" + groups + ", weight of size " + Shapes.str(wt)
                    + ", expected input" + Shapes.str(in) + " to have " + wt[1] * groups + " channels, but got " + in[1]
                    + " channels instead");
        }
        boolean oneD = spatial == 1;
        long h = oneD ? 1 : in[2], w = in[k - 1], kh = oneD ? 1 : wt[2], kw = wt[k - 1];
        long sh = oneD ? 1 : s[0], sw = s[spatial - 1], ph = oneD ? 0 : p[0], pw = p[spatial - 1];
        long dh = oneD ? 1 : d[0], dw = d[spatial - 1];
        long effH = dh * (kh - 1) + 1, effW = dw * (kw - 1) + 1, padH = h + 2 * ph, padW = w + 2 * pw;
        if (padH < effH || padW < effW) {
            String padded = oneD ? "(" + padW + ")" : "(" + padH + " x " + padW + ")";
            String kernel = oneD ? "(" + effW + ")" : "(" + effH + " x " + effW + ")";
            throw new TorchException("Calculated padded input size per channel: " + padded + ". Kernel size: " + kernel
                    + ". Kernel size can't be greater than actual input size");
        }
        return new Geometry(
                oneD,
                in[0],
                in[1],
                h,
                w,
                wt[0],
                kh,
                kw,
                (padH - effH) / sh + 1,
                (padW - effW) / sw + 1,
                sh,
                sw,
                ph,
                pw,
                dh,
                dw,
                groups);
    }

    /**
     * The geometry of a transposed convolution of an input {@code in} by a weight {@code wt} ([C_in, C_out/groups,
     * k...]), with ATen's checks and words: the geometry of the convolution whose input gradient it is, so that the
     * convolution's "input" is the transposed one's output ({@code inputShape()}) and its "output" the transposed one's
     * input. Output padding adds rows and columns at the end that only the bias reaches.
     */
    static Geometry transposedGeometry(
            long[] in, long[] wt, long[] stride, long[] padding, long[] dilation, long[] outputPadding, long groups) {
        int k = checkRanks("convolution", in, wt, false);
        int spatial = k - 2;
        long[] s = perDim("stride", stride, spatial), p = perDim("padding", padding, spatial);
        long[] d = perDim("dilation", dilation, spatial), op = perDim("output_padding", outputPadding, spatial);
        checkParameters(s, p, d, op, groups, wt);
        if (in[1] != wt[0]) {
            throw new TorchException("Given transposed=1, weight of size " + Shapes.str(wt) + ", expected input"
                    + Shapes.str(in) + " to have " + wt[0] + " channels, but got " + in[1] + " channels instead");
        }
        boolean oneD = spatial == 1;
        // ATen runs 1-d as 2-d with a leading unit dim: stride, dilation 1 and no padding there
        long[] s2 = lift(oneD, s, 1), p2 = lift(oneD, p, 0), d2 = lift(oneD, d, 1), op2 = lift(oneD, op, 0);
        long[] inSize = {oneD ? 1 : in[2], in[k - 1]}, kernel = {oneD ? 1 : wt[2], wt[k - 1]}, out = new long[2];
        for (int i = 0; i < 2; i++) {
            out[i] = (inSize[i] - 1) * s2[i] - 2 * p2[i] + d2[i] * (kernel[i] - 1) + op2[i] + 1;
        }
        if (!(op2[0] < s2[0] || op2[0] < d2[0]) || !(op2[1] < s2[1] || op2[1] < d2[1])) {
            throw new TorchException("output padding must be smaller than either stride or dilation, but got "
                    + "output_padding_height: " + op2[0] + " output_padding_width: " + op2[1]
                    + " stride_height: " + s2[0] + " stride_width: " + s2[1]
                    + " dilation_height: " + d2[0] + " dilation_width: " + d2[1]);
        }
        if (out[0] < 1 || out[1] < 1) {
            throw new TorchException("Given input size per channel: (" + inSize[0] + " x " + inSize[1]
                    + "). Calculated output size per channel: (" + out[0] + " x " + out[1]
                    + "). Output size is too small");
        }
        return new Geometry(
                oneD,
                in[0],
                wt[1] * groups,
                out[0],
                out[1],
                wt[0],
                kernel[0],
                kernel[1],
                inSize[0],
                inSize[1],
                s2[0],
                s2[1],
                p2[0],
                p2[1],
                d2[0],
                d2[1],
                groups);
    }

    /** A 1-d parameter as the 2-d one ATen computes with ({@code unit} in front); a 2-d one as it is. */
    private static long[] lift(boolean oneD, long[] v, long unit) {
        return oneD ? new long[] {unit, v[0]} : v;
    }

    /**
     * The weight's rank is 3 or 4 (5 too where {@code volumes}: only {@code convolution} itself computes 3-d problems,
     * its gradient ops are 1-d and 2-d) and the input's the same; returns it.
     */
    private static int checkRanks(String op, long[] in, long[] wt, boolean volumes) {
        int k = wt.length;
        if (k != 3 && k != 4 && !(volumes && k == 5)) {
            throw new TorchException(op + ": only 1-d" + (volumes ? ", 2-d and 3-d" : " and 2-d")
                    + " convolutions are supported, but got a " + k + "-dimensional weight of size " + Shapes.str(wt));
        }
        if (in.length != k) {
            throw new TorchException("Expected " + k + "-dimensional input for " + k + "-dimensional weight "
                    + Shapes.str(wt) + ", but got " + in.length + "-dimensional input of size " + Shapes.str(in)
                    + " instead");
        }
        return k;
    }

    /** ATen's checks of the per-dim parameters and of groups against the weight, in its order and words. */
    static void checkParameters(long[] s, long[] p, long[] d, long[] op, long groups, long[] wt) {
        for (long v : p) if (v < 0) throw new TorchException("negative padding is not supported");
        for (long v : s) if (v <= 0) throw new TorchException("non-positive stride is not supported");
        for (long v : op) if (v < 0) throw new TorchException("negative output_padding is not supported");
        for (long v : d) if (v <= 0) throw new TorchException("non-positive dilation is not supported");
        if (groups <= 0) throw new TorchException("non-positive groups is not supported");
        if (wt[0] % groups != 0) {
            throw new TorchException("Given groups=" + groups + ", expected weight to be divisible by " + groups
                    + " at dimension 0, but got weight of size [" + Shapes.str(wt) + "] instead");
        }
    }

    /** The legacy tensor-type name ATen's type checks print ({@code torch.FloatTensor}). */
    static String legacyTypeName(DType d) {
        return switch (d) {
            case FLOAT16 -> "torch.HalfTensor";
            case BFLOAT16 -> "torch.BFloat16Tensor";
            case FLOAT32 -> "torch.FloatTensor";
            case FLOAT64 -> "torch.DoubleTensor";
            case BOOL -> "torch.BoolTensor";
            case UINT8 -> "torch.ByteTensor";
            case INT8 -> "torch.CharTensor";
            case INT16 -> "torch.ShortTensor";
            case INT32 -> "torch.IntTensor";
            case INT64 -> "torch.LongTensor";
            default -> d.toString();
        };
    }

    /**
     * Whether a convolution computes {@code d} as an integer dtype: a plain one every integer dtype (ATen's
     * slow_conv2d/slow_conv3d), a transposed one int64 only (its slow_conv_transpose2d/3d).
     */
    static boolean isIntegerConvolution(DType d, boolean transposed) {
        return transposed ? d == DType.INT64 : INTEGER_CONV_DTYPES.contains(d);
    }

    /**
     * ATen's rule for a dilated convolution of integers: it goes to slow_conv_dilated, which takes int64 only.
     *
     * @param d an integer dtype of {@link #isIntegerConvolution} (plain convolutions: the transposed kernels take every
     *     dilation)
     * @param dilation the per-dim dilation
     */
    static void checkIntegerDilation(DType d, long[] dilation) {
        boolean dilated = false;
        for (long v : dilation) dilated |= v > 1;
        if (dilated && d != DType.INT64) {
            throw new TorchException("\"slow_conv_dilated<>\" not implemented for '" + d.cppName() + "'");
        }
    }

    /** Whether the floating-point kernels compute {@code d} (float8 dtypes they do not, as ATen's CPU kernels). */
    static boolean isFloatConvolution(DType d) {
        return CONV_DTYPES.contains(d);
    }

    private static void requireSupported(String kernel, DType d) {
        if (!CONV_DTYPES.contains(d))
            throw new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    /** The checks shared by the two gradient ops: same dtype, and a grad_output of the convolution's output shape. */
    private static void checkGradOutput(String op, Tensor gradOutput, Tensor other, Geometry g) {
        if (gradOutput.dtype() != other.dtype()) {
            throw new TorchException(op + ": expected grad_output and " + (op.endsWith("input") ? "weight" : "input")
                    + " to have the same dtype, but got " + gradOutput.dtype().cppName() + " and "
                    + other.dtype().cppName());
        }
        if (!Arrays.equals(gradOutput.impl().shapeRef(), g.outputShape())) {
            throw new TorchException(op + ": grad_output of shape "
                    + Shapes.str(gradOutput.impl().shapeRef()) + " does not match the convolution's output shape "
                    + Shapes.str(g.outputShape()));
        }
        requireSupported("slow_conv2d_cpu", gradOutput.dtype());
    }

    /** {@code convolution}'s geometry from its arguments, transposed or not. */
    private static Geometry geometryOf(Object[] a, long[] in, long[] wt) {
        long[] s = (long[]) a[3], p = (long[]) a[4], d = (long[]) a[5], op = (long[]) a[7];
        long groups = ((Number) a[8]).longValue();
        return transposed(a)
                ? transposedGeometry(in, wt, s, p, d, op, groups)
                : geometry("convolution", in, wt, s, p, d, op, groups);
    }

    private static boolean transposed(Object[] a) {
        return (Boolean) a[6];
    }

    /** The output padding of a convolution that has none. */
    private static final long[] NO_OUTPUT_PADDING = {0};

    // ---- the ops ---------------------------------------------------------------------------------------

    /**
     * {@code convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)} on a
     * batched input ([N, C, L] or [N, C, H, W]) with symmetric zero padding; {@code F.conv1d}/{@code F.conv2d} add the
     * unbatched form and the padding strings. Transposed, the weight is [C_in, C_out/groups, k...] and
     * {@code output_padding} lengthens the output at the end.
     */
    public static final OpDef CONVOLUTION = OpDef.structured(
                    "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
                            + "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor",
                    a -> {
                        Tensor input = (Tensor) a[0], weight = (Tensor) a[1], bias = (Tensor) a[2];
                        Device device = bias == null
                                ? Devices.common("convolution", input, weight)
                                : Devices.common("convolution", input, weight, bias);
                        if (input.dtype() != weight.dtype()) {
                            throw new TorchException(
                                    "Input type (" + legacyTypeName(input.dtype()) + ") and weight type ("
                                            + legacyTypeName(weight.dtype())
                                            + ") should be the same or input should be a MKLDNN tensor and "
                                            + "weight is a dense tensor");
                        }
                        if (bias != null && bias.dtype() != input.dtype()) {
                            throw new TorchException("Input type (" + legacyTypeName(input.dtype())
                                    + ") and bias type (" + legacyTypeName(bias.dtype()) + ") should be the same");
                        }
                        boolean transposed = transposed(a);
                        if (checkRanks(
                                        "convolution",
                                        input.impl().shapeRef(),
                                        weight.impl().shapeRef(),
                                        true)
                                == 5) {
                            Conv3dOps.Problem volume = Conv3dOps.check(
                                    input,
                                    weight,
                                    bias,
                                    (long[]) a[3],
                                    (long[]) a[4],
                                    (long[]) a[5],
                                    transposed ? (long[]) a[7] : null,
                                    ((Number) a[8]).longValue());
                            return Spec.of(volume.outputShape(), input.dtype(), device, volume);
                        }
                        Geometry g = geometryOf(
                                a, input.impl().shapeRef(), weight.impl().shapeRef());
                        long channels = transposed ? g.cin() : g.cout();
                        if (bias != null && (bias.dim() != 1 || bias.size(0) != channels)) {
                            throw new TorchException("Given " + (transposed ? "transposed=1, " : "") + "weight of size "
                                    + Shapes.str(weight.impl().shapeRef()) + ", expected bias to be 1-dimensional with "
                                    + channels
                                    + " elements, but got bias of size "
                                    + Shapes.str(bias.impl().shapeRef()) + " instead");
                        }
                        if (!isIntegerConvolution(input.dtype(), transposed)) {
                            requireSupported(
                                    transposed ? "slow_conv_transpose2d_out_cpu" : "slow_conv2d_cpu", input.dtype());
                        } else if (!transposed) {
                            checkIntegerDilation(input.dtype(), new long[] {g.dh(), g.dw()});
                        }
                        return Spec.of(transposed ? g.inputShape() : g.outputShape(), input.dtype(), device, g);
                    },
                    (a, outs, spec) -> {
                        Tensor input = (Tensor) a[0], weight = (Tensor) a[1], bias = (Tensor) a[2];
                        if (spec.plan() instanceof Conv3dOps.Problem volume) {
                            try (var _ = DispatchState.gradEnabled(false)) {
                                CopyOps.convert(Conv3dOps.compute(input, weight, bias, volume), outs[0]);
                            }
                            return;
                        }
                        Geometry g = (Geometry) spec.plan();
                        boolean integral = isIntegerConvolution(input.dtype(), transposed(a));
                        if (transposed(a)) {
                            if (integral) IntegerConvKernels.transposed(input, weight, bias, outs[0], g);
                            else ConvKernels.backwardInput(input, weight, bias, outs[0], g);
                        } else if (integral) IntegerConvKernels.forward(input, weight, bias, outs[0], g);
                        else ConvKernels.forward(input, weight, bias, outs[0], g);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> {
                Tensor input = (Tensor) a[0], weight = (Tensor) a[1];
                long[] s = (long[]) a[3], p = (long[]) a[4], d = (long[]) a[5];
                long groups = ((Number) a[8]).longValue();
                // both backward kernels read grad_output densely: make it dense once (it is often an expanded view)
                Tensor go = mask.needs(0) && mask.needs(1) ? g[0].contiguous() : g[0];
                Tensor gi = null, gw = null, gb = null;
                boolean biasGrad = a[2] != null && mask.needs(2);
                if (transposed(a) && mask.needs(0) && mask.needs(1) && fusable(go, input, weight)) {
                    Geometry geo = transposedGeometry(
                            input.impl().shapeRef(), weight.impl().shapeRef(), s, p, d, (long[]) a[7], groups);
                    Tensor[] all = ConvKernels.transposedBackward(go, input, weight, geo, biasGrad);
                    gi = all[0];
                    gw = all[1];
                    gb = all[2];
                } else if (transposed(a)) {
                    if (mask.needs(0)) gi = transposedInputGrad(go, input, weight, s, p, d, groups);
                    if (mask.needs(1)) gw = transposedWeightGrad(go, input, weight, s, p, d, groups);
                } else {
                    checkNoOutputPadding((long[]) a[7]);
                    if (mask.needs(0)) gi = inputGrad(go, weight, input.shape(), s, p, d, groups);
                    if (mask.needs(1)) gw = weightGrad(go, input, weight.shape(), s, p, d, groups);
                }
                if (biasGrad && gb == null) gb = go.sum(biasDims(go.dim()), false);
                return Grads.forTensorArgs(a, gi, gw, gb);
            })
            .defineJvp(ConvOps::convolutionJvp);

    /**
     * Whether a transposed convolution's two gradients may come from {@link ConvKernels#transposedBackward}'s one
     * unfolding of the output gradient: a first-order eager backward (nothing records it, so the gradients need not be
     * ops) of non-empty 1-d or 2-d floating CPU heap tensors. Otherwise each gradient is its own differentiable op.
     */
    private static boolean fusable(Tensor go, Tensor input, Tensor weight) {
        if (DispatchState.current().isGradEnabled() || !DispatchState.isPlainEager()) return false;
        if (weight.dim() > 4 || !CONV_DTYPES.contains(input.dtype())) return false;
        for (Tensor t : new Tensor[] {go, input, weight}) {
            if (t.numel() == 0 || t.device() != Device.CPU || t.impl().storage().array() == null) return false;
        }
        return true;
    }

    /** ATen's forward ignores a plain convolution's output padding, but its backward refuses one. */
    private static void checkNoOutputPadding(long[] outputPadding) {
        if (Arrays.stream(outputPadding).allMatch(v -> v == 0)) return;
        StringBuilder got = new StringBuilder();
        for (long v : outputPadding) got.append(' ').append(v);
        throw new TorchException("output_padding is not supported for non-transposed convolutions; got:" + got);
    }

    /**
     * The input gradient of a transposed convolution: the plain convolution of the output gradient (of which the
     * transposed convolution is the adjoint). Where output padding reaches a whole stride, that convolution has more
     * positions than the input, and the extra ones (which saw only padding) are cut off.
     */
    private static Tensor transposedInputGrad(
            Tensor go, Tensor input, Tensor weight, long[] s, long[] p, long[] d, long groups) {
        Tensor gi = convolution(go, weight, null, s, p, d, false, NO_OUTPUT_PADDING, groups);
        for (int dim = 2; dim < gi.dim(); dim++) {
            if (gi.size(dim) > input.size(dim)) gi = gi.narrow(dim, 0, input.size(dim));
        }
        return gi;
    }

    /**
     * The weight gradient of a transposed convolution y = B(x, W), B the grad-input of a convolution: B's weight
     * gradient is the convolution's grad-weight with x as grad_output and y's gradient as input. x is padded with zeros
     * up to the positions that convolution has (more than x's where output padding reaches a whole stride).
     */
    private static Tensor transposedWeightGrad(
            Tensor go, Tensor input, Tensor weight, long[] s, long[] p, long[] d, long groups) {
        int spatial = input.dim() - 2;
        long[] st = perDim("stride", s, spatial),
                pd = perDim("padding", p, spatial),
                dl = perDim("dilation", d, spatial);
        long[] extra = new long[2 * spatial]; // F.pad order: last dim first, (before, after) pairs
        boolean pad = false;
        for (int i = 0; i < spatial; i++) {
            long extent = dl[i] * (weight.size(2 + i) - 1) + 1;
            long positions = (go.size(2 + i) + 2 * pd[i] - extent) / st[i] + 1;
            long more = positions - input.size(2 + i);
            extra[2 * (spatial - 1 - i) + 1] = more;
            pad |= more > 0;
        }
        Tensor x = pad ? ArrangeOps.pad(input, extra) : input;
        return weightGrad(x, go, weight.shape(), s, p, d, groups);
    }

    /**
     * The input gradient of a plain convolution: the op {@code convolution_backward_input} in 1-d and 2-d, in 3-d the
     * transposed convolution of {@code go}, its output padding the rows the convolution's windows left unread at the
     * end (fewer than a stride).
     */
    private static Tensor inputGrad(
            Tensor go, Tensor weight, long[] inputSizes, long[] s, long[] p, long[] d, long groups) {
        int spatial = inputSizes.length - 2;
        if (spatial < 3) return convolutionBackwardInput(go, weight, inputSizes, s, p, d, groups);
        long[] st = perDim("stride", s, spatial),
                pd = perDim("padding", p, spatial),
                dl = perDim("dilation", d, spatial);
        long[] unread = new long[spatial];
        for (int i = 0; i < spatial; i++) {
            long reached = (go.size(2 + i) - 1) * st[i] - 2 * pd[i] + dl[i] * (weight.size(2 + i) - 1) + 1;
            unread[i] = inputSizes[2 + i] - reached;
        }
        return convolution(go, weight, null, s, p, d, true, unread, groups);
    }

    /**
     * The weight gradient of a plain convolution: the op {@code convolution_backward_weight} in 1-d and 2-d, in 3-d a
     * convolution with batch and channels swapped (ATen's {@code _convolution_double_backward} does the same): the
     * input's channels of each group become the batch, its samples the channels, and grad_output's samples the kernel's
     * input channels, so that the sum over samples and output positions is the convolution's own sum; stride and
     * dilation trade places, and the positions past the kernel's size (from a last stride the input did not fill) are
     * cut off.
     */
    private static Tensor weightGrad(
            Tensor go, Tensor input, long[] weightSizes, long[] s, long[] p, long[] d, long groups) {
        int spatial = weightSizes.length - 2;
        if (spatial < 3) return convolutionBackwardWeight(go, input, weightSizes, s, p, d, groups);
        long n = input.size(0), cg = input.size(1) / groups, og = go.size(1) / groups;
        long[] in = input.shape(), o = go.shape();
        // [N, G, Cg, D, H, W] -> [Cg, G·N, D, H, W]; [N, G, Og, ...] -> [G·Og, N, ...]
        Tensor x = input.view(n, groups, cg, in[2], in[3], in[4])
                .permute(2, 1, 0, 3, 4, 5)
                .reshape(cg, groups * n, in[2], in[3], in[4]);
        Tensor g = go.view(n, groups, og, o[2], o[3], o[4])
                .permute(1, 2, 0, 3, 4, 5)
                .reshape(groups * og, n, o[2], o[3], o[4]);
        Tensor r = convolution(x, g, null, d, p, s, false, NO_OUTPUT_PADDING, groups);
        for (int i = 0; i < spatial; i++) r = r.narrow(2 + i, 0, weightSizes[2 + i]);
        return r.transpose(0, 1);
    }

    /**
     * {@code convolution_backward_input(grad_output, weight, input_sizes, stride, padding, dilation, groups)}: the
     * gradient of {@code convolution} with respect to an input of {@code input_sizes}.
     */
    public static final OpDef CONVOLUTION_BACKWARD_INPUT = OpDef.structured(
                    "convolution_backward_input(Tensor grad_output, Tensor weight, SymInt[] input_sizes, "
                            + "SymInt[] stride, "
                            + "SymInt[] padding, SymInt[] dilation, SymInt groups) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], weight = (Tensor) a[1];
                        Device device = Devices.common("convolution_backward_input", go, weight);
                        long[] sizes = Shapes.checkSizes("convolution_backward_input", ((long[]) a[2]).clone());
                        Geometry g = geometry(
                                "convolution_backward_input",
                                sizes,
                                weight.impl().shapeRef(),
                                (long[]) a[3],
                                (long[]) a[4],
                                (long[]) a[5],
                                ((Number) a[6]).longValue());
                        checkGradOutput("convolution_backward_input", go, weight, g);
                        return Spec.of(sizes, go.dtype(), device, g);
                    },
                    (a, outs, spec) -> ConvKernels.backwardInput(
                            (Tensor) a[0], (Tensor) a[1], null, outs[0], (Geometry) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> {
                Tensor go = (Tensor) a[0], weight = (Tensor) a[1];
                long[] s = (long[]) a[3], p = (long[]) a[4], d = (long[]) a[5];
                long groups = ((Number) a[6]).longValue();
                return new Tensor[] {
                    mask.needs(0) ? convolution(g[0], weight, null, s, p, d, false, NO_OUTPUT_PADDING, groups) : null,
                    mask.needs(1) ? convolutionBackwardWeight(go, g[0], weight.shape(), s, p, d, groups) : null
                };
            })
            .deriveJvp(Jvps::bilinear);

    /**
     * {@code convolution_backward_weight(grad_output, input, weight_sizes, stride, padding, dilation, groups)}: the
     * gradient of {@code convolution} with respect to a weight of {@code weight_sizes}.
     */
    public static final OpDef CONVOLUTION_BACKWARD_WEIGHT = OpDef.structured(
                    "convolution_backward_weight(Tensor grad_output, Tensor input, SymInt[] weight_sizes, "
                            + "SymInt[] stride, "
                            + "SymInt[] padding, SymInt[] dilation, SymInt groups) -> Tensor",
                    a -> {
                        Tensor go = (Tensor) a[0], input = (Tensor) a[1];
                        Device device = Devices.common("convolution_backward_weight", go, input);
                        long[] sizes = Shapes.checkSizes("convolution_backward_weight", ((long[]) a[2]).clone());
                        Geometry g = geometry(
                                "convolution_backward_weight",
                                input.impl().shapeRef(),
                                sizes,
                                (long[]) a[3],
                                (long[]) a[4],
                                (long[]) a[5],
                                ((Number) a[6]).longValue());
                        checkGradOutput("convolution_backward_weight", go, input, g);
                        return Spec.of(sizes, go.dtype(), device, g);
                    },
                    (a, outs, spec) ->
                            ConvKernels.backwardWeight((Tensor) a[0], (Tensor) a[1], outs[0], (Geometry) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> {
                Tensor go = (Tensor) a[0], input = (Tensor) a[1];
                long[] s = (long[]) a[3], p = (long[]) a[4], d = (long[]) a[5];
                long groups = ((Number) a[6]).longValue();
                return new Tensor[] {
                    mask.needs(0) ? convolution(input, g[0], null, s, p, d, false, NO_OUTPUT_PADDING, groups) : null,
                    mask.needs(1) ? convolutionBackwardInput(go, g[0], input.shape(), s, p, d, groups) : null
                };
            })
            .deriveJvp(Jvps::bilinear);

    /**
     * Forward-mode rule of {@code convolution}: bilinear in (input, weight) and linear in bias, so the tangent is
     * {@code conv(ṫ_input, w) + conv(x, ṫ_weight) + ṫ_bias} (the bias tangent shaped [C_out, 1, …] to broadcast).
     */
    private static Tensor[] convolutionJvp(Object[] a, Tensor[] o, Tensor[] t) {
        Tensor input = (Tensor) a[0], weight = (Tensor) a[1];
        long[] s = (long[]) a[3], p = (long[]) a[4], d = (long[]) a[5], op = (long[]) a[7];
        boolean transposed = transposed(a);
        long groups = ((Number) a[8]).longValue();
        Tensor r = t[0] == null ? null : convolution(t[0], weight, null, s, p, d, transposed, op, groups);
        if (t[1] != null) r = Jvps.plus(r, convolution(input, t[1], null, s, p, d, transposed, op, groups));
        if (a[2] != null && t[2] != null) {
            long[] biasShape = new long[o[0].dim() - 1];
            java.util.Arrays.fill(biasShape, 1);
            biasShape[0] = t[2].size(0);
            r = Jvps.plus(r, t[2].reshape(biasShape));
        }
        return new Tensor[] {r};
    }

    /** Every dim of grad_output but the channel dim: the bias gradient sums over them. */
    private static long[] biasDims(int rank) {
        long[] dims = new long[rank - 1];
        dims[0] = 0;
        for (int i = 2; i < rank; i++) dims[i - 1] = i;
        return dims;
    }

    // ---- entry points ------------------------------------------------------------------------------------

    /**
     * {@code torch.convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)}.
     */
    public static Tensor convolution(
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] dilation,
            boolean transposed,
            long[] outputPadding,
            long groups) {
        return CONVOLUTION.call1(
                input,
                weight,
                bias,
                stride.clone(),
                padding.clone(),
                dilation.clone(),
                transposed,
                outputPadding.clone(),
                groups);
    }

    /**
     * The gradient of {@link #convolution} with respect to its input (a transposed convolution of {@code gradOutput}).
     */
    public static Tensor convolutionBackwardInput(
            Tensor gradOutput,
            Tensor weight,
            long[] inputSizes,
            long[] stride,
            long[] padding,
            long[] dilation,
            long groups) {
        return CONVOLUTION_BACKWARD_INPUT.call1(
                gradOutput, weight, inputSizes.clone(), stride.clone(), padding.clone(), dilation.clone(), groups);
    }

    /** The gradient of {@link #convolution} with respect to its weight. */
    public static Tensor convolutionBackwardWeight(
            Tensor gradOutput,
            Tensor input,
            long[] weightSizes,
            long[] stride,
            long[] padding,
            long[] dilation,
            long groups) {
        return CONVOLUTION_BACKWARD_WEIGHT.call1(
                gradOutput, input, weightSizes.clone(), stride.clone(), padding.clone(), dilation.clone(), groups);
    }
}
