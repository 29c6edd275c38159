package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Normal(loc, scale)}: the Gaussian. {@link #rsample} is {@code loc + eps * scale} with eps
 * from {@code normal_()}, {@link #sample} is {@code torch.normal(loc, scale)}: the same numbers as PyTorch's for the
 * same seed.
 */
public final class Normal extends Distribution {
    private static final Map<String, Constraint> ARGS =
            constraints("loc", Constraint.REAL, "scale", Constraint.POSITIVE);

    private final Tensor loc;
    private final Tensor scale;

    /** {@code Normal(loc, scale)}, broadcast together. */
    public Normal(Tensor loc, Tensor scale) {
        this(loc, scale, null);
    }

    /** {@code Normal(loc, scale)} with Python numbers: 0-d tensors of the default dtype. */
    public Normal(double loc, double scale) {
        this(Params.scalar(loc), Params.scalar(scale), null);
    }

    /** {@code Normal(loc, scale, validate_args)}; a null {@code validateArgs} takes the default. */
    public Normal(Tensor loc, Tensor scale, Boolean validateArgs) {
        this(Params.broadcastAll(loc, scale), validateArgs);
    }

    private Normal(Tensor[] p, Boolean validateArgs) {
        super(p[0].shape(), new long[0], validateArgs);
        this.loc = p[0];
        this.scale = p[1];
        validateParameters();
    }

    /** The mean. */
    public Tensor loc() {
        return loc;
    }

    /** The standard deviation. */
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
    public Tensor sample(long... sampleShape) {
        long[] shape = extendedShape(sampleShape);
        try (var _ = Torch.noGrad()) {
            return Torch.normal(loc.expand(shape), scale.expand(shape));
        }
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        Tensor eps = Torch.empty(extendedShape(sampleShape), loc.dtype(), loc.device())
                .normal_();
        return loc.add(eps.mul(scale));
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor var = scale.pow(2L);
        return value.sub(loc).pow(2L).neg().div(var.mul(2.0)).sub(scale.log()).sub(Math.log(Math.sqrt(2 * Math.PI)));
    }

    @Override
    public Tensor cdf(Tensor value) {
        validateSample(value);
        return Torch.erf(value.sub(loc).mul(scale.reciprocal()).div(Math.sqrt(2)))
                .add(1.0)
                .mul(0.5);
    }

    @Override
    public Tensor icdf(Tensor value) {
        return loc.add(scale.mul(Torch.erfinv(value.mul(2.0).sub(1.0))).mul(Math.sqrt(2)));
    }

    @Override
    public Tensor entropy() {
        return scale.log().add(0.5 + 0.5 * Math.log(2 * Math.PI));
    }

    @Override
    public Tensor mean() {
        return loc;
    }

    /** The mode: the mean. */
    @Override
    public Tensor mode() {
        return loc;
    }

    @Override
    public Tensor variance() {
        return scale.pow(2L);
    }

    @Override
    public Tensor stddev() {
        return scale;
    }
}
