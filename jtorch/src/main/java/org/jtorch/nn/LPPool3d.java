package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.LPPool3d}: the p-norm {@code (Σ x^p)^(1/p)} over sliding windows of the last three dims. */
public class LPPool3d extends Module {
    private final double normType;
    private final long[] kernelSize;
    private final long[] stride;
    private final boolean ceilMode;

    /** {@code LPPool3d(norm_type, kernel_size)}: a cubic kernel, stride = kernel_size. */
    public LPPool3d(double normType, long kernelSize) {
        this(normType, new long[] {kernelSize}, null, false);
    }

    /**
     * {@code LPPool3d(norm_type, kernel_size, stride, ceil_mode)}: one value (every dim) or three; a null stride is the
     * kernel size.
     */
    public LPPool3d(double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
        this.normType = normType;
        this.kernelSize = kernelSize.clone();
        this.stride = stride == null ? null : stride.clone();
        this.ceilMode = ceilMode;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.lpPool3d(input, normType, kernelSize, stride, ceilMode);
    }

    @Override
    protected String extraRepr() {
        return "norm_type=" + PyRepr.of(normType) + ", kernel_size=" + PoolRepr.of(kernelSize) + ", stride="
                + (stride == null ? "None" : PoolRepr.of(stride)) + ", ceil_mode=" + PyRepr.of(ceilMode);
    }
}
