package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.kernels.cpu.Parallel;

/**
 * The phases of a strided transposed convolution ({@link SubPixelFrame}) stacked into one matrix, so that the GEMMs run
 * over every phase at once rather than one small GEMM per phase and tap. It applies when every phase has the same
 * number of row taps and of column taps (a kernel that is a multiple of the stride, dilation one: the common upsampling
 * layers) and there is one group. Then row tap a and column tap c of phase p read the framed input at {@code shift(p,
 * a, c) = S_p + rowDelta(a) + colDelta(c)}, the same deltas for every phase (a phase's taps are a stride apart in the
 * kernel, one dilation step apart in the input). Phase p's grid is kept in its stacked rows ([phase, channel] rows)
 * from position {@code S_p − min S}, which makes the framed input position of stacked position m {@code m + min S +
 * rowDelta(a) + colDelta(c)} in every row: one shifted view of the frame serves all phases. The frame holds a copy of
 * the input per column tap, copy c shifted back by {@code colDelta(c)}, so that one view of the copies serves every
 * column tap of a row tap as well.
 *
 * <p>Per row tap a that gives the forward {@code out[P·C_y, span] += W_a[P·C_y, colTaps·C_x] · frame_a} and the weight
 * gradient {@code gW_a += stacked(gy) · frame_aᵀ}, and per tap the input gradient {@code gx += W_{a,c}ᵀ ·
 * stacked(gy)_{a,c}} (a contraction over P·C_y). At ConvTranspose2d(64, 32, 4, stride 2) on 32 × 32 inputs (rows of
 * about 1100 positions), on this machine (OpenBLAS, one thread): the forward's [128, 128] by [128, 1120] products run
 * at 1.6× the rate of the [32, 64] by [64, 1120] ones per phase and tap that they replace, the weight gradient's [128,
 * 1190] by [1190, 128] at 1.5× that of [32, 1120] by [1120, 64], the input gradient's [64, 128] by [128, 1120] at 1.1×
 * that of [64, 32] by [32, 1120]. Stacked positions outside a phase's grid are zeros, and the frame has zero margins
 * for the shifts that reach past it, so the extra terms add nothing.
 */
final class PhaseStack {
    final SubPixelFrame f;
    /** Phases, channels of the transposed convolution's input (x) and output (y). */
    final int phases, cx, cy;

    private final int rowTaps, colTaps;
    /**
     * Per row tap and per column tap: the tap's shift less the phase's first tap's, the same in every phase (a tap's
     * shift is its row part plus its column part).
     */
    private final int[] rowDelta, colDelta;
    /** Per phase: where grid index 0 is in a stacked row, {@code S_p − min S}. */
    private final int[] lead;
    /** The smallest first-tap shift of any phase. */
    private final int minShift;
    /** Stacked positions any phase's grid covers, the columns of the forward and the weight gradient's contraction. */
    final int span;
    /** Zeros before each framed channel (frame position 0), and the framed channel's length with its margins. */
    final int front, framePlane;
    /** Zeros before stacked position 0, and a stacked row's length. */
    final int rowFront, row;
    /** The input gradient's row: frame positions from the input's origin to its last element. */
    final int gradLength;

    private PhaseStack(SubPixelFrame f, int cx, int cy, int[] rowDelta, int[] colDelta) {
        this.f = f;
        this.phases = f.phases();
        this.rowTaps = rowDelta.length;
        this.colTaps = colDelta.length;
        this.cx = cx;
        this.cy = cy;
        this.rowDelta = rowDelta;
        this.colDelta = colDelta;
        int least = Integer.MAX_VALUE;
        for (int p = 0; p < phases; p++) least = Math.min(least, f.shift(p, 0, 0));
        minShift = least;
        lead = new int[phases];
        int cover = 0;
        for (int p = 0; p < phases; p++) {
            lead[p] = f.shift(p, 0, 0) - minShift;
            cover = Math.max(cover, lead[p] + f.gridLength(p));
        }
        span = cover;
        int minRow = Arrays.stream(rowDelta).min().orElseThrow(),
                maxRow = Arrays.stream(rowDelta).max().orElseThrow();
        int minCol = Arrays.stream(colDelta).min().orElseThrow(),
                maxCol = Arrays.stream(colDelta).max().orElseThrow();
        // copy c of a channel holds frame position P at front + P − colDelta[c]; row tap a reads stacked position m
        // at front + minShift + rowDelta[a] + m in every copy
        front = Math.max(Math.max(0, maxCol), -(minShift + minRow));
        framePlane = front + Math.max(f.plane() - minCol, minShift + maxRow + span);
        gradLength = (f.inH() - 1) * f.width() + f.inW();
        int firstRead = f.origin() - minShift - maxRow - maxCol; // the input gradient's lowest stacked position
        rowFront = Math.max(0, -firstRead);
        row = rowFront + Math.max(span, gradLength + f.origin() - minShift - minRow - minCol);
    }

    /**
     * The stack of convolution {@code g}'s input gradient (a transposed convolution), or null when it does not apply.
     */
    static PhaseStack of(ConvOps.Geometry g) {
        if (g.groups() != 1) return null;
        SubPixelFrame f = SubPixelFrame.of(g);
        int rowTaps = f.rows().taps()[0].length, colTaps = f.cols().taps()[0].length;
        for (int p = 0; p < f.phases(); p++) {
            if (f.gridLength(p) == 0
                    || f.rows().taps()[p / f.cols().stride()].length != rowTaps
                    || f.cols().taps()[p % f.cols().stride()].length != colTaps) return null;
        }
        if (rowTaps == 0 || colTaps == 0) return null;
        int[] rowDelta = new int[rowTaps], colDelta = new int[colTaps];
        for (int a = 0; a < rowTaps; a++) rowDelta[a] = f.shift(0, a, 0) - f.shift(0, 0, 0);
        for (int c = 0; c < colTaps; c++) colDelta[c] = f.shift(0, 0, c) - f.shift(0, 0, 0);
        for (int p = 1; p < f.phases(); p++) {
            for (int a = 0; a < rowTaps; a++) {
                for (int c = 0; c < colTaps; c++) {
                    if (f.shift(p, a, c) - f.shift(p, 0, 0) != rowDelta[a] + colDelta[c]) return null;
                }
            }
        }
        return new PhaseStack(f, (int) g.cout(), (int) g.cin(), rowDelta, colDelta);
    }

    /** Rows of the stacked matrices: a phase's output channels after another's. */
    int rows() {
        return phases * cy;
    }

    /** Columns of a row tap's stacked weight: a column tap's input channels after another's. */
    private int ld() {
        return colTaps * cx;
    }

    /** Elements of one row tap's stacked weight, [P·C_y, colTaps·C_x]. */
    private int rowTapSize() {
        return rows() * ld();
    }

    /** Elements of the stacked weight (and of its gradient). */
    int weightSize() {
        return rowTaps * rowTapSize();
    }

    /** Elements of the framed input: a copy per column tap. */
    int frameSize() {
        return colTaps * cx * framePlane;
    }

    /** Where row tap a's view of the framed copies starts, for stacked position 0. */
    private int frameAt(int a) {
        return front + minShift + rowDelta[a];
    }

    /** Where the input gradient's position 0 reads a stacked row for row tap a and column tap c. */
    private int stackAt(int a, int c) {
        return rowFront + f.origin() - minShift - rowDelta[a] - colDelta[c];
    }

    /** Where phase p's grid index 0 is in its stacked rows, as a stacked position. */
    int lead(int p) {
        return lead[p];
    }

    /** The kernel tap (row-major index) of row tap a and column tap c in phase p. */
    private int kernelTap(int p, int a, int c, int kw) {
        return f.rows().taps()[p / f.cols().stride()][a] * kw
                + f.cols().taps()[p % f.cols().stride()][c];
    }

    /** Where element (row tap a, phase p, output channel y, column tap c, input channel o) of the stacked layout is. */
    private int stacked(int a, int p, int y, int c, int o) {
        return a * rowTapSize() + (p * cy + y) * ld() + c * cx + o;
    }

    /** The weight ([C_x, C_y, kh, kw] at {@code from}) as {@code [row tap][phase][C_y][column tap][C_x]}. */
    Object pack(Object w, int from, int kh, int kw) {
        Object r = SubPixelFrame.zeros(w, weightSize());
        for (int a = 0; a < rowTaps; a++) {
            for (int p = 0; p < phases; p++) {
                for (int c = 0; c < colTaps; c++) {
                    int k = kernelTap(p, a, c, kw);
                    for (int y = 0; y < cy; y++) {
                        for (int o = 0; o < cx; o++) {
                            int at = from + (o * cy + y) * kh * kw + k, to = stacked(a, p, y, c, o);
                            if (w instanceof float[] s) ((float[]) r)[to] = s[at];
                            else ((double[]) r)[to] = ((double[]) w)[at];
                        }
                    }
                }
            }
        }
        return r;
    }

    /**
     * Writes the sum of {@code count} stacked weight gradients (consecutive in {@code parts}, summed in their order)
     * into {@code dst} at {@code to} in the weight's layout [C_x, C_y, kh, kw]. Every kernel tap belongs to exactly one
     * phase, so every element is written.
     */
    void unpackSum(Object parts, int count, Object dst, int to, int kh, int kw) {
        // a row tap per piece: each writes its own kernel taps, so the result does not depend on the split
        Parallel.forRange(rowTaps, 1, (a0, a1) -> {
            for (int a = (int) a0; a < a1; a++) unpackRowTap(parts, count, a, dst, to, kh, kw);
        });
    }

    private void unpackRowTap(Object parts, int count, int a, Object dst, int to, int kh, int kw) {
        int size = weightSize();
        for (int p = 0; p < phases; p++) {
            for (int c = 0; c < colTaps; c++) {
                int k = kernelTap(p, a, c, kw);
                for (int y = 0; y < cy; y++) {
                    for (int o = 0; o < cx; o++) {
                        int at = to + (o * cy + y) * kh * kw + k, from = stacked(a, p, y, c, o);
                        if (parts instanceof float[] s) {
                            float sum = 0f;
                            for (int i = 0; i < count; i++) sum += s[i * size + from];
                            ((float[]) dst)[at] = sum;
                        } else {
                            double[] s = (double[]) parts;
                            double sum = 0;
                            for (int i = 0; i < count; i++) sum += s[i * size + from];
                            ((double[]) dst)[at] = sum;
                        }
                    }
                }
            }
        }
    }

    /**
     * Copies one input sample ([C_x, inH, inW] at {@code from}) into the framed copies of {@code frame}, copy c shifted
     * back by column tap c's delta.
     */
    void place(Object x, int from, Object frame) {
        for (int c = 0; c < colTaps; c++)
            f.place(x, from, cx, frame, c * cx * framePlane + front - colDelta[c], framePlane);
    }

    /**
     * {@code out} ([P·C_y, span]) = the stacked forward of the framed sample: per row tap, the stacked weight ([P·C_y,
     * colTaps·C_x]) times the framed copies' view (colTaps·C_x rows).
     */
    void forward(Object weights, Object frame, Object out) {
        for (int a = 0; a < rowTaps; a++) {
            ArrayGemm.gemm(
                    rows(),
                    span,
                    ld(),
                    new ArrayGemm.Operand(weights, a * rowTapSize(), ld(), false),
                    new ArrayGemm.Operand(frame, frameAt(a), framePlane, false),
                    a > 0,
                    out,
                    0,
                    span);
        }
    }

    /**
     * Both gradients of one sample from its stacked output gradient {@code gy} ([P·C_y, row]) and framed input: adds
     * the weight gradient to {@code parts} at {@code part} (stacked layout) and writes the input gradient into
     * {@code grad} ([C_x, gradLength]).
     */
    void backward(Object weights, Object gy, Object frame, Object parts, int part, Object grad) {
        for (int a = 0; a < rowTaps; a++) {
            ArrayGemm.gemm(
                    rows(),
                    ld(),
                    span,
                    new ArrayGemm.Operand(gy, rowFront, row, false),
                    new ArrayGemm.Operand(frame, frameAt(a), framePlane, true),
                    true,
                    parts,
                    part + a * rowTapSize(),
                    ld());
            for (int c = 0; c < colTaps; c++) {
                ArrayGemm.gemm(
                        cx,
                        gradLength,
                        rows(),
                        new ArrayGemm.Operand(weights, stacked(a, 0, 0, c, 0), ld(), true),
                        new ArrayGemm.Operand(gy, stackAt(a, c), row, false),
                        a > 0 || c > 0,
                        grad,
                        0,
                        gradLength);
            }
        }
    }
}
