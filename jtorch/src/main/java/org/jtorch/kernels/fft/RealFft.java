package org.jtorch.kernels.fft;

import static org.jtorch.kernels.fft.PairLanes.S;
import static org.jtorch.kernels.fft.PairLanes.VL;

import jdk.incubator.vector.DoubleVector;

/**
 * The DFT of n real numbers ({@code n / 2 + 1} complex outputs, the rest being their conjugates) and its inverse, both
 * unnormalised. An even length runs one complex transform of {@code n / 2}: the reals, read as interleaved pairs, are
 * the complex signal {@code z_m = x_2m + i x_2m+1}, whose spectrum Z gives the even and odd halves' spectra {@code E_k
 * = (Z_k + conj Z_{M-k}) / 2}, {@code O_k = (Z_k - conj Z_{M-k}) / 2i}, and {@code X_k = E_k + exp(-2 pi i k / n) O_k};
 * the inverse runs the same steps backwards. An odd length runs the complex transform of n (pocketfft does the same for
 * the large primes it sends to Bluestein's algorithm). As in pocketfft and FFTW, the inverse reads only the real parts
 * of {@code X_0} and (n even) {@code X_{n/2}}: the imaginary parts a Hermitian spectrum cannot have.
 */
final class RealFft {
    private final int n;
    private final ComplexFft complex;
    /** exp(-2 pi i k / n) for k <= n / 2, its real and imaginary parts; even lengths only. */
    private final double[] twRe, twIm;

    RealFft(int n) {
        if (n < 1) throw new IllegalArgumentException("FFT length must be positive, got " + n);
        this.n = n;
        boolean even = n % 2 == 0;
        this.complex = ComplexFft.of(even ? n / 2 : n);
        int m = n / 2;
        this.twRe = even ? new double[m + 1] : null;
        this.twIm = even ? new double[m + 1] : null;
        if (even) {
            for (int k = 0; k <= m; k++) {
                double angle = -2 * Math.PI * ((double) k / n);
                twRe[k] = Math.cos(angle);
                twIm[k] = Math.sin(angle);
            }
        }
    }

    int length() {
        return n;
    }

    /** Doubles a line buffer must hold: {@code n} reals, or {@code n / 2 + 1} complex values, or an odd n's signal. */
    int bufferLength() {
        return n % 2 == 0 ? n + 2 : 2 * n;
    }

    double[][] newScratch() {
        return complex.newScratch();
    }

    /**
     * {@code buf[0, n)} holds the reals on entry; on return {@code buf[0, n + 2)} (n even) or {@code buf[0, n + 1)} (n
     * odd) holds the {@code n / 2 + 1} complex outputs. {@code buf} has {@link #bufferLength()} doubles.
     */
    void forward(double[] buf, double[][] scratch) {
        forward(buf, 0, buf, buf, 0, 1, scratch);
    }

    /**
     * The transform of the reals at {@code src[offset, offset + n)}, its {@code n / 2 + 1} complex outputs times
     * {@code scale} written to {@code out} from {@code outOffset}; {@code buf} ({@link #bufferLength()} doubles) is
     * work space, and may be {@code out} (with {@code outOffset} 0) or {@code src} (with {@code offset} 0). Why not
     * always in {@code buf}: read from and written to a tensor's own arrays, an even length skips two copies of the
     * signal.
     */
    void forward(
            double[] src, int offset, double[] buf, double[] out, int outOffset, double scale, double[][] scratch) {
        if (n % 2 != 0) {
            for (int k = n - 1; k >= 0; k--) {
                buf[2 * k] = src[offset + k];
                buf[2 * k + 1] = 0;
            }
            complex.transform(buf, scratch, true);
            if (out != buf || outOffset != 0 || scale != 1) {
                for (int k = 0; k < n + 1; k++) out[outOffset + k] = buf[k] * scale;
            }
            return;
        }
        int m = n / 2;
        complex.transform(src, offset, buf, scratch, true);
        double z0r = buf[0], z0i = buf[1];
        // pairs (k, m - k) are read together and written together, so out may be buf
        int k0 = 1;
        for (; 2 * (k0 + VL - 1) < m; k0 += VL) spectrumLanes(buf, out, outOffset, scale, k0);
        for (int k = k0, j = m - k0; k <= j; k++, j--) {
            double zkr = buf[2 * k], zki = buf[2 * k + 1], zjr = buf[2 * j], zji = buf[2 * j + 1];
            spectrumPair(out, outOffset, scale, k, zkr, zki, zjr, zji);
            if (j != k) spectrumPair(out, outOffset, scale, j, zjr, zji, zkr, zki);
        }
        out[outOffset] = (z0r + z0i) * scale;
        out[outOffset + 1] = 0;
        out[outOffset + 2 * m] = (z0r - z0i) * scale;
        out[outOffset + 2 * m + 1] = 0;
    }

    /**
     * {@link #spectrumPair} for {@code k} in {@code [k0, k0 + VL)} and their mirrors {@code j = m - k}, one lane per
     * pair, the same arithmetic: the block and its mirror must not overlap.
     */
    private void spectrumLanes(double[] buf, double[] out, int outOffset, double scale, int k0) {
        int j0 = n / 2 - k0 - VL + 1;
        DoubleVector a = DoubleVector.fromArray(S, buf, 2 * k0), b = DoubleVector.fromArray(S, buf, 2 * k0 + VL);
        DoubleVector zkr = PairLanes.REALS.selectFrom(a, b), zki = PairLanes.IMAGS.selectFrom(a, b);
        a = DoubleVector.fromArray(S, buf, 2 * j0);
        b = DoubleVector.fromArray(S, buf, 2 * j0 + VL);
        DoubleVector zjr = PairLanes.REVERSED_REALS.selectFrom(a, b), zji = PairLanes.REVERSED_IMAGS.selectFrom(a, b);
        DoubleVector wr = DoubleVector.fromArray(S, twRe, k0), wi = DoubleVector.fromArray(S, twIm, k0);
        DoubleVector er = zkr.add(zjr).mul(0.5), ei = zki.sub(zji).mul(0.5);
        DoubleVector or = zki.add(zji).mul(0.5), oi = zkr.sub(zjr).mul(-0.5);
        DoubleVector xr = er.add(wr.mul(or)).sub(wi.mul(oi)).mul(scale);
        DoubleVector xi = ei.add(wr.mul(oi)).add(wi.mul(or)).mul(scale);
        PairLanes.LOW_PAIRS.selectFrom(xr, xi).intoArray(out, outOffset + 2 * k0);
        PairLanes.HIGH_PAIRS.selectFrom(xr, xi).intoArray(out, outOffset + 2 * k0 + VL);
        wr = DoubleVector.fromArray(S, twRe, j0).rearrange(PairLanes.REVERSE);
        wi = DoubleVector.fromArray(S, twIm, j0).rearrange(PairLanes.REVERSE);
        er = zjr.add(zkr).mul(0.5);
        ei = zji.sub(zki).mul(0.5);
        or = zji.add(zki).mul(0.5);
        oi = zjr.sub(zkr).mul(-0.5);
        xr = er.add(wr.mul(or)).sub(wi.mul(oi)).mul(scale);
        xi = ei.add(wr.mul(oi)).add(wi.mul(or)).mul(scale);
        PairLanes.REVERSED_LOW_PAIRS.selectFrom(xr, xi).intoArray(out, outOffset + 2 * j0);
        PairLanes.REVERSED_HIGH_PAIRS.selectFrom(xr, xi).intoArray(out, outOffset + 2 * j0 + VL);
    }

    /** {@code X_k} times {@code scale} from {@code Z_k} and {@code Z_{m-k}}. */
    private void spectrumPair(
            double[] out, int outOffset, double scale, int k, double zkr, double zki, double zjr, double zji) {
        // E = (Z_k + conj Z_j) / 2, O = (Z_k - conj Z_j) / 2i
        double er = 0.5 * (zkr + zjr), ei = 0.5 * (zki - zji);
        double or = 0.5 * (zki + zji), oi = -0.5 * (zkr - zjr);
        double wr = twRe[k], wi = twIm[k];
        out[outOffset + 2 * k] = (er + wr * or - wi * oi) * scale;
        out[outOffset + 2 * k + 1] = (ei + wr * oi + wi * or) * scale;
    }

    /**
     * {@code buf} holds the {@code n / 2 + 1} complex inputs on entry; on return {@code buf[0, n)} holds the n reals.
     */
    void inverse(double[] buf, double[][] scratch) {
        int m = n / 2;
        if (n % 2 != 0) {
            buf[1] = 0;
            for (int k = 1; k <= m; k++) {
                buf[2 * (n - k)] = buf[2 * k];
                buf[2 * (n - k) + 1] = -buf[2 * k + 1];
            }
            complex.transform(buf, scratch, false);
            for (int k = 0; k < n; k++) buf[k] = buf[2 * k];
            return;
        }
        double x0 = buf[0], xm = buf[2 * m];
        for (int k = 1, j = m - 1; k <= j; k++, j--) {
            double xkr = buf[2 * k], xki = buf[2 * k + 1], xjr = buf[2 * j], xji = buf[2 * j + 1];
            signalPair(buf, k, xkr, xki, xjr, xji);
            if (j != k) signalPair(buf, j, xjr, xji, xkr, xki);
        }
        buf[0] = x0 + xm;
        buf[1] = x0 - xm;
        complex.transform(buf, scratch, false);
    }

    /** {@code Z_k = E_k + i O_k} from {@code X_k} and {@code X_{m-k}}. */
    private void signalPair(double[] buf, int k, double xkr, double xki, double xjr, double xji) {
        // E = X_k + conj X_j, O = (X_k - conj X_j) conj(w^k)
        double er = xkr + xjr, ei = xki - xji;
        double dr = xkr - xjr, di = xki + xji;
        double wr = twRe[k], wi = -twIm[k];
        double or = dr * wr - di * wi, oi = dr * wi + di * wr;
        buf[2 * k] = er - oi;
        buf[2 * k + 1] = ei + or;
    }
}
