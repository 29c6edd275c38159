package org.jtorch.ops;

import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.PairSimd;

/**
 * A strided 2-d transposed convolution (the input gradient of convolution {@code g}) as one dense stride-1 correlation
 * per output phase ({@link SubPixelFrame}): for each sample and phase, {@code grid = Σ_taps W_tap · shifted(x)}, GEMMs
 * straight on the zero-framed input with no column matrix, then the grid is written into the phase's interleaved output
 * positions with the bias. The general path (GEMM into a column matrix of C_y·kh·kw rows, then col2im) writes and reads
 * that matrix, tens of MiB at common sizes, and scatters it with a read-modify-write per tap.
 *
 * <p>Each output element is the sum over its phase's taps (row taps outer, column taps inner, as col2im sums them) of a
 * dot product over the input channels; only the float rounding of those sums may differ from the general path. Each
 * (sample, phase) is computed whole by one thread with fixed GEMM shapes, so the bits do not depend on the thread
 * count.
 */
final class SubPixelForward {
    private SubPixelForward() {}

    /**
     * Channels per group below which the general path runs instead: with a handful of channels each tap's GEMM is too
     * small for its call to pay off, while the general path batches the groups' products.
     */
    static final int MIN_CHANNELS = 4;

    /**
     * Samples from which the forward runs stacked ({@link PhaseStack}), a sample per thread at a time: one per
     * processor, fixed for the process, so that the path (and the bits) do not depend on the thread count.
     */
    private static final int STACKED_FROM = Math.max(2, Runtime.getRuntime().availableProcessors());

    /**
     * Whether the decomposition serves convolution {@code g}'s input gradient: a stride above one on some axis (stride
     * one has a single phase: nothing to split) and enough channels per group on both sides.
     */
    static boolean applies(ConvOps.Geometry g) {
        return (g.sh() > 1 || g.sw() > 1)
                && g.cout() / g.groups() >= MIN_CHANNELS
                && g.cin() / g.groups() >= MIN_CHANNELS
                && g.n() > 0
                && g.oh() * g.ow() > 0;
    }

    /** {@code out} ([N, C_y, h, w]) = the transposed convolution of {@code input} by {@code weight}, plus bias. */
    static void run(Tensor input, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        try (var _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(out.dtype());
            ComputeArrays.Dense x = ComputeArrays.dense(input, ct),
                    w = ComputeArrays.dense(weight, ct),
                    b = bias == null ? null : ComputeArrays.dense(bias, ct);
            ComputeArrays.Target t = ComputeArrays.Target.of(out, ct);
            PhaseStack stack = g.n() >= STACKED_FROM ? PhaseStack.of(g) : null;
            if (stack != null) {
                stacked(x, w, b, t, g, stack);
                t.finish();
                return;
            }
            SubPixelFrame f = SubPixelFrame.of(g);
            TapMajorWeights tw = TapMajorWeights.of(g);
            Object wt = tw.pack(w.array(), w.offset());
            int phases = f.phases(), cx = (int) g.cout(), cy = (int) g.cin();
            ArrayGemm.singleThreaded(() -> Parallel.forRange(g.n() * phases, 1, (u0, u1) -> {
                Object frame = SubPixelFrame.zeros(wt, cx * f.plane());
                Object grid = SubPixelFrame.zeros(wt, cy * f.maxGridLength());
                int held = -1;
                for (long u = u0; u < u1; u++) {
                    int i = (int) (u / phases), p = (int) (u % phases);
                    if (i != held) {
                        f.place(x.array(), x.offset() + i * cx * f.inH() * f.inW(), cx, frame);
                        held = i;
                    }
                    if (f.gridLength(p) == 0) continue;
                    phase(f, tw, wt, frame, p, grid);
                    write(f, g, p, grid, t.array(), t.offset() + i * cy * (int) (g.h() * g.w()), b);
                }
            }));
            t.finish();
        }
    }

    /**
     * The forward a sample per thread at a time, all phases at once ({@link PhaseStack}): one GEMM per tap index of
     * [P·C_y, C_x] by [C_x, span] rather than one of [C_y, C_x] per phase and tap.
     */
    private static void stacked(
            ComputeArrays.Dense x,
            ComputeArrays.Dense w,
            ComputeArrays.Dense b,
            ComputeArrays.Target t,
            ConvOps.Geometry g,
            PhaseStack st) {
        SubPixelFrame f = st.f;
        Object wt = st.pack(w.array(), w.offset(), (int) g.kh(), (int) g.kw());
        int outPlane = (int) (g.h() * g.w()), inPlane = f.inH() * f.inW();
        // each thread's piece claims samples one at a time (a late or slowed worker leaves its samples to the others)
        AtomicInteger claim = new AtomicInteger();
        int n = (int) g.n();
        ArrayGemm.singleThreaded(() -> Parallel.forRange(n, 1, (i0, i1) -> {
            Object frame = SubPixelFrame.zeros(wt, st.frameSize());
            Object grid = SubPixelFrame.zeros(wt, st.rows() * st.span);
            for (int i = claim.getAndIncrement(); i < n; i = claim.getAndIncrement()) {
                st.place(x.array(), x.offset() + i * st.cx * inPlane, frame);
                st.forward(wt, frame, grid);
                writeRows(st, g, grid, t.array(), t.offset() + i * st.cy * outPlane, b);
            }
        }));
    }

    /**
     * Writes the stacked grids ([P·C_y, span]) into one output sample ([C_y, h, w] at {@code to}) plus the bias (or
     * null), an output row at a time from every column phase, so that each row is finished while it is in cache.
     */
    private static void writeRows(
            PhaseStack st, ConvOps.Geometry g, Object grid, Object out, int to, ComputeArrays.Dense b) {
        SubPixelFrame f = st.f;
        int sh = f.rows().stride(), sw = f.cols().stride(), h = (int) g.h(), w = (int) g.w();
        for (int c = 0; c < st.cy; c++) {
            for (int y = 0; y < h; y++) {
                int ry = y % sh, q = y / sh, dst = to + (c * h + y) * w;
                if (sw == 2 && out instanceof float[] o) { // two column phases: one vector merge
                    float[] s = (float[]) grid;
                    float bias = b == null ? 0f : ((float[]) b.array())[b.offset() + c];
                    int even = (ry * 2 * st.cy + c) * st.span + st.lead(ry * 2) + q * f.width(),
                            odd = ((ry * 2 + 1) * st.cy + c) * st.span + st.lead(ry * 2 + 1) + q * f.width();
                    int n = f.cols().counts()[1];
                    PairSimd.merge(s, even, s, odd, bias, o, dst, n);
                    if (f.cols().counts()[0] > n) o[dst + 2 * n] = s[even + n] + bias;
                    continue;
                }
                for (int rx = 0; rx < sw; rx++) {
                    int p = ry * sw + rx, cols = f.cols().counts()[rx];
                    int src = (p * st.cy + c) * st.span + st.lead(p) + q * f.width();
                    if (out instanceof float[] o) {
                        float[] s = (float[]) grid;
                        float bias = b == null ? 0f : ((float[]) b.array())[b.offset() + c];
                        for (int j = 0; j < cols; j++) o[dst + rx + sw * j] = s[src + j] + bias;
                    } else {
                        double[] o = (double[]) out, s = (double[]) grid;
                        double bias = b == null ? 0 : ((double[]) b.array())[b.offset() + c];
                        for (int j = 0; j < cols; j++) o[dst + rx + sw * j] = s[src + j] + bias;
                    }
                }
            }
        }
    }

    /** Phase p's grid ([C_y, gridLength]) from the framed sample: every tap's GEMM, accumulated. */
    private static void phase(SubPixelFrame f, TapMajorWeights tw, Object wt, Object frame, int p, Object grid) {
        int[] rowTaps = f.rows().taps()[p / f.cols().stride()],
                colTaps = f.cols().taps()[p % f.cols().stride()];
        int len = f.gridLength(p);
        if (rowTaps.length == 0 || colTaps.length == 0) {
            SubPixelFrame.clear(grid, 0, tw.groups() * tw.cy() * len);
            return;
        }
        for (int gr = 0; gr < tw.groups(); gr++) {
            boolean accumulate = false;
            for (int a = 0; a < rowTaps.length; a++) {
                for (int c = 0; c < colTaps.length; c++) {
                    ArrayGemm.gemm(
                            tw.cy(),
                            len,
                            tw.cx(),
                            new ArrayGemm.Operand(wt, tw.at(tw.tap(rowTaps[a], colTaps[c]), gr), tw.cx(), false),
                            new ArrayGemm.Operand(frame, gr * tw.cx() * f.plane() + f.shift(p, a, c), f.plane(), false),
                            accumulate,
                            grid,
                            gr * tw.cy() * len,
                            len);
                    accumulate = true;
                }
            }
        }
    }

    /**
     * Writes phase p's grid into its positions (every row and column stride apart) of one output sample ([C_y, h, w] at
     * {@code to}), plus the bias (or null).
     */
    private static void write(
            SubPixelFrame f, ConvOps.Geometry g, int p, Object grid, Object out, int to, ComputeArrays.Dense b) {
        int sh = f.rows().stride(), sw = f.cols().stride(), ry = p / sw, rx = p % sw;
        int cy = (int) g.cin(), h = (int) g.h(), w = (int) g.w(), width = f.width(), len = f.gridLength(p);
        int rows = f.rows().counts()[ry], cols = f.cols().counts()[rx];
        for (int c = 0; c < cy; c++) {
            for (int q = 0; q < rows; q++) {
                int src = c * len + q * width, dst = to + (c * h + ry + sh * q) * w + rx;
                if (out instanceof float[] o) {
                    float[] s = (float[]) grid;
                    float bias = b == null ? 0f : ((float[]) b.array())[b.offset() + c];
                    for (int j = 0; j < cols; j++) o[dst + sw * j] = s[src + j] + bias;
                } else {
                    double[] o = (double[]) out, s = (double[]) grid;
                    double bias = b == null ? 0 : ((double[]) b.array())[b.offset() + c];
                    for (int j = 0; j < cols; j++) o[dst + sw * j] = s[src + j] + bias;
                }
            }
        }
    }
}
