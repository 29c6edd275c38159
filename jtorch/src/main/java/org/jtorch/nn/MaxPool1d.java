package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.MaxPool1d}: the maximum over sliding windows of the last dim. */
public class MaxPool1d extends Module {
    private final long kernelSize;
    private final long stride;
    private final long padding;
    private final long dilation;
    private final boolean ceilMode;

    /** {@code MaxPool1d(kernel_size)}: stride = kernel_size. */
    public MaxPool1d(long kernelSize) {
        this(kernelSize, null, 0, 1, false);
    }

    /** {@code MaxPool1d(kernel_size, stride, padding, dilation, ceil_mode)}; a null stride is the kernel size. */
    public MaxPool1d(long kernelSize, Long stride, long padding, long dilation, boolean ceilMode) {
        this.kernelSize = kernelSize;
        this.stride = stride == null ? kernelSize : stride;
        this.padding = padding;
        this.dilation = dilation;
        this.ceilMode = ceilMode;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.maxPool1d(input, kernelSize, stride, padding, dilation, ceilMode);
    }

    /** {@code forward} with {@code return_indices=True}. */
    public ValuesIndices forwardWithIndices(Tensor input) {
        return F.maxPool1dWithIndices(input, kernelSize, stride, padding, dilation, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + kernelSize + ", stride=" + stride + ", padding=" + padding + ", dilation=" + dilation
                + ", ceil_mode=" + PyRepr.of(ceilMode);
    }
}
