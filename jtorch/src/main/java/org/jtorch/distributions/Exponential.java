package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.distributions.Exponential(rate)}: density {@code rate exp(-rate x)} on {@code x >= 0}. */
public final class Exponential extends Distribution {
    private static final Map<String, Constraint> ARGS = constraints("rate", Constraint.POSITIVE);

    private final Tensor rate;

    /** {@code Exponential(rate)}. */
    public Exponential(Tensor rate) {
        this(rate, null);
    }

    /** {@code Exponential(rate)} with a Python number. */
    public Exponential(double rate) {
        this(Params.scalar(rate), null);
    }

    /** {@code Exponential(rate, validate_args)}; a null {@code validateArgs} takes the default. */
    public Exponential(Tensor rate, Boolean validateArgs) {
        super(rate.shape(), new long[0], validateArgs);
        this.rate = rate;
        validateParameters();
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
        return rate;
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
        return Torch.empty(extendedShape(sampleShape), rate.dtype(), rate.device())
                .exponential_()
                .div(rate);
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        return rate.log().sub(rate.mul(value));
    }

    @Override
    public Tensor cdf(Tensor value) {
        validateSample(value);
        return Torch.exp(rate.neg().mul(value)).neg().add(1.0);
    }

    @Override
    public Tensor icdf(Tensor value) {
        return Torch.log1p(value.neg()).neg().div(rate);
    }

    @Override
    public Tensor entropy() {
        return rate.log().neg().add(1.0);
    }

    @Override
    public Tensor mean() {
        return rate.reciprocal();
    }

    /** The mode: 0. */
    @Override
    public Tensor mode() {
        return Torch.zerosLike(rate);
    }

    @Override
    public Tensor variance() {
        return rate.pow(-2L);
    }

    @Override
    public Tensor stddev() {
        return rate.reciprocal();
    }
}
