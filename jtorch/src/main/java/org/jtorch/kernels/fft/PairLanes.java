package org.jtorch.kernels.fft;

import java.util.function.IntUnaryOperator;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Lane indexes for {@code selectFrom} between complex values stored as (re, im) pairs and the same values split into a
 * vector of real parts and one of imaginary parts: two vectors of pairs hold {@link #VL} values. The reversed forms put
 * value {@code VL - 1 - t} of the pairs in lane t, for the real transform's mirrored index {@code m - k}. Each is one
 * two-vector permute (on AVX-512, {@code vpermt2pd}) where element by element it took 2 VL loads and stores.
 */
final class PairLanes {
    private PairLanes() {}

    static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    static final int VL = S.length();

    /** Real and imaginary parts of the values in two vectors of pairs. */
    static final DoubleVector REALS = indexes(t -> 2 * t), IMAGS = indexes(t -> 2 * t + 1);

    static final DoubleVector REVERSED_REALS = indexes(t -> 2 * (VL - 1 - t)),
            REVERSED_IMAGS = indexes(t -> 2 * (VL - 1 - t) + 1);

    /** The first and the second vector of pairs from a vector of real parts and one of imaginary parts. */
    static final DoubleVector LOW_PAIRS = indexes(p -> slot(p, false)), HIGH_PAIRS = indexes(p -> slot(VL + p, false));

    static final DoubleVector REVERSED_LOW_PAIRS = indexes(p -> slot(p, true)),
            REVERSED_HIGH_PAIRS = indexes(p -> slot(VL + p, true));

    /** Lane t takes lane {@code VL - 1 - t}. */
    static final VectorShuffle<Double> REVERSE = VectorShuffle.fromOp(S, t -> VL - 1 - t);

    /** Where slot p of the pairs comes from: value p / 2, its real part (p even) or its imaginary part (p odd). */
    private static int slot(int p, boolean reversed) {
        int value = reversed ? VL - 1 - p / 2 : p / 2;
        return value + (p % 2) * VL;
    }

    private static DoubleVector indexes(IntUnaryOperator lane) {
        double[] ix = new double[VL];
        for (int t = 0; t < VL; t++) ix[t] = lane.applyAsInt(t);
        return DoubleVector.fromArray(S, ix, 0);
    }
}
