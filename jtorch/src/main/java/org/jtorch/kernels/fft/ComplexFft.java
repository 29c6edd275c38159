package org.jtorch.kernels.fft;

/**
 * An unnormalised complex DFT of one fixed length: {@code y[j] = sum_m x[m] exp(s 2 pi i j m / n)} with {@code s = -1}
 * forward and {@code +1} backward. Data are interleaved (re, im) doubles, {@code 2n} of them, transformed in place. A
 * plan is immutable once made and may be used by many threads at once, each with its own scratch.
 */
sealed interface ComplexFft permits MixedRadixFft, BluesteinFft, FourStepFft {
    /** The transform length. */
    int length();

    /** New buffers for {@link #transform}: made once per thread and reused for every line it transforms. */
    double[][] newScratch();

    /** Transforms {@code data[0, 2n)} in place, using {@code scratch} from {@link #newScratch()}. */
    void transform(double[] data, double[][] scratch, boolean forward);

    /**
     * The plan for length {@code n}: Bluestein's algorithm where large prime factors make it cheaper, else the
     * four-step split where n is too long for the caches and has a divisor near its square root, else mixed radix.
     */
    static ComplexFft of(int n) {
        if (n < 1) throw new IllegalArgumentException("FFT length must be positive, got " + n);
        if (BluesteinFft.pays(n)) return new BluesteinFft(n);
        int n1 = FourStepFft.split(n);
        return n1 > 0 ? new FourStepFft(n, n1) : new MixedRadixFft(n);
    }
}
