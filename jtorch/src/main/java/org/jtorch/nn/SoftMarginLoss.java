package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.SoftMarginLoss}: the two-class logistic loss {@code log(1 + exp(-y·x))}. */
public class SoftMarginLoss extends Loss {

    /** {@code SoftMarginLoss()}: mean. */
    public SoftMarginLoss() {
        this(Reduction.MEAN);
    }

    /** {@code SoftMarginLoss(reduction)}. */
    public SoftMarginLoss(Reduction reduction) {
        super(reduction);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.softMarginLoss(input, target, reduction());
    }
}
