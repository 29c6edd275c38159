package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.MaxUnpool3d}: the partial inverse of {@code MaxPool3d} on [N, C, D, H, W] inputs, each value written
 * at the index the pool recorded and zeros elsewhere.
 */
public class MaxUnpool3d extends Module {
    private final long[] kernelSize;
    private final long[] stride;
    private final long[] padding;

    /** {@code MaxUnpool3d(kernel_size)}: stride = kernel_size, no padding. */
    public MaxUnpool3d(long kernelSize) {
        this(new long[] {kernelSize}, null, new long[] {0});
    }

    /**
     * {@code MaxUnpool3d(kernel_size, stride, padding)}: one value (every dim) or one per dim; null stride = kernel.
     */
    public MaxUnpool3d(long[] kernelSize, long[] stride, long[] padding) {
        this.kernelSize = expand(kernelSize);
        this.stride = stride == null ? this.kernelSize.clone() : expand(stride);
        this.padding = expand(padding);
    }

    private static long[] expand(long[] v) {
        if (v.length == 3) return v.clone();
        if (v.length != 1) {
            throw new IllegalArgumentException("MaxUnpool3d: expected one or 3 values, but got " + v.length);
        }
        long[] r = new long[3];
        java.util.Arrays.fill(r, v[0]);
        return r;
    }

    /** The unpool of {@code input} by the pool's {@code indices} into the default output size. */
    public Tensor forward(Tensor input, Tensor indices) {
        return forward(input, indices, null);
    }

    /** The unpool into {@code outputSize} (spatial sizes, or with batch and channel sizes in front). */
    public Tensor forward(Tensor input, Tensor indices, long[] outputSize) {
        return F.maxUnpool3d(input, indices, kernelSize, stride, padding, outputSize);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + PyRepr.tuple(kernelSize) + ", stride=" + PyRepr.tuple(stride) + ", padding="
                + PyRepr.tuple(padding);
    }
}
