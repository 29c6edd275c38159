package org.jtorch.kernels.cpu;

/**
 * The implicit reparameterisation gradients of ATen's {@code Distributions.h}: {@link #standardGamma}, the derivative
 * of a standard Gamma(alpha) sample in alpha, {@code -(d/dalpha cdf(x; alpha)) / pdf(x; alpha)}, and
 * {@link #dirichlet}, the same for a Beta(alpha, total - alpha) marginal of a Dirichlet sample, scaled by {@code 1 / (1
 * - x)}. Both are piecewise approximations (series for small x, saddle-point expansions for large parameters, fitted
 * rational corrections in between) evaluated in double, with ATen's coefficients, so gradients match PyTorch's for the
 * same sample. ATen's {@code digamma_one} is {@code calc_digamma} ({@link Gamma#digamma(double)}) on the positive axis,
 * where these gradients evaluate it.
 */
public final class ReparameterizedGrads {
    private ReparameterizedGrads() {}

    private static final double[][] GAMMA_UV = {
        {0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084},
        {0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623},
        {
            0.040121004,
            -0.0065914022,
            -0.0026286047,
            -0.0013441777,
            0.017050642,
            -0.0021309326,
            0.00085092367,
            -1.5247877e-07
        },
    };

    /**
     * {@code standard_gamma_grad_one(alpha, x)}: d x / d alpha for a standard Gamma(alpha) sample x. The branch bounds
     * are ATen's float literals (0.8f, 0.9f, 1.1f), widened.
     */
    public static double standardGamma(double alpha, double x) {
        if (x < (double) 0.8f) {
            // Taylor series of the incomplete gamma function for small x
            double numer = 1, denom = alpha;
            double series1 = numer / denom, series2 = numer / (denom * denom);
            for (int i = 1; i <= 5; ++i) {
                numer *= -x / i;
                denom += 1;
                series1 += numer / denom;
                series2 += numer / (denom * denom);
            }
            double powXAlpha = Math.pow(x, alpha);
            double gammaPdf = Math.pow(x, alpha - 1) * Math.exp(-x);
            double gammaCdf = powXAlpha * series1;
            double gammaCdfAlpha = (Math.log(x) - Gamma.digamma(alpha)) * gammaCdf - powXAlpha * series2;
            double result = -gammaCdfAlpha / gammaPdf;
            return Double.isNaN(result) ? 0 : result;
        }
        if (alpha > 8.0) {
            // Rice saddle point expansion for large alpha
            if ((double) 0.9f * alpha <= x && x <= (double) 1.1f * alpha) {
                double numer1 = 1 + 24 * alpha * (1 + 12 * alpha);
                double numer2 =
                        1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x);
                double denom = 1244160 * (alpha * alpha) * (alpha * alpha);
                return numer1 * numer2 / denom;
            }
            double denom = Math.sqrt(8 * alpha);
            double term2 = denom / (alpha - x);
            double term3 = Math.pow(x - alpha - alpha * Math.log(x / alpha), -1.5);
            double term23 = x < alpha ? term2 - term3 : term2 + term3;
            double term1 =
                    Math.log(x / alpha) * term23 - Math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x));
            double stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha));
            return -stirling * x * term1 / denom;
        }
        // bivariate rational approximation
        double u = Math.log(x / alpha), v = Math.log(alpha);
        double[] coef = new double[8];
        for (int i = 0; i < 8; ++i) coef[i] = GAMMA_UV[0][i] + u * (GAMMA_UV[1][i] + u * GAMMA_UV[2][i]);
        double p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
        double q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]));
        return Math.exp(p / q);
    }

    /** {@code _beta_grad_alpha_small}: Taylor expansion in x near 0. */
    private static double betaGradAlphaSmall(double x, double alpha, double beta) {
        double factor = Gamma.digamma(alpha) - Gamma.digamma(alpha + beta) - Math.log(x);
        double numer = 1;
        double series = numer / alpha * (factor + 1 / alpha);
        for (int i = 1; i <= 10; ++i) {
            numer *= (i - beta) * x / i;
            double denom = alpha + i;
            series += numer / denom * (factor + 1 / denom);
        }
        double result = x * Math.pow(1 - x, -beta) * series;
        return Double.isNaN(result) ? 0 : result;
    }

    /** {@code _beta_grad_beta_small}: the gradient in beta, Taylor expansion in x near 0. */
    private static double betaGradBetaSmall(double x, double alpha, double beta) {
        double factor = Gamma.digamma(alpha + beta) - Gamma.digamma(beta);
        double numer = 1, betas = 1, dbetas = 0, series = factor / alpha;
        for (int i = 1; i <= 8; ++i) {
            numer *= -x / i;
            dbetas = dbetas * (beta - i) + betas;
            betas = betas * (beta - i);
            series += numer / (alpha + i) * (dbetas + factor * betas);
        }
        double result = -Math.pow(1 - x, 1 - beta) * series;
        return Double.isNaN(result) ? 0 : result;
    }

    /** {@code _beta_grad_alpha_mid}: Rice saddle point expansion for large alpha and beta. */
    private static double betaGradAlphaMid(double x, double alpha, double beta) {
        double total = alpha + beta;
        double mean = alpha / total;
        double std = Math.sqrt(alpha * beta / (total + 1)) / total;
        if (mean - 0.1 * std <= x && x <= mean + 0.1 * std) {
            // avoids the singularity at x = mean
            double poly = 47 * x * (beta * beta) * (beta * beta)
                    + alpha
                            * ((43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta
                                    + alpha
                                            * (3 * (59 + 180 * beta - 90 * x) * (beta * beta)
                                                    + alpha
                                                            * ((453 + 1620 * beta * (1 - x) - 455 * x) * beta
                                                                    + alpha * (8 * (1 - x) * (135 * beta - 11)))));
            double prefactorNum = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total);
            double prefactorDen = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total);
            return prefactorNum / (1 - x) * poly / prefactorDen;
        }
        double prefactor = -x / Math.sqrt(2 * alpha * beta / total);
        double stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total));
        double term1Num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta);
        double axbx = alpha * (x - 1) + beta * x;
        double term1Den = Math.sqrt(2 * alpha / beta) * Math.pow(total, 1.5) * axbx * axbx;
        double term1 = term1Num / term1Den;
        double term2 = 0.5 * Math.log(alpha / (total * x));
        double term3 = Math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1));
        double term4Base = beta * Math.log(beta / (total * (1 - x))) + alpha * Math.log(alpha / (total * x));
        double term4 = Math.pow(term4Base, -1.5);
        double term1234 = term1 + term2 * (term3 + (x < mean ? term4 : -term4));
        return stirling * prefactor * term1234;
    }

    private static final double[][][][] BETA_C = {
        {
            {
                {1.003668233, -0.01061107488, -0.0657888334, 0.01201642863},
                {0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033},
                {-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013}
            },
            {
                {0.221950385, -0.3187676331, 0.01799915743, 0.01074823814},
                {-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057},
                {0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05}
            },
            {
                {-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565},
                {0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181},
                {0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05}
            }
        },
        {
            {
                {1, -0.02924021934, -0.04438342661, 0.007285809825},
                {0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521},
                {-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149}
            },
            {
                {0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273},
                {0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956},
                {-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05}
            },
            {
                {0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05},
                {0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05},
                {-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06}
            }
        }
    };

    /**
     * {@code dirichlet_grad_one(x, alpha, total)}: {@code -(d/dalpha cdf(x; alpha, beta)) / pdf(x; alpha, beta) / (1 -
     * x)} for a Beta(alpha, beta = total - alpha) sample x.
     */
    public static double dirichlet(double x, double alpha, double total) {
        double beta = total - alpha;
        double boundary = total * x * (1 - x);
        if (x <= 0.5 && boundary < 2.5) return betaGradAlphaSmall(x, alpha, beta);
        if (x >= 0.5 && boundary < 0.75) return -betaGradBetaSmall(1 - x, beta, alpha);
        if (alpha > 6 && beta > 6) return betaGradAlphaMid(x, alpha, beta);
        // a rational correction to an analytic approximation
        double u = Math.log(x);
        double a = Math.log(alpha) - u;
        double b = Math.log(total) - a;
        double[] powU = {1, u, u * u}, powA = {1, a, a * a};
        double p = 0, q = 0;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                double ua = powU[i] * powA[j];
                double[] cp = BETA_C[0][i][j], cq = BETA_C[1][i][j];
                p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])));
                q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])));
            }
        }
        double approx = x * (Gamma.digamma(total) - Gamma.digamma(alpha)) / beta;
        return p / q * approx;
    }
}
