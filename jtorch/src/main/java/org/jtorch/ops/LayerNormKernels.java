package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.LayerNormSimd;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernels of {@code native_layer_norm} and of its first-order backward: rows of {@code n} elements (the
 * normalised shape's element count), each normalised in one pass after its statistics, rows spread over the intra-op
 * threads. float64 computes in double; every other floating dtype in float32 (float32 in vector loops, float16 and
 * bfloat16 through float32 copies, as ATen's CPU kernel widens them). The backward reads each row once: its input
 * gradient and its share of the weight and bias column sums, which are kept per fixed block of rows and added in block
 * order, so they do not depend on the thread count.
 */
final class LayerNormKernels {
    private LayerNormKernels() {}

    private static DType compute(DType d) {
        return d == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
    }

    /** {@code t} as a dense heap tensor of {@code dtype} (itself when it already is one); null stays null. */
    private static Tensor dense(Tensor t, DType dtype) {
        if (t == null
                || (t.dtype() == dtype && t.isContiguous() && t.impl().storage().array() != null)) return t;
        Tensor c = Tensor.of(TensorImpl.empty(t.shape(), dtype));
        CopyOps.convert(t, c);
        return c;
    }

    /**
     * Where a kernel writes {@code out}: {@code out} itself when dense in {@code dtype}, else a scratch copied back by
     * {@link #settle}.
     */
    private static Tensor target(Tensor out, DType dtype) {
        return out.dtype() == dtype
                        && out.isContiguous()
                        && out.impl().storage().array() != null
                ? out
                : Tensor.of(TensorImpl.empty(out.shape(), dtype));
    }

    private static void settle(Tensor written, Tensor out) {
        if (written != out) CopyOps.convert(written, out);
    }

    private static int off(Tensor t) {
        return t == null ? 0 : (int) t.storageOffset();
    }

    private static long rowGrain(int n) {
        return Math.max(1, Parallel.GRAIN / Math.max(n, 1));
    }

    /** Writes {@code out}, {@code mean} and {@code rstd} (one statistic per row of {@code n} elements). */
    static void forward(
            Tensor input, Tensor weight, Tensor bias, double eps, int n, Tensor out, Tensor mean, Tensor rstd) {
        long rows = mean.numel();
        if (rows == 0) return;
        DType dt = compute(input.dtype());
        Tensor x = dense(input, dt), w = dense(weight, dt), b = dense(bias, dt);
        Tensor o = target(out, dt), m = target(mean, dt), r = target(rstd, dt);
        int xo = off(x), wo = off(w), bo = off(b), oo = off(o), mo = off(m), ro = off(r);
        if (dt == DType.FLOAT32) {
            float[] xa = x.impl().storage().floats(),
                    wa = w == null ? null : w.impl().storage().floats(),
                    ba = b == null ? null : b.impl().storage().floats();
            float[] oa = o.impl().storage().floats(),
                    ma = m.impl().storage().floats(),
                    ra = r.impl().storage().floats();
            float e = (float) eps;
            Parallel.forRange(rows, rowGrain(n), (r0, r1) -> {
                for (long row = r0; row < r1; row++) {
                    int at = (int) (row * n);
                    LayerNormSimd.forwardRow(
                            xa, xo + at, wa, wo, ba, bo, oa, oo + at, n, e, ma, mo + (int) row, ra, ro + (int) row);
                }
            });
        } else {
            double[] xa = x.impl().storage().doubles(),
                    wa = w == null ? null : w.impl().storage().doubles(),
                    ba = b == null ? null : b.impl().storage().doubles();
            double[] oa = o.impl().storage().doubles(),
                    ma = m.impl().storage().doubles(),
                    ra = r.impl().storage().doubles();
            Parallel.forRange(rows, rowGrain(n), (r0, r1) -> {
                for (long row = r0; row < r1; row++) {
                    forwardRow(
                            xa,
                            xo + (int) (row * n),
                            wa,
                            wo,
                            ba,
                            bo,
                            oa,
                            oo + (int) (row * n),
                            n,
                            eps,
                            ma,
                            mo + (int) row,
                            ra,
                            ro + (int) row);
                }
            });
        }
        settle(o, out);
        settle(m, mean);
        settle(r, rstd);
    }

    /**
     * The first-order gradients {@code {d input, d weight, d bias}} from {@code grad} (the output's gradient) and the
     * forward's statistics; an entry is null when not {@code needed} (or its parameter is absent). Results are in the
     * compute dtype; autograd casts them to the inputs' dtypes.
     */
    static Tensor[] backward(
            Tensor grad,
            Tensor input,
            Tensor mean,
            Tensor rstd,
            Tensor weight,
            boolean hasBias,
            long[] normalizedShape,
            int n,
            boolean needInput,
            boolean needWeight,
            boolean needBias) {
        DType dt = compute(input.dtype());
        long rows = mean.numel();
        boolean dW = needWeight && weight != null, dB = needBias && hasBias;
        Tensor g = dense(grad, dt),
                x = dense(input, dt),
                m = dense(mean, dt),
                r = dense(rstd, dt),
                w = dense(weight, dt);
        Tensor dx = needInput ? Tensor.of(TensorImpl.empty(input.shape(), dt)) : null;
        // zero-filled: the block partials are added into them
        Tensor dw = dW ? Tensor.of(TensorImpl.empty(normalizedShape, dt)) : null,
                db = dB ? Tensor.of(TensorImpl.empty(normalizedShape, dt)) : null;
        if (rows == 0 || n == 0) return new Tensor[] {dx, dw, db};
        int go = off(g), xo = off(x), mo = off(m), ro = off(r), wo = off(w);
        // One pass over the rows: each block of ROW_BLOCK rows writes its rows' dx and its own partial column sums
        // while the rows are in cache; the partials are then added in block order, so dw and db do not depend on
        // which thread ran which block.
        int blocks = (int) ((rows + ROW_BLOCK - 1) / ROW_BLOCK);
        long blockGrain = Math.max(1, Parallel.GRAIN / ((long) ROW_BLOCK * n));
        if (dt == DType.FLOAT32) {
            float[] ga = g.impl().storage().floats(),
                    xa = x.impl().storage().floats(),
                    ma = m.impl().storage().floats(),
                    ra = r.impl().storage().floats();
            float[] wa = w == null ? null : w.impl().storage().floats(),
                    da = dx == null ? null : dx.impl().storage().floats();
            float[] partW = dW ? new float[blocks * n] : null, partB = dB ? new float[blocks * n] : null;
            Parallel.forRange(blocks, blockGrain, (b0, b1) -> {
                for (long blk = b0; blk < b1; blk++) {
                    for (long row = blk * ROW_BLOCK, last = Math.min(rows, row + ROW_BLOCK); row < last; row++) {
                        int at = (int) (row * n);
                        float mu = ma[mo + (int) row], rs = ra[ro + (int) row];
                        if (da != null) LayerNormSimd.inputGradRow(ga, go + at, xa, xo + at, mu, rs, wa, wo, da, at, n);
                        if (partW != null || partB != null) {
                            LayerNormSimd.accumulateColumns(
                                    ga, go + at, xa, xo + at, mu, rs, partW, partB, (int) blk * n, n);
                        }
                    }
                }
            });
            if (dW) addBlocks(partW, blocks, n, dw.impl().storage().floats());
            if (dB) addBlocks(partB, blocks, n, db.impl().storage().floats());
        } else {
            double[] ga = g.impl().storage().doubles(),
                    xa = x.impl().storage().doubles(),
                    ma = m.impl().storage().doubles(),
                    ra = r.impl().storage().doubles();
            double[] wa = w == null ? null : w.impl().storage().doubles(),
                    da = dx == null ? null : dx.impl().storage().doubles();
            double[] partW = dW ? new double[blocks * n] : null, partB = dB ? new double[blocks * n] : null;
            Parallel.forRange(blocks, blockGrain, (b0, b1) -> {
                for (long blk = b0; blk < b1; blk++) {
                    int p = (int) blk * n;
                    for (long row = blk * ROW_BLOCK, last = Math.min(rows, row + ROW_BLOCK); row < last; row++) {
                        int at = (int) (row * n);
                        double mu = ma[mo + (int) row], rs = ra[ro + (int) row];
                        if (da != null) inputGradRow(ga, go + at, xa, xo + at, mu, rs, wa, wo, da, at, n);
                        for (int c = 0; c < n; c++) {
                            if (partW != null) partW[p + c] += ga[go + at + c] * ((xa[xo + at + c] - mu) * rs);
                            if (partB != null) partB[p + c] += ga[go + at + c];
                        }
                    }
                }
            });
            if (dW) addBlocks(partW, blocks, n, dw.impl().storage().doubles());
            if (dB) addBlocks(partB, blocks, n, db.impl().storage().doubles());
        }
        return new Tensor[] {dx, dw, db};
    }

    /** Rows per block of the backward: the unit of the partial weight and bias sums. */
    private static final int ROW_BLOCK = 64;

    /** {@code out[c] = Σ_blocks part[blk·n + c]}, blocks in order. */
    private static void addBlocks(float[] part, int blocks, int n, float[] out) {
        for (int blk = 0; blk < blocks; blk++) for (int c = 0; c < n; c++) out[c] += part[blk * n + c];
    }

    private static void addBlocks(double[] part, int blocks, int n, double[] out) {
        for (int blk = 0; blk < blocks; blk++) for (int c = 0; c < n; c++) out[c] += part[blk * n + c];
    }

    // ---- float64 rows (the float32 ones are LayerNormSimd's) ----------------------------------------------

    private static void forwardRow(
            double[] x,
            int xo,
            double[] w,
            int wo,
            double[] b,
            int bo,
            double[] out,
            int oo,
            int n,
            double eps,
            double[] mean,
            int mi,
            double[] rstd,
            int ri) {
        if (n == 0) {
            mean[mi] = 0;
            rstd[ri] = Double.NaN;
            return;
        }
        double s = 0;
        for (int i = 0; i < n; i++) s += x[xo + i];
        double mu = s / n, ss = 0;
        for (int i = 0; i < n; i++) {
            double d = x[xo + i] - mu;
            ss += d * d;
        }
        double r = 1 / Math.sqrt(ss / n + eps);
        mean[mi] = mu;
        rstd[ri] = r;
        for (int i = 0; i < n; i++) {
            double y = (x[xo + i] - mu) * r;
            if (w != null) y *= w[wo + i];
            if (b != null) y += b[bo + i];
            out[oo + i] = y;
        }
    }

    private static void inputGradRow(
            double[] g,
            int go,
            double[] x,
            int xo,
            double mu,
            double r,
            double[] w,
            int wo,
            double[] dx,
            int dxo,
            int n) {
        double su = 0, sux = 0;
        for (int i = 0; i < n; i++) {
            double u = w != null ? g[go + i] * w[wo + i] : g[go + i];
            su += u;
            sux += u * ((x[xo + i] - mu) * r);
        }
        double meanU = su / n, meanUx = sux / n;
        for (int i = 0; i < n; i++) {
            double u = w != null ? g[go + i] * w[wo + i] : g[go + i];
            dx[dxo + i] = (u - meanU - (x[xo + i] - mu) * r * meanUx) * r;
        }
    }
}
