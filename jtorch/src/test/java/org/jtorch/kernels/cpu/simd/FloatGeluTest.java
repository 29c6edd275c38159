package org.jtorch.kernels.cpu.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.kernels.cpu.Erf;
import org.junit.jupiter.api.Test;

/**
 * The float erf and GELU kernels against double references (the double erf, the closed forms of GELU and its derivative
 * in double) over a dense sweep. Stated bounds: erf within 3 ulp on [-10, 10]; erfc's tail (1 + erf(z) for z ≤ -1)
 * within 5e-6 relative down to z = -9; GELU and its derivative within 4 ulp plus the rounding of exp's argument in the
 * left tail (x²·2^-23 relative for erf, |2u|·2^-21 for tanh) for x in [-12, 12].
 */
class FloatGeluTest {
    private static final int N = 400_001;

    private static double ulp(double ref) {
        return Math.ulp(Math.max((float) Math.abs(ref), Float.MIN_NORMAL));
    }

    @Test
    void erfWithinThreeUlp() {
        double worst = 0;
        for (int i = 0; i < N; i++) {
            float z = (float) (-10 + 20.0 * i / (N - 1));
            double ref = Erf.erf(z);
            worst = Math.max(worst, Math.abs(FloatErf.erf(z) - ref) / ulp(ref));
        }
        assertTrue(worst <= 3, "erf max error " + worst + " ulp");
        assertEquals(0f, FloatErf.erf(0f));
        assertEquals(Float.floatToIntBits(-0f), Float.floatToIntBits(FloatErf.erf(-0f)));
        assertEquals(1f, FloatErf.erf(Float.POSITIVE_INFINITY));
        assertEquals(-1f, FloatErf.erf(Float.NEGATIVE_INFINITY));
        assertTrue(Float.isNaN(FloatErf.erf(Float.NaN)));
    }

    @Test
    void leftTailIsRelativelyAccurate() {
        double worst = 0;
        for (int i = 0; i < N; i++) {
            float z = (float) (-9 + 8.0 * i / (N - 1));
            double ref = Erf.erfc(-(double) z);
            worst = Math.max(worst, Math.abs(FloatErf.onePlusErf(z) - ref) / ref);
        }
        assertTrue(worst <= 5e-6, "1 + erf relative error " + worst);
        assertEquals(0f, FloatErf.onePlusErf(Float.NEGATIVE_INFINITY));
        assertEquals(2f, FloatErf.onePlusErf(Float.POSITIVE_INFINITY));
    }

    private static double gelu(double x) {
        return 0.5 * x * Erf.erfc(-x / Math.sqrt(2));
    }

    /** 0.5·x·(1 + tanh u) as x/(1 + e^(-2u)): in double, 1 + tanh u would round to 0 far left of the origin. */
    private static double geluTanh(double x) {
        return x / (1 + Math.exp(-2 * Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
    }

    private static double geluGrad(double x) {
        return 0.5 * Erf.erfc(-x / Math.sqrt(2)) + x * Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
    }

    private static double geluTanhGrad(double x) {
        double k = Math.sqrt(2 / Math.PI), t = Math.tanh(k * (x + 0.044715 * x * x * x));
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x);
    }

    /**
     * |got - ref| ≤ 4 ulp(ref) + |ref|·slack(x): the slack is the left tail's exp of an argument rounded to float
     * (relative 2^-24 of it, magnified by its size in the exponent).
     */
    private static void sweep(
            String name,
            java.util.function.DoubleUnaryOperator ref,
            FloatSimd.Unary op,
            java.util.function.DoubleUnaryOperator slack) {
        float[] x = new float[N], out = new float[N];
        for (int i = 0; i < N; i++) x[i] = (float) (-12 + 24.0 * i / (N - 1));
        FloatSimd.unary(op, x, 0, out, 0, N);
        for (int i = 0; i < N; i++) {
            double r = ref.applyAsDouble(x[i]);
            // results below the normal range may flush to zero (exp underflows there)
            double tol = 4 * ulp(r) + Math.abs(r) * slack.applyAsDouble(x[i]) + Float.MIN_NORMAL;
            assertTrue(Math.abs(out[i] - r) <= tol, name + "(" + x[i] + ") = " + out[i] + " vs " + r);
        }
    }

    @Test
    void geluMatchesDoubleReference() {
        sweep("gelu", FloatGeluTest::gelu, FloatSimd.Unary.GELU, x -> x * x * 0x1p-23);
        // the tanh form's exponent 2u = 2β(x + κx³) is rounded to float: relative error ≈ |2u|·2^-22
        sweep(
                "gelu_tanh",
                FloatGeluTest::geluTanh,
                FloatSimd.Unary.GELU_TANH,
                x -> (Math.abs(x) + 0.045 * Math.abs(x * x * x)) * 0x1p-20);
    }

    @Test
    void geluBackwardMatchesDoubleReference() {
        float[] x = new float[N], g = new float[N], out = new float[N], outTanh = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = (float) (-12 + 24.0 * i / (N - 1));
            g[i] = 1.5f - (i % 7) * 0.5f;
        }
        FloatSimd.binary(FloatSimd.Binary.GELU_BACKWARD, g, 0, x, 0, out, 0, N);
        FloatSimd.binary(FloatSimd.Binary.GELU_TANH_BACKWARD, g, 0, x, 0, outTanh, 0, N);
        for (int i = 0; i < N; i++) {
            double d = geluGrad(x[i]), dt = geluTanhGrad(x[i]);
            // Φ(x) and x·φ(x) nearly cancel for negative x: allow 2^-22 of the larger term
            double scale =
                    Math.max(0.5 * Erf.erfc(-x[i] / Math.sqrt(2)), Math.abs(x[i]) * Math.exp(-0.5 * x[i] * x[i]));
            double tail = Math.abs(d) * x[i] * x[i] * 0x1p-23;
            assertTrue(
                    Math.abs(out[i] - g[i] * d) <= Math.abs(g[i]) * (4 * ulp(d) + scale * 0x1p-21 + tail),
                    "gelu' at " + x[i] + ": " + out[i] + " vs " + g[i] * d);
            assertTrue(
                    Math.abs(outTanh[i] - g[i] * dt)
                            <= Math.abs(g[i]) * (4 * ulp(dt) + Math.max(1, x[i] * x[i]) * 0x1p-20),
                    "gelu_tanh' at " + x[i] + ": " + outTanh[i] + " vs " + g[i] * dt);
        }
    }

    @Test
    void specialValuesFollowTheFormula() {
        float[] x = {Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, Float.NaN, -0f, -200f, 200f};
        for (FloatSimd.Unary op : new FloatSimd.Unary[] {FloatSimd.Unary.GELU, FloatSimd.Unary.GELU_TANH}) {
            // as 0.5·x·(1 + erf(x/√2)): -inf·0 is NaN, as in PyTorch
            assertTrue(Float.isNaN(op.apply(x[0])), op + "(-inf)");
            assertEquals(Float.POSITIVE_INFINITY, op.apply(x[1]), op + "(inf)");
            assertTrue(Float.isNaN(op.apply(x[2])), op + "(nan)");
            // -0·0.5·(1 + 0) and -200·0.5·0 are -0 in PyTorch too
            assertEquals(-0f, op.apply(x[3]), op + "(-0)");
            assertEquals(-0f, op.apply(x[4]), op + "(-200)");
            assertEquals(200f, op.apply(x[5]), op + "(200)");
        }
    }
}
