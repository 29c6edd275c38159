package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.ELU}: x for x > 0, alpha · (eˣ − 1) otherwise. */
public class ELU extends Module {
    private final double alpha;

    /** {@code ELU()}: alpha = 1. */
    public ELU() {
        this(1.0);
    }

    /** {@code ELU(alpha)}. */
    public ELU(double alpha) {
        this.alpha = alpha;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.elu(input, alpha);
    }

    @Override
    protected String extraRepr() {
        return "alpha=" + PyRepr.of(alpha);
    }
}
