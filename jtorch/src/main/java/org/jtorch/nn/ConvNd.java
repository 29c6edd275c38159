package org.jtorch.nn;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.init.Init;
import org.jtorch.ops.ArrangeOps;

/**
 * {@code torch.nn.modules.conv._ConvNd}: the parameters, initialisation, padding modes and printing shared by
 * {@link Conv1d}, {@link Conv2d} and the transposed convolutions. Weight {@code [out, in/groups, *kernel]} (transposed:
 * {@code [in, out/groups, *kernel]}), bias {@code [out]}.
 */
abstract class ConvNd extends Module {
    private final long inChannels;
    private final long outChannels;
    private final long[] kernelSize;
    private final long[] stride;
    private final long[] padding;
    private final String paddingString;
    private final long[] outputPadding;
    private final long[] dilation;
    private final long groups;
    private final String paddingMode;

    ConvNd(int spatial, long inChannels, long outChannels, long[] kernelSize, ConvOptions o) {
        this(spatial, inChannels, outChannels, kernelSize, o, false);
    }

    ConvNd(int spatial, long inChannels, long outChannels, long[] kernelSize, ConvOptions o, boolean transposed) {
        if (o.groups() <= 0) throw new IllegalArgumentException("groups must be a positive integer");
        if (inChannels % o.groups() != 0) throw new IllegalArgumentException("in_channels must be divisible by groups");
        if (outChannels % o.groups() != 0)
            throw new IllegalArgumentException("out_channels must be divisible by groups");
        this.inChannels = inChannels;
        this.outChannels = outChannels;
        this.kernelSize = expand("kernel_size", kernelSize, spatial);
        this.stride = expand("stride", o.stride(), spatial);
        this.dilation = expand("dilation", o.dilation(), spatial);
        this.outputPadding = expand("output_padding", o.outputPadding(), spatial);
        this.groups = o.groups();
        this.paddingMode = o.paddingMode();
        this.paddingString = o.paddingString();
        if ("same".equals(paddingString)) {
            for (long s : stride) {
                if (s != 1)
                    throw new IllegalArgumentException("padding='same' is not supported for strided convolutions");
            }
        }
        this.padding = paddingString == null ? expand("padding", o.padding(), spatial) : new long[spatial];
        long[] shape = new long[spatial + 2];
        shape[0] = transposed ? inChannels : outChannels;
        shape[1] = (transposed ? outChannels : inChannels) / groups;
        System.arraycopy(this.kernelSize, 0, shape, 2, spatial);
        registerParameter("weight", Torch.empty(shape, Torch.getDefaultDtype(), Device.CPU));
        registerParameter(
                "bias", o.bias() ? Torch.empty(new long[] {outChannels}, Torch.getDefaultDtype(), Device.CPU) : null);
        resetParameters();
    }

    private static long[] expand(String name, long[] v, int spatial) {
        if (v.length == spatial) return v.clone();
        if (v.length == 1) {
            long[] r = new long[spatial];
            java.util.Arrays.fill(r, v[0]);
            return r;
        }
        throw new IllegalArgumentException(name + " must be a single integer or a list of " + spatial
                + " integers, but got " + java.util.Arrays.toString(v));
    }

    /**
     * {@code reset_parameters()}: kaiming_uniform_(a=√5) on the weight, U(±1/√fan_in) on the bias, in PyTorch's order.
     */
    public void resetParameters() {
        Init.kaimingUniform_(weight(), Math.sqrt(5), "fan_in", "leaky_relu", null);
        if (bias() != null) {
            long fanIn = Init.fans(weight()).in();
            double bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
            Init.uniform_(bias(), -bound, bound);
        }
    }

    /** {@code weight}. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code bias}, or null. */
    public Tensor bias() {
        return getParameter("bias");
    }

    /** The convolution of a (padded, for non-zero padding modes) input with explicit numeric padding. */
    abstract Tensor conv(Tensor input, long[] padding);

    /** The convolution with {@code padding="same"|"valid"}. */
    abstract Tensor conv(Tensor input, String padding);

    long[] stride() {
        return stride;
    }

    long[] dilation() {
        return dilation;
    }

    long[] padding() {
        return padding;
    }

    long[] kernelSize() {
        return kernelSize;
    }

    long[] outputPadding() {
        return outputPadding;
    }

    String paddingMode() {
        return paddingMode;
    }

    String paddingString() {
        return paddingString;
    }

    long groups() {
        return groups;
    }

    @Override
    public Tensor forward(Tensor input) {
        if ("zeros".equals(paddingMode))
            return paddingString != null ? conv(input, paddingString) : conv(input, padding);
        // _reversed_padding_repeated_twice: the padding of each dim before and after, last dim first
        int spatial = kernelSize.length;
        long[] pads = new long[2 * spatial];
        for (int i = 0; i < spatial; i++) {
            long total = dilation[i] * (kernelSize[i] - 1);
            long left = paddingString == null ? padding[i] : "same".equals(paddingString) ? total / 2 : 0;
            long right = paddingString == null ? padding[i] : "same".equals(paddingString) ? total - left : 0;
            pads[2 * (spatial - 1 - i)] = left;
            pads[2 * (spatial - 1 - i) + 1] = right;
        }
        return conv(ArrangeOps.pad(input, pads, paddingMode), new long[] {0});
    }

    @Override
    protected String extraRepr() {
        StringBuilder s = new StringBuilder()
                .append(inChannels)
                .append(", ")
                .append(outChannels)
                .append(", kernel_size=")
                .append(PyRepr.tuple(kernelSize))
                .append(", stride=")
                .append(PyRepr.tuple(stride));
        if (paddingString != null) s.append(", padding=").append(paddingString);
        else if (anyNonZero(padding)) s.append(", padding=").append(PyRepr.tuple(padding));
        if (anyNotOne(dilation)) s.append(", dilation=").append(PyRepr.tuple(dilation));
        if (anyNonZero(outputPadding)) s.append(", output_padding=").append(PyRepr.tuple(outputPadding));
        if (groups != 1) s.append(", groups=").append(groups);
        if (bias() == null) s.append(", bias=False");
        if (!"zeros".equals(paddingMode)) s.append(", padding_mode=").append(paddingMode);
        return s.toString();
    }

    private static boolean anyNonZero(long[] v) {
        for (long x : v) if (x != 0) return true;
        return false;
    }

    private static boolean anyNotOne(long[] v) {
        for (long x : v) if (x != 1) return true;
        return false;
    }
}
