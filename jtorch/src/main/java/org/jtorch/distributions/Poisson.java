package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Poisson(rate)}: counts with mass {@code rate^k exp(-rate) / k!}. Samples are
 * {@code torch.poisson(rate)}: PyTorch's numbers for the same seed. PyTorch defines no entropy, cdf or rsample.
 */
public final class Poisson extends Distribution {
    private static final Map<String, Constraint> ARGS = constraints("rate", Constraint.NONNEGATIVE);

    private final Tensor rate;

    /** {@code Poisson(rate)}. */
    public Poisson(Tensor rate) {
        this(rate, null);
    }

    /** {@code Poisson(rate)} with a Python number. */
    public Poisson(double rate) {
        this(Params.scalar(rate), null);
    }

    /** {@code Poisson(rate, validate_args)}; a null {@code validateArgs} takes the default. */
    public Poisson(Tensor rate, Boolean validateArgs) {
        super(rate.shape(), new long[0], validateArgs);
        this.rate = rate;
        validateParameters();
    }

    /** The rate (mean count). */
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
        return Constraint.NONNEGATIVE_INTEGER;
    }

    @Override
    public Tensor sample(long... sampleShape) {
        try (var _ = Torch.noGrad()) {
            return Torch.poisson(rate.expand(extendedShape(sampleShape)));
        }
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor[] vr = Params.broadcastAll(value, rate);
        return Torch.xlogy(vr[0], vr[1]).sub(vr[1]).sub(vr[0].add(1.0).lgamma());
    }

    @Override
    public Tensor mean() {
        return rate;
    }

    @Override
    public Tensor mode() {
        return rate.floor();
    }

    @Override
    public Tensor variance() {
        return rate;
    }
}
