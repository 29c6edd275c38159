package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AvgPool3d}: the mean over sliding windows of the last three dims. */
public class AvgPool3d extends Module {
    private final long[] kernelSize;
    private final long[] stride;
    private final long[] padding;
    private final boolean ceilMode;
    private final boolean countIncludePad;
    private final Long divisorOverride;

    /** {@code AvgPool3d(kernel_size)}: stride = kernel_size. */
    public AvgPool3d(long kernelSize) {
        this(new long[] {kernelSize}, null, new long[] {0}, false, true, null);
    }

    /**
     * {@code AvgPool3d(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}; null stride =
     * kernel size, null divisor = the window's.
     */
    public AvgPool3d(
            long[] kernelSize,
            long[] stride,
            long[] padding,
            boolean ceilMode,
            boolean countIncludePad,
            Long divisorOverride) {
        this.kernelSize = kernelSize.clone();
        this.stride = stride == null ? kernelSize.clone() : stride.clone();
        this.padding = padding.clone();
        this.ceilMode = ceilMode;
        this.countIncludePad = countIncludePad;
        this.divisorOverride = divisorOverride;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.avgPool3d(input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
    }

    @Override
    protected String extraRepr() {
        return "kernel_size=" + PoolRepr.of(kernelSize) + ", stride=" + PoolRepr.of(stride) + ", padding="
                + PoolRepr.of(padding);
    }
}
