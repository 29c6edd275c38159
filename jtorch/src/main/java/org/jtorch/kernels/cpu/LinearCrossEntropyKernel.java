package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.kernels.blas.FloatGemm;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.simd.CrossEntropyRowSimd;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.storage.TensorImpl;

/**
 * The row-chunked loop of {@code linear_cross_entropy}: per chunk of rows, the logits {@code Z = X_r Wᵀ + b} into a
 * reused {@code rows × C} buffer, a stable log-softmax per row, the row losses, and, when asked, the gradient of
 * {@code Σ_n a_n·loss_n} w.r.t. those logits written over {@code Z}, which two more GEMMs turn into the chunk's
 * {@code ∂X} rows and its {@code ∂W} contribution before the next chunk. So the {@code N × C} logits never exist: the
 * extra memory is one chunk of logits plus the gradients themselves.
 *
 * <p>Each chunk is cut into column slices (classes), and every step runs slice by slice, the slices claimed by JTorch's
 * intra-op threads, each GEMM a single-threaded OpenBLAS call on its slice: (1) the slice's logits GEMM, then at once,
 * while the slice is still in cache, its per-row max and {@code Σ exp(z − max)} with the exponentials kept in place;
 * (2) per row, the slices' partial sums merged into the log-sum-exp and the loss; (3) per slice, the exponentials
 * scaled into the gradient of the logits and consumed at once by the slice's {@code ∂W} rows ({@code += G_sᵀ X_r},
 * straight into the final buffer) and its {@code ∂X_r} term ({@code G_s W_s}). Why: OpenBLAS's own threads hand off
 * badly when another process holds a core, a slice keeps each pass over the logits within the last-level cache instead
 * of one more trip to memory, and every thread packs only its own slice of W. The {@code ∂X_r} terms are summed in
 * slice order, so results do not depend on which thread ran which slice.
 *
 * <p>Works in float32 (X, W float32) or float64; callers convert half inputs to float32 first. Row losses: class index
 * {@code y}: {@code w[y]·(lse − z_y)} (0 when ignored); probabilities {@code t}: {@code (Σ_c w_c t_c)·lse − Σ_c w_c t_c
 * z_c}.
 */
public final class LinearCrossEntropyKernel {
    private LinearCrossEntropyKernel() {}

    /** Bytes of logits per slice: two threads' slices stay well inside a 32 MiB last-level cache. */
    private static final long SLICE_BYTES = 8L << 20;
    /** Slices per chunk: at least 4 to balance two to four threads (when C allows), at most 8. */
    private static final int MIN_SLICES = 4, MAX_SLICES = 8;
    /** Narrowest slice, in classes: a narrower GEMM would run below speed. */
    private static final int MIN_SLICE_COLUMNS = 64;
    /** Rows per task when summing a chunk's ∂X terms. */
    private static final int SUM_BLOCK_ROWS = 32;

    /**
     * One problem. {@code x} (N, F), {@code w} (C, F) and {@code probs} (N, C) are contiguous heap tensors of the
     * compute dtype; {@code targets} holds N class indices with ignored rows already set to -1 (null for probability
     * targets); {@code bias}/{@code classWeight} have C entries or are null; {@code rowScale} holds the coefficient
     * {@code a_n} of each row's loss in the differentiated sum (null = no gradients).
     */
    public record Problem(
            TensorImpl x,
            TensorImpl w,
            double[] bias,
            long[] targets,
            TensorImpl probs,
            double[] classWeight,
            double[] rowScale,
            int chunk,
            boolean needX,
            boolean needW,
            boolean needBias) {}

    /** Per-row losses (unscaled) and the gradients asked for (null otherwise), in the compute dtype. */
    public record Result(double[] rowLoss, TensorImpl gradX, TensorImpl gradW, TensorImpl gradBias) {}

    /**
     * Multiply-adds below which a GEMM of a single-slice run stays on one thread (OpenBLAS's own threading threshold,
     * as in the matmul kernels).
     */
    private static final long PARALLEL_MIN_WORK = 1L << 18;

    /**
     * Runs the chunk loop with OpenBLAS single-threaded: with several slices, the slices bring the parallelism; with
     * one, each GEMM is split by rows over the intra-op threads. Why never OpenBLAS's own threads: after a threaded
     * call they spin for a while, and against the intra-op workers of the next steps that made a single-slice loss
     * (TrainGpt's 72-class head) take 10-20x its arithmetic.
     */
    public static Result run(Problem p) {
        Run run = new Run(p);
        if (!OpenBlas.isAvailable()) return run.all();
        Result[] out = new Result[1];
        OpenBlas.singleThreaded(() -> out[0] = run.all());
        return out[0];
    }

    /** The state of one call: operands, the reused chunk buffers, and the per-row statistics of the chunk. */
    private static final class Run {
        private final Problem p;
        private final boolean dbl, grads;
        private final int n, f, c, chunk, slices, width;
        private final TensorImpl gx, gw;
        private final double[] gb, rowLoss;
        private final Object z, terms, bias;
        private final MemorySegment zs, termSeg, xs, ws;
        private final long xo, wo;
        /**
         * Per (slice, row): the shift subtracted before exp, and the slice's Σ exp; per (slice, row) for soft targets.
         */
        private final double[] shift, expSum, targetMass, targetDot;
        /** The chunk (first row, row count) whose ∂X terms are not yet summed into ∂X; 0 rows = none. */
        private int pendingStart, pendingRows;
        /** Per row of the chunk: z_y, and the merged max, Σ exp and gradient factor. */
        private final double[] zy, rowMax, rowSum, rowFactor;

        Run(Problem p) {
            this.p = p;
            dbl = p.x().dtype() == DType.FLOAT64;
            DType dt = dbl ? DType.FLOAT64 : DType.FLOAT32;
            n = Math.toIntExact(p.x().size(0));
            f = Math.toIntExact(p.x().size(1));
            c = Math.toIntExact(p.w().size(0));
            grads = p.rowScale() != null;
            gx = grads && p.needX() ? TensorImpl.empty(new long[] {n, f}, dt) : null;
            gw = grads && p.needW() ? TensorImpl.empty(new long[] {c, f}, dt) : null;
            gb = grads && p.needBias() ? new double[c] : null;
            rowLoss = new double[n];
            chunk = Math.max(1, Math.min(p.chunk(), Math.max(n, 1)));
            long bufLen = (long) chunk * c;
            if (bufLen > Integer.MAX_VALUE - 16)
                throw new IllegalArgumentException("linear_cross_entropy: a chunk of " + chunk + " rows x " + c
                        + " classes exceeds the largest Java array; use a smaller batch_chunk_size");
            int elem = dbl ? Double.BYTES : Float.BYTES;
            int bySize = (int) Math.min(MAX_SLICES, (bufLen * elem + SLICE_BYTES - 1) / SLICE_BYTES);
            int byWidth = Math.max(1, c / MIN_SLICE_COLUMNS);
            // the ∂X terms (one chunk × F each, but slice 0's) may take no more memory than the logits chunk
            int byTerms = gx == null ? MAX_SLICES : 1 + Math.min(MAX_SLICES, c / Math.max(f, 1));
            slices = Math.max(1, Math.min(Math.min(byWidth, byTerms), Math.max(MIN_SLICES, bySize)));
            width = Math.max(1, (c + slices - 1) / slices);
            boolean any = n > 0;
            z = !any ? null : array(bufLen);
            zs = z == null ? null : segment(z);
            // the ∂X_r terms of slices 1.. (slice 0 writes straight into ∂X)
            long termLen = gx == null || slices == 1 ? 0 : (long) (slices - 1) * chunk * f;
            terms = !any || termLen == 0 ? null : array(termLen);
            termSeg = terms == null ? null : segment(terms);
            bias = p.bias() == null ? null : toCompute(p.bias());
            xs = p.x().storage().segment();
            ws = p.w().storage().segment();
            xo = p.x().storageOffset();
            wo = p.w().storageOffset();
            int stats = slices * chunk;
            shift = new double[stats];
            expSum = new double[stats];
            targetMass = p.targets() == null ? new double[stats] : null;
            targetDot = p.targets() == null ? new double[stats] : null;
            zy = new double[chunk];
            rowMax = new double[chunk];
            rowSum = new double[chunk];
            rowFactor = new double[chunk];
        }

        Result all() {
            for (int s = 0; s < n; s += chunk) chunk(s, Math.min(chunk, n - s));
            int sums = pendingSumBlocks();
            if (sums > 0) forTasks(sums, this::sumTermBlock);
            TensorImpl gbT = null;
            if (gb != null) {
                gbT = TensorImpl.empty(new long[] {c}, dbl ? DType.FLOAT64 : DType.FLOAT32);
                if (dbl) System.arraycopy(gb, 0, gbT.storage().doubles(), 0, c);
                else for (int i = 0; i < c; i++) gbT.storage().floats()[i] = (float) gb[i];
            }
            return new Result(rowLoss, gx, gw, gbT);
        }

        private void chunk(int s, int rows) {
            // the previous chunk's ∂X terms are summed by the last tasks of this chunk's step 1 (they must be done
            // before step 3 reuses the buffer): small tasks that fill the time one thread would otherwise wait for
            // the other's last slice, and no parallel section of their own
            int sums = pendingSumBlocks();
            forTasks(slices + sums, t -> {
                if (t < slices) logitsAndStatistics(t, s, rows);
                else sumTermBlock(t - slices);
            });
            pendingRows = 0;
            for (int r = 0; r < rows; r++) rowLoss[s + r] = merge(r, s + r);
            if (!grads) return;
            forTasks(slices, j -> gradientsOfSlice(j, s, rows));
            if (terms != null) {
                pendingStart = s;
                pendingRows = rows;
            }
        }

        /** Row blocks of the chunk whose ∂X terms still need summing into ∂X (0 when none). */
        private int pendingSumBlocks() {
            return (pendingRows + SUM_BLOCK_ROWS - 1) / SUM_BLOCK_ROWS;
        }

        /** Runs {@code body} for tasks {@code 0 .. count-1}, claimed one at a time by the intra-op threads. */
        private void forTasks(int count, IntConsumer body) {
            if (count == 1) {
                body.accept(0);
                return;
            }
            AtomicInteger next = new AtomicInteger();
            Parallel.forRange(Math.min(count, Parallel.numThreads()), 1, (a, b) -> {
                for (int t; (t = next.getAndIncrement()) < count; ) body.accept(t);
            });
        }

        /** Step 1 on slice {@code j}: its logits, then per row z_y, the soft-target sums, and max / Σ exp. */
        private void logitsAndStatistics(int j, int s, int rows) {
            int v0 = j * width, v1 = Math.min(c, v0 + width), wc = v1 - v0;
            if (wc <= 0) { // only when there are no classes at all: one empty slice
                for (int r = 0; r < rows; r++) {
                    shift[j * chunk + r] = expSum[j * chunk + r] = 0;
                    if (targetMass != null) targetMass[j * chunk + r] = targetDot[j * chunk + r] = 0;
                }
                return;
            }
            if (bias != null) for (int r = 0; r < rows; r++) System.arraycopy(bias, v0, z, r * c + v0, wc);
            gemm(
                    Transpose.NONE,
                    Transpose.TRANSPOSE,
                    rows,
                    wc,
                    f,
                    xs,
                    xo + (long) s * f,
                    f,
                    ws,
                    wo + (long) v0 * f,
                    f,
                    bias != null ? 1 : 0,
                    zs,
                    v0,
                    c);
            for (int r = 0; r < rows; r++) {
                int o = r * c + v0, k = j * chunk + r;
                if (p.targets() != null) {
                    long y = p.targets()[s + r];
                    if (y >= v0 && y < v1) zy[r] = get(o + (int) y - v0);
                } else {
                    softTargetSums(k, o, s + r, v0, wc);
                }
                if (z instanceof float[] zf) {
                    float m = FloatSimd.max(zf, o, wc);
                    float sh = m == Float.NEGATIVE_INFINITY ? 0 : m; // an all -inf slice adds nothing, not NaN
                    shift[k] = sh;
                    expSum[k] = CrossEntropyRowSimd.expShiftedSum(zf, o, wc, sh);
                } else {
                    double[] zd = (double[]) z;
                    double m = Double.NEGATIVE_INFINITY, sum = 0;
                    for (int i = o; i < o + wc; i++) m = Math.max(m, zd[i]);
                    double sh = m == Double.NEGATIVE_INFINITY ? 0 : m;
                    for (int i = o; i < o + wc; i++) sum += zd[i] = Math.exp(zd[i] - sh);
                    shift[k] = sh;
                    expSum[k] = sum;
                }
            }
        }

        /** {@code Σ_c w_c t_c} and {@code Σ_c w_c t_c z_c} over the slice's classes of row {@code row}. */
        private void softTargetSums(int k, int o, int row, int v0, int wc) {
            double[] cw = p.classWeight();
            double mass = 0, dot = 0;
            int to = Math.toIntExact(p.probs().storageOffset() + (long) row * c + v0);
            if (dbl) {
                double[] t = p.probs().storage().doubles(), zd = (double[]) z;
                for (int i = 0; i < wc; i++) {
                    double wt = cw == null ? t[to + i] : cw[v0 + i] * t[to + i];
                    mass += wt;
                    dot += wt * zd[o + i];
                }
            } else {
                float[] t = p.probs().storage().floats(), zf = (float[]) z;
                for (int i = 0; i < wc; i++) {
                    double wt = cw == null ? t[to + i] : cw[v0 + i] * t[to + i];
                    mass += wt;
                    dot += wt * zf[o + i];
                }
            }
            targetMass[k] = mass;
            targetDot[k] = dot;
        }

        /**
         * Step 2 for chunk row {@code r} (batch row {@code row}): the slices' sums merged in slice order into the
         * log-sum-exp; returns the row's loss and keeps the factor that turns a slice's exponentials into ∂loss/∂z.
         */
        private double merge(int r, int row) {
            double m = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < slices; j++) if (expSum[j * chunk + r] != 0) m = Math.max(m, shift[j * chunk + r]);
            double sum = 0;
            for (int j = 0; j < slices; j++) {
                int k = j * chunk + r;
                if (expSum[k] != 0) sum += expSum[k] * Math.exp(shift[k] - m);
            }
            rowMax[r] = m;
            rowSum[r] = sum;
            double lse = m + Math.log(sum), a = grads ? p.rowScale()[row] : 0;
            if (p.targets() != null) {
                int y = (int) p.targets()[row];
                if (y < 0) {
                    rowFactor[r] = 0;
                    return 0;
                }
                double wy = p.classWeight() == null ? 1 : p.classWeight()[y];
                rowFactor[r] = a * wy;
                return wy * (lse - zy[r]);
            }
            double mass = 0, dot = 0;
            for (int j = 0; j < slices; j++) {
                mass += targetMass[j * chunk + r];
                dot += targetDot[j * chunk + r];
            }
            rowFactor[r] = a * mass;
            return mass * lse - dot;
        }

        /** Step 3 on slice {@code j}: the gradient of the logits in place, then its ∂b, ∂W rows and ∂X_r term. */
        private void gradientsOfSlice(int j, int s, int rows) {
            int v0 = j * width, v1 = Math.min(c, v0 + width), wc = v1 - v0;
            if (wc <= 0) { // no classes: ∂X is zero
                if (gx != null) zeroRows(s, rows);
                return;
            }
            for (int r = 0; r < rows; r++) logitGradient(j, r, s + r, r * c + v0, v0, wc);
            if (gb != null) {
                for (int r = 0; r < rows; r++) {
                    int o = r * c + v0;
                    if (z instanceof float[] zf) for (int i = 0; i < wc; i++) gb[v0 + i] += zf[o + i];
                    else for (int i = 0; i < wc; i++) gb[v0 + i] += ((double[]) z)[o + i];
                }
            }
            if (gw != null) {
                gemm(
                        Transpose.TRANSPOSE,
                        Transpose.NONE,
                        wc,
                        f,
                        rows,
                        zs,
                        v0,
                        c,
                        xs,
                        xo + (long) s * f,
                        f,
                        s == 0 ? 0 : 1,
                        gw.storage().segment(),
                        (long) v0 * f,
                        f);
            }
            if (gx != null) {
                MemorySegment out = j == 0 ? gx.storage().segment() : termSeg;
                long off = j == 0 ? (long) s * f : (long) (j - 1) * chunk * f;
                gemm(Transpose.NONE, Transpose.NONE, rows, f, wc, zs, v0, c, ws, wo + (long) v0 * f, f, 0, out, off, f);
            }
        }

        /** {@code a_n ·∂loss_n/∂z} over one row's slice, from the exponentials step 1 left there. */
        private void logitGradient(int j, int r, int row, int o, int v0, int wc) {
            int k = j * chunk + r;
            double scale = rowFactor[r] == 0 ? 0 : rowFactor[r] * Math.exp(shift[k] - rowMax[r]) / rowSum[r];
            if (p.targets() != null) {
                int y = (int) p.targets()[row];
                if (z instanceof float[] zf) {
                    if (y < 0) java.util.Arrays.fill(zf, o, o + wc, 0f); // ignored: a zero row, whatever the logits
                    else CrossEntropyRowSimd.scale(zf, o, wc, (float) scale);
                    if (y >= v0 && y < v0 + wc) zf[o + y - v0] -= (float) rowFactor[r];
                } else {
                    double[] zd = (double[]) z;
                    if (y < 0) java.util.Arrays.fill(zd, o, o + wc, 0.0);
                    else for (int i = o; i < o + wc; i++) zd[i] *= scale;
                    if (y >= v0 && y < v0 + wc) zd[o + y - v0] -= rowFactor[r];
                }
                return;
            }
            double a = p.rowScale()[row];
            double[] cw = p.classWeight();
            int to = Math.toIntExact(p.probs().storageOffset() + (long) row * c + v0);
            if (z instanceof float[] zf) {
                float[] t = p.probs().storage().floats();
                for (int i = 0; i < wc; i++) {
                    double wt = cw == null ? t[to + i] : cw[v0 + i] * t[to + i];
                    zf[o + i] = (float) (scale * zf[o + i] - a * wt);
                }
            } else {
                double[] t = p.probs().storage().doubles(), zd = (double[]) z;
                for (int i = 0; i < wc; i++) {
                    double wt = cw == null ? t[to + i] : cw[v0 + i] * t[to + i];
                    zd[o + i] = scale * zd[o + i] - a * wt;
                }
            }
        }

        /** {@code ∂X += Σ_{j ≥ 1} term_j} in slice order, over row block {@code b} of the pending chunk. */
        private void sumTermBlock(int b) {
            int r0 = b * SUM_BLOCK_ROWS, r1 = Math.min(pendingRows, r0 + SUM_BLOCK_ROWS);
            int a = r0 * f, m = (r1 - r0) * f, out = pendingStart * f + a;
            for (int j = 1; j < slices; j++) {
                int t = (j - 1) * chunk * f + a;
                if (dbl) {
                    double[] g = gx.storage().doubles(), td = (double[]) terms;
                    for (int i = 0; i < m; i++) g[out + i] += td[t + i];
                } else {
                    float[] g = gx.storage().floats();
                    FloatSimd.binary(FloatSimd.Binary.ADD, g, out, (float[]) terms, t, g, out, m);
                }
            }
        }

        private void zeroRows(int s, int rows) {
            if (dbl) java.util.Arrays.fill(gx.storage().doubles(), s * f, (s + rows) * f, 0.0);
            else java.util.Arrays.fill(gx.storage().floats(), s * f, (s + rows) * f, 0f);
        }

        private double get(int i) {
            return z instanceof float[] zf ? zf[i] : ((double[]) z)[i];
        }

        private Object array(long len) {
            return dbl ? new double[(int) len] : new float[(int) len];
        }

        private static MemorySegment segment(Object a) {
            return a instanceof float[] fa ? MemorySegment.ofArray(fa) : MemorySegment.ofArray((double[]) a);
        }

        private Object toCompute(double[] v) {
            if (dbl) return v.clone();
            float[] out = new float[v.length];
            for (int i = 0; i < v.length; i++) out[i] = (float) v[i];
            return out;
        }

        /** Row-major {@code C = op(A)·op(B) + beta·C}: OpenBLAS when present, the Java GEMM otherwise. */
        private void gemm(
                Transpose ta,
                Transpose tb,
                int m,
                int nn,
                int k,
                MemorySegment a,
                long ao,
                int lda,
                MemorySegment b,
                long bo,
                int ldb,
                double beta,
                MemorySegment cs,
                long co,
                int ldc) {
            if (m == 0 || nn == 0) return;
            if (k > 0 && OpenBlas.isAvailable()) {
                // rows split over the intra-op threads; inside a slice task (already parallel) this runs serially
                Parallel.forRange(m, Math.max(1, Math.ceilDiv(PARALLEL_MIN_WORK, (long) nn * k)), (r0, r1) -> {
                    int rows = (int) (r1 - r0);
                    long aRow = ao + (ta == Transpose.NONE ? r0 * lda : r0), cRow = co + r0 * ldc;
                    if (dbl) OpenBlas.dgemm(ta, tb, rows, nn, k, 1.0, a, aRow, lda, b, bo, ldb, beta, cs, cRow, ldc);
                    else {
                        FloatGemm.sgemm(ta, tb, rows, nn, k, 1f, a, aRow, lda, b, bo, ldb, (float) beta, cs, cRow, ldc);
                    }
                });
                return;
            }
            DType dt = dbl ? DType.FLOAT64 : DType.FLOAT32;
            boolean tA = ta != Transpose.NONE, tB = tb != Transpose.NONE;
            JavaGemm.gemm(
                    1,
                    m,
                    nn,
                    k,
                    Scalar.of(1.0),
                    Scalar.of(beta),
                    new JavaGemm.Operand(a, dt, ao, 0, tA ? 1 : lda, tA ? lda : 1),
                    new JavaGemm.Operand(b, dt, bo, 0, tB ? 1 : ldb, tB ? ldb : 1),
                    new JavaGemm.Operand(cs, dt, co, 0, ldc, 1),
                    false);
        }
    }
}
