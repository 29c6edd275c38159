package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.MSELoss}: the mean squared error. */
public class MSELoss extends Loss {

    /** {@code MSELoss()}: mean. */
    public MSELoss() {
        this(Reduction.MEAN);
    }

    /** {@code MSELoss(reduction)}. */
    public MSELoss(Reduction reduction) {
        super(reduction);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.mseLoss(input, target, reduction());
    }
}
