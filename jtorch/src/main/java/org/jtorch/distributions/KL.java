package org.jtorch.distributions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.kl}: {@link #klDivergence} finds the rule registered for the pair of types, the most
 * specific first (a pair of {@link LogNormal}s uses the {@link TransformedDistribution} rule), and {@link #register}
 * adds one. The built-in rules are PyTorch's closed forms for the pairs among this package's families.
 */
public final class KL {
    private KL() {}

    private record Pair(Class<?> p, Class<?> q) {}

    private static final Map<Pair, BiFunction<Distribution, Distribution, Tensor>> RULES = new ConcurrentHashMap<>();

    /** {@code register_kl(P, Q)}: the rule for {@code KL(p || q)} when p is a P and q a Q. */
    @SuppressWarnings("unchecked")
    public static <P extends Distribution, Q extends Distribution> void register(
            Class<P> p, Class<Q> q, BiFunction<P, Q, Tensor> rule) {
        RULES.put(new Pair(p, q), (a, b) -> rule.apply((P) a, (Q) b));
    }

    /**
     * {@code kl_divergence(p, q)}: {@code KL(p || q)} over the batch shape. Raises UnsupportedOperationException
     * (NotImplementedError) for a pair without a rule.
     */
    public static Tensor klDivergence(Distribution p, Distribution q) {
        for (Class<?> pc : lineage(p.getClass())) {
            for (Class<?> qc : lineage(q.getClass())) {
                BiFunction<Distribution, Distribution, Tensor> rule = RULES.get(new Pair(pc, qc));
                if (rule != null) return rule.apply(p, q);
            }
        }
        throw new UnsupportedOperationException(
                "No KL(p || q) is implemented for p type " + p.name() + " and q type " + q.name());
    }

    private static List<Class<?>> lineage(Class<?> c) {
        List<Class<?>> l = new ArrayList<>();
        for (; c != null && Distribution.class.isAssignableFrom(c); c = c.getSuperclass()) l.add(c);
        return l;
    }

    private static Tensor infWhere(Tensor mask, Tensor t) {
        return Torch.where(mask, Double.POSITIVE_INFINITY, t);
    }

    static {
        register(Normal.class, Normal.class, (p, q) -> {
            Tensor varRatio = p.scale().div(q.scale()).pow(2L);
            Tensor t1 = p.loc().sub(q.loc()).div(q.scale()).pow(2L);
            return varRatio.add(t1).sub(1.0).sub(varRatio.log()).mul(0.5);
        });
        register(Uniform.class, Uniform.class, (p, q) -> {
            Tensor result = q.high().sub(q.low()).div(p.high().sub(p.low())).log();
            return infWhere(Torch.logicalOr(q.low().gt(p.low()), q.high().lt(p.high())), result);
        });
        register(Bernoulli.class, Bernoulli.class, (p, q) -> {
            Tensor t1 = p.probs()
                    .mul(Params.softplus(q.logits().neg())
                            .sub(Params.softplus(p.logits().neg())));
            t1 = Torch.where(p.probs().eq(0.0), 0.0, infWhere(q.probs().eq(0.0), t1));
            Tensor t2 = p.probs().neg().add(1.0).mul(Params.softplus(q.logits()).sub(Params.softplus(p.logits())));
            t2 = Torch.where(p.probs().eq(1.0), 0.0, infWhere(q.probs().eq(1.0), t2));
            return t1.add(t2);
        });
        register(Categorical.class, Categorical.class, KL::categorical);
        register(
                OneHotCategorical.class,
                OneHotCategorical.class,
                (p, q) -> categorical(p.categorical(), q.categorical()));
        register(Exponential.class, Exponential.class, (p, q) -> {
            Tensor rateRatio = q.rate().div(p.rate());
            return rateRatio.log().neg().add(rateRatio).sub(1.0);
        });
        register(Laplace.class, Laplace.class, (p, q) -> {
            Tensor scaleRatio = p.scale().div(q.scale());
            Tensor locAbsDiff = p.loc().sub(q.loc()).abs();
            Tensor t3 = scaleRatio.mul(locAbsDiff.neg().div(p.scale()).exp());
            return scaleRatio.log().neg().add(locAbsDiff.div(q.scale())).add(t3).sub(1.0);
        });
        register(MultivariateNormal.class, MultivariateNormal.class, MultivariateNormal::kl);
        register(Independent.class, Independent.class, (p, q) -> {
            if (p.reinterpretedBatchNdims() != q.reinterpretedBatchNdims()) {
                throw new UnsupportedOperationException(
                        "KL between Independents with different event dimensions is not implemented");
            }
            return Params.sumRightmost(klDivergence(p.baseDist(), q.baseDist()), p.reinterpretedBatchNdims());
        });
        register(TransformedDistribution.class, TransformedDistribution.class, (p, q) -> {
            if (!p.transforms().equals(q.transforms()) || !java.util.Arrays.equals(p.eventShape(), q.eventShape())) {
                throw new UnsupportedOperationException("No KL(p || q) is implemented for p type " + p.name()
                        + " and q type " + q.name() + " with different transforms or event shapes");
            }
            int extra = p.eventShape().length - p.baseDist().eventShape().length;
            return Params.sumRightmost(klDivergence(p.baseDist(), q.baseDist()), extra);
        });
        register(Uniform.class, Normal.class, (p, q) -> {
            Tensor common = p.high().sub(p.low());
            Tensor t1 = q.scale().mul(Math.sqrt(Math.PI * 2)).div(common).log();
            Tensor t2 = common.pow(2L).div(12.0);
            Tensor t3 = p.high().add(p.low()).sub(q.loc().mul(2.0)).div(2.0).pow(2L);
            return t1.add(t2.add(t3).mul(0.5).div(q.scale().pow(2L)));
        });
        register(Uniform.class, Exponential.class, (p, q) -> {
            Tensor result = q.rate()
                    .mul(p.high().add(p.low()))
                    .div(2.0)
                    .sub(p.high().sub(p.low()).mul(q.rate()).log());
            return infWhere(p.low().lt(0.0), result);
        });
        register(Exponential.class, Normal.class, (p, q) -> {
            Tensor varNormal = q.scale().pow(2L);
            Tensor rateSqr = p.rate().pow(2L);
            Tensor t1 = rateSqr.mul(varNormal).mul(2 * Math.PI).log().mul(0.5);
            Tensor t2 = rateSqr.reciprocal();
            Tensor t3 = q.loc().div(p.rate());
            Tensor t4 = q.loc().pow(2L).mul(0.5);
            return t1.sub(1.0).add(t2.sub(t3).add(t4).div(varNormal));
        });
    }

    private static Tensor categorical(Categorical p, Categorical q) {
        Tensor t = p.probs().mul(p.logits().sub(q.logits()));
        t = Torch.where(p.probs().eq(0.0), 0.0, infWhere(q.probs().eq(0.0).expand(t.shape()), t));
        return t.sum(-1);
    }
}
