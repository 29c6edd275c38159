package org.jtorch.kernels.cpu;

/**
 * The regularized incomplete gamma functions {@code P(a, x)} ({@code torch.special.gammainc}, {@code igamma}) and
 * {@code Q(a, x) = 1 - P(a, x)} ({@code gammaincc}, {@code igammac}), in double precision.
 *
 * <p>The regions, boundary values and stopping rules are ATen's (which are SciPy's, after Cephes): outside the domain
 * ({@code a < 0} or {@code x < 0}) NaN; {@code P(0, x > 0) = 1}; {@code P(a, 0) = 0}; {@code P(inf, x) = 0} for finite
 * x; {@code P(a, inf) = 1}. For large {@code a} with {@code x} near it, Temme's uniform asymptotic expansion (DLMF
 * 8.12.3/8.12.4, coefficients in {@link TemmeCoefficients}); otherwise the power series of DLMF 8.11.4, the series of
 * DLMF 8.7.3 for Q at small x, or the continued fraction of DLMF 8.9.2, the other function obtained as one minus the
 * one computed where that loses nothing. The prefactor {@code x^a e^-x / Γ(a)} near {@code x = a} is computed from
 * Stirling's series, {@code sqrt(a / 2π) exp(a·log1pmx((x - a)/a) - μ(a))}, which keeps the large exponents from
 * cancelling; ATen uses a Lanczos sum there, so the last bits may differ.
 */
public final class IncompleteGamma {
    private IncompleteGamma() {}

    private static final double MACHEP = 1.11022302462515654042E-16;
    private static final double MAXLOG = 7.09782712893383996843E2;
    private static final double BIG = 4.503599627370496e15, BIG_INVERSE = 2.22044604925031308085e-16;
    private static final int MAX_ITERATIONS = 2000;
    /** ATen divides the expansion's correction by sqrt(2πa) with π in float; kept, so the values are PyTorch's. */
    private static final double TWO_PI_AS_ATEN = 2 * (double) (float) Math.PI;

    /** The regularized lower incomplete gamma function {@code P(a, x)}. */
    public static double lower(double a, double x) {
        if (x < 0 || a < 0) return Double.NaN;
        if (a == 0) return x > 0 ? 1 : Double.NaN;
        if (x == 0) return 0;
        if (Double.isInfinite(a)) return Double.isInfinite(x) ? Double.NaN : 0;
        if (Double.isInfinite(x)) return 1;
        if (nearLargeA(a, x)) return asymptotic(a, x, true);
        if (x > 1 && x > a) return 1 - upper(a, x);
        return lowerSeries(a, x);
    }

    /** The regularized upper incomplete gamma function {@code Q(a, x) = 1 - P(a, x)}. */
    public static double upper(double a, double x) {
        if (x < 0 || a < 0) return Double.NaN;
        if (a == 0) return x > 0 ? 0 : Double.NaN;
        if (x == 0) return 1;
        if (Double.isInfinite(a)) return Double.isInfinite(x) ? Double.NaN : 1;
        if (Double.isInfinite(x)) return 0;
        if (nearLargeA(a, x)) return asymptotic(a, x, false);
        if (x > 1.1) return x < a ? 1 - lowerSeries(a, x) : continuedFraction(a, x);
        boolean lowerConverges = x <= 0.5 ? -0.4 / Math.log(x) < a : x * 1.1 < a;
        return lowerConverges ? 1 - lowerSeries(a, x) : upperSeries(a, x);
    }

    /** Where Temme's expansion is used: {@code 20 < a < 200} with x within 30% of a, or larger a with x nearer. */
    private static boolean nearLargeA(double a, double x) {
        double distance = Math.abs(x - a) / a;
        return a > 20 && a < 200 && distance < 0.3 || a > 200 && distance < 4.5 / Math.sqrt(a);
    }

    /** {@code x^a e^-x / Γ(a)}; 0 when it underflows. */
    private static double prefactor(double a, double x) {
        if (Math.abs(a - x) > 0.4 * Math.abs(a) || a < 10) {
            double log = a * Math.log(x) - x - Gamma.lgamma(a);
            return log < -MAXLOG ? 0 : Math.exp(log);
        }
        // ln Γ(a) = (a - 1/2) ln a - a + ln(2π)/2 + μ(a), so the exponent is a·log1pmx((x - a)/a) + ln(a/2π)/2 - μ(a)
        return Math.sqrt(a / (2 * Math.PI)) * Math.exp(a * log1pmx((x - a) / a) - stirlingCorrection(a));
    }

    /** {@code log(1 + t) - t}, accurate for small t (the series), for |t| <= 0.4 where the prefactor uses it. */
    static double log1pmx(double t) {
        if (Math.abs(t) >= 0.5) return Math.log1p(t) - t;
        double power = t, sum = 0;
        for (int k = 2; k < 200; k++) {
            power *= -t;
            double term = power / k;
            sum += term;
            if (Math.abs(term) <= MACHEP * Math.abs(sum)) break;
        }
        return sum;
    }

    /** Binet's μ(a) = ln Γ(a) - (a - 1/2) ln a + a - ln(2π)/2, by its asymptotic series (a >= 10: error < 1e-17). */
    private static double stirlingCorrection(double a) {
        double r = 1 / a, r2 = r * r;
        double tail = 1.0 / 1188 - r2 * (691.0 / 360360 - r2 / 156);
        double inner = 1.0 / 1260 - r2 * (1.0 / 1680 - r2 * tail);
        return r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * inner));
    }

    /** P by the power series of DLMF 8.11.4. */
    private static double lowerSeries(double a, double x) {
        double fac = prefactor(a, x);
        if (fac == 0) return 0;
        double r = a, c = 1, sum = 1;
        for (int i = 0; i < MAX_ITERATIONS; i++) {
            r += 1;
            c *= x / r;
            sum += c;
            if (c <= MACHEP * sum) break;
        }
        return sum * fac / a;
    }

    /** Q by DLMF 8.7.3, arranged so that nothing cancels for small x. */
    private static double upperSeries(double a, double x) {
        double fac = 1, sum = 0;
        for (int n = 1; n < MAX_ITERATIONS; n++) {
            fac *= -x / n;
            double term = fac / (a + n);
            sum += term;
            if (Math.abs(term) <= MACHEP * Math.abs(sum)) break;
        }
        double logx = Math.log(x);
        return -Math.expm1(a * logx - Gamma.lgamma(1 + a)) - Math.exp(a * logx - Gamma.lgamma(a)) * sum;
    }

    /** Q by the continued fraction of DLMF 8.9.2, rescaled when its terms grow. */
    private static double continuedFraction(double a, double x) {
        double fac = prefactor(a, x);
        if (fac == 0) return 0;
        double y = 1 - a, z = x + y + 1, c = 0;
        double pkm2 = 1, qkm2 = x, pkm1 = x + 1, qkm1 = z * x;
        double ans = pkm1 / qkm1;
        for (int i = 0; i < MAX_ITERATIONS; i++) {
            c += 1;
            y += 1;
            z += 2;
            double yc = y * c, pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc, t;
            if (qk != 0) {
                double r = pk / qk;
                t = Math.abs((ans - r) / r);
                ans = r;
            } else {
                t = 1;
            }
            pkm2 = pkm1;
            pkm1 = pk;
            qkm2 = qkm1;
            qkm1 = qk;
            if (Math.abs(pk) > BIG) {
                pkm2 *= BIG_INVERSE;
                pkm1 *= BIG_INVERSE;
                qkm2 *= BIG_INVERSE;
                qkm1 *= BIG_INVERSE;
            }
            if (t <= MACHEP) break;
        }
        return ans * fac;
    }

    /**
     * Temme's expansion: {@code erfc(∓η sqrt(a/2))/2 ∓ exp(-aη²/2)/sqrt(2πa) Σ c_k(η) a^-k} with {@code η} the signed
     * {@code sqrt(2(σ - log(1 + σ)))}, {@code σ = (x - a)/a}; the upper sign for P. The sums stop as ATen's do.
     */
    private static double asymptotic(double a, double x, boolean lower) {
        double[][] d = TemmeCoefficients.D;
        int sign = lower ? -1 : 1;
        double lambda = x / a, sigma = (x - a) / a;
        double eta = lambda == 1 ? 0 : Math.sqrt(-2 * (Math.log1p(sigma) - sigma));
        if (lambda < 1) eta = -eta;
        double result = 0.5 * Erf.erfc(sign * eta * Math.sqrt(a / 2));
        double[] etaPower = new double[d[0].length];
        etaPower[0] = 1;
        int computed = 0;
        double sum = 0, afac = 1, previous = Double.POSITIVE_INFINITY;
        for (double[] row : d) {
            double ck = row[0];
            for (int n = 1; n < row.length; n++) {
                if (n > computed) {
                    etaPower[n] = eta * etaPower[n - 1];
                    computed++;
                }
                double part = row[n] * etaPower[n];
                ck += part;
                if (Math.abs(part) < MACHEP * Math.abs(ck)) break;
            }
            double term = ck * afac, size = Math.abs(term);
            if (size > previous) break;
            sum += term;
            if (size < MACHEP * Math.abs(sum)) break;
            previous = size;
            afac /= a;
        }
        return result + sign * Math.exp(-0.5 * a * eta * eta) * sum / Math.sqrt(TWO_PI_AS_ATEN * a);
    }
}
