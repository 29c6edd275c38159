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
     * Transforms {@code src[offset, offset + 2n)} into {@code dst[0, 2n)}, leaving {@code src} as it was unless it is
     * {@code dst}: a copy and the in-place transform, or, for a plan whose first pass reads its input where it lies, no
     * copy (which saves a pass over memory when the input is a tensor's own array).
     */
    default void transform(double[] src, int offset, double[] dst, double[][] scratch, boolean forward) {
        if (src != dst || offset != 0) System.arraycopy(src, offset, dst, 0, 2 * length());
        transform(dst, scratch, forward);
    }

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
