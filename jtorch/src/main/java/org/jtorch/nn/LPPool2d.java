package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.LPPool2d}: the p-norm {@code (Σ x^p)^(1/p)} over sliding windows of the last two dims. */
public class LPPool2d extends Module {
    private final double normType;
    private final long[] kernelSize;
    private final long[] stride;
    private final boolean ceilMode;

    /** {@code LPPool2d(norm_type, kernel_size)}: a square kernel, stride = kernel_size. */
    public LPPool2d(double normType, long kernelSize) {
        this(normType, new long[] {kernelSize}, null, false);
    }

    /**
     * {@code LPPool2d(norm_type, kernel_size, stride, ceil_mode)}: one value (both dims) or two; a null stride is the
     * kernel size.
     */
    public LPPool2d(double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
        this.normType = normType;
        this.kernelSize = kernelSize.clone();
        this.stride = stride == null ? null : stride.clone();
        this.ceilMode = ceilMode;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.lpPool2d(input, normType, kernelSize, stride, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "norm_type=" + PyRepr.of(normType) + ", kernel_size=" + PoolRepr.of(kernelSize) + ", stride="
                + (stride == null ? "None" : PoolRepr.of(stride)) + ", ceil_mode=" + PyRepr.of(ceilMode);
    }
}
