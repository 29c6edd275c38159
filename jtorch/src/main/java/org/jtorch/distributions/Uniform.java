package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Uniform(low, high)}: uniform on {@code [low, high)}. Samples are {@code low + rand * (high
 * - low)} with {@code torch.rand}: PyTorch's numbers for the same seed.
 */
public final class Uniform extends Distribution {
    private static final Map<String, Constraint> ARGS = constraints("low", Constraint.REAL, "high", Constraint.REAL);

    private final Tensor low;
    private final Tensor high;

    /** {@code Uniform(low, high)}, broadcast together. */
    public Uniform(Tensor low, Tensor high) {
        this(low, high, null);
    }

    /** {@code Uniform(low, high)} with Python numbers. */
    public Uniform(double low, double high) {
        this(Params.scalar(low), Params.scalar(high), null);
    }

    /** {@code Uniform(low, high, validate_args)}; a null {@code validateArgs} takes the default. */
    public Uniform(Tensor low, Tensor high, Boolean validateArgs) {
        this(Params.broadcastAll(low, high), validateArgs);
    }

    private Uniform(Tensor[] p, Boolean validateArgs) {
        super(p[0].shape(), new long[0], validateArgs);
        this.low = p[0];
        this.high = p[1];
        validateParameters();
    }

    /** The lower bound. */
    public Tensor low() {
        return low;
    }

    /** The upper bound. */
    public Tensor high() {
        return high;
    }

    /** PyTorch's: each bound is constrained by the other, {@code low < high}. */
    @Override
    Map<String, Constraint> argConstraints() {
        return constraints("low", Constraint.lessThan(high), "high", Constraint.greaterThan(low));
    }

    @Override
    Tensor parameter(String name) {
        return name.equals("low") ? low : high;
    }

    @Override
    public Constraint support() {
        return Constraint.interval(low, high);
    }

    @Override
    public boolean hasRsample() {
        return true;
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        Tensor rand = Torch.rand(extendedShape(sampleShape), low.dtype(), low.device(), null);
        return low.add(rand.mul(high.sub(low)));
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor lb = low.le(value).to(low.dtype());
        Tensor ub = high.gt(value).to(low.dtype());
        return lb.mul(ub).log().sub(high.sub(low).log());
    }

    @Override
    public Tensor cdf(Tensor value) {
        validateSample(value);
        return value.sub(low).div(high.sub(low)).clamp(0.0, 1.0);
    }

    @Override
    public Tensor icdf(Tensor value) {
        return value.mul(high.sub(low)).add(low);
    }

    @Override
    public Tensor entropy() {
        return high.sub(low).log();
    }

    @Override
    public Tensor mean() {
        return high.add(low).div(2.0);
    }

    /** The mode: undefined: NaN, as in PyTorch (every point of the support is as likely). */
    @Override
    public Tensor mode() {
        return high.mul(Double.NaN);
    }

    @Override
    public Tensor variance() {
        return high.sub(low).pow(2L).div(12.0);
    }

    @Override
    public Tensor stddev() {
        return high.sub(low).div(Math.sqrt(12));
    }
}
