package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.MultiLabelSoftMarginLoss}: per-class logistic loss averaged over classes; {@code weight} a buffer.
 */
public final class MultiLabelSoftMarginLoss extends Loss {
    /** {@code MultiLabelSoftMarginLoss()}: no weight, mean. */
    public MultiLabelSoftMarginLoss() {
        this(null, Reduction.MEAN);
    }

    /** {@code MultiLabelSoftMarginLoss(weight, reduction=reduction)}. */
    public MultiLabelSoftMarginLoss(Tensor weight, Reduction reduction) {
        super(reduction);
        registerBuffer("weight", weight);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.multilabelSoftMarginLoss(input, target, getBuffer("weight"), reduction());
    }
}
