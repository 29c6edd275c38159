package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.MultiLabelMarginLoss}: the multi-label hinge loss; each target row lists class indices up to the
 * first -1.
 */
public final class MultiLabelMarginLoss extends Loss {
    /** {@code MultiLabelMarginLoss()}: mean. */
    public MultiLabelMarginLoss() {
        this(Reduction.MEAN);
    }

    /** {@code MultiLabelMarginLoss(reduction=reduction)}. */
    public MultiLabelMarginLoss(Reduction reduction) {
        super(reduction);
    }

    /** {@code forward(input, target)}: input (C) or (N, C), int64 target of the same shape. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.multilabelMarginLoss(input, target, reduction());
    }
}
