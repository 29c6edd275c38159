package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.ops.TernaryOps;

/** {@code torch.nn.LeakyReLU}: x for x > 0, negative_slope · x otherwise. */
public class LeakyReLU extends Module {
    private final double negativeSlope;

    /** {@code LeakyReLU()}: negative_slope = 0.01. */
    public LeakyReLU() { this(0.01); }

    /** {@code LeakyReLU(negative_slope)}. */
    public LeakyReLU(double negativeSlope) { this.negativeSlope = negativeSlope; }

    /** Built from where/mul (no dedicated op yet), so autograd and every dtype come from those ops. */
    @Override
    public Tensor forward(Tensor input) { return TernaryOps.where(input.gt(0), input, input.mul(negativeSlope)); }

    @Override
    protected String extraRepr() { return "negative_slope=" + PyRepr.of(negativeSlope); }
}
