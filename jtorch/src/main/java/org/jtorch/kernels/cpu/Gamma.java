package org.jtorch.kernels.cpu;

/**
 * The log-gamma function and its derivatives (digamma, trigamma, polygamma) with the Hurwitz zeta function they rest
 * on. The JDK has none of them.
 *
 * <p>{@code digamma}, {@code trigamma}, {@code zeta} and {@code polygamma} follow ATen's CPU algorithms step for step
 * (Cephes' digamma and zeta, ATen's trigamma), so that their special values and their rounding agree with PyTorch's:
 * ATen evaluates float32 inputs in float arithmetic, hence the {@code float} variants, which float16 and bfloat16
 * share.
 *
 * <p>ATen takes {@code lgamma} from the C library; {@link #lgamma(double)} is accurate to about an ulp on the positive
 * axis: Taylor series about 1, the minimum x₀ of Γ and 2 (where lgamma is small, so that the result keeps its relative
 * accuracy near its zeros 1 and 2), downward recurrence to [1.5, 2.5) below 20 and Stirling's series above. Negative
 * arguments go through the reflection formula: a few ulps, except close to the zeros of lgamma on the negative axis,
 * where the error stays near 1e-16 absolute but the cancellation makes it large relative to the result.
 */
public final class Gamma {
    private Gamma() {}

    // ---- lgamma -------------------------------------------------------------------------------------------

    private static final double EULER = 0.5772156649015329;
    /** The double nearest the minimum of Γ on the positive axis, with lgamma and digamma at exactly that double. */
    private static final double X0 = 1.4616321449683622;

    private static final double LGAMMA_X0 = -0.12148629053584961;
    private static final double DIGAMMA_X0 = -9.241265521729427e-17;
    private static final double HALF_LOG_2PI_MINUS_HALF = 0.5 * Math.log(2 * Math.PI) - 0.5;

    /** Taylor coefficients of lgamma(1 + z) from z²: (-1)^k ζ(k)/k, k = 2..27. */
    private static final double[] ABOUT_1 = alternate(
            0.8224670334241132,
            0.40068563438653143,
            0.27058080842778454,
            0.20738555102867398,
            0.1695571769974082,
            0.1440498967688461,
            0.12550966952474304,
            0.11133426586956469,
            0.1000994575127818,
            0.09095401714582904,
            0.083353840546109,
            0.0769325164113522,
            0.07143294629536133,
            0.06666870588242046,
            0.06250095514121304,
            0.058823978658684585,
            0.055555767627403614,
            0.05263167937961666,
            0.05000004769810169,
            0.047619070330142226,
            0.04545455629320467,
            0.04347826605304026,
            0.04166666915034121,
            0.04000000119214014,
            0.03846153903467518,
            0.037037037312989324);
    /** Taylor coefficients of lgamma(2 + z) from z²: (-1)^k (ζ(k) - 1)/k, k = 2..27. */
    private static final double[] ABOUT_2 = alternate(
            0.3224670334241132,
            0.0673523010531981,
            0.020580808427784546,
            0.007385551028673986,
            0.0028905103307415234,
            0.001192753911703261,
            0.0005096695247430425,
            0.00022315475845357939,
            9.945751278180853e-05,
            4.492623673813314e-05,
            2.050721277567069e-05,
            9.439488275268397e-06,
            4.374866789907488e-06,
            2.039215753801366e-06,
            9.55141213040742e-07,
            4.492469198764566e-07,
            2.1207184805554665e-07,
            1.0043224823968099e-07,
            4.7698101693639804e-08,
            2.2711094608943164e-08,
            1.0838659214896955e-08,
            5.183475041970047e-09,
            2.4836745438024785e-09,
            1.1921401405860912e-09,
            5.731367241678862e-10,
            2.7595228851242334e-10);
    /** Taylor coefficients of lgamma(x₀ + z) from z²: (-1)^k ζ(k, x₀)/k, k = 2..27. */
    private static final double[] ABOUT_X0 = alternate(
            0.4838361227238106,
            0.14758772299453074,
            0.06462494023891277,
            0.03278854108848132,
            0.017970675115210402,
            0.010314223036636393,
            0.006100536020517891,
            0.0036845696083163755,
            0.002259764823221812,
            0.0014022514459044518,
            0.000878232634717682,
            0.0005541949527966826,
            0.000351912956837847,
            0.00022465344369595542,
            0.00014407039542093313,
            9.276098655471758e-05,
            5.9934733439794323e-05,
            3.884583889452663e-05,
            2.5247663291730135e-05,
            1.6450858338395626e-05,
            1.0743455256375948e-05,
            7.0307052573803595e-06,
            4.609738653644762e-06,
            3.027671832878031e-06,
            1.991759921239265e-06,
            1.312224849913321e-06);
    /** Stirling's series B_2k / (2k (2k - 1)), k = 1..7. */
    private static final double[] STIRLING = {
        1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156
    };

    private static double[] alternate(double... magnitudes) {
        double[] c = magnitudes.clone();
        for (int i = 1; i < c.length; i += 2) c[i] = -c[i]; // the first is k = 2, positive
        return c;
    }

    /** {@code c1·z + Σ c[k-2]·z^k}, in fused multiply-adds from the highest power down. */
    private static double series(double[] c, double c1, double z) {
        double s = c[c.length - 1];
        for (int i = c.length - 2; i >= 0; i--) s = Math.fma(s, z, c[i]);
        return z * Math.fma(s, z, c1);
    }

    /** The log of |Γ(x)|, as C's {@code lgamma}: +inf at 0 and the negative integers and at ±inf, NaN for NaN. */
    public static double lgamma(double x) {
        if (Double.isNaN(x)) return x;
        if (Double.isInfinite(x)) return Double.POSITIVE_INFINITY;
        double ax = Math.abs(x);
        if (ax <= 0.25) return ax == 0 ? Double.POSITIVE_INFINITY : series(ABOUT_1, -EULER, x) - Math.log(ax);
        if (x > 0) return lgammaPositive(x);
        if (x == Math.rint(x)) return Double.POSITIVE_INFINITY;
        // Γ(x)Γ(1 - x) = π / sin(πx) and Γ(1 - x) = -x Γ(-x), with -x exact
        return Math.log(Math.PI / Math.abs(x * sinPi(x))) - lgammaPositive(-x);
    }

    /** lgamma for x > 0.25. */
    private static double lgammaPositive(double x) {
        if (x < 0.75) return series(ABOUT_X0, DIGAMMA_X0, x - (X0 - 1)) + LGAMMA_X0 - Math.log(x); // Γ(x) = Γ(x+1)/x
        if (x < 1.25) return series(ABOUT_1, -EULER, x - 1);
        if (x >= 20) return stirling(x);
        double product = 1;
        while (x >= 2.5) { // exact steps: x - 1 is representable for x >= 2
            x -= 1;
            product *= x;
        }
        double core = x < 1.75 ? series(ABOUT_X0, DIGAMMA_X0, x - X0) + LGAMMA_X0 : series(ABOUT_2, 1 - EULER, x - 2);
        return product == 1 ? core : core + Math.log(product);
    }

    private static double stirling(double x) {
        double r = 1 / x, r2 = r * r, s = STIRLING[STIRLING.length - 1];
        for (int i = STIRLING.length - 2; i >= 0; i--) s = Math.fma(s, r2, STIRLING[i]);
        return (x - 0.5) * (Math.log(x) - 1) + HALF_LOG_2PI_MINUS_HALF + s * r;
    }

    /** sin(πx) with the argument reduced exactly, so that it is accurate (and exactly 0 at integers). */
    private static double sinPi(double x) {
        double t = Math.abs(x) % 2; // exact
        double sign = Math.signum(x);
        if (t >= 1) {
            t -= 1;
            sign = -sign;
        }
        if (t > 0.5) t = 1 - t;
        return sign * Math.sin(Math.PI * t);
    }

    // ---- digamma ------------------------------------------------------------------------------------------

    private static final double PSI_10 = 2.25175258906672110764;
    /** Cephes' asymptotic digamma coefficients, highest power first. */
    private static final double[] PSI_ASYMPTOTIC = {
        8.33333333333333333333E-2,
        -2.10927960927960927961E-2,
        7.57575757575757575758E-3,
        -4.16666666666666666667E-3,
        3.96825396825396825397E-3,
        -8.33333333333333333333E-3,
        8.33333333333333333333E-2
    };

    private static final float[] PSI_ASYMPTOTIC_F = {
        8.33333333333333333333E-2f,
        -2.10927960927960927961E-2f,
        7.57575757575757575758E-3f,
        -4.16666666666666666667E-3f,
        3.96825396825396825397E-3f,
        -8.33333333333333333333E-3f,
        8.33333333333333333333E-2f
    };

    /**
     * ATen's {@code calc_digamma}: ±0 give ∓inf, negative integers and -inf NaN (as SciPy); other negative arguments
     * reflect through ψ(1 - x) - π/tan(πx), with tan taken of the fractional part; then the recurrence up to 10 and the
     * asymptotic series.
     */
    public static double digamma(double x) {
        if (x == 0) return Math.copySign(Double.POSITIVE_INFINITY, -x);
        if (x < 0) {
            if (x == truncate(x)) return Double.NaN;
            return digamma(1 - x) - Math.PI / Math.tan(Math.PI * (x - truncate(x)));
        }
        double result = 0;
        while (x < 10) {
            result -= 1 / x;
            x += 1;
        }
        if (x == 10) return result + PSI_10;
        double y = 0;
        if (x < 1e17) {
            double z = 1 / (x * x);
            y = z * polynomial(PSI_ASYMPTOTIC, z);
        }
        return result + Math.log(x) - 0.5 / x - y;
    }

    /** {@link #digamma(double)} in float arithmetic, as ATen computes float32, float16 and bfloat16. */
    public static float digamma(float x) {
        if (x == 0) return Math.copySign(Float.POSITIVE_INFINITY, -x);
        if (x < 0) {
            if (x == (float) truncate(x)) return Float.NaN;
            float piOverTan = (float) (Math.PI / Math.tan(Math.PI * (x - truncate(x))));
            return digamma(1 - x) - piOverTan;
        }
        float result = 0;
        while (x < 10) {
            result -= 1 / x;
            x += 1;
        }
        if (x == 10) return result + (float) PSI_10;
        float y = 0;
        if (x < 1e17f) {
            float z = 1 / (x * x);
            y = z * polynomial(PSI_ASYMPTOTIC_F, z);
        }
        return result + (float) Math.log(x) - 0.5f / x - y;
    }

    private static double truncate(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    private static double polynomial(double[] c, double x) {
        double r = 0;
        for (double v : c) r = r * x + v;
        return r;
    }

    private static float polynomial(float[] c, float x) {
        float r = 0;
        for (float v : c) r = r * x + v;
        return r;
    }

    // ---- trigamma, zeta, polygamma ------------------------------------------------------------------------

    /** ATen's {@code trigamma}: reflection below 1/2, six recurrence steps, then the asymptotic series. */
    private static double trigamma(double x) {
        double sign = 1, result = 0;
        if (x < 0.5) {
            sign = -1;
            double s = Math.sin(Math.PI * x);
            result -= Math.PI * Math.PI / (s * s);
            x = 1 - x;
        }
        for (int i = 0; i < 6; i++) {
            result += 1 / (x * x);
            x += 1;
        }
        double ixx = 1 / (x * x);
        result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
        return sign * result;
    }

    private static final float PI_F = (float) Math.PI;

    /** {@link #trigamma(double)} in float arithmetic (π in float too), as ATen's float overload. */
    private static float trigamma(float x) {
        float sign = 1, result = 0;
        if (x < 0.5f) {
            sign = -1;
            float s = (float) Math.sin(PI_F * x);
            result -= PI_F * PI_F / (s * s);
            x = 1 - x;
        }
        for (int i = 0; i < 6; i++) {
            result += 1 / (x * x);
            x += 1;
        }
        float ixx = 1 / (x * x);
        result += (1 + 1 / (2 * x) + ixx * (1.f / 6 - ixx * (1.f / 30 - ixx * (1.f / 42)))) / x;
        return sign * result;
    }

    private static final double MACHEP = 1.11022302462515654042E-16;
    /** Euler–Maclaurin denominators (2k)! / B_2k of Cephes' zeta. */
    private static final double[] ZETA_A = {
        12.0,
        -720.0,
        30240.0,
        -1209600.0,
        47900160.0,
        -1.8924375803183791606e9,
        7.47242496e10,
        -2.950130727918164224e12,
        1.1646782814350067249e14,
        -4.5979787224074726105e15,
        1.8152105401943546773e17,
        -7.1661652561756670113e18
    };

    /**
     * The Hurwitz zeta function ζ(x, q) = Σ (k + q)^-x as ATen's {@code zeta} (Cephes): inf at x = 1, NaN for x < 1,
     * inf at the poles q = 0, -1, ...; NaN for q < 0 with non-integer x. {@code firstTerm} is q^-x, which ATen computes
     * in the argument's precision.
     */
    private static double zeta(double x, double q, double firstTerm) {
        if (x == 1) return Double.POSITIVE_INFINITY;
        if (x < 1) return Double.NaN;
        if (q <= 0) {
            if (q == Math.floor(q)) return Double.POSITIVE_INFINITY;
            if (x != Math.floor(x)) return Double.NaN;
        }
        double s = firstTerm, a = q, b = 0;
        int i = 0;
        while (i < 9 || a <= 9) {
            i += 1;
            a += 1;
            b = Math.pow(a, -x);
            s += b;
            if (-MACHEP * s < b && b < MACHEP * s) return s;
        }
        double w = a;
        s += b * w / (x - 1);
        s -= 0.5 * b;
        a = 1;
        double k = 0;
        for (i = 0; i < 12; i++) {
            a *= x + k;
            b /= w;
            double t = a * b / ZETA_A[i];
            s = s + t;
            if (Math.abs(t / s) < MACHEP) return s;
            k += 1;
            a *= x + k;
            b /= w;
            k += 1;
        }
        return s;
    }

    /** ζ(x, q). */
    private static double zeta(double x, double q) {
        return zeta(x, q, Math.pow(q, -x));
    }

    /**
     * ψ⁽ⁿ⁾(x) for n ≥ 0: digamma and trigamma for n = 0 and 1, else ATen's {@code (-1)^(n+1) exp(lgamma(n + 1)) ζ(n +
     * 1, x)}.
     */
    public static double polygamma(long n, double x) {
        if (n == 0) return digamma(x);
        if (n == 1) return trigamma(x);
        double sign = n % 2 == 1 ? 1 : -1;
        return sign * Math.exp(lgamma(n + 1.0)) * zeta(n + 1.0, x);
    }

    /** {@link #polygamma(long, double)} as ATen computes float: the series accumulates in double, the rest in float. */
    public static float polygamma(long n, float x) {
        if (n == 0) return digamma(x);
        if (n == 1) return trigamma(x);
        float sign = n % 2 == 1 ? 1 : -1, order = (float) (n + 1);
        float factorial = (float) Math.exp((float) lgamma((float) n + 1f));
        float z = (float) zeta(order, x, (float) Math.pow(x, -order));
        return sign * factorial * z;
    }
}
