package org.jtorch.kernels.cpu.simd;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Scaled dot-product attention on float32 without the [L, S] score matrix: FlashAttention's tiling on the CPU. The
 * forward walks the keys in blocks and keeps, per query row, the running maximum and sum of the online softmax, so only
 * a {@link #BLOCK_Q} x {@link #BLOCK_K} tile of scores exists at a time; it returns the output and each row's
 * log-sum-exp. The backward recomputes the probabilities tile by tile from that log-sum-exp and accumulates the three
 * input gradients, again never holding more than two tiles.
 *
 * <p>Scores are {@code (q·k)·scale + mask}; a causal problem keeps key {@code j} for query {@code i} iff {@code j ≤ i}
 * (top-left aligned, as {@code is_causal}), and key blocks wholly above the diagonal are skipped, which halves the
 * work; so are tiles that an additive mask hides entirely. A row whose scores are all -inf (a fully masked query) gets
 * a zero output, a log-sum-exp of -inf and zero gradients, as ATen's safe softmax gives.
 *
 * <p>Every tile product is {@link #mulAdd}: a register-blocked kernel (8 rows x 2 vectors of accumulators) that reads A
 * through arbitrary strides, one broadcast scalar at a time, and B and C as rows; so the transposed operands of the
 * backward ({@code Pᵀ dO}, {@code dSᵀ Q}) need no copies, and only K and V are transposed, once per matrix.
 *
 * <p>Work is split over the batch (every leading dim flattened): in the forward by (matrix, query block), in the
 * backward by matrix, since the key and value gradients of one matrix gather contributions from all its query rows. The
 * split decides which thread computes a tile, never the order of any sum, so results do not depend on the thread count.
 */
public final class FlashAttentionSimd {
    private FlashAttentionSimd() {}

    private static final VectorSpecies<Float> F = FloatSimd.SPECIES;
    /** Query rows per tile. */
    static final int BLOCK_Q = 64;
    /** Key rows per tile: 128 x 32-element rows of K and V fit L1 together with the score tile's rows in flight. */
    static final int BLOCK_K = 64;

    /**
     * A batch of row-major matrices in one array: matrix {@code n} starts at {@code bases[n]}, its row {@code i} at
     * {@code + i * rowStride}, element {@code j} of the row at {@code + j}.
     */
    public record Rows(float[] data, int[] bases, int rowStride) {
        int row(int n, int i) {
            return bases[n] + i * rowStride;
        }
    }

    /** An additive mask: element {@code (n, i, j)} at {@code data[bases[n] + i * rowStride + j * colStride]}. */
    public record Mask(float[] data, int[] bases, int rowStride, int colStride) {}

    /**
     * One attention problem: {@code batch} matrices of {@code l} queries and {@code s} keys, head dims {@code e} (query
     * and key) and {@code ev} (value). {@code mask} may be null.
     */
    public record Problem(
            int batch, int l, int s, int e, int ev, float scale, boolean causal, Rows q, Rows k, Rows v, Mask mask) {}

    /** Forward tasks of a problem: one per (matrix, block of {@link #BLOCK_Q} query rows). */
    public static long forwardTasks(Problem p) {
        return (long) p.batch() * Math.ceilDiv(p.l(), BLOCK_Q);
    }

    /** Tasks per thread piece so that a piece is worth a fork: about 2^18 multiply-adds. */
    public static long grain(Problem p, long tasks) {
        long work = (long) p.l() * p.s() * (p.e() + p.ev()) * p.batch();
        return Math.max(1, (1L << 18) / Math.max(1, work / Math.max(1, tasks)));
    }

    /**
     * Forward tasks {@code [t0, t1)}: writes their rows of the attention output into {@code out} ({@code batch}
     * matrices of l x ev) and each query row's log-sum-exp of its scaled, masked scores into {@code lse[lseOffset + n *
     * l + i]}. Tasks write disjoint rows, so any split of the tasks over threads gives the same bits.
     */
    public static void forward(Problem p, Rows out, float[] lse, int lseOffset, long t0, long t1) {
        int qBlocks = Math.ceilDiv(p.l(), BLOCK_Q);
        Tiles tiles = new Tiles(p);
        for (long t = t0; t < t1; t++) {
            int n = (int) (t / qBlocks), i0 = (int) (t % qBlocks) * BLOCK_Q;
            forwardBlock(p, n, i0, Math.min(p.l(), i0 + BLOCK_Q), tiles, out, lse, lseOffset);
        }
    }

    /**
     * Backward of matrices {@code [n0, n1)}: accumulates the input gradients into {@code dq}, {@code dk} and {@code dv}
     * (which must hold zeros), given the forward's output {@code out}, its log-sum-exp and the output gradient
     * {@code dOut}. A matrix's key and value gradients gather contributions from all its query rows, so a matrix is the
     * unit of work.
     */
    public static void backward(
            Problem p, Rows out, float[] lse, int lseOffset, Rows dOut, Rows dq, Rows dk, Rows dv, long n0, long n1) {
        Tiles tiles = new Tiles(p);
        float[] rowDots = new float[p.l()];
        for (int n = (int) n0; n < n1; n++) {
            for (int i = 0; i < p.l(); i++) {
                rowDots[i] = dot(dOut.data(), dOut.row(n, i), out.data(), out.row(n, i), p.ev());
            }
            for (int j0 = 0; j0 < p.s(); j0 += BLOCK_K) {
                backwardKeyBlock(
                        p, n, j0, Math.min(p.s(), j0 + BLOCK_K), tiles, lse, lseOffset, rowDots, dOut, dq, dk, dv);
            }
        }
    }

    /**
     * Per-thread scratch: one score tile, one probability-gradient tile, the transposed K and V of one matrix, row
     * state.
     */
    private static final class Tiles {
        final float[] scores = new float[BLOCK_Q * BLOCK_K];
        final float[] probGrads = new float[BLOCK_Q * BLOCK_K];
        /** Kᵀ and Vᵀ of one matrix (e x s, ev x s), transposed once for all its tiles. */
        final float[] keysT, valuesT, acc;
        /** The matrix whose K (V) is in {@link #keysT} ({@link #valuesT}), or -1. */
        int keysOf = -1, valuesOf = -1;

        final float[] rowMax = new float[BLOCK_Q];
        /**
         * Each row's running sum of the online softmax, kept per vector lane (the lanes of row r at {@code r * lanes})
         * plus the scalar tail's part, and reduced once per row at the end: a lane reduction per row and key block cost
         * as much as the block's exponentials.
         */
        final float[] rowSumLanes = new float[BLOCK_Q * F.length()], rowSumTail = new float[BLOCK_Q];

        Tiles(Problem p) {
            keysT = new float[p.e() * p.s()];
            valuesT = new float[p.ev() * p.s()];
            acc = new float[BLOCK_Q * p.ev()];
        }
    }

    private static void forwardBlock(Problem p, int n, int i0, int i1, Tiles t, Rows out, float[] lse, int lseOffset) {
        int rows = i1 - i0, ev = p.ev();
        float[] s = t.scores, acc = t.acc;
        Arrays.fill(t.rowMax, 0, rows, Float.NEGATIVE_INFINITY);
        Arrays.fill(t.rowSumLanes, 0, rows * F.length(), 0f);
        Arrays.fill(t.rowSumTail, 0, rows, 0f);
        Arrays.fill(acc, 0, rows * ev, 0f);
        int keyEnd = p.causal() ? Math.min(p.s(), i1) : p.s();
        for (int j0 = 0; j0 < keyEnd; j0 += BLOCK_K) {
            int cols = Math.min(BLOCK_K, keyEnd - j0);
            if (maskedOut(p.mask(), n, i0, rows, j0, cols)) continue;
            scoreTile(p, n, i0, rows, j0, cols, t);
            for (int r = 0; r < rows; r++) {
                softmaxStep(s, r * cols, cols, unmaskedSpan(p, i0 + r, j0, cols), r, t, acc, r * ev, ev);
            }
            mulAdd(rows, ev, cols, s, 0, cols, 1, p.v().data(), p.v().row(n, j0), p.v().rowStride(), acc, 0, ev);
        }
        for (int r = 0; r < rows; r++) {
            float sum = (float) (laneSum(t.rowSumLanes, r * F.length()) + t.rowSumTail[r]);
            float inv = sum > 0 ? 1f / sum : 0f;
            int o = out.row(n, i0 + r);
            for (int c = 0; c < ev; c++) out.data()[o + c] = acc[r * ev + c] * inv;
            lse[lseOffset + n * p.l() + i0 + r] =
                    sum > 0 ? t.rowMax[r] + (float) Math.log(sum) : Float.NEGATIVE_INFINITY;
        }
    }

    /**
     * Scores of query rows {@code [i0, i0 + rows)} against keys {@code [j0, j0 + cols)} into {@code t.scores} (row
     * stride {@code cols}): {@code q·k·scale + mask}, -inf above the diagonal of a causal problem.
     */
    private static void scoreTile(Problem p, int n, int i0, int rows, int j0, int cols, Tiles t) {
        float[] s = t.scores;
        if (t.keysOf != n) {
            transpose(p.k(), n, p.s(), p.e(), t.keysT);
            t.keysOf = n;
        }
        Arrays.fill(s, 0, rows * cols, 0f);
        mulAdd(rows, cols, p.e(), p.q().data(), p.q().row(n, i0), p.q().rowStride(), 1, t.keysT, j0, p.s(), s, 0, cols);
        Mask m = p.mask();
        for (int r = 0; r < rows; r++) {
            int at = r * cols, i = i0 + r;
            scale(s, at, cols, p.scale());
            if (m != null) {
                int mo = m.bases()[n] + i * m.rowStride() + j0 * m.colStride();
                addMask(s, at, cols, m.data(), mo, m.colStride());
            }
            if (p.causal() && j0 + cols - 1 > i) {
                Arrays.fill(s, at + Math.max(0, i + 1 - j0), at + cols, Float.NEGATIVE_INFINITY);
            }
        }
    }

    /**
     * One key block of the online softmax for one query row: rescales the row's running sum and output accumulator to
     * the new maximum and leaves the block's unnormalised probabilities in place of its scores.
     */
    private static void softmaxStep(
            float[] s, int at, int cols, int span, int r, Tiles t, float[] acc, int accAt, int ev) {
        Arrays.fill(s, at + span, at + cols, 0f);
        float blockMax = max(s, at, span);
        float before = t.rowMax[r], now = Math.max(before, blockMax);
        if (now == Float.NEGATIVE_INFINITY) { // every key so far masked: nothing to weigh yet
            Arrays.fill(s, at, at + span, 0f);
            return;
        }
        if (before != now && before != Float.NEGATIVE_INFINITY) {
            float rescale = FloatExp.exp(before - now);
            scale(t.rowSumLanes, r * F.length(), F.length(), rescale);
            t.rowSumTail[r] *= rescale;
            scale(acc, accAt, ev, rescale);
        }
        t.rowSumTail[r] += expShiftedSummed(s, at, span, now, t.rowSumLanes, r * F.length());
        t.rowMax[r] = now;
    }

    private static void backwardKeyBlock(
            Problem p,
            int n,
            int j0,
            int j1,
            Tiles t,
            float[] lse,
            int lseOffset,
            float[] rowDots,
            Rows dOut,
            Rows dq,
            Rows dk,
            Rows dv) {
        int cols = j1 - j0, e = p.e(), ev = p.ev();
        float[] s = t.scores, dp = t.probGrads;
        if (t.valuesOf != n) {
            transpose(p.v(), n, p.s(), ev, t.valuesT);
            t.valuesOf = n;
        }
        // causal: queries above the block's first key see none of it
        int first = p.causal() ? (j0 / BLOCK_Q) * BLOCK_Q : 0;
        for (int i0 = first; i0 < p.l(); i0 += BLOCK_Q) {
            int rows = Math.min(BLOCK_Q, p.l() - i0);
            if (maskedOut(p.mask(), n, i0, rows, j0, cols)) continue;
            scoreTile(p, n, i0, rows, j0, cols, t);
            for (int r = 0; r < rows; r++) {
                int span = unmaskedSpan(p, i0 + r, j0, cols);
                Arrays.fill(s, r * cols + span, (r + 1) * cols, 0f);
                probabilities(s, r * cols, span, lse[lseOffset + n * p.l() + i0 + r]);
            }
            // dV += Pᵀ dO
            mulAdd(
                    cols,
                    ev,
                    rows,
                    s,
                    0,
                    1,
                    cols,
                    dOut.data(),
                    dOut.row(n, i0),
                    dOut.rowStride(),
                    dv.data(),
                    dv.row(n, j0),
                    dv.rowStride());
            // dP = dO Vᵀ, then dS = P (dP - rowDot) · scale, in place
            Arrays.fill(dp, 0, rows * cols, 0f);
            mulAdd(
                    rows,
                    cols,
                    ev,
                    dOut.data(),
                    dOut.row(n, i0),
                    dOut.rowStride(),
                    1,
                    t.valuesT,
                    j0,
                    p.s(),
                    dp,
                    0,
                    cols);
            for (int r = 0; r < rows; r++) scoreGrads(s, dp, r * cols, cols, rowDots[i0 + r], p.scale());
            // dQ += dS K, dK += dSᵀ Q
            mulAdd(
                    rows,
                    e,
                    cols,
                    dp,
                    0,
                    cols,
                    1,
                    p.k().data(),
                    p.k().row(n, j0),
                    p.k().rowStride(),
                    dq.data(),
                    dq.row(n, i0),
                    dq.rowStride());
            mulAdd(
                    cols,
                    e,
                    rows,
                    dp,
                    0,
                    1,
                    cols,
                    p.q().data(),
                    p.q().row(n, i0),
                    p.q().rowStride(),
                    dk.data(),
                    dk.row(n, j0),
                    dk.rowStride());
        }
    }

    /**
     * Whether the mask hides the whole tile (every entry -inf, as above the diagonal of an additive causal mask). Such
     * a tile adds exact zeros to the output, the softmax sums and every gradient, so skipping it changes no bits (for
     * finite inputs) and saves the work that {@code is_causal} saves.
     */
    private static boolean maskedOut(Mask m, int n, int i0, int rows, int j0, int cols) {
        if (m == null) return false;
        float[] d = m.data();
        for (int r = 0; r < rows; r++) {
            int at = m.bases()[n] + (i0 + r) * m.rowStride() + j0 * m.colStride();
            for (int c = 0; c < cols; c++) {
                if (d[at + c * m.colStride()] != Float.NEGATIVE_INFINITY) return false;
            }
        }
        return true;
    }

    /**
     * The leading columns of query row {@code i}'s tile row (keys {@code [j0, j0 + cols)}) that the online softmax must
     * exponentiate: up to the causal diagonal, rounded up to whole vectors, or all {@code cols}. The columns after it
     * hold -inf scores, whose probabilities are exact zeros: skipping whole vectors of them changes no sum's bits.
     */
    private static int unmaskedSpan(Problem p, int i, int j0, int cols) {
        if (!p.causal()) return cols;
        int live = Math.max(0, Math.min(cols, i + 1 - j0));
        if (live == 0) return 0;
        int vectors = Math.ceilDiv(live, F.length()) * F.length();
        return vectors >= F.loopBound(cols) ? cols : vectors; // the scalar tail is not split
    }

    /** Scores → probabilities {@code exp(s - lse)}; a fully masked row (lse = -inf) has none. */
    private static void probabilities(float[] s, int at, int cols, float lse) {
        if (lse == Float.NEGATIVE_INFINITY) Arrays.fill(s, at, at + cols, 0f);
        else expShifted(s, at, cols, lse);
    }

    /** {@code dp[j] = p[j] * (dp[j] - rowDot) * scale} over one row. */
    private static void scoreGrads(float[] p, float[] dp, int at, int cols, float rowDot, float scale) {
        int j = 0;
        for (int bound = F.loopBound(cols); j < bound; j += F.length()) {
            FloatVector g = FloatVector.fromArray(F, dp, at + j).sub(rowDot);
            FloatVector.fromArray(F, p, at + j).mul(g).mul(scale).intoArray(dp, at + j);
        }
        for (; j < cols; j++) dp[at + j] = p[at + j] * (dp[at + j] - rowDot) * scale;
    }

    /** Matrix {@code n} of {@code x} ({@code rows} x {@code width}) into {@code dst} transposed (width x rows). */
    private static void transpose(Rows x, int n, int rows, int width, float[] dst) {
        float[] a = x.data();
        int base = x.row(n, 0), stride = x.rowStride();
        for (int c = 0; c < width; c++) {
            int d = c * rows, src = base + c;
            for (int j = 0; j < rows; j++) dst[d + j] = a[src + j * stride];
        }
    }

    /**
     * {@code C[i][j] += Σ_p A[i][p] B[p][j]} for {@code i < rows}, {@code j < cols}, {@code p < depth}: A read at
     * {@code a[aOff + i * ars + p * acs]}, B at {@code b[bOff + p * ldb + j]}, C at {@code c[cOff + i * ldc + j]}.
     * Column tails use {@link Math#fma} like the vector lanes, so a value does not depend on its lane.
     */
    static void mulAdd(
            int rows,
            int cols,
            int depth,
            float[] a,
            int aOff,
            int ars,
            int acs,
            float[] b,
            int bOff,
            int ldb,
            float[] c,
            int cOff,
            int ldc) {
        // Eight rows x two vectors of accumulators: each B vector loaded feeds eight fused multiply-adds (with four
        // rows, the loads rather than the multiply-adds set the pace); leftover rows and columns take the one-row
        // path, with the same chains.
        int lanes = F.length(), i = 0;
        for (; i + 8 <= rows; i += 8) {
            int a0 = aOff + i * ars, a1 = a0 + ars, a2 = a1 + ars, a3 = a2 + ars;
            int a4 = a3 + ars, a5 = a4 + ars, a6 = a5 + ars, a7 = a6 + ars;
            int c0 = cOff + i * ldc, c1 = c0 + ldc, c2 = c1 + ldc, c3 = c2 + ldc;
            int c4 = c3 + ldc, c5 = c4 + ldc, c6 = c5 + ldc, c7 = c6 + ldc;
            int j = 0;
            for (; j + 2 * lanes <= cols; j += 2 * lanes) {
                int jl = j + lanes;
                FloatVector s0 = FloatVector.fromArray(F, c, c0 + j), t0 = FloatVector.fromArray(F, c, c0 + jl);
                FloatVector s1 = FloatVector.fromArray(F, c, c1 + j), t1 = FloatVector.fromArray(F, c, c1 + jl);
                FloatVector s2 = FloatVector.fromArray(F, c, c2 + j), t2 = FloatVector.fromArray(F, c, c2 + jl);
                FloatVector s3 = FloatVector.fromArray(F, c, c3 + j), t3 = FloatVector.fromArray(F, c, c3 + jl);
                FloatVector s4 = FloatVector.fromArray(F, c, c4 + j), t4 = FloatVector.fromArray(F, c, c4 + jl);
                FloatVector s5 = FloatVector.fromArray(F, c, c5 + j), t5 = FloatVector.fromArray(F, c, c5 + jl);
                FloatVector s6 = FloatVector.fromArray(F, c, c6 + j), t6 = FloatVector.fromArray(F, c, c6 + jl);
                FloatVector s7 = FloatVector.fromArray(F, c, c7 + j), t7 = FloatVector.fromArray(F, c, c7 + jl);
                for (int p = 0; p < depth; p++) {
                    int row = bOff + p * ldb, ap = p * acs;
                    FloatVector y = FloatVector.fromArray(F, b, row + j), z = FloatVector.fromArray(F, b, row + jl);
                    FloatVector x = FloatVector.broadcast(F, a[a0 + ap]);
                    s0 = y.fma(x, s0);
                    t0 = z.fma(x, t0);
                    x = FloatVector.broadcast(F, a[a1 + ap]);
                    s1 = y.fma(x, s1);
                    t1 = z.fma(x, t1);
                    x = FloatVector.broadcast(F, a[a2 + ap]);
                    s2 = y.fma(x, s2);
                    t2 = z.fma(x, t2);
                    x = FloatVector.broadcast(F, a[a3 + ap]);
                    s3 = y.fma(x, s3);
                    t3 = z.fma(x, t3);
                    x = FloatVector.broadcast(F, a[a4 + ap]);
                    s4 = y.fma(x, s4);
                    t4 = z.fma(x, t4);
                    x = FloatVector.broadcast(F, a[a5 + ap]);
                    s5 = y.fma(x, s5);
                    t5 = z.fma(x, t5);
                    x = FloatVector.broadcast(F, a[a6 + ap]);
                    s6 = y.fma(x, s6);
                    t6 = z.fma(x, t6);
                    x = FloatVector.broadcast(F, a[a7 + ap]);
                    s7 = y.fma(x, s7);
                    t7 = z.fma(x, t7);
                }
                s0.intoArray(c, c0 + j);
                t0.intoArray(c, c0 + jl);
                s1.intoArray(c, c1 + j);
                t1.intoArray(c, c1 + jl);
                s2.intoArray(c, c2 + j);
                t2.intoArray(c, c2 + jl);
                s3.intoArray(c, c3 + j);
                t3.intoArray(c, c3 + jl);
                s4.intoArray(c, c4 + j);
                t4.intoArray(c, c4 + jl);
                s5.intoArray(c, c5 + j);
                t5.intoArray(c, c5 + jl);
                s6.intoArray(c, c6 + j);
                t6.intoArray(c, c6 + jl);
                s7.intoArray(c, c7 + j);
                t7.intoArray(c, c7 + jl);
            }
            for (int q = 0; q < 8; q++)
                mulAddRowTail(j, cols, depth, a, a0 + q * ars, acs, b, bOff, ldb, c, c0 + q * ldc);
        }
        for (; i < rows; i++) mulAddRowTail(0, cols, depth, a, aOff + i * ars, acs, b, bOff, ldb, c, cOff + i * ldc);
    }

    /** One row of {@link #mulAdd} from column {@code j}: single vectors, then scalars. */
    private static void mulAddRowTail(
            int j,
            int cols,
            int depth,
            float[] a,
            int aRow,
            int acs,
            float[] b,
            int bOff,
            int ldb,
            float[] c,
            int cRow) {
        for (; j + F.length() <= cols; j += F.length()) {
            FloatVector s = FloatVector.fromArray(F, c, cRow + j);
            for (int p = 0; p < depth; p++) {
                s = FloatVector.fromArray(F, b, bOff + p * ldb + j).fma(FloatVector.broadcast(F, a[aRow + p * acs]), s);
            }
            s.intoArray(c, cRow + j);
        }
        for (; j < cols; j++) {
            float s = c[cRow + j];
            for (int p = 0; p < depth; p++) s = Math.fma(a[aRow + p * acs], b[bOff + p * ldb + j], s);
            c[cRow + j] = s;
        }
    }

    /**
     * The sum of the vector lanes stored at {@code x[at]}, in {@link FloatSimd#laneSum}'s order, read from the array:
     * extracting lanes of a vector by a variable index made C2 allocate the vector on the heap.
     */
    private static double laneSum(float[] x, int at) {
        double s = 0;
        for (int i = 0; i < F.length(); i++) s += x[at + i];
        return s;
    }

    private static float dot(float[] x, int xo, float[] y, int yo, int len) {
        FloatVector acc = FloatVector.zero(F);
        int j = 0;
        for (int bound = F.loopBound(len); j < bound; j += F.length()) {
            acc = FloatVector.fromArray(F, x, xo + j).fma(FloatVector.fromArray(F, y, yo + j), acc);
        }
        float s = (float) FloatSimd.laneSum(acc); // fixed lane order: the same bits before and after the JIT
        for (; j < len; j++) s = Math.fma(x[xo + j], y[yo + j], s);
        return s;
    }

    private static void scale(float[] x, int at, int len, float factor) {
        int j = 0;
        for (int bound = F.loopBound(len); j < bound; j += F.length()) {
            FloatVector.fromArray(F, x, at + j).mul(factor).intoArray(x, at + j);
        }
        for (; j < len; j++) x[at + j] *= factor;
    }

    private static void addMask(float[] s, int at, int len, float[] mask, int mo, int colStride) {
        int j = 0;
        if (colStride == 1) {
            for (int bound = F.loopBound(len); j < bound; j += F.length()) {
                FloatVector.fromArray(F, s, at + j)
                        .add(FloatVector.fromArray(F, mask, mo + j))
                        .intoArray(s, at + j);
            }
        }
        for (; j < len; j++) s[at + j] += mask[mo + j * colStride];
    }

    private static float max(float[] x, int at, int len) {
        FloatVector acc = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
        int j = 0;
        for (int bound = F.loopBound(len); j < bound; j += F.length()) {
            acc = acc.max(FloatVector.fromArray(F, x, at + j));
        }
        float m = acc.reduceLanes(VectorOperators.MAX);
        for (; j < len; j++) m = Math.max(m, x[at + j]);
        return m;
    }

    /**
     * {@code x[j] = exp(x[j] - shift)} in place, the vector part's values added lane by lane into {@code sums} at
     * {@code sumsAt}; returns the sum of the scalar tail's values.
     */
    private static float expShiftedSummed(float[] x, int at, int len, float shift, float[] sums, int sumsAt) {
        FloatVector acc = FloatVector.fromArray(F, sums, sumsAt);
        int j = 0;
        for (int bound = F.loopBound(len); j < bound; j += F.length()) {
            FloatVector y = FloatExp.exp(FloatVector.fromArray(F, x, at + j).sub(shift));
            y.intoArray(x, at + j);
            acc = acc.add(y);
        }
        acc.intoArray(sums, sumsAt);
        float tail = 0;
        for (; j < len; j++) {
            float y = FloatExp.exp(x[at + j] - shift);
            x[at + j] = y;
            tail += y;
        }
        return tail;
    }

    /** {@code x[j] = exp(x[j] - shift)} in place. */
    private static void expShifted(float[] x, int at, int len, float shift) {
        int j = 0;
        for (int bound = F.loopBound(len); j < bound; j += F.length()) {
            FloatExp.exp(FloatVector.fromArray(F, x, at + j).sub(shift)).intoArray(x, at + j);
        }
        for (; j < len; j++) x[at + j] = FloatExp.exp(x[at + j] - shift);
    }
}
