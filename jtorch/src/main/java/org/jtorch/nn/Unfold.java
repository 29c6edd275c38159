package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Unfold}: the sliding blocks of an image as columns ({@link F#unfold}). */
public class Unfold extends Module {
    private final long[] kernelSize;
    private final long[] dilation;
    private final long[] padding;
    private final long[] stride;

    /** {@code Unfold(kernel_size)}: dilation 1, padding 0, stride 1. */
    public Unfold(long... kernelSize) {
        this(kernelSize, new long[] {1}, new long[] {0}, new long[] {1});
    }

    /** {@code Unfold(kernel_size, dilation, padding, stride)}: each one value (both dims) or two. */
    public Unfold(long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
        this.kernelSize = kernelSize.clone();
        this.dilation = dilation.clone();
        this.padding = padding.clone();
        this.stride = stride.clone();
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.unfold(input, kernelSize, dilation, padding, stride);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + PoolRepr.of(kernelSize) + ", dilation=" + PoolRepr.of(dilation) + ", padding="
                + PoolRepr.of(padding) + ", stride=" + PoolRepr.of(stride);
    }
}
