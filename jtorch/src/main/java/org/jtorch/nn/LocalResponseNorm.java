package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.LocalResponseNorm}: each value divided by {@code (k + α/n · Σ x²)^β} over n neighbouring channels.
 */
public class LocalResponseNorm extends Module {
    private final long size;
    private final double alpha;
    private final double beta;
    private final double k;

    /** {@code LocalResponseNorm(size)}: alpha 1e-4, beta 0.75, k 1. */
    public LocalResponseNorm(long size) {
        this(size, 1e-4, 0.75, 1.0);
    }

    /** {@code LocalResponseNorm(size, alpha, beta, k)}. */
    public LocalResponseNorm(long size, double alpha, double beta, double k) {
        this.size = size;
        this.alpha = alpha;
        this.beta = beta;
        this.k = k;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.localResponseNorm(input, size, alpha, beta, k);
    }

    @Override
    protected String extraRepr() {
        return size + ", alpha=" + PyRepr.of(alpha) + ", beta=" + PyRepr.of(beta) + ", k=" + PyRepr.of(k);
    }
}
