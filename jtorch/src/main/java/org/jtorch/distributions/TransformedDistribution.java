package org.jtorch.distributions;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.TransformedDistribution(base, transforms)}: the distribution of {@code t_n(...t_1(x))} for
 * {@code x} from the base distribution. Its log-density subtracts each transform's log-Jacobian at the inverted value;
 * {@link #cdf}/{@link #icdf} go through the base's, reflected where the transforms decrease.
 */
public class TransformedDistribution extends Distribution {
    private final Distribution base;
    private final List<Transform> transforms;

    /** {@code TransformedDistribution(base, transforms)}. */
    public TransformedDistribution(Distribution base, List<Transform> transforms) {
        this(base, transforms, null);
    }

    /** {@code TransformedDistribution(base, transforms, validate_args)}; a null {@code validateArgs}: the default. */
    public TransformedDistribution(Distribution base, List<Transform> transforms, Boolean validateArgs) {
        this(shapes(base, transforms), base, transforms, validateArgs);
    }

    private TransformedDistribution(
            long[][] shapes, Distribution base, List<Transform> transforms, Boolean validateArgs) {
        super(shapes[0], shapes[1], validateArgs);
        int reinterpreted = composed(transforms).eventDim() - base.eventShape().length;
        this.base = reinterpreted > 0 ? new Independent(base, reinterpreted, validateArgs) : base;
        this.transforms = List.copyOf(transforms);
    }

    private static Transform composed(List<Transform> transforms) {
        return new Transform.ComposeTransform(transforms);
    }

    /** The batch and event shapes: the transforms keep shapes, and claim {@code event_dim} rightmost dims. */
    private static long[][] shapes(Distribution base, List<Transform> transforms) {
        long[] shape = base.extendedShape();
        int baseEventDim = base.eventShape().length,
                domainEventDim = composed(transforms).eventDim();
        if (shape.length < domainEventDim) {
            throw new IllegalArgumentException("base_distribution needs to have shape with size at least "
                    + domainEventDim + ", but got " + pyList(shape) + ".");
        }
        int eventDim = domainEventDim + Math.max(baseEventDim - domainEventDim, 0);
        int cut = shape.length - eventDim;
        return new long[][] {Arrays.copyOf(shape, cut), Arrays.copyOfRange(shape, cut, shape.length)};
    }

    /** The base distribution (wrapped in {@link Independent} where the transforms claim batch dims as events). */
    public Distribution baseDist() {
        return base;
    }

    /** The transforms, in application order. */
    public List<Transform> transforms() {
        return transforms;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return Map.of();
    }

    @Override
    Tensor parameter(String name) {
        return null;
    }

    /** PyTorch's repr lists no parameters for a transformed distribution: {@code LogNormal()}. */
    @Override
    public String toString() {
        return name() + "()";
    }

    @Override
    public Constraint support() {
        return transforms.isEmpty() ? base.support() : transforms.getLast().codomain();
    }

    @Override
    public boolean hasRsample() {
        return base.hasRsample();
    }

    @Override
    public Tensor sample(long... sampleShape) {
        try (var _ = Torch.noGrad()) {
            Tensor x = base.sample(sampleShape);
            for (Transform t : transforms) x = t.apply(x);
            return x;
        }
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        Tensor x = base.rsample(sampleShape);
        for (Transform t : transforms) x = t.apply(x);
        return x;
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        int eventDim = eventShape().length;
        Tensor logProb = null;
        Tensor y = value;
        for (int i = transforms.size() - 1; i >= 0; i--) {
            Transform t = transforms.get(i);
            Tensor x = t.inv(y);
            Tensor term = Params.sumRightmost(t.logAbsDetJacobian(x, y), eventDim - t.eventDim());
            logProb = logProb == null ? term.neg() : logProb.sub(term);
            y = x;
        }
        Tensor baseTerm = Params.sumRightmost(base.logProb(y), eventDim - base.eventShape().length);
        return logProb == null ? baseTerm : logProb.add(baseTerm);
    }

    /** {@code _monotonize_cdf}: a CDF through decreasing transforms is reflected, {@code sign (v - 0.5) + 0.5}. */
    private Tensor monotonize(Tensor value) {
        Tensor sign = new Transform.ComposeTransform(transforms).sign();
        return sign == null ? value : sign.mul(value.sub(0.5)).add(0.5);
    }

    @Override
    public Tensor cdf(Tensor value) {
        for (int i = transforms.size() - 1; i >= 0; i--)
            value = transforms.get(i).inv(value);
        base.validateSample(value);
        return monotonize(base.cdf(value));
    }

    @Override
    public Tensor icdf(Tensor value) {
        Tensor x = base.icdf(monotonize(value));
        for (Transform t : transforms) x = t.apply(x);
        return x;
    }
}
