package org.jtorch.fft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * The long transforms through the op layer: the four-step split (with vector butterflies) and Bluestein's algorithm
 * over it, in float32 against the same transform of the float64 input, and the bits of a transform whatever the
 * intra-op thread count.
 */
class FftLargeTransformTest {
    /** Lengths of each size class: four-step of radix 2, 3 and 5 factors, partial blocks, a prime (Bluestein). */
    private static final long[] LENGTHS = {1 << 15, 3 * (1 << 14), 5 * 5 * 5 * 5 * 5 * 5 * 5, 33_000, 99_991};

    /**
     * float32 input x: the float32 result may differ from the float64 transform of the same (exactly widened) input by
     * the rounding of the output and the float32 inputs' own rounding, nothing else: a few {@code log2(n) eps ||x||_2}
     * at most, eps being float32's.
     */
    private static void assertFloat32Close(Tensor x32, Tensor y32, Tensor y64, long n) {
        double[] x = x32.toDoubleArray(), a = y32.toDoubleArray(), e = y64.toDoubleArray();
        double norm = 0;
        for (double v : x) norm += v * v;
        double tol = 2 * (Math.log(n) / Math.log(2)) * Math.ulp(1.0f) * Math.sqrt(norm);
        double worst = 0;
        for (int i = 0; i < e.length; i++) worst = Math.max(worst, Math.abs(a[i] - e[i]));
        assertTrue(worst <= tol, "n=" + n + ": max error " + worst + " > " + tol);
        // and the float64 result is the DFT's scale: a test that would pass with zeros must not
        assertTrue(Math.abs(e[2]) + Math.abs(e[3]) > 0, "n=" + n);
    }

    @Test
    void float32RfftAndFftMatchTheFloat64Transform() {
        for (long n : LENGTHS) {
            Torch.manualSeed(n);
            Tensor x = Torch.randn(new long[] {n}, DType.FLOAT32);
            assertFloat32Close(x, FFT.rfft(x), FFT.rfft(x.to(DType.FLOAT64)), n);
            Tensor z = Torch.randn(new long[] {n}, DType.COMPLEX64);
            assertFloat32Close(z, FFT.fft(z), FFT.fft(z.to(DType.COMPLEX128)), n);
            assertFloat32Close(
                    z,
                    FFT.ifft(z, null, -1, FFT.Norm.FORWARD),
                    FFT.ifft(z.to(DType.COMPLEX128), null, -1, FFT.Norm.FORWARD),
                    n);
        }
    }

    /**
     * float64 lines that start inside their storage are transformed where they lie (no copy in or out); the same values
     * read through strides (every other element of a wider tensor) take the buffered path. Both run one plan, so the
     * bits must agree, for every line, norm and length class (four-step, Bluestein, odd).
     */
    @Test
    void linesReadWhereTheyLieMatchLinesReadThroughStrides() {
        for (long n : new long[] {1 << 15, 3 * (1 << 14) + 2, 99_991, 12}) {
            Torch.manualSeed(n);
            Tensor lying = Torch.randn(new long[] {2 * n + 5}, DType.FLOAT64)
                    .narrow(0, 5, 2 * n)
                    .view(2, n);
            Tensor strided = Torch.stack(java.util.List.of(lying, lying), 2).select(2, 1);
            assertTrue(lying.isContiguous() && lying.storageOffset() == 5 && strided.stride()[1] == 2);
            for (FFT.Norm norm : new FFT.Norm[] {FFT.Norm.BACKWARD, FFT.Norm.ORTHO}) {
                double[] direct = FFT.rfft(lying, null, -1, norm).toDoubleArray();
                assertArrayEquals(FFT.rfft(strided, null, -1, norm).toDoubleArray(), direct, "n=" + n);
                assertTrue(Math.abs(direct[2]) + Math.abs(direct[3]) > 0, "n=" + n);
            }
        }
    }

    @Test
    void aTransformHasTheSameBitsOnOneThreadAndOnTwo() {
        int before = Torch.getNumThreads();
        try {
            Torch.manualSeed(3);
            Tensor z = Torch.randn(new long[] {3, 1 << 16}, DType.COMPLEX128);
            Torch.setNumThreads(1);
            double[] one = FFT.fft(z).toDoubleArray();
            Torch.setNumThreads(2);
            double[] two = FFT.fft(z).toDoubleArray();
            assertArrayEquals(one, two);
        } finally {
            Torch.setNumThreads(before);
        }
    }
}
