package org.jtorch.ops;

import java.util.Arrays;

/**
 * One spatial axis of a strided transposed convolution split by output phase (sub-pixel decomposition): output position
 * {@code r + s·q} (phase r, stride s) receives input position {@code q + offsets[r][t]} through kernel tap
 * {@code taps[r][t]}, for every tap t of the phase, so each phase is a dense stride-1 correlation of the input with the
 * sub-kernel of its taps. A tap k lands on phase r when {@code r + padding - k·dilation} is a multiple of the stride,
 * and its offset is that quotient; any dilation works, a phase may have no taps (its outputs are the bias alone).
 *
 * <p>The frame {@code [lo, lo + frame)} holds every input position any phase reads: the input's [0, in) and, around it,
 * the zeros the taps read past either end.
 *
 * @param counts output positions of each phase
 * @param taps kernel taps of each phase, ascending
 * @param offsets the input offset of each phase's taps
 * @param lo first frame position (at most 0)
 * @param frame positions in the frame (at least {@code in})
 */
record SubPixelAxis(int stride, int[] counts, int[][] taps, int[][] offsets, int lo, int frame) {

    /** The phases of an axis of {@code in} input positions and {@code out} output positions. */
    static SubPixelAxis of(int in, int out, int kernel, int stride, int padding, int dilation) {
        int[] counts = new int[stride];
        int[][] taps = new int[stride][], offsets = new int[stride][];
        int lo = 0, hi = in;
        for (int r = 0; r < stride; r++) {
            counts[r] = r < out ? Math.ceilDiv(out - r, stride) : 0;
            int[] t = new int[kernel], o = new int[kernel];
            int m = 0;
            for (int k = 0; k < kernel; k++) {
                int num = r + padding - k * dilation;
                if (Math.floorMod(num, stride) != 0) continue;
                t[m] = k;
                o[m] = Math.floorDiv(num, stride);
                if (counts[r] > 0) {
                    lo = Math.min(lo, o[m]);
                    hi = Math.max(hi, counts[r] + o[m]);
                }
                m++;
            }
            taps[r] = Arrays.copyOf(t, m);
            offsets[r] = Arrays.copyOf(o, m);
        }
        return new SubPixelAxis(stride, counts, taps, offsets, lo, hi - lo);
    }

    /** Where phase r's tap t reads, as a frame position, for the phase's output q = 0. */
    int start(int r, int t) {
        return offsets[r][t] - lo;
    }
}
