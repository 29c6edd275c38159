package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Dropout}: zeroes elements with probability p while training; the identity in eval mode. */
public class Dropout extends Module {
    private final double p;

    /** {@code Dropout()}: p = 0.5. */
    public Dropout() {
        this(0.5);
    }

    /** {@code Dropout(p)}. */
    public Dropout(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(
                    "dropout probability has to be between 0 and 1, but got " + PyRepr.of(p));
        }
        this.p = p;
    }

    /** {@code p}. */
    public double p() {
        return p;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.dropout(input, p, isTraining());
    }

    @Override
    protected String extraRepr() {
        return "p=" + PyRepr.of(p) + ", inplace=False";
    }
}
