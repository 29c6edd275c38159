package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.LeakyReLU}: x for x > 0, negative_slope · x otherwise. */
public class LeakyReLU extends Module {
    private final double negativeSlope;

    /** {@code LeakyReLU()}: negative_slope = 0.01. */
    public LeakyReLU() {
        this(0.01);
    }

    /** {@code LeakyReLU(negative_slope)}. */
    public LeakyReLU(double negativeSlope) {
        this.negativeSlope = negativeSlope;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.leakyRelu(input, negativeSlope);
    }

    @Override
    protected String extraRepr() {
        return "negative_slope=" + PyRepr.of(negativeSlope);
    }
}
