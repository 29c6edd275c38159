package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Laplace(loc, scale)}: density {@code exp(-|x - loc| / scale) / (2 scale)}. Samples are
 * PyTorch's inverse-CDF draws from {@code uniform_(eps - 1, 1)}.
 */
public final class Laplace extends Distribution {
    private static final Map<String, Constraint> ARGS =
            constraints("loc", Constraint.REAL, "scale", Constraint.POSITIVE);

    private final Tensor loc;
    private final Tensor scale;

    /** {@code Laplace(loc, scale)}, broadcast together. */
    public Laplace(Tensor loc, Tensor scale) {
        this(loc, scale, null);
    }

    /** {@code Laplace(loc, scale)} with Python numbers. */
    public Laplace(double loc, double scale) {
        this(Params.scalar(loc), Params.scalar(scale), null);
    }

    /** {@code Laplace(loc, scale, validate_args)}; a null {@code validateArgs} takes the default. */
    public Laplace(Tensor loc, Tensor scale, Boolean validateArgs) {
        this(Params.broadcastAll(loc, scale), validateArgs);
    }

    private Laplace(Tensor[] p, Boolean validateArgs) {
        super(p[0].shape(), new long[0], validateArgs);
        this.loc = p[0];
        this.scale = p[1];
        validateParameters();
    }

    /** The location (mean and median). */
    public Tensor loc() {
        return loc;
    }

    /** The scale. */
    public Tensor scale() {
        return scale;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    @Override
    Tensor parameter(String name) {
        return name.equals("loc") ? loc : scale;
    }

    @Override
    public Constraint support() {
        return Constraint.REAL;
    }

    @Override
    public boolean hasRsample() {
        return true;
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        double eps = Params.eps(loc.dtype());
        Tensor u = Torch.empty(extendedShape(sampleShape), loc.dtype(), loc.device())
                .uniform_(eps - 1, 1);
        return loc.sub(scale.mul(u.sign()).mul(Torch.log1p(u.abs().neg())));
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        return scale.mul(2.0).log().neg().sub(value.sub(loc).abs().div(scale));
    }

    @Override
    public Tensor cdf(Tensor value) {
        validateSample(value);
        Tensor d = value.sub(loc);
        return d.sign().mul(Torch.expm1(d.abs().neg().div(scale))).mul(-0.5).add(0.5);
    }

    @Override
    public Tensor icdf(Tensor value) {
        Tensor term = value.sub(0.5);
        return loc.sub(scale.mul(term.sign()).mul(Torch.log1p(term.abs().mul(-2.0))));
    }

    @Override
    public Tensor entropy() {
        return scale.mul(2.0).log().add(1.0);
    }

    @Override
    public Tensor mean() {
        return loc;
    }

    /** The mode: the location. */
    @Override
    public Tensor mode() {
        return loc;
    }

    @Override
    public Tensor variance() {
        return scale.pow(2L).mul(2.0);
    }

    @Override
    public Tensor stddev() {
        return scale.mul(Math.sqrt(2));
    }
}
