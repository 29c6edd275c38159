package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Vector API reductions over contiguous {@code float[]} ranges that {@link FloatSimd} lacks. Same species and
 * conventions as {@link FloatSimd}: a vector body up to {@code loopBound(n)}, then a scalar tail with the same formula.
 */
public final class FloatReduceSimd {
    private FloatReduceSimd() {}

    /** Minimum (NaN-propagating, as {@code Math.min}) of a non-empty range. */
    public static float min(float[] x, int xi, int n) {
        int i = 0;
        float m = Float.POSITIVE_INFINITY;
        int bound = FloatSimd.SPECIES.loopBound(n);
        if (bound > 0) {
            FloatVector acc = FloatVector.broadcast(FloatSimd.SPECIES, Float.POSITIVE_INFINITY);
            for (; i < bound; i += FloatSimd.SPECIES.length())
                acc = acc.min(FloatVector.fromArray(FloatSimd.SPECIES, x, xi + i));
            m = acc.reduceLanes(VectorOperators.MIN);
        }
        for (; i < n; i++) m = FloatSimd.Binary.MIN.apply(m, x[xi + i]);
        return m;
    }
}
