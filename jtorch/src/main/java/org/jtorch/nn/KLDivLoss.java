package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.KLDivLoss}: the Kullback-Leibler divergence of the target from the log-probability input. Its
 * reduction is PyTorch's string, since it has a fourth choice, {@code "batchmean"}; like PyTorch, an unknown one is
 * refused when the loss is computed.
 */
public class KLDivLoss extends Module {
    private final String reduction;
    private final boolean logTarget;

    /** {@code KLDivLoss()}: reduction "mean", target as probabilities. */
    public KLDivLoss() {
        this("mean", false);
    }

    /** {@code KLDivLoss(reduction=reduction, log_target=log_target)}: "none", "mean", "sum" or "batchmean". */
    public KLDivLoss(String reduction, boolean logTarget) {
        this.reduction = reduction;
        this.logTarget = logTarget;
    }

    /** {@code reduction}. */
    public String reduction() {
        return reduction;
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.klDiv(input, target, reduction, logTarget);
    }
}
