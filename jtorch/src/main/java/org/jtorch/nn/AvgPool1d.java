package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AvgPool1d}: the mean over sliding windows of the last dim. */
public class AvgPool1d extends Module {
    private final long kernelSize;
    private final long stride;
    private final long padding;
    private final boolean ceilMode;
    private final boolean countIncludePad;

    /** {@code AvgPool1d(kernel_size)}: stride = kernel_size. */
    public AvgPool1d(long kernelSize) {
        this(kernelSize, null, 0, false, true);
    }

    /** {@code AvgPool1d(kernel_size, stride, padding, ceil_mode, count_include_pad)}; null stride = kernel size. */
    public AvgPool1d(long kernelSize, Long stride, long padding, boolean ceilMode, boolean countIncludePad) {
        this.kernelSize = kernelSize;
        this.stride = stride == null ? kernelSize : stride;
        this.padding = padding;
        this.ceilMode = ceilMode;
        this.countIncludePad = countIncludePad;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.avgPool1d(input, kernelSize, stride, padding, ceilMode, countIncludePad);
    }

    /** PyTorch keeps the sizes as 1-tuples. */
    @Override
    protected String extraRepr() {
        return "kernel_size=(" + kernelSize + ",), stride=(" + stride + ",), padding=(" + padding + ",)";
    }
}
