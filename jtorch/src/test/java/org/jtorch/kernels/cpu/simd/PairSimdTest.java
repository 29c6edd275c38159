package org.jtorch.kernels.cpu.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link PairSimd}'s split and merge against their definitions, bit for bit, at every tail length and offset. */
class PairSimdTest {
    private static float[] random(Random r, int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = (float) r.nextGaussian();
        return x;
    }

    @Test
    void splitTakesTheEvenAndOddElements() {
        Random r = new Random(3);
        for (int n = 0; n <= 3 * FloatSimd.SPECIES.length() + 3; n++) {
            float[] x = random(r, 2 * n + 3);
            float[] even = new float[n + 2], odd = new float[n + 1];
            even[n + 1] = 7f;
            PairSimd.split(x, 3, even, 1, odd, 0, n);
            for (int j = 0; j < n; j++) {
                assertEquals(x[3 + 2 * j], even[1 + j], "n=" + n + " j=" + j);
                assertEquals(x[4 + 2 * j], odd[j], "n=" + n + " j=" + j);
            }
            assertEquals(0f, even[0], "writes nothing before the row");
            assertEquals(7f, even[n + 1], "writes nothing after the row");
        }
    }

    @Test
    void mergeInterleavesTwoRowsPlusAConstant() {
        Random r = new Random(4);
        for (int n = 0; n <= 3 * FloatSimd.SPECIES.length() + 3; n++) {
            float[] even = random(r, n + 2), odd = random(r, n + 1);
            float[] out = new float[2 * n + 2];
            out[2 * n + 1] = -7f;
            PairSimd.merge(even, 2, odd, 1, 0.3f, out, 1, n);
            for (int j = 0; j < n; j++) {
                assertEquals(Float.floatToIntBits(even[2 + j] + 0.3f), Float.floatToIntBits(out[1 + 2 * j]), "n=" + n);
                assertEquals(Float.floatToIntBits(odd[1 + j] + 0.3f), Float.floatToIntBits(out[2 + 2 * j]), "n=" + n);
            }
            assertEquals(0f, out[0], "writes nothing before the row");
            assertEquals(-7f, out[2 * n + 1], "writes nothing after the row");
        }
    }
}
