package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Fold}: columns of sliding blocks summed back into an image ({@link F#fold}). */
public class Fold extends Module {
    private final long[] outputSize;
    private final long[] kernelSize;
    private final long[] dilation;
    private final long[] padding;
    private final long[] stride;

    /** {@code Fold(output_size, kernel_size)}: dilation 1, padding 0, stride 1. */
    public Fold(long[] outputSize, long[] kernelSize) {
        this(outputSize, kernelSize, new long[] {1}, new long[] {0}, new long[] {1});
    }

    /** {@code Fold(output_size, kernel_size, dilation, padding, stride)}: each one value (both dims) or two. */
    public Fold(long[] outputSize, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
        this.outputSize = outputSize.clone();
        this.kernelSize = kernelSize.clone();
        this.dilation = dilation.clone();
        this.padding = padding.clone();
        this.stride = stride.clone();
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.fold(input, outputSize, kernelSize, dilation, padding, stride);
    }

    @Override
    protected String extraRepr() {
        return "output_size=" + PoolRepr.of(outputSize) + ", kernel_size=" + PoolRepr.of(kernelSize) + ", dilation="
                + PoolRepr.of(dilation) + ", padding=" + PoolRepr.of(padding) + ", stride=" + PoolRepr.of(stride);
    }
}
