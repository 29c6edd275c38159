package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.SmoothL1Loss}: squared error (divided by {@code beta}) below beta, absolute error above. */
public class SmoothL1Loss extends Loss {
    private final double beta;

    /** {@code SmoothL1Loss()}: mean, beta 1. */
    public SmoothL1Loss() {
        this(Reduction.MEAN, 1.0);
    }

    /** {@code SmoothL1Loss(reduction, beta)}. */
    public SmoothL1Loss(Reduction reduction, double beta) {
        super(reduction);
        this.beta = beta;
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.smoothL1Loss(input, target, reduction(), beta);
    }
}
