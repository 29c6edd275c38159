package org.jtorch.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * 3-d convolution and transposed convolution as composites of the 2-d {@link ConvOps#CONVOLUTION}: the depth axis is
 * taken apart into 2-d problems and put back with views, {@code stack} and {@code index_add}, so gradients and tangents
 * of any order come from the ops they are made of. {@code aten::convolution} with 5-d operands computes the same way
 * ({@link #compute}); complex inputs go through {@link ComplexConvolution}, as ATen's conv3d/conv_transpose3d do.
 *
 * <ul>
 *   <li>{@code conv3d}: the input windows along depth are stacked into the channel dim (group by group, as the weight's
 *       input channels are ordered [group][kd][c]), and every output depth position becomes one 2-d sample: one 2-d
 *       convolution with a weight of {@code [C_out, kD·C_in/groups, kH, kW]}.
 *   <li>{@code conv_transpose3d}: every input depth position is one 2-d sample, transposed-convolved with the kernel's
 *       depth taps laid side by side as output channels; tap {@code kd} of input position {@code i} is added at output
 *       depth {@code i·stride + kd·dilation − padding} ({@code index_add} into zeros, then the padding is cut off).
 * </ul>
 */
public final class Conv3dOps {
    private Conv3dOps() {}

    /**
     * {@code conv3d(input, weight, bias, stride, padding, dilation, groups)}: an input of [N, C_in, D, H, W] (or
     * unbatched [C_in, D, H, W]) and a weight of [C_out, C_in/groups, kD, kH, kW].
     */
    public static final OpDef CONV3D = OpDef.composite(
            "conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, "
                    + "SymInt[3] dilation=1, SymInt groups=1) -> Tensor",
            a -> {
                Tensor input = (Tensor) a[0];
                boolean batched = batched("conv3d", input);
                long[] s = (long[]) a[3], p = (long[]) a[4], d = (long[]) a[5];
                long groups = groups(a[6]);
                Tensor y = ComplexConvolution.compute(
                        batched ? input : input.unsqueeze(0),
                        (Tensor) a[1],
                        (Tensor) a[2],
                        (x, w, b) -> compute(x, w, b, check(x, w, b, s, p, d, null, groups)));
                return batched ? y : y.squeeze(0);
            });

    /**
     * {@code conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)}: an input of [N,
     * C_in, D, H, W] (or unbatched) and a weight of [C_in, C_out/groups, kD, kH, kW].
     */
    public static final OpDef CONV_TRANSPOSE3D = OpDef.composite(
            "conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, "
                    + "SymInt[3] padding=0, SymInt[3] output_padding=0, SymInt groups=1, SymInt[3] dilation=1) "
                    + "-> Tensor",
            a -> {
                Tensor input = (Tensor) a[0];
                boolean batched = batched("conv_transpose3d", input);
                long[] s = (long[]) a[3], p = (long[]) a[4], op = (long[]) a[5], d = (long[]) a[7];
                long groups = groups(a[6]);
                Tensor y = ComplexConvolution.compute(
                        batched ? input : input.unsqueeze(0),
                        (Tensor) a[1],
                        (Tensor) a[2],
                        (x, w, b) -> compute(x, w, b, check(x, w, b, s, p, d, op, groups)));
                return batched ? y : y.squeeze(0);
            });

    /** {@code arange(n)} as int64 on {@code like}'s device. */
    static Tensor range(long n, Tensor like) {
        return Creation.ARANGE.call1(0L, n, 1L, DType.INT64, like.device());
    }

    private static long groups(Object v) {
        return ((Number) v).longValue();
    }

    /** True for a 5-d input, false for an unbatched 4-d one; other ranks get ATen's message. */
    private static boolean batched(String fn, Tensor input) {
        int r = input.dim();
        if (r != 4 && r != 5) {
            throw new TorchException("Expected 4D (unbatched) or 5D (batched) input to " + fn
                    + ", but got input of size: " + Shapes.str(input.shape()));
        }
        return r == 5;
    }

    /**
     * A checked 3-d problem: the per-dim stride, padding, dilation and output padding (zeros for a plain convolution)
     * and the output's shape.
     */
    record Problem(boolean transposed, long[] s, long[] p, long[] d, long[] op, long groups, long[] outputShape) {}

    /**
     * ATen's checks of a batched 3-d convolution ({@code outPad} null) or transposed convolution, in its order and
     * words: dtypes, ranks, the per-dim parameters, channels, bias and sizes. The plain convolution also takes integer
     * dtypes (as ATen's slow_conv3d does; dilated, int64 only, as its slow_conv_dilated), the transposed one int64 (its
     * slow_conv_transpose3d), both every floating dtype.
     */
    static Problem check(
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] dilation,
            long[] outPad,
            long groups) {
        if (input.dtype() != weight.dtype()) {
            throw new TorchException("expected scalar type " + input.dtype().cppName() + " but found "
                    + weight.dtype().cppName());
        }
        if (bias != null && bias.dtype() != input.dtype()) {
            throw new TorchException("expected scalar type " + input.dtype().cppName() + " but found "
                    + bias.dtype().cppName());
        }
        long[] in = input.shape(), wt = weight.shape();
        if (wt.length != 5 || in.length != 5) {
            throw new TorchException("Expected " + wt.length + "-dimensional input for " + wt.length
                    + "-dimensional weight " + Shapes.str(wt) + ", but got " + in.length + "-dimensional input of size "
                    + Shapes.str(in) + " instead");
        }
        long[] s = ConvOps.perDim("stride", stride, 3), p = ConvOps.perDim("padding", padding, 3);
        boolean transposed = outPad != null;
        long[] d = ConvOps.perDim("dilation", dilation, 3);
        long[] op = ConvOps.perDim("output_padding", transposed ? outPad : new long[] {0}, 3);
        ConvOps.checkParameters(s, p, d, op, groups, wt);
        DType t = input.dtype();
        boolean integral = ConvOps.isIntegerConvolution(t, transposed);
        if (!ConvOps.isFloatConvolution(t) && !integral) {
            String kernel = transposed ? "slow_conv_transpose3d_out_cpu" : "compute_columns3d";
            throw new TorchException("\"" + kernel + "\" not implemented for '" + t.cppName() + "'");
        }
        if (integral && !transposed) ConvOps.checkIntegerDilation(t, d);
        long[] out = transposed
                ? transposedShape(in, wt, bias, s, p, d, op, groups)
                : plainShape(in, wt, bias, s, p, d, groups);
        return new Problem(transposed, s, p, d, op, groups, out);
    }

    private static long[] plainShape(long[] in, long[] wt, Tensor bias, long[] s, long[] p, long[] d, long groups) {
        if (in[1] != wt[1] * groups) {
            throw new TorchException("Given groups=" + groups + ", weight of size " + Shapes.str(wt)
                    + ", expected input" + Shapes.str(in) + " to have " + wt[1] * groups + " channels, but got "
                    + in[1] + " channels instead");
        }
        if (bias != null && (bias.dim() != 1 || bias.size(0) != wt[0])) {
            throw new TorchException("Given weight of size " + Shapes.str(wt) + ", expected bias to be 1-dimensional"
                    + " with " + wt[0] + " elements, but got bias of size " + Shapes.str(bias.shape()) + " instead");
        }
        long[] padded = new long[3], effective = new long[3], out = {in[0], wt[0], 0, 0, 0};
        boolean tooLarge = false;
        for (int i = 0; i < 3; i++) {
            padded[i] = in[2 + i] + 2 * p[i];
            effective[i] = d[i] * (wt[2 + i] - 1) + 1;
            tooLarge |= padded[i] < effective[i];
            out[2 + i] = (padded[i] - effective[i]) / s[i] + 1;
        }
        if (tooLarge) {
            throw new TorchException("Calculated padded input size per channel: (" + padded[0] + " x " + padded[1]
                    + " x " + padded[2] + "). Kernel size: (" + effective[0] + " x " + effective[1] + " x "
                    + effective[2] + "). Kernel size can't be greater than actual input size");
        }
        return out;
    }

    private static long[] transposedShape(
            long[] in, long[] wt, Tensor bias, long[] s, long[] p, long[] d, long[] op, long groups) {
        if (in[1] != wt[0]) {
            throw new TorchException("Given transposed=1, weight of size " + Shapes.str(wt) + ", expected input"
                    + Shapes.str(in) + " to have " + wt[0] + " channels, but got " + in[1] + " channels instead");
        }
        long cout = wt[1] * groups;
        if (bias != null && (bias.dim() != 1 || bias.size(0) != cout)) {
            throw new TorchException("Given transposed=1, weight of size " + Shapes.str(wt) + ", expected bias to be "
                    + "1-dimensional with " + cout + " elements, but got bias of size " + Shapes.str(bias.shape())
                    + " instead");
        }
        long[] out = {in[0], cout, 0, 0, 0};
        for (int i = 0; i < 3; i++) {
            if (!(op[i] < s[i] || op[i] < d[i])) {
                throw new TorchException("output padding must be smaller than either stride or dilation, but got "
                        + "output_padding_depth: " + op[0] + " output_padding_height: " + op[1]
                        + " output_padding_width: " + op[2] + " stride_depth: " + s[0] + " stride_height: " + s[1]
                        + " stride_width: " + s[2] + " dilation_depth: " + d[0] + " dilation_height: " + d[1]
                        + " dilation_width: " + d[2]);
            }
            out[2 + i] = (in[2 + i] - 1) * s[i] - 2 * p[i] + d[i] * (wt[2 + i] - 1) + op[i] + 1;
        }
        if (out[2] < 1 || out[3] < 1 || out[4] < 1) {
            throw new TorchException("Given input size per channel: (" + in[2] + " x " + in[3] + " x " + in[4]
                    + "). Calculated output size per channel: (" + out[2] + " x " + out[3] + " x " + out[4]
                    + "). Output size is too small");
        }
        return out;
    }

    /** The checked problem {@code pr} computed from 2-d convolutions (see the class comment). */
    static Tensor compute(Tensor x, Tensor weight, Tensor bias, Problem pr) {
        return pr.transposed() ? convTranspose3d(x, weight, bias, pr) : conv3d(x, weight, bias, pr);
    }

    private static Tensor conv3d(Tensor x, Tensor weight, Tensor bias, Problem pr) {
        long[] s = pr.s(), p = pr.p(), d = pr.d(), in = x.shape(), wt = weight.shape();
        long groups = pr.groups(), n = in[0], c = in[1], kd = wt[2], od = pr.outputShape()[2];
        Tensor xp = p[0] == 0 ? x : ArrangeOps.pad(x, new long[] {0, 0, 0, 0, p[0], p[0]});
        List<Tensor> taps = new ArrayList<>();
        for (long k = 0; k < kd; k++) taps.add(xp.slice(2, k * d[0], k * d[0] + (od - 1) * s[0] + 1, s[0]));
        // [N, kD, C, oD, H, W] -> [N, oD, groups, kD, C/groups, H, W]: each output depth a 2-d sample
        long h = in[3], w = in[4];
        Tensor planes = JoinOps.stack(taps, 1)
                .view(n, kd, groups, c / groups, od, h, w)
                .permute(0, 4, 2, 1, 3, 5, 6)
                .reshape(n * od, kd * c, h, w);
        Tensor w2 = weight.permute(0, 2, 1, 3, 4).reshape(wt[0], kd * wt[1], wt[3], wt[4]);
        Tensor y = ConvOps.convolution(
                planes,
                w2,
                bias,
                new long[] {s[1], s[2]},
                new long[] {p[1], p[2]},
                new long[] {d[1], d[2]},
                false,
                new long[] {0},
                groups);
        return y.view(n, od, wt[0], y.size(2), y.size(3)).permute(0, 2, 1, 3, 4).contiguous();
    }

    private static Tensor convTranspose3d(Tensor x, Tensor weight, Tensor bias, Problem pr) {
        long[] s = pr.s(), p = pr.p(), d = pr.d(), op = pr.op(), in = x.shape(), wt = weight.shape();
        long groups = pr.groups(), cout = wt[1] * groups;
        long[] out = {pr.outputShape()[2], pr.outputShape()[3], pr.outputShape()[4]};
        long n = in[0], depth = in[2], kd = wt[2], cg = wt[1];
        // every input depth a 2-d sample; the depth taps side by side as output channels [group][kd][c]
        Tensor planes = x.permute(0, 2, 1, 3, 4).reshape(n * depth, in[1], in[3], in[4]);
        Tensor w2 = weight.permute(0, 2, 1, 3, 4).reshape(wt[0], kd * cg, wt[3], wt[4]);
        Tensor z = ConvOps.convolution(
                planes,
                w2,
                null,
                new long[] {s[1], s[2]},
                new long[] {p[1], p[2]},
                new long[] {d[1], d[2]},
                true,
                new long[] {op[1], op[2]},
                groups);
        long oh = z.size(2), ow = z.size(3);
        // [N, D, groups, kD, C/groups, oH, oW] -> [N, C_out, kD·D, oH, oW], taps major along depth
        Tensor taps = z.view(n, depth, groups, kd, cg, oh, ow)
                .permute(0, 2, 4, 3, 1, 5, 6)
                .reshape(n, cout, kd * depth, oh, ow);
        long full = (depth - 1) * s[0] + d[0] * (kd - 1) + 1 + op[0];
        // tap k of input position i lands at output depth i·stride + k·dilation (taps major, as laid out above)
        Tensor index = range(kd, x)
                .mul(d[0])
                .unsqueeze(1)
                .add(range(depth, x).mul(s[0]).unsqueeze(0))
                .reshape(-1);
        Tensor zeros = Creation.full(new long[] {n, cout, full, oh, ow}, 0L, x.dtype(), x.device());
        Tensor y = ScatterOps.indexAdd(zeros, 2, index, taps).narrow(2, p[0], out[0]);
        return bias == null ? y : y.add(bias.view(cout, 1, 1, 1));
    }
}
