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
        registerExponentialFamilies();
    }

    /** The Euler–Mascheroni constant. */
    private static final double EULER_GAMMA = 0.57721566490153286060;

    /** {@code x log x}, 0 at 0. */
    private static Tensor xLogX(Tensor x) {
        return Torch.xlogy(x, x);
    }

    /** {@code _infinite_like}: a tensor of +inf like t. */
    private static Tensor infiniteLike(Tensor t) {
        return Torch.fullLike(t, Double.POSITIVE_INFINITY);
    }

    /**
     * The closed forms PyTorch registers for Gamma, Beta, Dirichlet, Poisson and Binomial, and their infinite pairs.
     */
    private static void registerExponentialFamilies() {
        register(Gamma.class, Gamma.class, (p, q) -> {
            Tensor t1 = q.concentration().mul(p.rate().div(q.rate()).log());
            Tensor t2 = q.concentration().lgamma().sub(p.concentration().lgamma());
            Tensor t3 = p.concentration()
                    .sub(q.concentration())
                    .mul(p.concentration().digamma());
            Tensor t4 = q.rate().sub(p.rate()).mul(p.concentration().div(p.rate()));
            return t1.add(t2).add(t3).add(t4);
        });
        register(Beta.class, Beta.class, (p, q) -> {
            Tensor sumP = p.concentration1().add(p.concentration0());
            Tensor sumQ = q.concentration1().add(q.concentration0());
            Tensor t1 =
                    q.concentration1().lgamma().add(q.concentration0().lgamma()).add(sumP.lgamma());
            Tensor t2 =
                    p.concentration1().lgamma().add(p.concentration0().lgamma()).add(sumQ.lgamma());
            Tensor t3 = p.concentration1()
                    .sub(q.concentration1())
                    .mul(p.concentration1().digamma());
            Tensor t4 = p.concentration0()
                    .sub(q.concentration0())
                    .mul(p.concentration0().digamma());
            Tensor t5 = sumQ.sub(sumP).mul(sumP.digamma());
            return t1.sub(t2).add(t3).add(t4).add(t5);
        });
        register(Dirichlet.class, Dirichlet.class, (p, q) -> {
            Tensor sumP = p.concentration().sum(-1), sumQ = q.concentration().sum(-1);
            Tensor t1 = sumP.lgamma().sub(sumQ.lgamma());
            Tensor t2 =
                    p.concentration().lgamma().sub(q.concentration().lgamma()).sum(-1);
            Tensor t3 = p.concentration().sub(q.concentration());
            Tensor t4 = p.concentration().digamma().sub(sumP.digamma().unsqueeze(-1));
            return t1.sub(t2).add(t3.mul(t4).sum(-1));
        });
        register(Poisson.class, Poisson.class, (p, q) -> p.rate()
                .mul(p.rate().log().sub(q.rate().log()))
                .sub(p.rate().sub(q.rate())));
        register(Binomial.class, Binomial.class, (p, q) -> {
            if (Torch.any(p.totalCount().lt(q.totalCount())).item() != 0) {
                throw new UnsupportedOperationException(
                        "KL between Binomials where q.total_count > p.total_count is not implemented");
            }
            Tensor kl = p.totalCount()
                    .mul(p.probs()
                            .mul(p.logits().sub(q.logits()))
                            .add(Torch.log1p(p.probs().neg()))
                            .sub(Torch.log1p(q.probs().neg())));
            return infWhere(p.totalCount().gt(q.totalCount()), kl);
        });
        register(Bernoulli.class, Poisson.class, (p, q) -> p.entropy()
                .neg()
                .sub(p.probs().mul(q.rate().log()).sub(q.rate())));
        register(Beta.class, Exponential.class, (p, q) -> p.entropy()
                .neg()
                .sub(q.rate().log())
                .add(q.rate().mul(p.concentration1().div(p.concentration1().add(p.concentration0())))));
        register(Beta.class, Gamma.class, (p, q) -> {
            Tensor sum = p.concentration1().add(p.concentration0());
            Tensor t1 = p.entropy().neg();
            Tensor t2 = q.concentration()
                    .lgamma()
                    .sub(q.concentration().mul(q.rate().log()));
            Tensor t3 =
                    q.concentration().sub(1.0).mul(p.concentration1().digamma().sub(sum.digamma()));
            Tensor t4 = q.rate().mul(p.concentration1()).div(sum);
            return t1.add(t2).sub(t3).add(t4);
        });
        register(Beta.class, Normal.class, (p, q) -> {
            Tensor sum = p.concentration1().add(p.concentration0());
            Tensor eBeta = p.concentration1().div(sum);
            Tensor varNormal = q.scale().pow(2L);
            Tensor t1 = p.entropy().neg();
            Tensor t2 = varNormal.mul(2 * Math.PI).log().mul(0.5);
            Tensor t3 = eBeta.mul(eBeta.neg().add(1.0))
                    .div(sum.add(1.0))
                    .add(eBeta.pow(2L))
                    .mul(0.5);
            Tensor t4 = q.loc().mul(eBeta);
            Tensor t5 = q.loc().pow(2L).mul(0.5);
            return t1.add(t2).add(t3.sub(t4).add(t5).div(varNormal));
        });
        register(Beta.class, Uniform.class, (p, q) -> {
            Tensor result = p.entropy().neg().add(q.high().sub(q.low()).log());
            return infWhere(Torch.logicalOr(q.low().gt(0.0), q.high().lt(1.0)), result);
        });
        register(Exponential.class, Gamma.class, (p, q) -> {
            Tensor ratio = q.rate().div(p.rate());
            Tensor t1 = q.concentration().neg().mul(ratio.log());
            return t1.add(ratio)
                    .add(q.concentration().lgamma())
                    .add(q.concentration().mul(EULER_GAMMA))
                    .sub(1 + EULER_GAMMA);
        });
        register(Gamma.class, Exponential.class, (p, q) -> p.entropy()
                .neg()
                .sub(q.rate().log())
                .add(q.rate().mul(p.concentration()).div(p.rate())));
        register(Gamma.class, Normal.class, (p, q) -> {
            Tensor varNormal = q.scale().pow(2L);
            Tensor betaSqr = p.rate().pow(2L);
            Tensor c = p.concentration();
            Tensor t1 = betaSqr.mul(varNormal)
                    .mul(2 * Math.PI)
                    .log()
                    .mul(0.5)
                    .sub(c)
                    .sub(c.lgamma());
            Tensor t2 = c.pow(2L).add(c).mul(0.5).div(betaSqr);
            Tensor t3 = q.loc().mul(c).div(p.rate());
            Tensor t4 = q.loc().pow(2L).mul(0.5);
            return t1.add(c.sub(1.0).mul(c.digamma())).add(t2.sub(t3).add(t4).div(varNormal));
        });
        register(Uniform.class, Beta.class, (p, q) -> {
            Tensor common = p.high().sub(p.low());
            Tensor t1 = common.log();
            Tensor t2 = q.concentration1()
                    .sub(1.0)
                    .mul(xLogX(p.high()).sub(xLogX(p.low())).sub(common))
                    .div(common);
            Tensor t3 = q.concentration0()
                    .sub(1.0)
                    .mul(xLogX(p.high().neg().add(1.0))
                            .sub(xLogX(p.low().neg().add(1.0)))
                            .add(common))
                    .div(common);
            Tensor t4 = q.concentration1()
                    .lgamma()
                    .add(q.concentration0().lgamma())
                    .sub(q.concentration1().add(q.concentration0()).lgamma());
            Tensor result = t3.add(t4).sub(t1).sub(t2);
            return infWhere(Torch.logicalOr(p.high().gt(1.0), p.low().lt(0.0)), result);
        });
        register(Uniform.class, Gamma.class, (p, q) -> {
            Tensor common = p.high().sub(p.low());
            Tensor t1 = common.log();
            Tensor t2 = q.concentration()
                    .lgamma()
                    .sub(q.concentration().mul(q.rate().log()));
            Tensor t3 = q.concentration()
                    .neg()
                    .add(1.0)
                    .mul(xLogX(p.high()).sub(xLogX(p.low())).sub(common))
                    .div(common);
            Tensor t4 = q.rate().mul(p.high().add(p.low())).div(2.0);
            return infWhere(p.low().lt(0.0), t1.neg().add(t2).add(t3).add(t4));
        });
        // pairs whose q has no density where p has mass
        register(Exponential.class, Beta.class, (p, q) -> infiniteLike(p.rate()));
        register(Exponential.class, Uniform.class, (p, q) -> infiniteLike(p.rate()));
        register(Gamma.class, Beta.class, (p, q) -> infiniteLike(p.concentration()));
        register(Gamma.class, Uniform.class, (p, q) -> infiniteLike(p.concentration()));
        for (Class<? extends Distribution> q : List.of(Beta.class, Exponential.class, Gamma.class, Uniform.class)) {
            register(Laplace.class, q, (p, unused) -> infiniteLike(p.loc()));
            register(Normal.class, q, (p, unused) -> infiniteLike(p.loc()));
        }
        register(Poisson.class, Bernoulli.class, (p, q) -> infiniteLike(p.rate()));
        register(Poisson.class, Binomial.class, (p, q) -> infiniteLike(p.rate()));
    }

    private static Tensor categorical(Categorical p, Categorical q) {
        Tensor t = p.probs().mul(p.logits().sub(q.logits()));
        t = Torch.where(p.probs().eq(0.0), 0.0, infWhere(q.probs().eq(0.0).expand(t.shape()), t));
        return t.sum(-1);
    }
}
