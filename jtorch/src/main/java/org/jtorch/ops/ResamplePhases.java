package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.kernels.cpu.simd.ResampleSimd;

/**
 * The periodic interior of a two-tap {@link ResampleAxis} (linear interpolation) with an integer scale s: for outputs
 * {@code o = r + s·j} with j in [jLo, jHi), phase r reads inputs {@code j + base[r]} and {@code j + base[r] + 1} with
 * the fixed weights {@code w0[r]}, {@code w1[r]}. The ends (clamped source positions) and tables whose weights do not
 * repeat (align_corners=True in general, non-integer scales) are left to the general loops; the pattern is checked on
 * the table itself, entry by entry, so only outputs that it describes exactly take the phase loops.
 *
 * <p>Row passes along the last dim then read contiguous runs instead of gathering through the table: forward, each
 * phase is a blend of two runs of the input row (for s = 2, two vector blends zipped into consecutive outputs);
 * backward, each interior input's gradient is gathered as the weighted sum of the output gradients that read it, at
 * fixed offsets, in the order the general scatter adds them (increasing output), so the sums are the same.
 *
 * @param iLo first input whose gradient comes from interior outputs alone
 * @param iHi end of those inputs ({@code iHi <= iLo}: no backward phase loop)
 * @param offsets the backward's terms: input i receives output {@code s·i + offsets[t]} times {@code weight[t]}, in
 *     increasing output order
 * @param weight the terms' weights
 * @param edges the outputs that reach inputs outside [iLo, iHi), ascending
 */
record ResamplePhases(
        ResampleAxis axis,
        int scale,
        int jLo,
        int jHi,
        int[] base,
        float[] w0,
        float[] w1,
        int iLo,
        int iHi,
        int[] offsets,
        float[] weight,
        int[] edges) {

    /** Interior outputs per phase below which the general loops serve as well. */
    private static final int MIN_RUN = 4;

    /** The phases of {@code axis}, or null when it has no periodic interior of at least {@link #MIN_RUN} per phase. */
    static ResamplePhases of(ResampleAxis axis) {
        int in = axis.in(), out = axis.out();
        if (axis.taps() != 2 || in < 2 * MIN_RUN || out % in != 0 || out / in < 2) return null;
        int s = out / in, ref = in / 2;
        int[] base = new int[s];
        float[] w0 = new float[s], w1 = new float[s];
        int[] idx = axis.idx();
        float[] wf = axis.wf();
        for (int r = 0; r < s; r++) {
            int o = r + s * ref;
            base[r] = idx[2 * o] - ref;
            w0[r] = wf[2 * o];
            w1[r] = wf[2 * o + 1];
        }
        int jLo = ref, jHi = ref;
        while (jHi < in && matches(axis, s, jHi, base, w0, w1)) jHi++;
        if (jHi == ref) return null;
        while (jLo > 0 && matches(axis, s, jLo - 1, base, w0, w1)) jLo--;
        if (jHi - jLo < MIN_RUN) return null;
        // backward: inputs all of whose readers are interior outputs, and which no other output reads
        int iLo = 0, iHi = in;
        for (int r = 0; r < s; r++) {
            iLo = Math.max(iLo, jLo + base[r] + 1);
            iHi = Math.min(iHi, jHi + base[r]);
        }
        for (int o = 0; o < s * jLo; o++) iLo = Math.max(iLo, idx[2 * o + 1] + 1);
        for (int o = s * jHi; o < out; o++) iHi = Math.min(iHi, idx[2 * o]);
        int[] offset = new int[2 * s];
        float[] weight = new float[2 * s];
        Integer[] order = new Integer[2 * s];
        for (int r = 0; r < s; r++) {
            for (int t = 0; t < 2; t++) {
                offset[2 * r + t] = r - s * (base[r] + t);
                weight[2 * r + t] = t == 0 ? w0[r] : w1[r];
                order[2 * r + t] = 2 * r + t;
            }
        }
        Arrays.sort(order, (a, b) -> Integer.compare(offset[a], offset[b]));
        int[] sortedOffset = new int[2 * s];
        float[] sortedWeight = new float[2 * s];
        for (int k = 0; k < 2 * s; k++) {
            sortedOffset[k] = offset[order[k]];
            sortedWeight[k] = weight[order[k]];
        }
        int lo = iLo, hi = iHi;
        int[] edges = java.util.stream.IntStream.range(0, out)
                .filter(o -> outside(idx[2 * o], lo, hi) || outside(idx[2 * o + 1], lo, hi))
                .toArray();
        return new ResamplePhases(axis, s, jLo, jHi, base, w0, w1, iLo, iHi, sortedOffset, sortedWeight, edges);
    }

    private static boolean outside(int i, int lo, int hi) {
        return i < lo || i >= hi;
    }

    /** Whether every phase's outputs at j read as the pattern says. */
    private static boolean matches(ResampleAxis axis, int s, int j, int[] base, float[] w0, float[] w1) {
        int[] idx = axis.idx();
        float[] wf = axis.wf();
        for (int r = 0; r < s; r++) {
            int o = r + s * j;
            if (idx[2 * o] != j + base[r] || idx[2 * o + 1] != j + base[r] + 1) return false;
            if (Float.compare(wf[2 * o], w0[r]) != 0 || Float.compare(wf[2 * o + 1], w1[r]) != 0) return false;
        }
        return true;
    }

    /** One output row (out long, at {@code d}) from one input row (at {@code s}). */
    void forwardRow(float[] src, int s, float[] dst, int d) {
        int[] idx = axis.idx();
        float[] w = axis.wf();
        for (int o = 0; o < scale * jLo; o++) {
            dst[d + o] = w[2 * o] * src[s + idx[2 * o]] + w[2 * o + 1] * src[s + idx[2 * o + 1]];
        }
        if (scale == 2) {
            ResampleSimd.blendPairs(
                    src, s + jLo + base[0], w0[0], w1[0], s + jLo + base[1], w0[1], w1[1], dst, d + 2 * jLo, jHi - jLo);
        } else {
            for (int j = jLo; j < jHi; j++) {
                for (int r = 0; r < scale; r++) {
                    int from = s + j + base[r];
                    dst[d + r + scale * j] = w0[r] * src[from] + w1[r] * src[from + 1];
                }
            }
        }
        for (int o = scale * jHi; o < axis.out(); o++) {
            dst[d + o] = w[2 * o] * src[s + idx[2 * o]] + w[2 * o + 1] * src[s + idx[2 * o + 1]];
        }
    }

    /** Whether {@link #backwardRow} has an interior to compute by phase. */
    boolean hasBackward() {
        return iHi - iLo >= MIN_RUN;
    }

    /**
     * The adjoint of {@link #forwardRow}: one input-gradient row (in long, at {@code d}) from one output-gradient row
     * (at {@code s}). Each interior input gathers its terms with fixed weights and offsets (no table, no
     * read-modify-write of the input row per output as the general scatter does).
     */
    void backwardRow(float[] src, int s, float[] dst, int d) {
        int in = axis.in(), terms = offsets.length;
        for (int i = iLo; i < iHi; i++) {
            int o = s + scale * i;
            float acc = 0f;
            for (int t = 0; t < terms; t++) acc += weight[t] * src[o + offsets[t]];
            dst[d + i] = acc;
        }
        Arrays.fill(dst, d, d + iLo, 0f);
        Arrays.fill(dst, d + iHi, d + in, 0f);
        int[] idx = axis.idx();
        float[] w = axis.wf();
        for (int o : edges) {
            float g = src[s + o];
            if (outside(idx[2 * o], iLo, iHi)) dst[d + idx[2 * o]] += w[2 * o] * g;
            if (outside(idx[2 * o + 1], iLo, iHi)) dst[d + idx[2 * o + 1]] += w[2 * o + 1] * g;
        }
    }
}
