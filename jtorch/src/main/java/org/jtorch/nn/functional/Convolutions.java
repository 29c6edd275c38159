package org.jtorch.nn.functional;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.amp.Autocast;
import org.jtorch.amp.CastPolicy;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.ComplexConvolution;
import org.jtorch.ops.Conv3dOps;
import org.jtorch.ops.ConvOps;

/**
 * {@code F.conv1d/2d/3d} and {@code F.conv_transpose1d/2d/3d} over {@link ConvOps#convolution} (3-d: the
 * {@link Conv3dOps} composites): the unbatched form (a batch of one), the padding strings and complex inputs
 * ({@link ComplexConvolution}), as ATen's {@code conv1d}/{@code conv2d},
 * {@code conv_transpose1d}/{@code conv_transpose2d} and {@code _convolution_mode} do.
 */
final class Convolutions {
    private Convolutions() {}

    /** conv1d and conv2d are not transposed: no output padding. */
    private static final long[] NO_OUTPUT_PADDING = {0};

    static Tensor conv(
            int spatial,
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] dilation,
            long groups) {
        if (Autocast.isActive()) {
            return Autocast.run(
                    CastPolicy.LOWER_PRECISION_FP,
                    a -> conv(spatial, a[0], a[1], a[2], stride, padding, dilation, groups),
                    input,
                    weight,
                    bias);
        }
        boolean batched = checkRank(spatial, input);
        Tensor x = batched ? input : input.unsqueeze(0);
        Tensor y = plain(spatial, x, weight, bias, stride, padding, dilation, groups);
        return batched ? y : y.squeeze(0);
    }

    /**
     * {@code padding="valid"} is no padding; {@code "same"} pads {@code dilation·(k−1)} per dim, half on each side, the
     * odd one out on the right (by an explicit zero pad of the input, so the output keeps the input's size).
     */
    static Tensor conv(
            int spatial,
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            String padding,
            long[] dilation,
            long groups) {
        if (Autocast.isActive()) {
            return Autocast.run(
                    CastPolicy.LOWER_PRECISION_FP,
                    a -> conv(spatial, a[0], a[1], a[2], stride, padding, dilation, groups),
                    input,
                    weight,
                    bias);
        }
        if ("valid".equals(padding))
            return conv(spatial, input, weight, bias, stride, new long[] {0}, dilation, groups);
        if (!"same".equals(padding)) throw new TorchException("Invalid padding string: '" + padding + "'");
        for (long s : stride) {
            if (s != 1) throw new TorchException("padding='same' is not supported for strided convolutions");
        }
        boolean batched = checkRank(spatial, input);
        Tensor x = batched ? input : input.unsqueeze(0);
        if (weight.dim() != spatial + 2) {
            return conv(
                    spatial, input, weight, bias, stride, new long[] {0}, dilation, groups); // the op's rank message
        }
        long[] d = dilation.length == 1 ? filled(spatial, dilation[0]) : dilation;
        if (d.length != spatial) {
            throw new TorchException("expected dilation to be a single integer value or a list of " + spatial
                    + " values to match the convolution dimensions, but got dilation=" + Shapes.str(dilation));
        }
        long[] left = new long[spatial];
        long[] extra = new long[2 * spatial]; // F.pad order: last dim first, (before, after) pairs
        boolean asymmetric = false;
        for (int i = 0; i < spatial; i++) {
            long total = d[i] * (weight.size(2 + i) - 1);
            left[i] = total / 2;
            long delta = total - 2 * left[i];
            if (delta > 0) {
                asymmetric = true;
                extra[2 * (spatial - 1 - i) + 1] = delta;
            }
        }
        if (asymmetric) {
            Warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a "
                    + "zero-padded copy of the "
                    + "input be created");
            x = ArrangeOps.pad(x, extra);
        }
        Tensor y = plain(spatial, x, weight, bias, stride, left, dilation, groups);
        return batched ? y : y.squeeze(0);
    }

    /**
     * {@code F.conv_transpose1d/2d(input, weight, bias, stride, padding, output_padding, groups, dilation)}: the
     * transposed convolution of a batched or unbatched input, weight {@code [C_in, C_out/groups, k...]}.
     */
    static Tensor convTranspose(
            int spatial,
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] outputPadding,
            long groups,
            long[] dilation) {
        if (Autocast.isActive()) {
            return Autocast.run(
                    CastPolicy.LOWER_PRECISION_FP,
                    a -> convTranspose(spatial, a[0], a[1], a[2], stride, padding, outputPadding, groups, dilation),
                    input,
                    weight,
                    bias);
        }
        boolean batched = checkRank("conv_transpose" + spatial + "d", spatial, input);
        Tensor x = batched ? input : input.unsqueeze(0);
        Tensor y = spatial == 3
                ? Conv3dOps.CONV_TRANSPOSE3D.call1(x, weight, bias, stride, padding, outputPadding, groups, dilation)
                : ComplexConvolution.compute(
                        x,
                        weight,
                        bias,
                        (xr, wr, br) -> ConvOps.convolution(
                                xr, wr, br, stride, padding, dilation, true, outputPadding, groups));
        return batched ? y : y.squeeze(0);
    }

    /** The batched convolution: {@code aten::convolution} in 1-d and 2-d, the {@code conv3d} composite in 3-d. */
    private static Tensor plain(
            int spatial,
            Tensor x,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] dilation,
            long groups) {
        if (spatial == 3) return Conv3dOps.CONV3D.call1(x, weight, bias, stride, padding, dilation, groups);
        return ComplexConvolution.compute(
                x,
                weight,
                bias,
                (xr, wr, br) ->
                        ConvOps.convolution(xr, wr, br, stride, padding, dilation, false, NO_OUTPUT_PADDING, groups));
    }

    private static long[] filled(int n, long v) {
        long[] r = new long[n];
        java.util.Arrays.fill(r, v);
        return r;
    }

    /** True for a batched input; refuses ranks other than unbatched/batched with conv1d/conv2d's message. */
    private static boolean checkRank(int spatial, Tensor input) {
        return checkRank("conv" + spatial + "d", spatial, input);
    }

    /** As above for the function {@code fn} ({@code conv2d}, {@code conv_transpose2d}, ...). */
    private static boolean checkRank(String fn, int spatial, Tensor input) {
        int r = input.dim();
        if (r != spatial + 1 && r != spatial + 2) {
            throw new TorchException("Expected " + (spatial + 1) + "D (unbatched) or " + (spatial + 2)
                    + "D (batched) input to " + fn + ", but got input of size: " + Shapes.str(input.shape()));
        }
        return r == spatial + 2;
    }
}
