package org.jtorch.ops;

/**
 * The two axes of a strided 2-d transposed convolution split by output phase ({@link SubPixelAxis}), and the
 * zero-framed layout that turns each phase's taps into GEMMs on shifted views: a channel of the input is kept as a
 * plane of {@code rows.frame × width()} elements (the input at row {@code -rows.lo}, column {@code -cols.lo}, zeros
 * around it), and a phase's outputs as a grid with the same row length, output (q, qx) at {@code q·width() + qx}. Then
 * tap t of the phase reads the plane at grid index + {@link #shift}: one matrix of [channels, grid] with rows a plane
 * apart, for any tap, with no copy. Grid columns past the phase's count are computed and dropped (a few per row); the
 * frame is wide enough that they never wrap into the next row's values.
 */
record SubPixelFrame(SubPixelAxis rows, SubPixelAxis cols, int inH, int inW) {

    /** The frame of the transposed convolution that is the input gradient of convolution {@code g}. */
    static SubPixelFrame of(ConvOps.Geometry g) {
        int inH = (int) g.oh(), inW = (int) g.ow();
        return new SubPixelFrame(
                SubPixelAxis.of(inH, (int) g.h(), (int) g.kh(), (int) g.sh(), (int) g.ph(), (int) g.dh()),
                SubPixelAxis.of(inW, (int) g.w(), (int) g.kw(), (int) g.sw(), (int) g.pw(), (int) g.dw()),
                inH,
                inW);
    }

    int width() {
        return cols.frame();
    }

    /** Elements of one framed channel. */
    int plane() {
        return rows.frame() * width();
    }

    /** Phases, row phase major. */
    int phases() {
        return rows.stride() * cols.stride();
    }

    /** Grid elements of phase p: its rows a {@link #width()} apart, the last one only as long as the phase's count. */
    int gridLength(int p) {
        int cy = rows.counts()[p / cols.stride()], cx = cols.counts()[p % cols.stride()];
        return cy == 0 || cx == 0 ? 0 : (cy - 1) * width() + cx;
    }

    /** The longest grid of any phase. */
    int maxGridLength() {
        int most = 0;
        for (int p = 0; p < phases(); p++) most = Math.max(most, gridLength(p));
        return most;
    }

    /** Where row tap a and column tap b of phase p read in a framed plane, for grid index 0. */
    int shift(int p, int a, int b) {
        return rows.start(p / cols.stride(), a) * width() + cols.start(p % cols.stride(), b);
    }

    /** The largest {@link #shift} of any tap. */
    int maxShift() {
        int most = 0;
        for (int p = 0; p < phases(); p++) {
            for (int a = 0; a < rows.taps()[p / cols.stride()].length; a++) {
                for (int b = 0; b < cols.taps()[p % cols.stride()].length; b++) most = Math.max(most, shift(p, a, b));
            }
        }
        return most;
    }

    /** Where input element (0, 0) is in a framed plane. */
    int origin() {
        return -rows.lo() * width() - cols.lo();
    }

    /**
     * Copies {@code channels} input planes ([inH, inW] each, from {@code from} in {@code x}) into the frames of
     * {@code dst} (one {@link #plane()} each), whose borders must already be zero.
     */
    void place(Object x, int from, int channels, Object dst) {
        place(x, from, channels, dst, 0, plane());
    }

    /** As above into frames {@code stride} elements apart, each from {@code at} (margins of zeros around them). */
    void place(Object x, int from, int channels, Object dst, int at, int stride) {
        int w = width(), origin = origin();
        for (int c = 0; c < channels; c++) {
            for (int y = 0; y < inH; y++) {
                System.arraycopy(x, from + (c * inH + y) * inW, dst, c * stride + at + origin + y * w, inW);
            }
        }
    }

    /** A zeroed array of {@code n} elements of {@code like}'s type (float[] or double[]). */
    static Object zeros(Object like, int n) {
        return like instanceof float[] ? new float[n] : new double[n];
    }

    /** Zeroes elements [from, to) of a float[] or double[]. */
    static void clear(Object a, int from, int to) {
        if (a instanceof float[] f) java.util.Arrays.fill(f, from, to, 0f);
        else java.util.Arrays.fill((double[]) a, from, to, 0);
    }
}
