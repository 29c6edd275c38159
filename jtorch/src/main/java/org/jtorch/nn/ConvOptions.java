package org.jtorch.nn;

import java.util.Arrays;

/**
 * The keyword arguments of {@code nn.Conv1d}/{@code nn.Conv2d} and
 * {@code nn.ConvTranspose1d}/{@code nn.ConvTranspose2d} after the kernel size: stride, padding (numbers or
 * {@code "same"}/{@code "valid"}), output_padding (transposed only), dilation, groups, bias and padding_mode.
 * Immutable; each {@code with}-style setter returns a copy. A single value applies to every spatial dim.
 */
public final class ConvOptions {
    private final long[] stride;
    private final long[] padding;
    private final String paddingString;
    private final long[] outputPadding;
    private final long[] dilation;
    private final long groups;
    private final boolean bias;
    private final String paddingMode;

    private ConvOptions(
            long[] stride,
            long[] padding,
            String paddingString,
            long[] outputPadding,
            long[] dilation,
            long groups,
            boolean bias,
            String paddingMode) {
        this.stride = stride;
        this.padding = padding;
        this.paddingString = paddingString;
        this.outputPadding = outputPadding;
        this.dilation = dilation;
        this.groups = groups;
        this.bias = bias;
        this.paddingMode = paddingMode;
    }

    /** PyTorch's defaults: stride 1, padding 0, output_padding 0, dilation 1, groups 1, bias, padding_mode "zeros". */
    public static ConvOptions defaults() {
        return new ConvOptions(new long[] {1}, new long[] {0}, null, new long[] {0}, new long[] {1}, 1, true, "zeros");
    }

    /** {@code stride=}. */
    public ConvOptions stride(long... v) {
        return new ConvOptions(v.clone(), padding, paddingString, outputPadding, dilation, groups, bias, paddingMode);
    }

    /** {@code padding=} as numbers. */
    public ConvOptions padding(long... v) {
        return new ConvOptions(stride, v.clone(), null, outputPadding, dilation, groups, bias, paddingMode);
    }

    /** {@code padding="same"} or {@code "valid"}. */
    public ConvOptions padding(String v) {
        if (!"same".equals(v) && !"valid".equals(v)) {
            throw new IllegalArgumentException(
                    "Invalid padding string '" + v + "', should be one of {'same', 'valid'}");
        }
        return new ConvOptions(stride, null, v, outputPadding, dilation, groups, bias, paddingMode);
    }

    /** {@code output_padding=} of a transposed convolution: extra size on one side of each output dim. */
    public ConvOptions outputPadding(long... v) {
        return new ConvOptions(stride, padding, paddingString, v.clone(), dilation, groups, bias, paddingMode);
    }

    /** {@code dilation=}. */
    public ConvOptions dilation(long... v) {
        return new ConvOptions(stride, padding, paddingString, outputPadding, v.clone(), groups, bias, paddingMode);
    }

    /** {@code groups=}. */
    public ConvOptions groups(long v) {
        return new ConvOptions(stride, padding, paddingString, outputPadding, dilation, v, bias, paddingMode);
    }

    /** {@code bias=}. */
    public ConvOptions bias(boolean v) {
        return new ConvOptions(stride, padding, paddingString, outputPadding, dilation, groups, v, paddingMode);
    }

    /** {@code padding_mode=}: "zeros", "reflect", "replicate" or "circular". */
    public ConvOptions paddingMode(String v) {
        if (!Arrays.asList("zeros", "reflect", "replicate", "circular").contains(v)) {
            throw new IllegalArgumentException(
                    "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got "
                            + "padding_mode='" + v + "'");
        }
        return new ConvOptions(stride, padding, paddingString, outputPadding, dilation, groups, bias, v);
    }

    long[] stride() {
        return stride;
    }

    long[] padding() {
        return padding;
    }

    String paddingString() {
        return paddingString;
    }

    long[] outputPadding() {
        return outputPadding;
    }

    long[] dilation() {
        return dilation;
    }

    long groups() {
        return groups;
    }

    boolean bias() {
        return bias;
    }

    String paddingMode() {
        return paddingMode;
    }
}
