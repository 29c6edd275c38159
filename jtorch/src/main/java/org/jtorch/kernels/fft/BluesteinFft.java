package org.jtorch.kernels.fft;

import java.util.Arrays;

/**
 * The complex DFT of any length n as a convolution (Bluestein's chirp z-transform): with {@code w_k = exp(i pi k^2 /
 * n)}, {@code jm = (j^2 + m^2 - (j - m)^2) / 2} turns the forward DFT into {@code y_j = conj(w_j) sum_m (x_m conj(w_m))
 * w_{j-m}}, a cyclic convolution of length {@code n2 >= 2n - 1} that a transform of a 2-3-5-smooth length computes. The
 * backward transform is the conjugate of the forward one of the conjugate input.
 *
 * <p>When it pays is pocketfft's rule ({@link #pays}): three transforms of length n2 beat one mixed-radix transform of
 * n only when n has a large prime factor.
 */
final class BluesteinFft implements ComplexFft {
    /** Largest convolution length: its scratch must fit Java arrays of doubles. */
    private static final int MAX_CONVOLUTION = (Integer.MAX_VALUE - 8) / 4;

    private final int n;
    private final int n2;
    private final ComplexFft convolution;
    /** {@code w_k}, k < n, as (cos, sin) pairs. */
    private final double[] chirp;
    /** The DFT of the chirp laid out for a cyclic convolution, divided by n2 (the inverse transform's scale). */
    private final double[] chirpSpectrum;

    BluesteinFft(int n) {
        this.n = n;
        this.n2 = goodSize(2L * n - 1);
        this.convolution = ComplexFft.of(n2);
        this.chirp = new double[2 * n];
        for (int k = 0; k < n; k++) {
            // k^2 mod 2n keeps the angle below 2 pi, so it loses no precision for large k
            double angle = Math.PI * (double) (((long) k * k) % (2L * n)) / n;
            chirp[2 * k] = Math.cos(angle);
            chirp[2 * k + 1] = Math.sin(angle);
        }
        this.chirpSpectrum = new double[2 * n2];
        chirpSpectrum[0] = chirp[0] / n2;
        chirpSpectrum[1] = chirp[1] / n2;
        for (int k = 1; k < n; k++) {
            chirpSpectrum[2 * k] = chirpSpectrum[2 * (n2 - k)] = chirp[2 * k] / n2;
            chirpSpectrum[2 * k + 1] = chirpSpectrum[2 * (n2 - k) + 1] = chirp[2 * k + 1] / n2;
        }
        convolution.transform(chirpSpectrum, convolution.newScratch(), true);
    }

    /**
     * pocketfft's choice: Bluestein when 1.5 times two transforms of the padded length cost less than the direct one.
     */
    static boolean pays(int n) {
        if (n < 50) return false;
        int[] f = MixedRadixFft.factorize(n);
        int largest = f[0];
        for (int x : f) largest = Math.max(largest, x);
        if ((long) largest * largest <= n) return false;
        long padded = goodSize(2L * n - 1);
        if (padded > MAX_CONVOLUTION) return false;
        return 1.5 * 2 * costGuess((int) padded) < costGuess(n);
    }

    /** pocketfft's {@code cost_guess}: n times the sum of the factors, large factors weighted 1.1. */
    private static double costGuess(int n) {
        double sum = 0;
        // the power of two as radix-4 factors and one 2, however the passes group it (8s, 4 x 4)
        int len = n;
        for (; len % 4 == 0; len /= 4) sum += 4;
        if (len % 2 == 0) {
            sum += 2;
            len /= 2;
        }
        for (int x : MixedRadixFft.factorize(len)) sum += x <= 5 ? x : 1.1 * x;
        return sum * n;
    }

    /** The smallest 2^a 3^b 5^c at least {@code min}. */
    static int goodSize(long min) {
        long best = Long.highestOneBit(min);
        if (best < min) best <<= 1;
        for (long f5 = 1; f5 < best; f5 *= 5) {
            for (long f35 = f5; f35 < best; f35 *= 3) {
                long x = f35;
                while (x < min) x <<= 1;
                best = Math.min(best, x);
            }
        }
        if (best > MAX_CONVOLUTION) {
            throw new IllegalArgumentException("FFT of length " + (min + 1) / 2 + " needs a convolution of length "
                    + best + ", more than Java arrays hold");
        }
        return (int) best;
    }

    @Override
    public int length() {
        return n;
    }

    @Override
    public double[][] newScratch() {
        double[][] inner = convolution.newScratch();
        double[][] all = new double[inner.length + 1][];
        all[0] = new double[2 * n2];
        System.arraycopy(inner, 0, all, 1, inner.length);
        return all;
    }

    @Override
    public void transform(double[] data, double[][] scratch, boolean forward) {
        // a = x conj(w), zero-padded to n2; the backward transform runs on conj(x) and conjugates the result
        double s = forward ? 1 : -1;
        double[] a = scratch[0];
        for (int k = 0; k < n; k++) {
            double xr = data[2 * k], xi = s * data[2 * k + 1], wr = chirp[2 * k], wi = chirp[2 * k + 1];
            a[2 * k] = xr * wr + xi * wi;
            a[2 * k + 1] = xi * wr - xr * wi;
        }
        Arrays.fill(a, 2 * n, 2 * n2, 0.0);
        double[][] inner = Arrays.copyOfRange(scratch, 1, scratch.length);
        convolution.transform(a, inner, true);
        for (int k = 0; k < n2; k++) {
            double ar = a[2 * k], ai = a[2 * k + 1], br = chirpSpectrum[2 * k], bi = chirpSpectrum[2 * k + 1];
            a[2 * k] = ar * br - ai * bi;
            a[2 * k + 1] = ar * bi + ai * br;
        }
        convolution.transform(a, inner, false);
        for (int k = 0; k < n; k++) {
            double cr = a[2 * k], ci = a[2 * k + 1], wr = chirp[2 * k], wi = chirp[2 * k + 1];
            data[2 * k] = cr * wr + ci * wi;
            data[2 * k + 1] = s * (ci * wr - cr * wi);
        }
    }
}
