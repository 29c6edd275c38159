package org.jtorch.kernels.cpu.simd;

import static org.jtorch.kernels.cpu.simd.FloatSimd.SPECIES;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A float32 max pool over {@link #lanes()} planes at once, one plane a lane. Every plane has the same windows, so each
 * lane runs exactly the scalar scan of its plane (the same positions in the same order, the first maximum kept, a NaN
 * taking over), and the result is the scalar kernel's bit for bit; only the planes are side by side. A batched pool has
 * many planes (64 examples × channels under vmap), while the windows of one plane are short and their maxima
 * unpredictable branches: the scalar scan spends most of its time on mispredictions.
 */
public final class MaxPoolSimd {
    private MaxPoolSimd() {}

    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, SPECIES.vectorShape());

    private static final VectorSpecies<Long> LONGS = VectorSpecies.of(long.class, SPECIES.vectorShape());

    /** Planes one call of {@link #maxPlanes} pools. */
    public static int lanes() {
        return SPECIES.length();
    }

    /**
     * Pools one plane whose windows all read the same taps: window o reads {@code x[xBase + start[o] + shift[k]]} for k
     * in order and records {@code start[o]} when nothing beats −∞. {@code lanes()} consecutive windows are scanned side
     * by side, one a lane, each exactly as the scalar scan (the first maximum kept, a NaN taking over), so the result
     * is the scalar kernel's bit for bit. {@code start} holds {@code out} windows followed by padding up to a whole
     * number of lanes, each padding entry a position inside the plane (read, never written). Window o's maximum goes to
     * {@code values[valuesBase + o]}, its position to {@code indices[indicesBase + o]}.
     */
    public static void maxWindows(
            float[] x,
            int xBase,
            int[] start,
            int[] shift,
            int out,
            float[] values,
            int valuesBase,
            long[] indices,
            int indicesBase) {
        int lanes = SPECIES.length();
        FloatVector lowest = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
        for (int o = 0; o < out; o += lanes) {
            IntVector first = IntVector.fromArray(INTS, start, o), where = first;
            FloatVector max = lowest;
            for (int k = 0; k < shift.length; k++) {
                FloatVector v = FloatVector.fromArray(SPECIES, x, xBase + shift[k], start, o);
                VectorMask<Float> wins = v.compare(VectorOperators.GT, max).or(v.test(VectorOperators.IS_NAN));
                max = max.blend(v, wins);
                where = where.blend(first.add(shift[k]), wins.cast(INTS));
            }
            int count = Math.min(lanes, out - o), half = LONGS.length();
            max.intoArray(values, valuesBase + o, SPECIES.indexInRange(0, count));
            for (int part = 0; part * half < count; part++) { // each half of the positions widened to int64
                LongVector wide = (LongVector) where.convertShape(VectorOperators.I2L, LONGS, part);
                wide.intoArray(indices, indicesBase + o + part * half, LONGS.indexInRange(0, count - part * half));
            }
        }
    }

    /**
     * Pools planes {@code [0, lanes())} of {@code x}, plane l at {@code xBase + l·volume}: window o reads positions
     * {@code at[from[o]]} up to {@code at[from[o + 1]]} of its plane and records {@code first[o]} when nothing beats
     * −∞. Plane l's maxima go to {@code values[valuesBase + l·out + o]}, their positions to {@code indices[indicesBase
     * + l·out + o]}.
     */
    public static void maxPlanes(
            float[] x,
            int xBase,
            int volume,
            int[] at,
            int[] from,
            int[] first,
            float[] values,
            int valuesBase,
            long[] indices,
            int indicesBase) {
        int lanes = SPECIES.length(), out = first.length;
        int[] planeAt = new int[lanes], outAt = new int[lanes], best = new int[lanes];
        for (int l = 0; l < lanes; l++) {
            planeAt[l] = l * volume;
            outAt[l] = l * out;
        }
        FloatVector lowest = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
        for (int o = 0; o < out; o++) {
            FloatVector max = lowest;
            IntVector where = IntVector.broadcast(INTS, first[o]);
            for (int k = from[o]; k < from[o + 1]; k++) {
                FloatVector v = FloatVector.fromArray(SPECIES, x, xBase + at[k], planeAt, 0);
                VectorMask<Float> wins = v.compare(VectorOperators.GT, max).or(v.test(VectorOperators.IS_NAN));
                max = max.blend(v, wins);
                where = where.blend(at[k], wins.cast(INTS));
            }
            max.intoArray(values, valuesBase + o, outAt, 0);
            where.intoArray(best, 0);
            for (int l = 0; l < lanes; l++) indices[indicesBase + l * out + o] = best[l];
        }
    }
}
