package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.L1Loss}: the mean absolute error. */
public class L1Loss extends Loss {

    /** {@code L1Loss()}: mean. */
    public L1Loss() {
        this(Reduction.MEAN);
    }

    /** {@code L1Loss(reduction)}. */
    public L1Loss(Reduction reduction) {
        super(reduction);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.l1Loss(input, target, reduction());
    }
}
