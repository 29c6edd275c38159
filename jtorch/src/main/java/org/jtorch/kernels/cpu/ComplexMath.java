package org.jtorch.kernels.cpu;

/**
 * Complex formulas on (re, im) doubles, written for the pointwise kernels. Branch cuts follow C99 (as
 * {@code std::complex}, which PyTorch uses on CPU).
 */
public final class ComplexMath {
    private ComplexMath() {}

    public static void mul(double ar, double ai, double br, double bi, double[] o) {
        o[0] = ar * br - ai * bi;
        o[1] = ar * bi + ai * br;
    }

    /** Smith's algorithm: avoids overflow in |b|². */
    public static void div(double ar, double ai, double br, double bi, double[] o) {
        if (Math.abs(br) >= Math.abs(bi)) {
            if (br == 0 && bi == 0) {
                o[0] = ar / Math.abs(br);
                o[1] = ai / Math.abs(br);
                return;
            }
            double r = bi / br, d = br + bi * r;
            o[0] = (ar + ai * r) / d;
            o[1] = (ai - ar * r) / d;
        } else {
            double r = br / bi, d = br * r + bi;
            o[0] = (ar * r + ai) / d;
            o[1] = (ai * r - ar) / d;
        }
    }

    public static double abs(double re, double im) {
        return Math.hypot(re, im);
    }

    /**
     * exp(re)·(cos im + i sin im), except that a real argument stays real as in C's {@code cexp} and PyTorch 2.13's CPU
     * kernel: exp(inf + 0i) is inf + 0i (not inf·sin 0 = NaN), exp(-inf + 0i) is 0.
     */
    public static void exp(double re, double im, double[] o) {
        if (im == 0) {
            o[0] = Math.exp(re);
            o[1] = im;
            return;
        }
        double e = Math.exp(re);
        o[0] = e * Math.cos(im);
        o[1] = e * Math.sin(im);
    }

    /**
     * e^z − 1 as ATen's complex {@code expm1}: expm1(x)·cos y − 2 sin²(y/2) + i eˣ sin y, which keeps the digits that
     * exp(z) − 1 loses near 0.
     */
    public static void expm1(double re, double im, double[] o) {
        double a = Math.sin(im / 2);
        o[0] = Math.expm1(re) * Math.cos(im) - 2 * a * a;
        o[1] = Math.exp(re) * Math.sin(im);
    }

    /**
     * log(1 + z) as ATen's complex {@code log1p}: for |z| < 0.5, 0.5·log1p(x(2 + x) + y²) (x itself if that underflows
     * to 0), otherwise log|1 + z|; the imaginary part is atan2(y, 1 + x).
     */
    public static void log1p(double re, double im, double[] o) {
        double theta = Math.atan2(im, re + 1);
        if (abs(re, im) < 0.5) {
            double r = re * (2 + re) + im * im;
            o[0] = r == 0 ? re : 0.5 * Math.log1p(r);
        } else {
            o[0] = Math.log(Math.hypot(re + 1, im));
        }
        o[1] = theta;
    }

    public static void log(double re, double im, double[] o) {
        o[0] = Math.log(Math.hypot(re, im));
        o[1] = Math.atan2(im, re);
    }

    public static void sqrt(double re, double im, double[] o) {
        if (re == 0 && im == 0) {
            o[0] = 0;
            o[1] = im;
            return;
        }
        double m = Math.hypot(re, im);
        double t = Math.sqrt((m + Math.abs(re)) / 2);
        if (re >= 0) {
            o[0] = t;
            o[1] = im / (2 * t);
        } else {
            o[0] = Math.abs(im) / (2 * t);
            o[1] = Math.copySign(t, im);
        }
    }

    public static void sin(double re, double im, double[] o) {
        o[0] = Math.sin(re) * Math.cosh(im);
        o[1] = Math.cos(re) * Math.sinh(im);
    }

    public static void cos(double re, double im, double[] o) {
        o[0] = Math.cos(re) * Math.cosh(im);
        o[1] = -Math.sin(re) * Math.sinh(im);
    }

    public static void sinh(double re, double im, double[] o) {
        o[0] = Math.sinh(re) * Math.cos(im);
        o[1] = Math.cosh(re) * Math.sin(im);
    }

    public static void cosh(double re, double im, double[] o) {
        o[0] = Math.cosh(re) * Math.cos(im);
        o[1] = Math.sinh(re) * Math.sin(im);
    }

    public static void tanh(double re, double im, double[] o) {
        // tanh(a+bi) = (sinh 2a + i sin 2b) / (cosh 2a + cos 2b), stable for moderate |a|.
        if (Math.abs(re) > 20) {
            o[0] = Math.copySign(1, re);
            o[1] = Math.copySign(0, Math.sin(2 * im));
            return;
        }
        double d = Math.cosh(2 * re) + Math.cos(2 * im);
        o[0] = Math.sinh(2 * re) / d;
        o[1] = Math.sin(2 * im) / d;
    }

    public static void tan(double re, double im, double[] o) {
        // tan z = -i tanh(iz)
        tanh(-im, re, o);
        double r = o[0];
        o[0] = o[1];
        o[1] = -r;
    }

    public static void pow(double ar, double ai, double br, double bi, double[] o) {
        if (br == 0 && bi == 0) {
            o[0] = 1;
            o[1] = 0;
            return;
        }
        if (ar == 0 && ai == 0) {
            // ATen's exp(e · log 0) in IEEE arithmetic: 0 for Re e > 0, inf + NaN i at the pole (Re e < 0), NaN when
            // Re e = 0 (the modulus is 0^0)
            o[0] = br > 0 ? 0 : br < 0 ? Double.POSITIVE_INFINITY : Double.NaN;
            o[1] = br > 0 ? 0 : Double.NaN;
            return;
        }
        double lr = Math.log(Math.hypot(ar, ai)), li = Math.atan2(ai, ar);
        exp(lr * br - li * bi, lr * bi + li * br, o);
    }

    /** {@code 1 / z} by {@link #div}, as ATen computes it: {@code 1 / 0} is {@code inf + NaN i}. */
    public static void reciprocal(double re, double im, double[] o) {
        div(1, 0, re, im, o);
    }

    private static final double LN2 = Math.log(2), LN10 = Math.log(10);

    public static void log2(double re, double im, double[] o) {
        log(re, im, o);
        o[0] /= LN2;
        o[1] /= LN2;
    }

    public static void log10(double re, double im, double[] o) {
        log(re, im, o);
        o[0] /= LN10;
        o[1] /= LN10;
    }

    public static void rsqrt(double re, double im, double[] o) {
        sqrt(re, im, o);
        reciprocal(o[0], o[1], o);
    }

    /** asinh z = log(z + sqrt(z² + 1)), evaluated on the right half-plane (asinh is odd) to avoid cancellation. */
    public static void asinh(double re, double im, double[] o) {
        if (re < 0 || (re == 0 && Double.doubleToRawLongBits(re) < 0)) {
            asinh(-re, -im, o);
            o[0] = -o[0];
            o[1] = -o[1];
            return;
        }
        sqrt(re * re - im * im + 1, 2 * re * im, o);
        log(re + o[0], im + o[1], o);
    }

    /** asin z = -i asinh(iz). */
    public static void asin(double re, double im, double[] o) {
        asinh(-im, re, o);
        double r = o[0];
        o[0] = o[1];
        o[1] = -r;
    }

    /** acos z = π/2 - asin z, as PyTorch's vector kernel computes it. */
    public static void acos(double re, double im, double[] o) {
        asin(re, im, o);
        o[0] = Math.PI / 2 - o[0];
        o[1] = -o[1];
    }

    /** acosh z = log(z + sqrt(z + 1)·sqrt(z - 1)) (Kahan's form, which keeps the principal branch). */
    public static void acosh(double re, double im, double[] o) {
        sqrt(re + 1, im, o);
        double pr = o[0], pi = o[1];
        sqrt(re - 1, im, o);
        double qr = o[0], qi = o[1];
        log(re + pr * qr - pi * qi, im + pr * qi + pi * qr, o);
    }

    /**
     * atanh z = (log(1 + z) - log(1 - z)) / 2, in the form that keeps the sign of zero parts (as C99's catanh): re =
     * log1p(4x / ((1 - x)² + y²)) / 4, im = atan2(2y, (1 - x)(1 + x) - y²) / 2.
     */
    public static void atanh(double re, double im, double[] o) {
        double d = (1 - re) * (1 - re) + im * im;
        o[0] = Math.log1p(4 * re / d) / 4;
        o[1] = Math.atan2(2 * im, (1 - re) * (1 + re) - im * im) / 2;
    }

    /** atan z = -i atanh(iz). */
    public static void atan(double re, double im, double[] o) {
        atanh(-im, re, o);
        double r = o[0];
        o[0] = o[1];
        o[1] = -r;
    }

    /** silu z = z / (1 + exp(-z)). */
    public static void silu(double re, double im, double[] o) {
        exp(-re, -im, o);
        div(re, im, 1 + o[0], o[1], o);
    }

    public static void sigmoid(double re, double im, double[] o) {
        exp(-re, -im, o);
        div(1, 0, 1 + o[0], o[1], o);
    }
}
