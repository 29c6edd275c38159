package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.DistributionOps;

/**
 * {@code torch.distributions.Gamma(concentration, rate)}: density {@code rate^c x^(c-1) exp(-rate x) / Γ(c)} on
 * {@code x >= 0}. {@link #rsample} is {@code _standard_gamma(concentration) / rate}, differentiable in the
 * concentration through the implicit gradient {@code _standard_gamma_grad}; the same numbers as PyTorch's for the same
 * seed.
 */
public final class Gamma extends Distribution {
    private static final Map<String, Constraint> ARGS =
            constraints("concentration", Constraint.POSITIVE, "rate", Constraint.POSITIVE);

    private final Tensor concentration;
    private final Tensor rate;

    /** {@code Gamma(concentration, rate)}, broadcast together. */
    public Gamma(Tensor concentration, Tensor rate) {
        this(concentration, rate, null);
    }

    /** {@code Gamma(concentration, rate)} with Python numbers. */
    public Gamma(double concentration, double rate) {
        this(Params.scalar(concentration), Params.scalar(rate), null);
    }

    /** {@code Gamma(concentration, rate, validate_args)}; a null {@code validateArgs} takes the default. */
    public Gamma(Tensor concentration, Tensor rate, Boolean validateArgs) {
        this(Params.broadcastAll(concentration, rate), validateArgs);
    }

    private Gamma(Tensor[] p, Boolean validateArgs) {
        super(p[0].shape(), new long[0], validateArgs);
        this.concentration = p[0];
        this.rate = p[1];
        validateParameters();
    }

    /** The shape parameter. */
    public Tensor concentration() {
        return concentration;
    }

    /** The rate (inverse scale). */
    public Tensor rate() {
        return rate;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    @Override
    Tensor parameter(String name) {
        return name.equals("concentration") ? concentration : rate;
    }

    @Override
    public Constraint support() {
        return Constraint.NONNEGATIVE;
    }

    @Override
    public boolean hasRsample() {
        return true;
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        long[] shape = extendedShape(sampleShape);
        Tensor value =
                DistributionOps.standardGamma(concentration.expand(shape)).div(rate.expand(shape));
        // an underflow to 0 would leave the support's interior; PyTorch clamps in place outside the graph, here the
        // clamp's (exact) difference is added detached, so the gradient stays the quotient's
        Tensor raw = value.detach();
        return value.add(raw.clampMin(Params.tiny(value.dtype())).sub(raw));
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        return Torch.xlogy(concentration, rate)
                .add(Torch.xlogy(concentration.sub(1.0), value))
                .sub(rate.mul(value))
                .sub(concentration.lgamma());
    }

    /**
     * {@code P(concentration, rate · value)}, the regularized lower incomplete gamma function
     * ({@code torch.special.gammainc}); differentiable in the value and the rate, not in the concentration (PyTorch has
     * no derivative of igamma in its first argument).
     */
    @Override
    public Tensor cdf(Tensor value) {
        validateSample(value);
        return Torch.specialGammainc(concentration, rate.mul(value));
    }

    @Override
    public Tensor entropy() {
        return concentration
                .sub(rate.log())
                .add(concentration.lgamma())
                .add(concentration.neg().add(1.0).mul(concentration.digamma()));
    }

    @Override
    public Tensor mean() {
        return concentration.div(rate);
    }

    @Override
    public Tensor mode() {
        return concentration.sub(1.0).div(rate).clampMin(0.0);
    }

    @Override
    public Tensor variance() {
        return concentration.div(rate.pow(2L));
    }
}
