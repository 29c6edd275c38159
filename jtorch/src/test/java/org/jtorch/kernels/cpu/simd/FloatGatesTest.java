package org.jtorch.kernels.cpu.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The recurrent gates' float sigmoid and tanh against double references over a dense sweep of [-20, 20]: tanh within 3
 * ulp, sigmoid within 3 ulp (where the result is normal); the vector loop and its scalar tail give the same bits for
 * every element wherever a range starts; special values (±0, ±∞, NaN) come out as Math's.
 */
class FloatGatesTest {
    private static final int N = 400_001;

    private static float[] sweep() {
        float[] x = new float[N];
        for (int i = 0; i < N; i++) x[i] = (float) (-20 + 40.0 * i / (N - 1));
        return x;
    }

    private static double ulp(double ref) {
        return Math.ulp(Math.max((float) Math.abs(ref), Float.MIN_NORMAL));
    }

    @Test
    void tanhWithinThreeUlp() {
        float[] x = sweep(), y = x.clone();
        FloatGates.tanh(y, 0, N);
        double worst = 0;
        for (int i = 0; i < N; i++) {
            double ref = Math.tanh(x[i]);
            worst = Math.max(worst, Math.abs(y[i] - ref) / ulp(ref));
        }
        assertTrue(worst <= 3, "tanh max error " + worst + " ulp");
    }

    @Test
    void sigmoidWithinThreeUlp() {
        float[] x = sweep(), y = x.clone();
        FloatGates.sigmoid(y, 0, N);
        double worst = 0;
        for (int i = 0; i < N; i++) {
            double ref = 1 / (1 + Math.exp(-(double) x[i]));
            worst = Math.max(worst, Math.abs(y[i] - ref) / ulp(ref));
        }
        assertTrue(worst <= 3, "sigmoid max error " + worst + " ulp");
    }

    @Test
    void vectorAndScalarPathsAgreeBitForBit() {
        float[] x = sweep();
        for (int start = 0; start < 17; start++) {
            float[] v = x.clone(), w = x.clone();
            FloatGates.tanh(v, start, 1000);
            FloatGates.sigmoid(w, start, 1000);
            for (int i = start; i < start + 1000; i++) {
                assertEquals(Float.floatToIntBits(FloatGates.tanh(x[i])), Float.floatToIntBits(v[i]));
                assertEquals(Float.floatToIntBits(FloatGates.sigmoid(x[i])), Float.floatToIntBits(w[i]));
            }
        }
    }

    @Test
    void specialValues() {
        float[] x = {0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1e-30f, -1e-30f};
        float[] t = x.clone(), s = x.clone();
        FloatGates.tanh(t, 0, x.length);
        FloatGates.sigmoid(s, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            assertEquals((float) Math.tanh(x[i]), t[i], "tanh(" + x[i] + ")");
            assertEquals((float) (1 / (1 + Math.exp(-(double) x[i]))), s[i], "sigmoid(" + x[i] + ")");
        }
        assertEquals(Float.floatToIntBits(-0f), Float.floatToIntBits(t[1]));
    }
}
