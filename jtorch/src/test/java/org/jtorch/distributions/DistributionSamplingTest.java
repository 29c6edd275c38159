package org.jtorch.distributions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * The samplers of Gamma, Beta, Dirichlet, Poisson and Binomial checked as distributions, with fixed seeds and bounds a
 * wrong sampler fails: Kolmogorov–Smirnov against closed-form CDFs, chi-square against the mass functions (each branch
 * of the Poisson and Binomial algorithms), moments; and the reparameterised gradients against the implicit-function
 * derivative {@code -(dF/dalpha) / f}, with F by quadrature and central differences.
 */
class DistributionSamplingTest {
    private static final int N = 20_000;

    /** The Kolmogorov–Smirnov statistic of the samples against cdf; 1.95 / sqrt(n) is its 0.1% critical value. */
    private static void assertKs(String what, Tensor samples, DoubleUnaryOperator cdf) {
        double[] x = samples.to(DType.FLOAT64).toDoubleArray();
        Arrays.sort(x);
        double d = 0;
        for (int i = 0; i < x.length; i++) {
            double f = cdf.applyAsDouble(x[i]);
            d = Math.max(d, Math.max((i + 1.0) / x.length - f, f - (double) i / x.length));
        }
        assertTrue(d < 1.95 / Math.sqrt(x.length), what + ": KS statistic " + d);
    }

    /** Pearson's chi-square of integer samples against the mass function, bins with expected count at least 5. */
    private static void assertChiSquare(String what, Tensor samples, Distribution d, int maxValue) {
        double[] x = samples.to(DType.FLOAT64).toDoubleArray();
        long[] counts = new long[maxValue + 2];
        for (double v : x) {
            assertEquals(Math.rint(v), v, what + ": an integer");
            counts[(int) Math.min(v, maxValue + 1)]++;
        }
        double[] pmf =
                d.logProb(Torch.arange(maxValue + 1, DType.FLOAT64)).exp().toDoubleArray();
        double chi2 = 0, restExpected = x.length, restObserved = x.length;
        int bins = 0;
        for (int k = 0; k <= maxValue; k++) {
            double expected = pmf[k] * x.length;
            if (expected < 5) continue;
            chi2 += (counts[k] - expected) * (counts[k] - expected) / expected;
            restExpected -= expected;
            restObserved -= counts[k];
            bins++;
        }
        if (restExpected >= 5) chi2 += (restObserved - restExpected) * (restObserved - restExpected) / restExpected;
        // about the 0.01% point of chi-square with `bins` degrees of freedom
        double critical = bins + 4.5 * Math.sqrt(2.0 * bins) + 6;
        assertTrue(chi2 < critical, what + ": chi-square " + chi2 + " over " + bins + " bins");
    }

    private static Tensor scalar(double v) {
        return Torch.scalarTensor(v, DType.FLOAT64);
    }

    @Test
    void gammaMatchesItsCdfInEachBranch() {
        Torch.manualSeed(101);
        assertKs("Gamma(1, 2)", new Gamma(scalar(1.0), scalar(2.0)).sample(N), x -> 1 - Math.exp(-2 * x));
        assertKs(
                "Gamma(3, 1)",
                new Gamma(scalar(3.0), scalar(1.0)).sample(N),
                x -> 1 - Math.exp(-x) * (1 + x + x * x / 2));
        // alpha below 1 goes through the boost; Gamma(1/2) is chi-square(1) / 2
        assertKs("Gamma(0.5, 1)", new Gamma(scalar(0.5), scalar(1.0)).sample(N), x -> erf(Math.sqrt(x)));
        assertKs("Gamma(0.5, 1) float32", new Gamma(0.5f, 1.0).sample(N), x -> erf(Math.sqrt(x)));
    }

    private static double erf(double x) {
        return Torch.erf(scalar(x)).item();
    }

    @Test
    void betaMatchesItsCdf() {
        Torch.manualSeed(102);
        // I_x(2, 3) = sum_{j=2..4} C(4, j) x^j (1 - x)^(4 - j)
        assertKs("Beta(2, 3)", new Beta(scalar(2.0), scalar(3.0)).sample(N), x -> {
            double y = 1 - x;
            return 6 * x * x * y * y + 4 * x * x * x * y + x * x * x * x;
        });
        assertKs(
                "Beta(1/2, 1/2)",
                new Beta(scalar(0.5), scalar(0.5)).sample(N),
                x -> 2 / Math.PI * Math.asin(Math.sqrt(x)));
    }

    @Test
    void dirichletMomentsAndSimplex() {
        Torch.manualSeed(103);
        double[] alpha = {0.5, 2.0, 4.5};
        Tensor s = new Dirichlet(Torch.tensor(alpha)).sample(N);
        Tensor sums = s.sum(-1);
        assertTrue(sums.sub(1.0).abs().max().item() < 1e-12, "rows on the simplex");
        double total = 0.5 + 2.0 + 4.5;
        double[] mean = s.mean(new long[] {0}, false).toDoubleArray();
        double[] var = s.var(new long[] {0}, true, false).toDoubleArray();
        for (int i = 0; i < 3; i++) {
            double m = alpha[i] / total, v = m * (1 - m) / (total + 1);
            assertEquals(m, mean[i], 5 * Math.sqrt(v / N), "mean " + i);
            // the variance of a sample variance is below 2 v^2 / N + the fourth-moment term; 10% is ~8 standard errors
            assertEquals(v, var[i], 0.1 * v, "variance " + i);
        }
    }

    @Test
    void poissonMatchesItsMassInBothBranches() {
        Torch.manualSeed(104);
        for (double rate : new double[] {0.8, 3.5, 9.99, 10.0, 40.0, 300.0}) {
            Poisson d = new Poisson(scalar(rate));
            assertChiSquare("Poisson(" + rate + ")", d.sample(N), d, (int) (rate + 8 * Math.sqrt(rate) + 10));
        }
        assertEquals(
                0.0, Torch.poisson(Torch.zeros(5).to(DType.FLOAT64)).abs().sum().item());
        var e = assertThrows(RuntimeException.class, () -> Torch.poisson(Torch.tensor(new double[] {1, -1})));
        assertEquals("invalid Poisson rate, expected rate to be non-negative", e.getMessage());
    }

    @Test
    void binomialMatchesItsMassInEachBranch() {
        Torch.manualSeed(105);
        double[][] cases = {{20, 0.3}, {100, 0.4}, {50, 0.9}, {12, 0.95}, {1000, 0.02}};
        for (double[] c : cases) {
            Binomial d = Binomial.ofProbs(scalar(c[0]), scalar(c[1]));
            assertChiSquare("Binomial" + Arrays.toString(c), d.sample(N), d, (int) c[0]);
        }
        Tensor edge = Torch.binomial(Torch.tensor(new double[] {0, 5, 7}), Torch.tensor(new double[] {0.5, 0, 1}));
        assertEquals(
                List.of(0.0, 0.0, 7.0),
                Arrays.stream(edge.toDoubleArray()).boxed().toList());
    }

    /** F(x; a, b) of Beta(a, b) by composite Simpson on a grid fine enough for 1e-9 at these parameters. */
    private static double betaCdf(double x, double a, double b) {
        int n = 20_000;
        double h = x / n, sum = 0;
        double logNorm = Torch.lgamma(scalar(a + b)).item()
                - Torch.lgamma(scalar(a)).item()
                - Torch.lgamma(scalar(b)).item();
        for (int i = 0; i <= n; i++) {
            double t = i * h;
            double f = t == 0 ? 0 : Math.exp(logNorm + (a - 1) * Math.log(t) + (b - 1) * Math.log1p(-t));
            sum += f * (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2);
        }
        return sum * h / 3;
    }

    /** F(x; a) of Gamma(a, 1) by composite Simpson. */
    private static double gammaCdf(double x, double a) {
        int n = 20_000;
        double h = x / n, sum = 0, lg = Torch.lgamma(scalar(a)).item();
        for (int i = 0; i <= n; i++) {
            double t = i * h;
            double f = t == 0 ? 0 : Math.exp((a - 1) * Math.log(t) - t - lg);
            sum += f * (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2);
        }
        return sum * h / 3;
    }

    @Test
    void gammaRsampleGradientIsTheImplicitDerivative() {
        Torch.manualSeed(106);
        double[] alphas = {2.2, 3.0, 6.5};
        Tensor a = Torch.tensor(alphas).requiresGrad(true);
        Tensor x = new Gamma(a, Torch.ones(3).to(DType.FLOAT64)).rsample();
        Tensor g = Autograd.grad(List.of(x.sum()), List.of(a), Autograd.GradOptions.defaults())
                .get(0);
        double[] xs = x.detach().toDoubleArray(), gs = g.toDoubleArray();
        for (int i = 0; i < 3; i++) {
            double h = 1e-4, al = alphas[i], xi = xs[i];
            double dFda = (gammaCdf(xi, al + h) - gammaCdf(xi, al - h)) / (2 * h);
            double pdf = Math.exp(
                    (al - 1) * Math.log(xi) - xi - Torch.lgamma(scalar(al)).item());
            double expected = -dFda / pdf;
            assertEquals(expected, gs[i], 2e-3 * Math.abs(expected) + 1e-6, "alpha " + al + " at x " + xi);
        }
    }

    @Test
    void betaRsampleGradientIsTheImplicitDerivative() {
        Torch.manualSeed(107);
        double[] c1 = {2.0, 2.5, 4.0}, c0 = {2.5, 2.0, 3.0};
        Tensor a = Torch.tensor(c1).requiresGrad(true), b = Torch.tensor(c0).requiresGrad(true);
        Tensor x = new Beta(a, b).rsample();
        List<Tensor> g = Autograd.grad(List.of(x.sum()), List.of(a, b), Autograd.GradOptions.defaults());
        double[] xs = x.detach().toDoubleArray(),
                ga = g.get(0).toDoubleArray(),
                gb = g.get(1).toDoubleArray();
        for (int i = 0; i < 3; i++) {
            double h = 1e-4, xi = xs[i];
            double pdf = Math.exp(Torch.lgamma(scalar(c1[i] + c0[i])).item()
                    - Torch.lgamma(scalar(c1[i])).item()
                    - Torch.lgamma(scalar(c0[i])).item()
                    + (c1[i] - 1) * Math.log(xi)
                    + (c0[i] - 1) * Math.log1p(-xi));
            double dFda = (betaCdf(xi, c1[i] + h, c0[i]) - betaCdf(xi, c1[i] - h, c0[i])) / (2 * h);
            double dFdb = (betaCdf(xi, c1[i], c0[i] + h) - betaCdf(xi, c1[i], c0[i] - h)) / (2 * h);
            assertEquals(-dFda / pdf, ga[i], 5e-3 * Math.abs(dFda / pdf) + 1e-5, "d/dc1 at " + xi);
            assertEquals(-dFdb / pdf, gb[i], 5e-3 * Math.abs(dFdb / pdf) + 1e-5, "d/dc0 at " + xi);
        }
    }

    @Test
    void binomialEntropyNeedsOneTotalCount() {
        Binomial d = Binomial.ofProbs(Torch.tensor(new double[] {3, 4}), Torch.tensor(new double[] {0.5, 0.2}));
        var e = assertThrows(UnsupportedOperationException.class, d::entropy);
        assertEquals("Inhomogeneous total count not supported by `entropy`.", e.getMessage());
        var none = assertThrows(
                IllegalArgumentException.class, () -> Binomial.of(Torch.tensor(new double[] {3}), null, true, null));
        assertEquals("Either `probs` or `logits` must be specified, but not both.", none.getMessage());
    }
}
