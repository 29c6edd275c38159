package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.MaxUnpool2d}: the partial inverse of {@code MaxPool2d} on [N, C, H, W] inputs, each value written at
 * the index the pool recorded and zeros elsewhere.
 */
public class MaxUnpool2d extends Module {
    private final long[] kernelSize;
    private final long[] stride;
    private final long[] padding;

    /** {@code MaxUnpool2d(kernel_size)}: stride = kernel_size, no padding. */
    public MaxUnpool2d(long kernelSize) {
        this(new long[] {kernelSize}, null, new long[] {0});
    }

    /**
     * {@code MaxUnpool2d(kernel_size, stride, padding)}: one value (every dim) or one per dim; null stride = kernel.
     */
    public MaxUnpool2d(long[] kernelSize, long[] stride, long[] padding) {
        this.kernelSize = expand(kernelSize);
        this.stride = stride == null ? this.kernelSize.clone() : expand(stride);
        this.padding = expand(padding);
    }

    private static long[] expand(long[] v) {
        if (v.length == 2) return v.clone();
        if (v.length != 1) {
            throw new IllegalArgumentException("MaxUnpool2d: expected one or 2 values, but got " + v.length);
        }
        long[] r = new long[2];
        java.util.Arrays.fill(r, v[0]);
        return r;
    }

    /** The unpool of {@code input} by the pool's {@code indices} into the default output size. */
    public Tensor forward(Tensor input, Tensor indices) {
        return forward(input, indices, null);
    }

    /** The unpool into {@code outputSize} (spatial sizes, or with batch and channel sizes in front). */
    public Tensor forward(Tensor input, Tensor indices, long[] outputSize) {
        return F.maxUnpool2d(input, indices, kernelSize, stride, padding, outputSize);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + PyRepr.tuple(kernelSize) + ", stride=" + PyRepr.tuple(stride) + ", padding="
                + PyRepr.tuple(padding);
    }
}
