package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.MaxUnpool1d}: the partial inverse of {@code MaxPool1d} on [N, C, L] inputs, each value written at the
 * index the pool recorded and zeros elsewhere.
 */
public class MaxUnpool1d extends Module {
    private final long[] kernelSize;
    private final long[] stride;
    private final long[] padding;

    /** {@code MaxUnpool1d(kernel_size)}: stride = kernel_size, no padding. */
    public MaxUnpool1d(long kernelSize) {
        this(new long[] {kernelSize}, null, new long[] {0});
    }

    /**
     * {@code MaxUnpool1d(kernel_size, stride, padding)}: one value (every dim) or one per dim; null stride = kernel.
     */
    public MaxUnpool1d(long[] kernelSize, long[] stride, long[] padding) {
        this.kernelSize = expand(kernelSize);
        this.stride = stride == null ? this.kernelSize.clone() : expand(stride);
        this.padding = expand(padding);
    }

    private static long[] expand(long[] v) {
        if (v.length == 1) return v.clone();
        if (v.length != 1) {
            throw new IllegalArgumentException("MaxUnpool1d: expected one or 1 values, but got " + v.length);
        }
        long[] r = new long[1];
        java.util.Arrays.fill(r, v[0]);
        return r;
    }

    /** The unpool of {@code input} by the pool's {@code indices} into the default output size. */
    public Tensor forward(Tensor input, Tensor indices) {
        return forward(input, indices, null);
    }

    /** The unpool into {@code outputSize} (spatial sizes, or with batch and channel sizes in front). */
    public Tensor forward(Tensor input, Tensor indices, long[] outputSize) {
        return F.maxUnpool1d(input, indices, kernelSize[0], stride[0], padding[0], outputSize);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + PyRepr.tuple(kernelSize) + ", stride=" + PyRepr.tuple(stride) + ", padding="
                + PyRepr.tuple(padding);
    }
}
