package org.jtorch.kernels.cpu.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The whole-row loops of {@link ResampleSimd} against their definitions, bit for bit, at every tail length. */
class ResampleSimdTest {
    private static float[] random(Random r, int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = (float) r.nextGaussian();
        return x;
    }

    @Test
    void blendRowsIsTheWeightedSumOfTwoRows() {
        Random r = new Random(7);
        for (int n = 0; n <= 3 * FloatSimd.SPECIES.length() + 3; n++) {
            float[] x = random(r, 2 * n + 5);
            float w0 = 0.75f, w1 = 0.25f;
            float[] dst = new float[n + 2];
            dst[0] = 42f;
            dst[n + 1] = -42f;
            ResampleSimd.blendRows(x, 2, w0, n + 4, w1, dst, 1, n);
            for (int i = 0; i < n; i++) {
                float expected = w0 * x[2 + i] + w1 * x[n + 4 + i];
                assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(dst[1 + i]), "n=" + n + " i=" + i);
            }
            assertEquals(42f, dst[0], "writes nothing before the row");
            assertEquals(-42f, dst[n + 1], "writes nothing after the row");
        }
    }

    @Test
    void addScaledRowAddsOneTerm() {
        Random r = new Random(11);
        for (int n = 0; n <= 3 * FloatSimd.SPECIES.length() + 3; n++) {
            float[] x = random(r, n + 3), dst = random(r, n + 2), before = dst.clone();
            float w = 0.3f;
            ResampleSimd.addScaledRow(x, 3, w, dst, 1, n);
            for (int i = 0; i < n; i++) {
                float expected = before[1 + i] + w * x[3 + i];
                assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(dst[1 + i]), "n=" + n + " i=" + i);
            }
            assertEquals(before[0], dst[0], "writes nothing before the row");
            assertEquals(before[n + 1], dst[n + 1], "writes nothing after the row");
        }
    }
}
