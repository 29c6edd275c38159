package org.jtorch.kernels.cpu;

/**
 * The per-element samplers of ATen's {@code Distributions.h} and {@code Distributions.cpp}, drawing from the generator
 * as ATen's CPU kernels do: uniforms are {@code uniform_real_distribution<double>} ({@link Mt19937#nextDouble}) and
 * normals {@code normal_distribution<double>} with the generator's cached Box–Muller sample
 * ({@link RandomFill#standardNormal}), so a seed gives PyTorch's numbers.
 *
 * <p>{@link #gamma} is adapted from NumPy's {@code distributions.c} (Marsaglia and Tsang 2000; copyright 2005 Robert
 * Kern, MIT licence), {@link #binomial} from TensorFlow's {@code random_binomial_op.cc} (BTRS, Hörmann 1993; copyright
 * 2019 The TensorFlow Authors, Apache 2.0), {@link #poisson} from NumPy's PTRS (Hörmann 1993), as ATen adapts them.
 */
public final class DistributionSamplers {
    private DistributionSamplers() {}

    /** ATen's float literals {@code 1.0f / 3.0f} and {@code 0.0331f}, which the double arithmetic widens. */
    private static final double ONE_THIRD_F = 1.0f / 3.0f, SQUEEZE_F = 0.0331f;

    /**
     * {@code sample_gamma}: a standard Gamma(alpha) draw in double; alpha below 1 is boosted by a uniform power.
     * {@code single} is a float32 alpha, whose boost and shift ATen computes in float.
     */
    public static double gamma(Mt19937 g, double alpha, boolean single) {
        double scale = 1.0;
        if (alpha < 1.0) {
            if (alpha == 0.0) return 0.0;
            scale *= Math.pow(1 - g.nextDouble(), single ? 1.0f / (float) alpha : 1.0 / alpha);
            alpha = single ? (float) alpha + 1.0f : alpha + 1.0;
        }
        double d = single ? (float) alpha - (float) ONE_THIRD_F : alpha - ONE_THIRD_F;
        double c = 1.0 / Math.sqrt(9.0 * d);
        for (; ; ) {
            double x, y;
            do {
                x = RandomFill.standardNormal(g);
                y = 1.0 + c * x;
            } while (y <= 0);
            double v = y * y * y;
            double u = 1 - g.nextDouble();
            double xx = x * x;
            if (u < 1.0 - SQUEEZE_F * xx * xx) return scale * d * v;
            if (Libm.LOG.applyAsDouble(u) < 0.5 * xx + d * (1.0 - v + Libm.LOG.applyAsDouble(v))) return scale * d * v;
        }
    }

    /**
     * {@code sample_poisson}: the transformed rejection method (PTRS) for rates of at least 10, the product of uniforms
     * below; the caller checks the rate is non-negative.
     */
    public static double poisson(Mt19937 g, double lambda) {
        if (lambda >= 10) {
            double slam = Math.sqrt(lambda);
            double loglam = Libm.LOG.applyAsDouble(lambda);
            double b = 0.931 + 2.53 * slam;
            double a = -0.059 + 0.02483 * b;
            double invalpha = 1.1239 + 1.1328 / (b - 3.4);
            double vr = 0.9277 - 3.6224 / (b - 2);
            while (true) {
                double u = g.nextDouble() - 0.5;
                double v = g.nextDouble();
                double us = 0.5 - Math.abs(u);
                long k = (long) Math.floor((2 * a / us + b) * u + lambda + 0.43);
                if (us >= 0.07 && v <= vr) return k;
                if (k < 0 || (us < 0.013 && v > us)) continue;
                double lhs = Libm.LOG.applyAsDouble(v)
                        + Libm.LOG.applyAsDouble(invalpha)
                        - Libm.LOG.applyAsDouble(a / (us * us) + b);
                if (lhs <= -lambda + k * loglam - Gamma.lgamma(k + 1.0)) return k;
            }
        }
        if (lambda == 0) return 0;
        double enlam = Libm.EXP.applyAsDouble(-lambda);
        long x = 0;
        double prod = 1.0;
        while (true) {
            prod *= g.nextDouble();
            if (prod > enlam) x += 1;
            else return x;
        }
    }

    /** {@code sample_binomial}: BTRS where the mean of the smaller tail is at least 10, inversion below; NaN prob. */
    public static double binomial(Mt19937 g, double count, double prob) {
        if (count <= 0.0 || prob <= 0.0) return 0;
        if (prob >= 1.0) return count;
        if (prob <= 0.5) return count * prob >= 10.0 ? btrs(g, count, prob) : inversion(g, count, prob);
        if (prob > 0.5) {
            double q = 1.0 - prob;
            return count - (count * q >= 10.0 ? btrs(g, count, q) : inversion(g, count, q));
        }
        return Double.NaN;
    }

    private static final double[] TAIL = {
        0.0810614667953272,
        0.0413406959554092,
        0.0276779256849983,
        0.02079067210376509,
        0.0166446911898211,
        0.0138761288230707,
        0.0118967099458917,
        0.0104112652619720,
        0.00925546218271273,
        0.00833056343336287
    };

    /** {@code stirling_approx_tail}: log(k!) minus its Stirling approximation. */
    private static double stirlingTail(double k) {
        if (k < TAIL.length) return TAIL[(int) k];
        double kp1sq = (k + 1) * (k + 1);
        return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
    }

    /** {@code binomial_inversion}: counts geometric waiting times until they pass {@code count}. */
    private static double inversion(Mt19937 g, double count, double prob) {
        double geomSum = 0;
        double numGeom = 0;
        double logprob = Libm.LOG1P.applyAsDouble(-prob);
        while (true) {
            double geom = Math.ceil(Libm.LOG.applyAsDouble(g.nextDouble()) / logprob);
            geomSum += geom;
            if (geomSum > count) break;
            numGeom = numGeom + 1;
        }
        return numGeom;
    }

    /** {@code btrs}: Hörmann's transformed rejection with squeeze, ATen's variant of the acceptance test. */
    private static double btrs(Mt19937 g, double count, double prob) {
        double stddev = Math.sqrt(count * prob * (1 - prob));
        double b = 1.15 + 2.53 * stddev;
        double a = -0.0873 + 0.0248 * b + 0.01 * prob;
        double c = count * prob + 0.5;
        double vr = 0.92 - 4.2 / b;
        double r = prob / (1 - prob);
        double alpha = (2.83 + 5.1 / b) * stddev;
        double m = Math.floor((count + 1) * prob);
        while (true) {
            double u = g.nextDouble() - 0.5;
            double v = g.nextDouble();
            double us = 0.5 - Math.abs(u);
            double k = Math.floor((2 * a / us + b) * u + c);
            if (k < 0 || k > count) continue;
            if (us >= 0.07 && v <= vr) return k;
            v = Libm.LOG.applyAsDouble(v * alpha / (a / (us * us) + b));
            double upperbound = (m + 0.5) * Libm.LOG.applyAsDouble((m + 1) / (r * (count - m + 1)))
                    + (count + 1) * Libm.LOG.applyAsDouble((count - m + 1) / (count - k + 1))
                    + (k + 0.5) * Libm.LOG.applyAsDouble(r * (count - k + 1) / (k + 1))
                    + stirlingTail(m)
                    + stirlingTail(count - m)
                    - stirlingTail(k)
                    - stirlingTail(count - k);
            if (v <= upperbound) return k;
        }
    }
}
