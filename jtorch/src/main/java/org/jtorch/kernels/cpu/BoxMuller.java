package org.jtorch.kernels.cpu;

/**
 * The Box–Muller transform of ATen's vectorised normal fill ({@code normal_fill_16}): 16 uniforms {@code u[0..15]} in,
 * 16 normals out, pairing {@code u[j]} with {@code u[j + 8]}: {@code r = sqrt(-2 log(1 - u[j]))}, {@code theta = 2 pi
 * u[j + 8]}, {@code out[j] = r cos(theta) * std + mean}, {@code out[j + 8] = r sin(theta) * std + mean}.
 *
 * <p><b>float</b> reproduces x86 PyTorch bit for bit: ATen computes it with AVX2 and the Cephes-style polynomials of
 * {@code avx_mathfun.h} (Pommier's {@code sse_mathfun}, ported to AVX by Garberoglio; zlib licence), and GCC contracts
 * many of its multiply-adds into FMAs. The scalar code below performs the same float operations in the same order, with
 * a {@link Math#fma} exactly where the shipped binaries have a {@code vfmadd}/{@code vfnmadd}/{@code vfmsub} (read from
 * the disassembly of Debian's 1.13 {@code libtorch_cpu.so}; libtorch 2.10 gives identical streams). Checked against
 * PyTorch on a million samples with arbitrary mean and std: zero differing bits.
 *
 * <p><b>double</b> calls the C library's {@code log}/{@code cos}/{@code sin} ({@link Libm}) as ATen does:
 * {@link Math}'s intrinsics agree with glibc on all but about 0.2% of samples, which differ by one ulp.
 */
public final class BoxMuller {
    private BoxMuller() {}

    // log256_ps constants (Cephes logf).
    private static final float MIN_NORM_POS = Float.intBitsToFloat(0x00800000);
    private static final float SQRTHF = (float) 0.707106781186547524;
    private static final float LOG_P0 = (float) 7.0376836292E-2;
    private static final float LOG_P1 = (float) -1.1514610310E-1;
    private static final float LOG_P2 = (float) 1.1676998740E-1;
    private static final float LOG_P3 = (float) -1.2420140846E-1;
    private static final float LOG_P4 = (float) 1.4249322787E-1;
    private static final float LOG_P5 = (float) -1.6668057665E-1;
    private static final float LOG_P6 = (float) 2.0000714765E-1;
    private static final float LOG_P7 = (float) -2.4999993993E-1;
    private static final float LOG_P8 = (float) 3.3333331174E-1;
    private static final float LOG_Q1 = (float) -2.12194440e-4;
    private static final float LOG_Q2 = (float) 0.693359375;

    // sincos256_ps constants (Cephes sinf/cosf).
    private static final float FOPI = (float) 1.27323954473516; // 4 / pi
    private static final float MINUS_DP1 = (float) -0.78515625;
    private static final float MINUS_DP2 = (float) -2.4187564849853515625e-4;
    private static final float MINUS_DP3 = (float) -3.77489497744594108e-8;
    private static final float SIN_P0 = (float) -1.9515295891E-4;
    private static final float SIN_P1 = (float) 8.3321608736E-3;
    private static final float SIN_P2 = (float) -1.6666654611E-1;
    private static final float COS_P0 = (float) 2.443315711809948E-005;
    private static final float COS_P1 = (float) -1.388731625493765E-003;
    private static final float COS_P2 = (float) 4.166664568298827E-002;

    /** ATen's {@code _mm256_set1_ps(2.0f * c10::pi<double>)}: 2 pi rounded to float. */
    private static final float TWO_PI_F = (float) (2.0 * Math.PI);

    /** Transforms {@code d[off, off + 16)} in place, as ATen's AVX2 {@code normal_fill_16_AVX2}. */
    public static void fill16(float[] d, int off, float mean, float std) {
        for (int j = 0; j < 8; j++) {
            float u1 = 1f - d[off + j];
            float theta = TWO_PI_F * d[off + 8 + j];
            float radius = (float) Math.sqrt(-2f * log(u1)); // sqrt of a float is exact through double
            long sc = sincos(theta);
            float sin = Float.intBitsToFloat((int) (sc >>> 32)), cos = Float.intBitsToFloat((int) sc);
            d[off + j] = Math.fma(radius * cos, std, mean);
            d[off + 8 + j] = Math.fma(radius * sin, std, mean);
        }
    }

    /**
     * Transforms {@code d[off, off + 16)} in place, as ATen's {@code normal_fill_16<double>} (the FMA is explicit in
     * 2.15).
     */
    public static void fill16(double[] d, int off, double mean, double std) {
        for (int j = 0; j < 8; j++) {
            double u1 = 1 - d[off + j];
            double u2 = d[off + 8 + j];
            double radius = Math.sqrt(-2 * Libm.LOG.applyAsDouble(u1));
            double theta = 2.0 * Math.PI * u2;
            d[off + j] = Math.fma(radius * Libm.COS.applyAsDouble(theta), std, mean);
            d[off + 8 + j] = Math.fma(radius * Libm.SIN.applyAsDouble(theta), std, mean);
        }
    }

    /** {@code log256_ps} for one lane; NaN for {@code x <= 0}. */
    static float log(float x) {
        boolean invalid = x <= 0;
        x = Math.max(x, MIN_NORM_POS);
        int bits = Float.floatToRawIntBits(x);
        float e = (float) ((bits >>> 23) - 0x7f) + 1f;
        x = Float.intBitsToFloat((bits & ~0x7f800000) | Float.floatToRawIntBits(0.5f)); // mantissa in [0.5, 1)
        boolean small = x < SQRTHF;
        float tmp = small ? x : 0f;
        x = x - 1f;
        e = e - (small ? 1f : 0f);
        x = x + tmp;
        float z = x * x;
        float y = LOG_P0;
        y = Math.fma(y, x, LOG_P1);
        y = Math.fma(y, x, LOG_P2);
        y = Math.fma(y, x, LOG_P3);
        y = Math.fma(y, x, LOG_P4);
        y = Math.fma(y, x, LOG_P5);
        y = Math.fma(y, x, LOG_P6);
        y = Math.fma(y, x, LOG_P7);
        y = Math.fma(y, x, LOG_P8);
        y = y * x;
        y = Math.fma(y, z, e * LOG_Q1);
        y = Math.fma(-z, 0.5f, y);
        x = x + y;
        x = Math.fma(e, LOG_Q2, x);
        return invalid ? Float.NaN : x;
    }

    /** {@code sincos256_ps} for one lane: the bits of sin in the high half, of cos in the low half. */
    static long sincos(float x) {
        int signSin = Float.floatToRawIntBits(x) & 0x80000000;
        x = Math.abs(x);
        int j = ((int) (x * FOPI) + 1) & ~1; // octant, rounded up to even (cvttps truncates)
        float y = (float) j;
        int swapSin = (j & 4) << 29;
        boolean direct = (j & 2) == 0; // else the octant swaps the sine and cosine polynomials
        int signCos = (~(j - 2) & 4) << 29;
        signSin ^= swapSin;
        // Extended-precision reduction x - y * pi/4 in three pieces.
        x = Math.fma(y, MINUS_DP1, x);
        x = Math.fma(y, MINUS_DP2, x);
        x = Math.fma(y, MINUS_DP3, x);
        float z = x * x;
        float c = Math.fma(Math.fma(COS_P0, z, COS_P1), z, COS_P2);
        c = c * z;
        c = Math.fma(c, z, -(z * 0.5f));
        c = c + 1f;
        float s = Math.fma(Math.fma(SIN_P0, z, SIN_P1), z, SIN_P2);
        s = s * z;
        s = Math.fma(s, x, x);
        // The selection arithmetic of the original (and-masks, subtractions, additions) fixes the sign of zeros.
        float sinPart = direct ? s : 0f, cosPart = direct ? 0f : c;
        s = s - sinPart;
        c = c - cosPart;
        float sin = Float.intBitsToFloat(Float.floatToRawIntBits(sinPart + cosPart) ^ signSin);
        float cos = Float.intBitsToFloat(Float.floatToRawIntBits(s + c) ^ signCos);
        return ((long) Float.floatToRawIntBits(sin) << 32) | (Float.floatToRawIntBits(cos) & 0xFFFFFFFFL);
    }
}
