package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Splitting a {@code float[]} row into its even and odd elements and merging two rows back, as vector shuffles: the
 * column phases of a stride-2 transposed convolution (its output rows interleave two phases' grids). The scalar loops
 * that did this ran at about one element per nanosecond, a sizeable share of the convolution's time next to its GEMMs.
 * Each method runs the vector body over whole vectors and the same formula as a scalar tail.
 */
public final class PairSimd {
    private PairSimd() {}

    private static final VectorSpecies<Float> SPECIES = FloatSimd.SPECIES;
    private static final int L = SPECIES.length();

    /** Lane n takes source lane 2n (+1 for ODD) of the pair (first, second); an index below 0 selects the second. */
    private static final VectorShuffle<Float> EVEN = pairShuffle(0), ODD = pairShuffle(1);

    /** Lane n takes lane n/2 of the first vector (even n) or of the second (odd n); from lane L/2 on for HIGH. */
    private static final VectorShuffle<Float> LOW = zipShuffle(0), HIGH = zipShuffle(L / 2);

    private static VectorShuffle<Float> pairShuffle(int parity) {
        int[] idx = new int[L];
        for (int n = 0; n < L; n++) {
            int s = 2 * n + parity;
            idx[n] = s < L ? s : s - 2 * L; // s − L in the second vector, as an exceptional index
        }
        return VectorShuffle.fromArray(SPECIES, idx, 0);
    }

    private static VectorShuffle<Float> zipShuffle(int from) {
        int[] idx = new int[L];
        for (int n = 0; n < L; n++) idx[n] = n % 2 == 0 ? from + n / 2 : from + n / 2 - L;
        return VectorShuffle.fromArray(SPECIES, idx, 0);
    }

    /** {@code even[e + j] = x[xi + 2j]} and {@code odd[o + j] = x[xi + 2j + 1]} for j in [0, n). */
    public static void split(float[] x, int xi, float[] even, int e, float[] odd, int o, int n) {
        int j = 0;
        for (; j + L <= n; j += L) {
            FloatVector a = FloatVector.fromArray(SPECIES, x, xi + 2 * j),
                    b = FloatVector.fromArray(SPECIES, x, xi + 2 * j + L);
            a.rearrange(EVEN, b).intoArray(even, e + j);
            a.rearrange(ODD, b).intoArray(odd, o + j);
        }
        for (; j < n; j++) {
            even[e + j] = x[xi + 2 * j];
            odd[o + j] = x[xi + 2 * j + 1];
        }
    }

    /** {@code out[to + 2j] = even[e + j] + c} and {@code out[to + 2j + 1] = odd[o + j] + c} for j in [0, n). */
    public static void merge(float[] even, int e, float[] odd, int o, float c, float[] out, int to, int n) {
        int j = 0;
        for (; j + L <= n; j += L) {
            FloatVector a = FloatVector.fromArray(SPECIES, even, e + j).add(c),
                    b = FloatVector.fromArray(SPECIES, odd, o + j).add(c);
            a.rearrange(LOW, b).intoArray(out, to + 2 * j);
            a.rearrange(HIGH, b).intoArray(out, to + 2 * j + L);
        }
        for (; j < n; j++) {
            out[to + 2 * j] = even[e + j] + c;
            out[to + 2 * j + 1] = odd[o + j] + c;
        }
    }
}
