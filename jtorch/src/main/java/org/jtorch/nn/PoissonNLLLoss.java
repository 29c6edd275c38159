package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.PoissonNLLLoss}: the negative log-likelihood of a Poisson target. */
public class PoissonNLLLoss extends Loss {
    private final boolean logInput;
    private final boolean full;
    private final double eps;

    /** {@code PoissonNLLLoss()}: log input, not full, eps 1e-8, mean. */
    public PoissonNLLLoss() {
        this(true, false, 1e-8, Reduction.MEAN);
    }

    /** {@code PoissonNLLLoss(log_input, full, eps=eps, reduction=reduction)}. */
    public PoissonNLLLoss(boolean logInput, boolean full, double eps, Reduction reduction) {
        super(reduction);
        this.logInput = logInput;
        this.full = full;
        this.eps = eps;
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.poissonNllLoss(input, target, logInput, full, eps, reduction());
    }
}
