package org.jtorch.distributions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.ops.DistributionOps;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code torch.distributions} against PyTorch 2.13 ({@code make_golden_distributions.py}): log-densities, CDFs,
 * entropies and moments with their gradients in the parameters; same-seed samples (identical numbers for the families
 * whose sampling goes through the generator as PyTorch's does) and the gradients of reparameterised samples; KL
 * divergences of the registered pairs; the validation errors with PyTorch's messages.
 */
class DistributionsGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("distributions.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertTrue(Golden.cases("distributions.json").size() > 100);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        if (c.expectsError()) {
            Golden.check(c, List.of(), false, () -> run(c));
            return;
        }
        List<?> expected = (List<?>) c.out();
        List<Tensor> actual = run(c);
        assertEquals(expected.size(), actual.size(), c.id() + ": outputs");
        for (int i = 0; i < expected.size(); i++) {
            assertClose(c.id() + "[" + i + "]", (Map<?, ?>) expected.get(i), actual.get(i));
        }
    }

    private static void assertClose(String id, Map<?, ?> record, Tensor actual) {
        @SuppressWarnings("unchecked")
        Tensor expected = Golden.tensor((Map<String, Object>) record);
        assertArrayEquals(expected.shape(), actual.shape(), id + ": shape");
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        boolean single = actual.dtype() == org.jtorch.DType.FLOAT32;
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i]) || Double.isInfinite(e[i])) {
                if (Double.compare(e[i], a[i]) != 0) fail(id + ": value " + i + " expected " + e[i] + " was " + a[i]);
                continue;
            }
            double tol = (single ? 1e-6 : 1e-12) * Math.max(1, Math.abs(e[i]));
            if (Math.abs(e[i] - a[i]) > tol) fail(id + ": value " + i + " expected " + e[i] + " but was " + a[i]);
        }
    }

    private static List<Tensor> params(Golden.Case c) {
        List<Tensor> ps = new ArrayList<>();
        for (int i = 0; i < c.argCount(); i++) {
            Tensor p = c.tensorArg(i);
            if (p.isFloatingPoint() && !c.expectsError()) p.requiresGrad(true);
            ps.add(p);
        }
        return ps;
    }

    static Distribution make(String family, List<Tensor> p, Map<String, Object> kw) {
        boolean probs = "probs".equals(kw.get("param"));
        return switch (family) {
            case "Normal" -> new Normal(p.get(0), p.get(1));
            case "Uniform" -> new Uniform(p.get(0), p.get(1));
            case "Exponential" -> new Exponential(p.get(0));
            case "Laplace" -> new Laplace(p.get(0), p.get(1));
            case "LogNormal" -> new LogNormal(p.get(0), p.get(1));
            case "Bernoulli" -> probs ? Bernoulli.ofProbs(p.get(0)) : Bernoulli.ofLogits(p.get(0));
            case "Categorical" -> probs ? Categorical.ofProbs(p.get(0)) : Categorical.ofLogits(p.get(0));
            case "OneHotCategorical" ->
                probs ? OneHotCategorical.ofProbs(p.get(0)) : OneHotCategorical.ofLogits(p.get(0));
            case "IndependentNormal" -> new Independent(new Normal(p.get(0), p.get(1)), 1);
            case "MVN" ->
                switch ((String) kw.get("param")) {
                    case "covariance_matrix" -> MultivariateNormal.ofCovariance(p.get(0), p.get(1));
                    case "scale_tril" -> MultivariateNormal.ofScaleTril(p.get(0), p.get(1));
                    default -> MultivariateNormal.ofPrecision(p.get(0), p.get(1));
                };
            case "SigmoidAffineNormal" ->
                new TransformedDistribution(
                        new Normal(p.get(0), p.get(1)),
                        List.of(new AffineTransform(0.5, -2.0), new Transform.SigmoidTransform()));
            case "Gamma" -> new Gamma(p.get(0), p.get(1));
            case "Beta" -> new Beta(p.get(0), p.get(1));
            case "Dirichlet" -> new Dirichlet(p.get(0));
            case "Poisson" -> new Poisson(p.get(0));
            case "Binomial" -> probs ? Binomial.ofProbs(p.get(0), p.get(1)) : Binomial.ofLogits(p.get(0), p.get(1));
            case "TanhNormal" ->
                new TransformedDistribution(
                        new Normal(p.get(0), p.get(1)),
                        List.of(new Transform.ComposeTransform(List.of(new Transform.TanhTransform()))));
            default -> throw new IllegalArgumentException(family);
        };
    }

    private static long[] shape(Golden.Case c) {
        List<?> l = (List<?>) c.kwarg("shape");
        long[] s = new long[l.size()];
        for (int i = 0; i < s.length; i++) s[i] = ((Number) l.get(i)).longValue();
        return s;
    }

    /** The gradients of {@code out.sum()} in the floating parameters, zeros where out does not depend on one. */
    private static List<Tensor> withGrads(Tensor out, List<Tensor> ps) {
        List<Tensor> r = new ArrayList<>();
        r.add(out.detach());
        if (!out.requiresGrad()) return r;
        List<Tensor> wanted = ps.stream().filter(Tensor::requiresGrad).toList();
        List<Tensor> g = Autograd.grad(
                List.of(out.sum()),
                wanted,
                Autograd.GradOptions.defaults().allowUnused(true).materializeGrads(true));
        r.addAll(g);
        return r;
    }

    /** The implicit reparameterisation gradients, on PyTorch's grids. */
    private static Tensor primitive(String op, List<Tensor> a) {
        return switch (op) {
            case "_standard_gamma_grad" ->
                DistributionOps.standardGammaGrad(a.get(0).detach(), a.get(1).detach());
            case "_dirichlet_grad" ->
                DistributionOps.dirichletGrad(
                        a.get(0).detach(), a.get(1).detach(), a.get(2).detach());
            default -> throw new IllegalArgumentException(op);
        };
    }

    @SuppressWarnings("unchecked")
    private static List<Tensor> run(Golden.Case c) {
        List<Tensor> ps = params(c);
        String method = (String) c.kwarg("method");
        if (method.equals("init")) {
            make(c.op(), ps, c.kwargs());
            return List.of();
        }
        if (method.equals("op")) return List.of(primitive(c.op(), ps));
        Distribution d = make(c.op(), ps, c.kwargs());
        return switch (method) {
            case "log_prob" -> withGrads(d.logProb((Tensor) c.kwarg("value")), ps);
            case "cdf" -> withGrads(d.cdf((Tensor) c.kwarg("value")), ps);
            case "icdf" -> withGrads(d.icdf((Tensor) c.kwarg("value")), ps);
            case "entropy" -> withGrads(d.entropy(), ps);
            case "mean" -> withGrads(d.mean(), ps);
            case "variance" -> withGrads(d.variance(), ps);
            case "mode" -> withGrads(d.mode(), ps);
            case "sample" -> {
                Torch.manualSeed(((Number) c.kwarg("seed")).longValue());
                yield List.of(d.sample(shape(c)));
            }
            case "rsample" -> {
                Torch.manualSeed(((Number) c.kwarg("seed")).longValue());
                Tensor r = d.rsample(shape(c));
                Tensor w = Golden.tensor((Map<String, Object>) c.kwargs().get("w"));
                List<Tensor> out = withGrads(r.mul(w), ps);
                out.set(0, r.detach());
                yield out;
            }
            case "kl" -> {
                Map<String, Object> other = (Map<String, Object>) c.kwargs().get("other");
                List<Tensor> qs = new ArrayList<>();
                for (Object a : (List<Object>) other.get("args")) qs.add(Golden.tensor((Map<String, Object>) a));
                Map<String, Object> qKw =
                        c.has("q_kw") ? (Map<String, Object>) c.kwargs().get("q_kw") : c.kwargs();
                yield withGrads(KL.klDivergence(d, make((String) other.get("op"), qs, qKw)), ps);
            }
            default -> throw new IllegalArgumentException(method);
        };
    }
}
