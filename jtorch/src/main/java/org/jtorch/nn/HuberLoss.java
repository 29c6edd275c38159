package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.HuberLoss}: squared error below {@code delta}, linear (scaled by delta) above. */
public class HuberLoss extends Loss {
    private final double delta;

    /** {@code HuberLoss()}: mean, delta 1. */
    public HuberLoss() {
        this(Reduction.MEAN, 1.0);
    }

    /** {@code HuberLoss(reduction, delta)}. */
    public HuberLoss(Reduction reduction, double delta) {
        super(reduction);
        this.delta = delta;
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.huberLoss(input, target, reduction(), delta);
    }
}
