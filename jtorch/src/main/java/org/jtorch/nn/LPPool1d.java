package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.LPPool1d}: the p-norm {@code (Σ x^p)^(1/p)} over sliding windows of the last dim. */
public class LPPool1d extends Module {
    private final double normType;
    private final long kernelSize;
    private final Long stride;
    private final boolean ceilMode;

    /** {@code LPPool1d(norm_type, kernel_size)}: stride = kernel_size. */
    public LPPool1d(double normType, long kernelSize) {
        this(normType, kernelSize, null, false);
    }

    /** {@code LPPool1d(norm_type, kernel_size, stride, ceil_mode)}; a null stride is the kernel size. */
    public LPPool1d(double normType, long kernelSize, Long stride, boolean ceilMode) {
        this.normType = normType;
        this.kernelSize = kernelSize;
        this.stride = stride;
        this.ceilMode = ceilMode;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.lpPool1d(input, normType, kernelSize, stride, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "norm_type=" + PyRepr.of(normType) + ", kernel_size=" + kernelSize + ", stride="
                + (stride == null ? "None" : stride.toString()) + ", ceil_mode=" + PyRepr.of(ceilMode);
    }
}
