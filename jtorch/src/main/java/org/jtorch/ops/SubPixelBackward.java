package org.jtorch.ops;

import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.kernels.cpu.simd.PairSimd;
import org.jtorch.storage.TensorImpl;

/**
 * Both gradients of a strided 2-d transposed convolution {@code y = conv_transpose(x, W)} ({@link SubPixelForward}'s
 * op) by output phase, with no column matrix. Per sample, each phase of the output gradient is laid on its grid (the
 * forward's layout, zeros in the dropped columns, a zero margin in front), and for every tap of the phase:
 *
 * <ul>
 *   <li>input gradient: {@code gx += W_tapᵀ · gy_phase} read at the tap's shift backwards, on the framed input's grid
 *       (the strided convolution of gy, one stride-1 piece per phase);
 *   <li>weight gradient: {@code gW_tap += gy_phase · shifted(x)ᵀ}, the forward's GEMM with the roles of its operands
 *       traded.
 * </ul>
 *
 * Samples are split into a fixed number of runs (from the processor count, not the thread count), each run summing its
 * weight gradient in its own buffer, and the runs' buffers are summed in order at the end, so the bits do not depend on
 * the thread count. Results as the general path's up to float rounding.
 */
final class SubPixelBackward {
    private SubPixelBackward() {}

    /**
     * Runs of samples with a weight-gradient buffer each: four per processor, fixed for the process. Each thread's
     * piece claims runs one at a time from a shared counter rather than taking a contiguous share, so a worker that
     * wakes late or is slowed by other work on the machine leaves its runs to the others; a run's samples and buffer do
     * not depend on which thread runs it, so neither do the bits.
     */
    private static final int RUNS = 4 * Math.max(1, Runtime.getRuntime().availableProcessors());

    /**
     * {grad_input of x's shape, grad_weight of W's shape, grad_bias ([C_y]) or null} for the output gradient
     * {@code gy}; the bias gradient (the sum of gy over samples and positions) when {@code withBias}, summed per sample
     * while the sample is in cache rather than in a pass of its own.
     */
    static Tensor[] both(Tensor gy, Tensor x, Tensor weight, ConvOps.Geometry g, boolean withBias) {
        // every element of the three is written below: no zero fill (4 MiB of input gradient at common sizes)
        Tensor gi = Tensor.of(TensorImpl.emptyUninitialized(x.impl().shapeRef(), x.dtype()));
        Tensor gw = Tensor.of(TensorImpl.emptyUninitialized(weight.impl().shapeRef(), weight.dtype()));
        Tensor gb = withBias ? Tensor.of(TensorImpl.emptyUninitialized(new long[] {g.cin()}, x.dtype())) : null;
        try (var _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(x.dtype());
            ComputeArrays.Dense go = ComputeArrays.dense(gy, ct),
                    xd = ComputeArrays.dense(x, ct),
                    w = ComputeArrays.dense(weight, ct);
            ComputeArrays.Target ti = ComputeArrays.Target.of(gi, ct), tgw = ComputeArrays.Target.of(gw, ct);
            int n = (int) g.n(), per = Math.ceilDiv(n, Math.min(n, RUNS)), runs = Math.ceilDiv(n, per);
            int cy = (int) g.cin(), plane = (int) (g.h() * g.w());
            double[] sums = withBias ? new double[runs * cy] : null;
            PhaseStack st = PhaseStack.of(g);
            if (st != null) {
                Object wt = st.pack(w.array(), w.offset(), (int) g.kh(), (int) g.kw());
                int size = st.weightSize();
                Object parts = SubPixelFrame.zeros(wt, runs * size);
                AtomicInteger claim = new AtomicInteger();
                ArrayGemm.singleThreaded(() -> Parallel.forRange(runs, 1, (r0, r1) -> {
                    Stacked s = new Stacked(st, wt, g);
                    for (int r = claim.getAndIncrement(); r < runs; r = claim.getAndIncrement()) {
                        for (int i = r * per; i < Math.min(n, (r + 1) * per); i++) {
                            s.run(go, xd, i, parts, r * size, ti, sums, r * cy);
                        }
                    }
                }));
                st.unpackSum(parts, runs, tgw.array(), tgw.offset(), (int) g.kh(), (int) g.kw());
            } else {
                SubPixelFrame f = SubPixelFrame.of(g);
                TapMajorWeights tw = TapMajorWeights.of(g);
                Object wt = tw.pack(w.array(), w.offset());
                Object parts = SubPixelFrame.zeros(wt, runs * tw.size());
                AtomicInteger claim = new AtomicInteger();
                ArrayGemm.singleThreaded(() -> Parallel.forRange(runs, 1, (r0, r1) -> {
                    Sample s = new Sample(f, tw, wt, g);
                    for (int r = claim.getAndIncrement(); r < runs; r = claim.getAndIncrement()) {
                        for (int i = r * per; i < Math.min(n, (r + 1) * per); i++) {
                            s.run(go, xd, i, parts, r * tw.size(), ti);
                            if (sums != null) channelSums(go, i, cy, plane, sums, r * cy);
                        }
                    }
                }));
                tw.unpackSum(parts, runs, tgw.array(), tgw.offset());
            }
            ti.finish();
            tgw.finish();
            if (gb != null) {
                ComputeArrays.Target tgb = ComputeArrays.Target.of(gb, ct);
                for (int c = 0; c < cy; c++) {
                    double sum = 0;
                    for (int r = 0; r < runs; r++) sum += sums[r * cy + c];
                    if (tgb.array() instanceof float[] o) o[tgb.offset() + c] = (float) sum;
                    else ((double[]) tgb.array())[tgb.offset() + c] = sum;
                }
                tgb.finish();
            }
        }
        return new Tensor[] {gi, gw, gb};
    }

    /** Adds each channel's sum of output-gradient sample i ([C_y, plane] planes) to {@code acc} from {@code at}. */
    private static void channelSums(ComputeArrays.Dense gy, int i, int cy, int plane, double[] acc, int at) {
        for (int c = 0; c < cy; c++) acc[at + c] += planeSum(gy.array(), gy.offset() + (i * cy + c) * plane, plane);
    }

    /** The sum of {@code n} elements of a float[] or double[] from {@code from}. */
    private static double planeSum(Object a, int from, int n) {
        if (a instanceof float[] f) return FloatSimd.sum(f, from, n);
        double[] d = (double[]) a;
        double sum = 0;
        for (int j = from; j < from + n; j++) sum += d[j];
        return sum;
    }

    /**
     * Copies sample i's input gradient, kept on the frame's grid ([C_x, gradLength], rows {@code width} apart), into
     * {@code gi}.
     */
    private static void writeGrad(
            SubPixelFrame f, Object grad, int gradLength, int cx, int i, ComputeArrays.Target gi) {
        int plane = f.inH() * f.inW();
        for (int o = 0; o < cx; o++) {
            for (int y = 0; y < f.inH(); y++) {
                System.arraycopy(
                        grad,
                        o * gradLength + y * f.width(),
                        gi.array(),
                        gi.offset() + (i * cx + o) * plane + y * f.inW(),
                        f.inW());
            }
        }
    }

    /**
     * One thread's scratch for the stacked passes ({@link PhaseStack}): the framed input, the stacked output gradient
     * and the input gradient. The positions a sample writes into the first two are the same for every sample, so their
     * zeros (margins, dropped columns, the gaps between phases' grids) are written once, at allocation.
     */
    private static final class Stacked {
        private final PhaseStack st;
        private final Object wt, frame, stack, grad;
        private final ConvOps.Geometry g;

        Stacked(PhaseStack st, Object wt, ConvOps.Geometry g) {
            this.st = st;
            this.wt = wt;
            this.g = g;
            frame = SubPixelFrame.zeros(wt, st.frameSize());
            stack = SubPixelFrame.zeros(wt, st.rows() * st.row);
            grad = SubPixelFrame.zeros(wt, st.cx * st.gradLength);
        }

        /**
         * Sample i: adds its weight gradient to {@code parts} at {@code part}, writes its input gradient and, with
         * {@code sums} (else null), adds each channel's output-gradient sum from {@code at}.
         */
        void run(
                ComputeArrays.Dense gy,
                ComputeArrays.Dense x,
                int i,
                Object parts,
                int part,
                ComputeArrays.Target gi,
                double[] sums,
                int at) {
            SubPixelFrame f = st.f;
            st.place(x.array(), x.offset() + i * st.cx * f.inH() * f.inW(), frame);
            int h = (int) g.h(), w = (int) g.w(), from = gy.offset() + i * st.cy * h * w;
            int sh = f.rows().stride(), sw = f.cols().stride();
            for (int c = 0; c < st.cy; c++) {
                for (int y = 0; y < h; y++) { // a row at a time into every column phase, while it is in cache
                    int ry = y % sh, q = y / sh, src = from + (c * h + y) * w;
                    if (sw == 2 && stack instanceof float[] d) { // two column phases: one vector split
                        float[] s = (float[]) gy.array();
                        int even = (ry * 2 * st.cy + c) * st.row + st.rowFront + st.lead(ry * 2) + q * f.width(),
                                odd =
                                        ((ry * 2 + 1) * st.cy + c) * st.row
                                                + st.rowFront
                                                + st.lead(ry * 2 + 1)
                                                + q * f.width();
                        int n = f.cols().counts()[1];
                        PairSimd.split(s, src, d, even, d, odd, n);
                        if (f.cols().counts()[0] > n) d[even + n] = s[src + 2 * n];
                        continue;
                    }
                    for (int rx = 0; rx < sw; rx++) {
                        int p = ry * sw + rx, cols = f.cols().counts()[rx];
                        int dst = (p * st.cy + c) * st.row + st.rowFront + st.lead(p) + q * f.width();
                        if (stack instanceof float[] d) {
                            float[] s = (float[]) gy.array();
                            for (int j = 0; j < cols; j++) d[dst + j] = s[src + rx + sw * j];
                        } else {
                            double[] d = (double[]) stack, s = (double[]) gy.array();
                            for (int j = 0; j < cols; j++) d[dst + j] = s[src + rx + sw * j];
                        }
                    }
                }
                if (sums != null) sums[at + c] += planeSum(gy.array(), from + c * h * w, h * w);
            }
            st.backward(wt, stack, frame, parts, part, grad);
            writeGrad(f, grad, st.gradLength, st.cx, i, gi);
        }
    }

    /** One thread's scratch (the framed input, a phase of the output gradient, the input gradient) and its passes. */
    private static final class Sample {
        private final SubPixelFrame f;
        private final TapMajorWeights tw;
        private final Object wt, frame, phase, grad;
        private final ConvOps.Geometry g;
        /** Zeros before a phase's grid in {@link #phase}, so every tap's backward shift stays inside the row. */
        private final int margin, phaseRow, gradLength;

        Sample(SubPixelFrame f, TapMajorWeights tw, Object wt, ConvOps.Geometry g) {
            this.f = f;
            this.tw = tw;
            this.wt = wt;
            this.g = g;
            margin = f.maxShift();
            phaseRow = margin + f.plane();
            gradLength = (f.inH() - 1) * f.width() + f.inW();
            frame = SubPixelFrame.zeros(wt, tw.groups() * tw.cx() * f.plane());
            phase = SubPixelFrame.zeros(wt, tw.groups() * tw.cy() * phaseRow);
            grad = SubPixelFrame.zeros(wt, tw.groups() * tw.cx() * gradLength);
        }

        /**
         * Sample i: adds its weight gradient to the tap-major buffer at {@code part} of {@code parts} and writes its
         * input gradient.
         */
        void run(
                ComputeArrays.Dense gy, ComputeArrays.Dense x, int i, Object parts, int part, ComputeArrays.Target gi) {
            int cx = tw.groups() * tw.cx(), cy = tw.groups() * tw.cy();
            f.place(x.array(), x.offset() + i * cx * f.inH() * f.inW(), cx, frame);
            boolean started = false;
            for (int p = 0; p < f.phases(); p++) {
                int[] rowTaps = f.rows().taps()[p / f.cols().stride()],
                        colTaps = f.cols().taps()[p % f.cols().stride()];
                int len = f.gridLength(p);
                if (len == 0 || rowTaps.length == 0 || colTaps.length == 0) continue;
                lay(gy, gy.offset() + i * cy * (int) (g.h() * g.w()), p);
                for (int gr = 0; gr < tw.groups(); gr++) {
                    int ph = gr * tw.cy() * phaseRow + margin, fr = gr * tw.cx() * f.plane();
                    for (int a = 0; a < rowTaps.length; a++) {
                        for (int c = 0; c < colTaps.length; c++) {
                            int at = tw.at(tw.tap(rowTaps[a], colTaps[c]), gr), shift = f.shift(p, a, c);
                            ArrayGemm.gemm(
                                    tw.cy(),
                                    tw.cx(),
                                    len,
                                    new ArrayGemm.Operand(phase, ph, phaseRow, false),
                                    new ArrayGemm.Operand(frame, fr + shift, f.plane(), true),
                                    true,
                                    parts,
                                    part + at,
                                    tw.cx());
                            ArrayGemm.gemm(
                                    tw.cx(),
                                    gradLength,
                                    tw.cy(),
                                    new ArrayGemm.Operand(wt, at, tw.cx(), true),
                                    new ArrayGemm.Operand(phase, ph + f.origin() - shift, phaseRow, false),
                                    started || a > 0 || c > 0,
                                    grad,
                                    gr * tw.cx() * gradLength,
                                    gradLength);
                        }
                    }
                }
                started = true;
            }
            if (!started) SubPixelFrame.clear(grad, 0, cx * gradLength);
            writeGrad(f, grad, gradLength, cx, i, gi);
        }

        /** Lays phase p of one output-gradient sample ([C_y, h, w] at {@code from}) on its grid, zeros elsewhere. */
        private void lay(ComputeArrays.Dense gy, int from, int p) {
            int sh = f.rows().stride(), sw = f.cols().stride(), ry = p / sw, rx = p % sw;
            int cy = tw.groups() * tw.cy(), h = (int) g.h(), w = (int) g.w(), width = f.width();
            int rows = f.rows().counts()[ry], cols = f.cols().counts()[rx];
            SubPixelFrame.clear(phase, 0, cy * phaseRow);
            for (int c = 0; c < cy; c++) {
                for (int q = 0; q < rows; q++) {
                    int src = from + (c * h + ry + sh * q) * w + rx, dst = c * phaseRow + margin + q * width;
                    if (phase instanceof float[] d) {
                        float[] s = (float[]) gy.array();
                        for (int j = 0; j < cols; j++) d[dst + j] = s[src + sw * j];
                    } else {
                        double[] d = (double[]) phase, s = (double[]) gy.array();
                        for (int j = 0; j < cols; j++) d[dst + j] = s[src + sw * j];
                    }
                }
            }
        }
    }
}
