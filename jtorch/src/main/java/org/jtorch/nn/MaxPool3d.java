package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.MaxPool3d}: the maximum over sliding windows of the last three dims. */
public class MaxPool3d extends Module {
    private final long[] kernelSize;
    private final long[] stride;
    private final long[] padding;
    private final long[] dilation;
    private final boolean ceilMode;

    /** {@code MaxPool3d(kernel_size)}: stride = kernel_size. */
    public MaxPool3d(long kernelSize) {
        this(new long[] {kernelSize}, null, new long[] {0}, new long[] {1}, false);
    }

    /**
     * {@code MaxPool3d(kernel_size, stride, padding, dilation, ceil_mode)}; a null stride is the kernel size; one value
     * = every dim.
     */
    public MaxPool3d(long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        this.kernelSize = kernelSize.clone();
        this.stride = stride == null ? kernelSize.clone() : stride.clone();
        this.padding = padding.clone();
        this.dilation = dilation.clone();
        this.ceilMode = ceilMode;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.maxPool3d(input, kernelSize, stride, padding, dilation, ceilMode);
    }

    /** {@code forward} with {@code return_indices=True}: the maxima and their flat positions in each input volume. */
    public ValuesIndices forwardWithIndices(Tensor input) {
        return F.maxPool3dWithIndices(input, kernelSize, stride, padding, dilation, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + PoolRepr.of(kernelSize) + ", stride=" + PoolRepr.of(stride) + ", padding="
                + PoolRepr.of(padding) + ", dilation=" + PoolRepr.of(dilation) + ", ceil_mode=" + PyRepr.of(ceilMode);
    }
}
