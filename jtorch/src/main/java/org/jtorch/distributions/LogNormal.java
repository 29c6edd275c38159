package org.jtorch.distributions;

import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.LogNormal(loc, scale)}: {@code exp(X)} for {@code X ~ Normal(loc, scale)}, a
 * {@link TransformedDistribution} of a {@link Normal} by {@link Transform.ExpTransform}, as in PyTorch.
 */
public final class LogNormal extends TransformedDistribution {
    private static final Map<String, Constraint> ARGS =
            constraints("loc", Constraint.REAL, "scale", Constraint.POSITIVE);

    private final Normal normal;

    /** {@code LogNormal(loc, scale)}, broadcast together. */
    public LogNormal(Tensor loc, Tensor scale) {
        this(loc, scale, null);
    }

    /** {@code LogNormal(loc, scale)} with Python numbers. */
    public LogNormal(double loc, double scale) {
        this(Params.scalar(loc), Params.scalar(scale), null);
    }

    /** {@code LogNormal(loc, scale, validate_args)}; a null {@code validateArgs} takes the default. */
    public LogNormal(Tensor loc, Tensor scale, Boolean validateArgs) {
        this(new Normal(loc, scale, validateArgs), validateArgs);
    }

    private LogNormal(Normal normal, Boolean validateArgs) {
        super(normal, List.of(new Transform.ExpTransform()), validateArgs);
        this.normal = normal;
    }

    /** The mean of the underlying normal. */
    public Tensor loc() {
        return normal.loc();
    }

    /** The standard deviation of the underlying normal. */
    public Tensor scale() {
        return normal.scale();
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    @Override
    Tensor parameter(String name) {
        return normal.parameter(name);
    }

    @Override
    public Tensor mean() {
        return loc().add(scale().pow(2L).div(2.0)).exp();
    }

    /** The mode: {@code exp(loc - scale²)}. */
    @Override
    public Tensor mode() {
        return loc().sub(scale().square()).exp();
    }

    @Override
    public Tensor variance() {
        Tensor scale2 = scale().pow(2L);
        return Torch.expm1(scale2).mul(loc().mul(2.0).add(scale2).exp());
    }

    @Override
    public Tensor entropy() {
        return normal.entropy().add(loc());
    }
}
