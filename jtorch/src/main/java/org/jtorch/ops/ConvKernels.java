package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.JavaGemm;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernels of {@link ConvOps}: im2col + GEMM over chunks of the batch. For a chunk of B samples the input
 * patches are unfolded into one column matrix of [C·kh·kw, B·oh·ow] (sample b in columns [b·L, (b+1)·L)), so that each
 * group needs a single large GEMM per chunk rather than one small GEMM per sample:
 *
 * <ul>
 *   <li>forward: {@code Y[g] = W[g] · cols}, then scattered (with the bias) into [N, C_out, oh, ow];
 *   <li>grad input: {@code cols = W[g]ᵀ · G[g]} with G the grad output gathered to [C_out, B·L], then folded back and
 *       summed into each input (col2im);
 *   <li>grad weight: {@code gW[g] += G[g] · colsᵀ}, chunk after chunk.
 * </ul>
 *
 * Why whole-chunk GEMMs: many small per-sample calls cost far more than one large one (measured when OpenBLAS still
 * threaded each call itself: 32 per-sample GEMMs of 64×4096×27 took seconds on the loaded 2-core machine, one
 * 64×131072×27 GEMM ~0.1 s). Each GEMM runs as {@link BlockedGemm}'s fixed blocks on Java's workers. The unfolding,
 * folding and layout copies are plain Java loops, parallel over samples. Chunks keep each scratch matrix within
 * {@link #COLS_BUDGET} elements (one sample at least). Half types are computed in float32, float64 in float64. The Java
 * loops write disjoint outputs per sample and the GEMMs' blocks do not depend on the thread count, so neither do the
 * results. Float32 problems with few weights per output channel take {@link DirectConvKernels} instead.
 */
final class ConvKernels {
    private ConvKernels() {}

    /** Elements of each scratch matrix per chunk (64 MiB of float32): large GEMMs, bounded scratch memory. */
    private static final long COLS_BUDGET = 16L << 20;

    /** The sizes every pass needs, as ints (the meta rule has checked the geometry). */
    private record Dims(int n, int cin, int plane, int cout, int cg, int kg, int l, int groups, int chunk) {
        static Dims of(ConvOps.Geometry g) {
            int kTotal = (int) (g.cin() * g.kh() * g.kw()), l = (int) (g.oh() * g.ow());
            // the column matrix and the [C_out, B·L] output/grad buffer both grow with the chunk
            long perSample = Math.max(1, Math.max(kTotal, g.cout()) * l);
            int chunk = (int) Math.max(1, Math.min(g.n(), COLS_BUDGET / perSample));
            return new Dims(
                    (int) g.n(),
                    (int) g.cin(),
                    (int) (g.h() * g.w()),
                    (int) g.cout(),
                    (int) (g.cout() / g.groups()),
                    (int) (g.cin() / g.groups() * g.kh() * g.kw()),
                    l,
                    (int) g.groups(),
                    chunk);
        }

        int kTotal() {
            return kg * groups;
        }
    }

    // ---- forward -----------------------------------------------------------------------------------------

    static void forward(Tensor input, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        try (var _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(out.dtype());
            ComputeArrays.Dense x = ComputeArrays.dense(input, ct),
                    w = ComputeArrays.dense(weight, ct),
                    b = bias == null ? null : ComputeArrays.dense(bias, ct);
            ComputeArrays.Target t = ComputeArrays.Target.of(out, ct);
            if (DirectConvKernels.fits(ct, g)) {
                DirectConvKernels.forward(x, w, b, t, g);
                t.finish();
                return;
            }
            Dims d = Dims.of(g);
            Object cols = ConvScratch.take(ct, ConvScratch.Slot.COLUMNS, (long) d.kTotal() * d.chunk() * d.l());
            Object y = ConvScratch.take(ct, ConvScratch.Slot.ROWS, (long) d.cout() * d.chunk() * d.l());
            for (int n0 = 0; n0 < d.n(); n0 += d.chunk()) {
                int bs = Math.min(d.chunk(), d.n() - n0), ld = bs * d.l(), first = n0;
                unfoldChunk(x, first, bs, d, g, cols);
                convolveChunk(ct, d, ld, w, cols, y);
                scatterChunk(y, first, bs, d, t, b);
            }
            ConvScratch.give(ct, ConvScratch.Slot.COLUMNS, cols);
            ConvScratch.give(ct, ConvScratch.Slot.ROWS, y);
            t.finish();
        }
    }

    // ---- grad input ------------------------------------------------------------------------------------

    /**
     * The input gradient of the convolution {@code g}, which is also the transposed convolution of {@code gradOutput};
     * {@code bias} (or null) is added per channel, as the transposed convolution's bias.
     */
    static void backwardInput(Tensor gradOutput, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        if (SubPixelForward.applies(g)) { // strided: a dense GEMM per output phase, no column matrix nor col2im
            SubPixelForward.run(gradOutput, weight, bias, out, g);
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(out.dtype());
            ComputeArrays.Dense go = ComputeArrays.dense(gradOutput, ct),
                    w = ComputeArrays.dense(weight, ct),
                    b = bias == null ? null : ComputeArrays.dense(bias, ct);
            ComputeArrays.Target t = ComputeArrays.Target.of(out, ct);
            if (DirectConvKernels.fits(ct, g)) {
                DirectConvKernels.backwardInput(go, w, b, t, g);
                t.finish();
                return;
            }
            Dims d = Dims.of(g);
            Object cols = ConvScratch.take(ct, ConvScratch.Slot.COLUMNS, (long) d.kTotal() * d.chunk() * d.l());
            Object gy = ConvScratch.take(ct, ConvScratch.Slot.ROWS, (long) d.cout() * d.chunk() * d.l());
            for (int n0 = 0; n0 < d.n(); n0 += d.chunk()) {
                int bs = Math.min(d.chunk(), d.n() - n0), ld = bs * d.l(), first = n0;
                gatherGrad(go, first, bs, d, gy);
                gemm(
                        ct,
                        d.groups(),
                        Transpose.TRANSPOSE,
                        Transpose.NONE,
                        d.kg(),
                        ld,
                        d.cg(),
                        new Matrix(w.array(), w.offset(), d.cg() * d.kg(), d.kg()),
                        new Matrix(gy, 0, d.cg() * ld, ld),
                        0,
                        new Matrix(cols, 0, d.kg() * ld, ld));
                Parallel.forRange((long) bs * d.cin(), grain(g.kh() * g.kw() * d.l()), (u0, u1) -> {
                    Object sums = phaseScratch(
                            cols, Phases.of((int) g.w(), (int) g.sw()).size(1));
                    for (int u = (int) u0; u < u1; u++) {
                        int i = u / d.cin(), c = u % d.cin();
                        int sample = t.offset() + (first + i) * d.cin() * d.plane();
                        col2im(cols, i * d.l(), ld, g, c, t.array(), sample, sums, b, c);
                    }
                });
            }
            ConvScratch.give(ct, ConvScratch.Slot.COLUMNS, cols);
            ConvScratch.give(ct, ConvScratch.Slot.ROWS, gy);
            t.finish();
        }
    }

    // ---- grad weight -----------------------------------------------------------------------------------

    static void backwardWeight(Tensor gradOutput, Tensor input, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        try (var _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(out.dtype());
            ComputeArrays.Dense go = ComputeArrays.dense(gradOutput, ct), x = ComputeArrays.dense(input, ct);
            ComputeArrays.Target t = ComputeArrays.Target.of(out, ct);
            if (DirectConvKernels.fits(ct, g)) {
                DirectConvKernels.backwardWeight(go, x, t, g);
                t.finish();
                return;
            }
            Dims d = Dims.of(g);
            fill(t.array(), t.offset(), (int) out.numel());
            Object cols = ConvScratch.take(ct, ConvScratch.Slot.COLUMNS, (long) d.kTotal() * d.chunk() * d.l());
            Object gy = ConvScratch.take(ct, ConvScratch.Slot.ROWS, (long) d.cout() * d.chunk() * d.l());
            for (int n0 = 0; n0 < d.n(); n0 += d.chunk()) {
                int bs = Math.min(d.chunk(), d.n() - n0), ld = bs * d.l(), first = n0;
                unfoldChunk(x, first, bs, d, g, cols);
                gatherGrad(go, first, bs, d, gy);
                accumulateWeightGrad(ct, d, ld, gy, cols, t);
            }
            ConvScratch.give(ct, ConvScratch.Slot.COLUMNS, cols);
            ConvScratch.give(ct, ConvScratch.Slot.ROWS, gy);
            t.finish();
        }
    }

    // ---- both gradients of a transposed convolution ----------------------------------------------------------

    /**
     * Both gradients of the transposed convolution {@code y = conv_transpose(x, W)}, the input gradient of the
     * convolution {@code g} (whose input has y's shape, whose output has x's), from one unfolding of {@code gy}: the
     * input gradient is the convolution {@code W[g] · cols(gy)} and the weight gradient {@code x[g] · cols(gy)ᵀ}, so
     * each chunk of the output gradient is unfolded once and both GEMMs read it, rather than each gradient op unfolding
     * it again. Positions of the unfolding past x's (from output padding that reaches a whole stride) are left out:
     * they meet only zeros. Results as the two ops', up to the GEMMs' float rounding.
     *
     * @param withBias whether to return the bias gradient too, where the pass can sum it on the way (by output phase)
     * @return {grad_input of x's shape, grad_weight of W's shape, grad_bias or null (left to the caller)}, of their
     *     dtypes
     */
    static Tensor[] transposedBackward(Tensor gy, Tensor x, Tensor weight, ConvOps.Geometry g, boolean withBias) {
        // by output phase, a sample per thread at a time: a single sample keeps the general path's split GEMMs
        if (SubPixelForward.applies(g) && g.n() > 1) return SubPixelBackward.both(gy, x, weight, g, withBias);
        Tensor gi = Tensor.of(TensorImpl.empty(x.impl().shapeRef(), x.dtype()));
        Tensor gw = Tensor.of(TensorImpl.empty(weight.impl().shapeRef(), weight.dtype()));
        try (var _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(x.dtype());
            ComputeArrays.Dense go = ComputeArrays.dense(gy, ct),
                    xd = ComputeArrays.dense(x, ct),
                    w = ComputeArrays.dense(weight, ct);
            ComputeArrays.Target ti = ComputeArrays.Target.of(gi, ct), tw = ComputeArrays.Target.of(gw, ct);
            Dims d = Dims.of(g);
            fill(tw.array(), tw.offset(), (int) gw.numel());
            Object cols = ConvScratch.take(ct, ConvScratch.Slot.COLUMNS, (long) d.kTotal() * d.chunk() * d.l());
            Object rows = ConvScratch.take(ct, ConvScratch.Slot.ROWS, (long) d.cout() * d.chunk() * d.l());
            for (int n0 = 0; n0 < d.n(); n0 += d.chunk()) {
                int bs = Math.min(d.chunk(), d.n() - n0), ld = bs * d.l(), first = n0;
                unfoldChunk(go, first, bs, d, g, cols);
                gatherGrad(xd, first, bs, d, rows);
                accumulateWeightGrad(ct, d, ld, rows, cols, tw);
                convolveChunk(ct, d, ld, w, cols, rows); // x's rows are spent: the input gradient takes their place
                scatterChunk(rows, first, bs, d, ti, null);
            }
            ConvScratch.give(ct, ConvScratch.Slot.COLUMNS, cols);
            ConvScratch.give(ct, ConvScratch.Slot.ROWS, rows);
            ti.finish();
            tw.finish();
        }
        return new Tensor[] {gi, gw, null};
    }

    // ---- the passes ---------------------------------------------------------------------------------------

    /** {@code y[g] = W[g] · cols[g]} for every group: the chunk's convolution as [C_out, ld] rows. */
    private static void convolveChunk(DType ct, Dims d, int ld, ComputeArrays.Dense w, Object cols, Object y) {
        gemm(
                ct,
                d.groups(),
                Transpose.NONE,
                Transpose.NONE,
                d.cg(),
                ld,
                d.kg(),
                new Matrix(w.array(), w.offset(), d.cg() * d.kg(), d.kg()),
                new Matrix(cols, 0, d.kg() * ld, ld),
                0,
                new Matrix(y, 0, d.cg() * ld, ld));
    }

    /** {@code gW[g] += gy[g] · cols[g]ᵀ} for every group. */
    private static void accumulateWeightGrad(DType ct, Dims d, int ld, Object gy, Object cols, ComputeArrays.Target t) {
        gemm(
                ct,
                d.groups(),
                Transpose.NONE,
                Transpose.TRANSPOSE,
                d.cg(),
                d.kg(),
                ld,
                new Matrix(gy, 0, d.cg() * ld, ld),
                new Matrix(cols, 0, d.kg() * ld, ld),
                1,
                new Matrix(t.array(), t.offset(), d.cg() * d.kg(), d.kg()));
    }

    /**
     * Writes the chunk's rows {@code y} ([C_out, B·L]: sample i's channel c is the segment [c·ld + i·L, +L)) into
     * samples [first, first + bs) of {@code t} ([N, C_out, L]), adding the bias {@code b} (or null).
     */
    private static void scatterChunk(
            Object y, int first, int bs, Dims d, ComputeArrays.Target t, ComputeArrays.Dense b) {
        int ld = bs * d.l();
        Parallel.forRange((long) bs * d.cout(), grain(d.l()), (u0, u1) -> {
            for (int u = (int) u0; u < u1; u++) {
                int i = u / d.cout(), c = u % d.cout();
                int dst = t.offset() + ((first + i) * d.cout() + c) * d.l();
                copyRow(y, c * ld + i * d.l(), t.array(), dst, d.l());
                if (b != null) addConstant(t.array(), dst, d.l(), b, c);
            }
        });
    }

    /**
     * Unfolds samples [first, first + bs) of the input into {@code cols}, sample i in columns [i·L, (i+1)·L) of rows
     * bs·L long.
     */
    private static void unfoldChunk(ComputeArrays.Dense x, int first, int bs, Dims d, ConvOps.Geometry g, Object cols) {
        int ld = bs * d.l();
        Parallel.forRange((long) bs * d.cin(), grain(g.kh() * g.kw() * d.l()), (u0, u1) -> {
            Object phases = g.sw() > 1
                    ? phaseScratch(cols, Phases.of((int) g.w(), (int) g.sw()).size((int) g.h()))
                    : null;
            for (int u = (int) u0; u < u1; u++) {
                int i = u / d.cin(), c = u % d.cin();
                im2col(x.array(), x.offset() + (first + i) * d.cin() * d.plane(), g, c, cols, i * d.l(), ld, phases);
            }
        });
    }

    /** Lays samples [first, first + bs) of the grad output ([N, C_out, L]) out as [C_out, bs·L] in {@code gy}. */
    private static void gatherGrad(ComputeArrays.Dense go, int first, int bs, Dims d, Object gy) {
        int ld = bs * d.l();
        Parallel.forRange((long) bs * d.cout(), grain(d.l()), (u0, u1) -> {
            for (int u = (int) u0; u < u1; u++) {
                int i = u / d.cout(), c = u % d.cout();
                copyRow(go.array(), go.offset() + ((first + i) * d.cout() + c) * d.l(), gy, c * ld + i * d.l(), d.l());
            }
        });
    }

    private static void copyRow(Object src, int from, Object dst, int to, int len) {
        System.arraycopy(src, from, dst, to, len);
    }

    private static void addConstant(Object a, int at, int len, ComputeArrays.Dense b, int c) {
        if (a instanceof float[] f) {
            float v = ((float[]) b.array())[b.offset() + c];
            for (int i = at; i < at + len; i++) f[i] += v;
        } else {
            double[] dd = (double[]) a;
            double v = ((double[]) b.array())[b.offset() + c];
            for (int i = at; i < at + len; i++) dd[i] += v;
        }
    }

    private static void fill(Object a, int at, int len) {
        if (a instanceof float[] f) java.util.Arrays.fill(f, at, at + len, 0f);
        else java.util.Arrays.fill((double[]) a, at, at + len, 0);
    }

    // ---- GEMM --------------------------------------------------------------------------------------------

    /**
     * A row-major matrix of every group in an array: group g's starts {@code groupStride} elements after group g - 1's,
     * its rows {@code ld} apart.
     */
    private record Matrix(Object array, int offset, int groupStride, int ld) {}

    /**
     * {@code C[g] = op(A[g])·op(B[g]) + beta·C[g]} for every group g, as one batch of products: the groups' blocks
     * share the workers (a grouped convolution's groups are many small products, each below the size at which one
     * product is split), and each product is computed as a call of its own would compute it. Empty products only scale
     * C.
     */
    private static void gemm(
            DType ct,
            int groups,
            Transpose ta,
            Transpose tb,
            int m,
            int n,
            int k,
            Matrix a,
            Matrix b,
            int beta,
            Matrix c) {
        if (m == 0 || n == 0) return;
        if (k == 0) {
            if (beta == 0) {
                for (int g = 0; g < groups; g++) {
                    for (int i = 0; i < m; i++) {
                        int at = c.offset() + g * c.groupStride() + i * c.ld();
                        if (c.array() instanceof float[] f) java.util.Arrays.fill(f, at, at + n, 0f);
                        else java.util.Arrays.fill((double[]) c.array(), at, at + n, 0);
                    }
                }
            }
            return;
        }
        if (OpenBlas.isAvailable()) {
            new BlockedGemm(
                            ct,
                            m,
                            n,
                            k,
                            Scalar.of(1L),
                            Scalar.of((long) beta),
                            new BlockedGemm.Operand(segment(a.array()), a.offset(), a.groupStride(), ta, a.ld()),
                            new BlockedGemm.Operand(segment(b.array()), b.offset(), b.groupStride(), tb, b.ld()),
                            segment(c.array()),
                            c.offset(),
                            c.groupStride(),
                            c.ld())
                    .run(groups);
            return;
        }
        JavaGemm.gemm(
                groups,
                m,
                n,
                k,
                Scalar.of(1L),
                Scalar.of((long) beta),
                operand(ct, a, ta),
                operand(ct, b, tb),
                operand(ct, c, Transpose.NONE),
                false);
    }

    private static MemorySegment segment(Object array) {
        return array instanceof float[] f ? MemorySegment.ofArray(f) : MemorySegment.ofArray((double[]) array);
    }

    private static JavaGemm.Operand operand(DType ct, Matrix m, Transpose t) {
        MemorySegment seg = segment(m.array());
        return t == Transpose.NONE
                ? new JavaGemm.Operand(seg, ct, m.offset(), m.groupStride(), m.ld(), 1)
                : new JavaGemm.Operand(seg, ct, m.offset(), m.groupStride(), 1, m.ld());
    }

    // ---- im2col / col2im ---------------------------------------------------------------------------------

    /**
     * Why phases: with a column stride s > 1, the image columns that one row of the column matrix reads (or adds to)
     * are s apart, a loop the JIT does not vectorise and, for col2im, a read-modify-write of the image per kernel tap.
     * Split by phase (column mod s), they are contiguous: im2col deinterleaves each image row into its s phases once,
     * then copies whole runs; col2im sums whole runs into one buffer row per phase and interleaves the sums into the
     * image once, each image element written once.
     */
    private record Phases(int stride, int width) {
        /** The phases of rows {@code w} long with column stride {@code s}: phase r holds columns r, r + s, …. */
        static Phases of(int w, int s) {
            return new Phases(s, Math.ceilDiv(w, s));
        }

        /** Elements of a buffer of {@code rows} rows in every phase. */
        int size(int rows) {
            return stride * rows * width;
        }

        /** Where image column {@code offset + ox·s} is in row {@code row} of a phase buffer, less ox. */
        int at(int rows, int row, int offset) {
            return (Math.floorMod(offset, stride) * rows + row) * width + Math.floorDiv(offset, stride);
        }
    }

    /** A scratch buffer of {@code size} elements of x's type for one piece of a parallel pass. */
    private static Object phaseScratch(Object like, int size) {
        return like instanceof float[] ? new float[size] : new double[size];
    }

    /**
     * Unfolds channel {@code ci} of one sample into columns [col0, col0 + oh·ow) of {@code cols}, a row-major matrix
     * with rows {@code ld} apart and one row per (channel, ki, kj); padding reads as zero. {@code scratch} holds the
     * channel's phases when the column stride is above one ({@link Phases}).
     */
    private static void im2col(
            Object x, int xo, ConvOps.Geometry g, int ci, Object cols, int col0, int ld, Object scratch) {
        int h = (int) g.h(), w = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
        int oh = (int) g.oh(),
                ow = (int) g.ow(),
                sh = (int) g.sh(),
                sw = (int) g.sw(),
                ph = (int) g.ph(),
                pw = (int) g.pw();
        int dh = (int) g.dh(), dw = (int) g.dw();
        Phases phases = Phases.of(w, sw);
        Object src = x;
        int plane = xo + ci * h * w;
        if (sw > 1) {
            deinterleave(x, plane, h, w, phases, scratch);
            src = scratch;
            plane = 0;
        }
        for (int ki = 0; ki < kh; ki++) {
            for (int kj = 0; kj < kw; kj++) {
                int row = ((ci * kh + ki) * kw + kj) * ld + col0;
                int offW = kj * dw - pw;
                // output columns whose input column is inside the image: ox in [lo, hi)
                int lo = Math.min(ow, Math.max(0, ceilDiv(-offW, sw))),
                        hi = Math.max(lo, Math.min(ow, ceilDiv(w - offW, sw)));
                for (int oy = 0; oy < oh; oy++) {
                    int iy = oy * sh - ph + ki * dh, at = row + oy * ow;
                    if (iy < 0 || iy >= h) {
                        fill(cols, at, ow);
                        continue;
                    }
                    int from = plane + (sw > 1 ? phases.at(h, iy, offW) : iy * w + offW);
                    fill(cols, at, lo);
                    System.arraycopy(src, from + lo, cols, at + lo, hi - lo);
                    fill(cols, at + hi, ow - hi);
                }
            }
        }
    }

    /** Copies the image plane at {@code from} ([h, w]) into {@code dst} by phase: phase r, row y, column j. */
    private static void deinterleave(Object x, int from, int h, int w, Phases phases, Object dst) {
        int s = phases.stride();
        if (x instanceof float[] xf) {
            float[] df = (float[]) dst;
            for (int y = 0; y < h; y++) {
                for (int r = 0; r < s; r++) {
                    int to = phases.at(h, y, r);
                    for (int c = r, j = 0; c < w; c += s, j++) df[to + j] = xf[from + y * w + c];
                }
            }
        } else {
            double[] xd = (double[]) x, dd = (double[]) dst;
            for (int y = 0; y < h; y++) {
                for (int r = 0; r < s; r++) {
                    int to = phases.at(h, y, r);
                    for (int c = r, j = 0; c < w; c += s, j++) dd[to + j] = xd[from + y * w + c];
                }
            }
        }
    }

    /**
     * The adjoint of {@link #im2col} for channel {@code ci} of the sample at {@code xo}: each image row is the sum of
     * every column entry read from it, in (ki, kj) order, summed by phase in {@code scratch} (one row per phase,
     * {@link Phases}) and written to the image once, plus {@code bias} (null: none).
     */
    private static void col2im(
            Object cols,
            int col0,
            int ld,
            ConvOps.Geometry g,
            int ci,
            Object x,
            int xo,
            Object scratch,
            ComputeArrays.Dense bias,
            int biasIndex) {
        int h = (int) g.h(), w = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
        int oh = (int) g.oh(),
                ow = (int) g.ow(),
                sh = (int) g.sh(),
                sw = (int) g.sw(),
                ph = (int) g.ph(),
                pw = (int) g.pw();
        int dh = (int) g.dh(), dw = (int) g.dw();
        Phases phases = Phases.of(w, sw);
        int sums = phases.size(1);
        for (int iy = 0; iy < h; iy++) {
            fill(scratch, 0, sums);
            for (int ki = 0; ki < kh; ki++) {
                int num = iy + ph - ki * dh;
                if (Math.floorMod(num, sh) != 0) continue;
                int oy = Math.floorDiv(num, sh);
                if (oy < 0 || oy >= oh) continue;
                for (int kj = 0; kj < kw; kj++) {
                    int row = ((ci * kh + ki) * kw + kj) * ld + col0;
                    int offW = kj * dw - pw;
                    int lo = Math.min(ow, Math.max(0, ceilDiv(-offW, sw))),
                            hi = Math.max(lo, Math.min(ow, ceilDiv(w - offW, sw)));
                    addRun(cols, row + oy * ow + lo, scratch, phases.at(1, 0, offW) + lo, hi - lo);
                }
            }
            interleave(scratch, phases, x, xo + (ci * h + iy) * w, w, bias, biasIndex);
        }
    }

    /** {@code dst[to + i] += src[from + i]} for i in [0, len). */
    private static void addRun(Object src, int from, Object dst, int to, int len) {
        if (src instanceof float[] sf) {
            float[] df = (float[]) dst;
            for (int i = 0; i < len; i++) df[to + i] += sf[from + i];
        } else {
            double[] sd = (double[]) src, dd = (double[]) dst;
            for (int i = 0; i < len; i++) dd[to + i] += sd[from + i];
        }
    }

    /** Writes one image row ({@code w} long at {@code to}) from its phase sums, plus {@code bias} (null: none). */
    private static void interleave(
            Object sums, Phases phases, Object x, int to, int w, ComputeArrays.Dense bias, int biasIndex) {
        int s = phases.stride(), pwidth = phases.width();
        if (x instanceof float[] xf) {
            float[] sf = (float[]) sums;
            float b = bias == null ? 0f : ((float[]) bias.array())[bias.offset() + biasIndex];
            for (int r = 0; r < s; r++) {
                for (int c = r, j = r * pwidth; c < w; c += s, j++) xf[to + c] = bias == null ? sf[j] : sf[j] + b;
            }
        } else {
            double[] xd = (double[]) x, sd = (double[]) sums;
            double b = bias == null ? 0 : ((double[]) bias.array())[bias.offset() + biasIndex];
            for (int r = 0; r < s; r++) {
                for (int c = r, j = r * pwidth; c < w; c += s, j++) xd[to + c] = bias == null ? sd[j] : sd[j] + b;
            }
        }
    }

    /**
     * Units of a parallel pass per piece, each unit {@code work} elements long: about {@link Parallel#GRAIN} a piece.
     */
    private static long grain(long work) {
        return Math.max(1, Parallel.GRAIN / Math.max(1, work));
    }

    private static int ceilDiv(int a, int b) {
        return -Math.floorDiv(-a, b);
    }
}
