package org.jtorch.distributions;

import java.util.Arrays;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Function;
import org.jtorch.ops.DistributionOps;

/**
 * {@code torch.distributions.Dirichlet(concentration)}: a distribution on the simplex of the last dim. Samples are
 * {@code _sample_dirichlet} (PyTorch's numbers for the same seed); {@link #rsample} is differentiable in the
 * concentration through {@code _dirichlet_grad}, as PyTorch's {@code _Dirichlet} function.
 */
public final class Dirichlet extends Distribution {
    private static final Map<String, Constraint> ARGS = constraints("concentration", Constraint.POSITIVE_VECTOR);

    private final Tensor concentration;

    /** {@code Dirichlet(concentration)}: at least one-dimensional, the last dim the categories. */
    public Dirichlet(Tensor concentration) {
        this(concentration, null);
    }

    /** {@code Dirichlet(concentration, validate_args)}; a null {@code validateArgs} takes the default. */
    public Dirichlet(Tensor concentration, Boolean validateArgs) {
        super(batchOf(concentration), eventOf(concentration), validateArgs);
        this.concentration = concentration;
        validateParameters();
    }

    private static long[] batchOf(Tensor concentration) {
        if (concentration.dim() < 1) {
            throw new IllegalArgumentException("`concentration` parameter must be at least one-dimensional.");
        }
        long[] s = concentration.shape();
        return Arrays.copyOf(s, s.length - 1);
    }

    private static long[] eventOf(Tensor concentration) {
        return new long[] {concentration.size(-1)};
    }

    /** The concentration parameters, one per category. */
    public Tensor concentration() {
        return concentration;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    @Override
    Tensor parameter(String name) {
        return concentration;
    }

    @Override
    public Constraint support() {
        return Constraint.SIMPLEX;
    }

    @Override
    public boolean hasRsample() {
        return true;
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        return new Reparameterized().apply(concentration.expand(extendedShape(sampleShape)));
    }

    /**
     * PyTorch's {@code _Dirichlet}: samples by {@code _sample_dirichlet}; the gradient is {@code _dirichlet_grad}
     * projected onto the simplex's tangent space, {@code grad * (g - sum(x * g))}.
     */
    private static final class Reparameterized extends Function {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor concentration = (Tensor) args[0];
            Tensor x = DistributionOps.sampleDirichlet(concentration);
            ctx.saveForBackward(x, concentration);
            return new Tensor[] {x};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            Tensor[] saved = ctx.savedTensors();
            Tensor x = saved[0], concentration = saved[1];
            Tensor total = concentration.sum(new long[] {-1}, true).expand(concentration.shape());
            Tensor grad = DistributionOps.dirichletGrad(x, concentration, total);
            Tensor g = grads[0];
            return new Tensor[] {grad.mul(g.sub(x.mul(g).sum(new long[] {-1}, true)))};
        }
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        return Torch.xlogy(concentration.sub(1.0), value)
                .sum(-1)
                .add(concentration.sum(-1).lgamma())
                .sub(concentration.lgamma().sum(-1));
    }

    @Override
    public Tensor entropy() {
        long k = concentration.size(-1);
        Tensor a0 = concentration.sum(-1);
        return concentration
                .lgamma()
                .sum(-1)
                .sub(a0.lgamma())
                .sub(a0.neg().add((double) k).mul(a0.digamma()))
                .sub(concentration.sub(1.0).mul(concentration.digamma()).sum(-1));
    }

    @Override
    public Tensor mean() {
        return concentration.div(concentration.sum(new long[] {-1}, true));
    }

    /** PyTorch's: the normalised {@code max(c - 1, 0)}, and a one-hot vertex where every concentration is below 1. */
    @Override
    public Tensor mode() {
        Tensor cm1 = concentration.sub(1.0).clampMin(0.0);
        Tensor mode = cm1.div(cm1.sum(new long[] {-1}, true));
        Tensor allBelowOne = concentration.lt(1.0).all(-1).unsqueeze(-1);
        Tensor vertex = Torch.oneHot(mode.argmax(-1), cm1.size(-1)).to(mode.dtype());
        return Torch.where(allBelowOne, vertex, mode);
    }

    @Override
    public Tensor variance() {
        Tensor con0 = concentration.sum(new long[] {-1}, true);
        return concentration.mul(con0.sub(concentration)).div(con0.pow(2L).mul(con0.add(1.0)));
    }
}
