package org.jtorch.kernels.cpu.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

/** The vector loops against their scalar twins (bit for bit) and against double-precision references. */
class FloatSimdTest {
    private static float[] sweep() {
        int n = 200_000;
        float[] x = new float[n + 7];
        for (int i = 0; i < n; i++) x[i] = -110f + 210f * i / n; // covers underflow, subnormal results, overflow
        x[n] = Float.NaN;
        x[n + 1] = Float.POSITIVE_INFINITY;
        x[n + 2] = Float.NEGATIVE_INFINITY;
        x[n + 3] = 0f;
        x[n + 4] = -0f;
        x[n + 5] = 88.72283f;
        x[n + 6] = -87.5f;
        return x;
    }

    @Test
    void expIsWithinTwoUlpsOfTheCorrectlyRoundedValue() {
        for (float x : sweep()) {
            float got = FloatExp.exp(x);
            double exact = Math.exp(x);
            if (Double.isNaN(x)) {
                assertTrue(Float.isNaN(got));
            } else if (exact > Float.MAX_VALUE) {
                assertEquals(Float.POSITIVE_INFINITY, got, "exp(" + x + ")");
            } else {
                float ref = (float) exact;
                double ulp = Math.ulp(Math.max(Math.abs(ref), Float.MIN_NORMAL));
                assertTrue(Math.abs(got - exact) <= 2 * ulp, "exp(" + x + ") = " + got + " vs " + exact);
            }
        }
    }

    @Test
    void vectorBodyEqualsScalarTwinBitForBit() {
        float[] x = sweep();
        for (FloatSimd.Unary op : FloatSimd.Unary.values()) {
            float[] vec = new float[x.length];
            FloatSimd.unary(op, x, 0, vec, 0, x.length);
            for (int i = 0; i < x.length; i++) {
                assertEquals(Float.floatToIntBits(op.apply(x[i])), Float.floatToIntBits(vec[i]), op + " at x=" + x[i]);
            }
        }
        float[] y = new float[x.length];
        for (int i = 0; i < y.length; i++) y[i] = x[x.length - 1 - i];
        for (FloatSimd.Binary op : FloatSimd.Binary.values()) {
            float[] vec = new float[x.length];
            FloatSimd.binary(op, x, 0, y, 0, vec, 0, x.length);
            for (int i = 0; i < x.length; i++) {
                assertEquals(Float.floatToIntBits(op.apply(x[i], y[i])), Float.floatToIntBits(vec[i]), op + " at " + i);
            }
        }
    }

    @Test
    void vectorExpHandlesSpecialLanes() {
        float[] x = {
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            0f,
            89f,
            -104f,
            -100f,
            1f,
            2f,
            3f,
            4f,
            5f,
            6f,
            7f,
            -104.6f,
            -1e30f
        };
        float[] out = new float[x.length];
        int lanes = FloatSimd.lanes();
        for (int from = 0; from + lanes <= x.length; from += lanes) {
            FloatExp.exp(FloatVector.fromArray(FloatSimd.SPECIES, x, from)).intoArray(out, from);
        }
        if (lanes <= 16) {
            assertTrue(Float.isNaN(out[0]));
            assertEquals(Float.POSITIVE_INFINITY, out[1]);
            assertEquals(0f, out[2]);
            assertEquals(1f, out[3]);
            assertEquals(Float.POSITIVE_INFINITY, out[4]);
            assertEquals(0f, out[5]);
            assertEquals((float) Math.exp(-100), out[6], Math.ulp((float) Math.exp(-100)) * 2);
            // below the range whose result rounds to a subnormal: +0, as the scalar twin gives
            assertEquals(0f, out[14]);
            assertEquals(0f, out[15]);
            assertEquals(0f, FloatExp.exp(-104.6f));
        }
    }
}
