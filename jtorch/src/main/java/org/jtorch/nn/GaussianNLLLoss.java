package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.GaussianNLLLoss}: the negative log-likelihood of a Gaussian target with predicted variance. */
public class GaussianNLLLoss extends Loss {
    private final boolean full;
    private final double eps;

    /** {@code GaussianNLLLoss()}: not full, eps 1e-6, mean. */
    public GaussianNLLLoss() {
        this(false, 1e-6, Reduction.MEAN);
    }

    /** {@code GaussianNLLLoss(full=full, eps=eps, reduction=reduction)}. */
    public GaussianNLLLoss(boolean full, double eps, Reduction reduction) {
        super(reduction);
        this.full = full;
        this.eps = eps;
    }

    /** {@code forward(input, target, var)}. */
    public Tensor forward(Tensor input, Tensor target, Tensor var) {
        return F.gaussianNllLoss(input, target, var, full, eps, reduction());
    }
}
