package org.jtorch.kernels.fft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The transforms against the DFT's definition summed directly in extended care (angles reduced exactly), for every
 * length up to 130 and lengths that exercise each radix, the generic prime butterfly and Bluestein's algorithm.
 */
class FftEngineTest {
    private static final int[] LENGTHS = IntStream.concat(
                    IntStream.rangeClosed(1, 130),
                    IntStream.of(243, 256, 625, 343, 1000, 1009, 1024, 2310, 4096, 4999, 6561, 10007, 65536))
            .toArray();

    /** The DFT summed directly: y_j = sum_m x_m exp(s 2 pi i j m / n), the angle reduced as an integer first. */
    private static double[] naive(double[] x, int n, boolean forward) {
        double[] y = new double[2 * n];
        double s = forward ? -1 : 1;
        for (int j = 0; j < n; j++) {
            double re = 0, im = 0;
            for (int m = 0; m < n; m++) {
                double angle = s * 2 * Math.PI * (((long) j * m) % n) / n;
                double c = Math.cos(angle), sn = Math.sin(angle);
                re += x[2 * m] * c - x[2 * m + 1] * sn;
                im += x[2 * m] * sn + x[2 * m + 1] * c;
            }
            y[2 * j] = re;
            y[2 * j + 1] = im;
        }
        return y;
    }

    private static double[] random(int count, long seed) {
        Random r = new Random(seed);
        double[] x = new double[count];
        for (int i = 0; i < count; i++) x[i] = r.nextGaussian();
        return x;
    }

    /** Max error relative to the transform's scale (sqrt(n) times the inputs' rms for random inputs). */
    private static void assertClose(double[] expected, double[] actual, int count, int n, String what) {
        double tol = 1e-13 * Math.sqrt(n) * Math.max(1, Math.log(n));
        for (int i = 0; i < count; i++) {
            assertEquals(expected[i], actual[i], tol * Math.sqrt(n), what + " n=" + n + " at " + i);
        }
    }

    @Test
    void complexForwardAndBackwardEqualTheDefinition() {
        for (int n : LENGTHS) {
            if (n > 11000) continue;
            double[] x = random(2 * n, n);
            ComplexFft plan = ComplexFft.of(n);
            for (boolean forward : new boolean[] {true, false}) {
                double[] y = x.clone();
                plan.transform(y, plan.newScratch(), forward);
                assertClose(naive(x, n, forward), y, 2 * n, n, plan.getClass().getSimpleName() + " " + forward);
            }
        }
    }

    @Test
    void bluesteinTakesLengthsWithALargePrimeFactorOnly() {
        assertTrue(ComplexFft.of(10007) instanceof BluesteinFft);
        assertTrue(ComplexFft.of(4999) instanceof BluesteinFft);
        assertTrue(ComplexFft.of(2 * 1009) instanceof BluesteinFft);
        assertFalse(ComplexFft.of(65536) instanceof BluesteinFft);
        assertFalse(ComplexFft.of(2310) instanceof BluesteinFft);
        assertFalse(ComplexFft.of(47) instanceof BluesteinFft); // short: the generic butterfly is cheaper
        assertEquals(2_000_000, BluesteinFft.goodSize(2 * 999_983 - 1));
    }

    @Test
    void realForwardAndInverseEqualTheDefinition() {
        for (int n : LENGTHS) {
            if (n > 11000) continue;
            double[] reals = random(n, 7 * n);
            double[] asComplex = new double[2 * n];
            for (int i = 0; i < n; i++) asComplex[2 * i] = reals[i];
            double[] expected = naive(asComplex, n, true);
            RealFft plan = new RealFft(n);
            double[] buf = new double[plan.bufferLength()];
            System.arraycopy(reals, 0, buf, 0, n);
            plan.forward(buf, plan.newScratch());
            assertClose(expected, buf, 2 * (n / 2 + 1), n, "rfft");
            // the inverse of the half spectrum is n times the signal, with the parts it cannot carry ignored
            buf[1] = 123;
            if (n % 2 == 0) buf[n + 1] = -45;
            plan.inverse(buf, plan.newScratch());
            double[] scaled = new double[n];
            for (int i = 0; i < n; i++) scaled[i] = n * reals[i];
            assertClose(scaled, buf, n, n, "irfft");
        }
    }
}
