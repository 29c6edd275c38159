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
    void vectorLanesGiveEachLineTheScalarTransformsBits() {
        int lanes = LaneFft.LANES;
        for (int n :
                new int[] {1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 20, 25, 30, 48, 60, 64, 125, 243, 256, 512, 1000, 1024
                }) {
            assertTrue(LaneFft.supports(n));
            MixedRadixFft scalar = new MixedRadixFft(n);
            LaneFft vector = new LaneFft(scalar);
            double[][] buf = vector.newBuffers();
            double[][] lines = new double[lanes][];
            for (int t = 0; t < lanes; t++) {
                lines[t] = random(2 * n, 100L * n + t);
                for (int e = 0; e < n; e++) {
                    buf[0][e * lanes + t] = lines[t][2 * e];
                    buf[1][e * lanes + t] = lines[t][2 * e + 1];
                }
            }
            for (boolean forward : new boolean[] {true, false}) {
                double[][] in = {buf[0].clone(), buf[1].clone(), buf[2], buf[3]};
                int at = vector.transform(in, forward);
                for (int t = 0; t < lanes; t++) {
                    double[] y = lines[t].clone();
                    scalar.transform(y, scalar.newScratch(), forward);
                    for (int e = 0; e < n; e++) {
                        assertEquals(y[2 * e], in[at][e * lanes + t], 0, "n=" + n + " lane " + t + " re " + e);
                        assertEquals(y[2 * e + 1], in[at + 1][e * lanes + t], 0, "n=" + n + " lane " + t + " im " + e);
                    }
                }
            }
        }
        assertFalse(LaneFft.supports(7 * 16));
    }

    @Test
    void fourStepSplitsEqualTheDefinition() {
        // column and row lengths of each kind: powers of two and three, odd primes, Bluestein rows, partial blocks
        int[][] splits = {{16, 16}, {20, 50}, {17, 19}, {64, 48}, {27, 125}, {18, 101}, {7, 1009}, {45, 7}};
        for (int[] split : splits) {
            int n = split[0] * split[1];
            double[] x = random(2 * n, 31L * n);
            FourStepFft plan = new FourStepFft(n, split[0]);
            for (boolean forward : new boolean[] {true, false}) {
                double[] y = x.clone();
                plan.transform(y, plan.newScratch(), forward);
                assertClose(naive(x, n, forward), y, 2 * n, n, "four-step " + split[0] + "x" + split[1]);
            }
        }
    }

    /** Output j of the DFT summed directly, for lengths too long to sum them all. */
    private static double[] naiveAt(double[] x, int n, int j, boolean forward) {
        double s = forward ? -1 : 1, re = 0, im = 0;
        for (int m = 0; m < n; m++) {
            double angle = s * 2 * Math.PI * (((long) j * m) % n) / n;
            double c = Math.cos(angle), sn = Math.sin(angle);
            re += x[2 * m] * c - x[2 * m + 1] * sn;
            im += x[2 * m] * sn + x[2 * m + 1] * c;
        }
        return new double[] {re, im};
    }

    @Test
    void longTransformsEqualTheDefinitionAtSampledOutputs() {
        // 2^19 and 3 * 2^17 split in four steps; 2 * 5^7 too; 999,983 is prime: Bluestein over a four-step 2,000,000
        int[] lengths = {1 << 19, 3 << 17, 2 * 78_125, 999_983};
        Random pick = new Random(5);
        for (int n : lengths) {
            ComplexFft plan = ComplexFft.of(n);
            assertTrue(n == 999_983 ? plan instanceof BluesteinFft : plan instanceof FourStepFft, plan + " " + n);
            double[] x = random(2 * n, n);
            for (boolean forward : new boolean[] {true, false}) {
                double[] y = x.clone();
                plan.transform(y, plan.newScratch(), forward);
                double tol = 1e-14 * Math.sqrt(n) * Math.log(n);
                for (int probe = 0; probe < 6; probe++) {
                    int j = probe < 2 ? probe * (n - 1) : pick.nextInt(n);
                    double[] expected = naiveAt(x, n, j, forward);
                    assertEquals(expected[0], y[2 * j], tol, "n=" + n + " re " + j);
                    assertEquals(expected[1], y[2 * j + 1], tol, "n=" + n + " im " + j);
                }
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
