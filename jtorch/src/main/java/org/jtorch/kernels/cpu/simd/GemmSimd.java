package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API micro-kernels of {@link org.jtorch.kernels.cpu.JavaGemm}: a block of C accumulators is updated with the
 * product of rows of A and a block of B.
 *
 * <p>Why not plain loops: C2 does not vectorise {@code acc[c + j] += x * b[row + j]}, because it cannot prove that two
 * {@code float[]} accesses at unrelated offsets never alias; measured here, the plain loop runs at ~6 GFLOP/s per core.
 * The main loops hold rows x 2 vectors of accumulators in registers for the whole contraction block (8 rows for float,
 * 4 for double), so each B vector loaded feeds that many fused multiply-adds and no accumulator is reloaded. Leftover
 * rows and column tails use the same fused multiply-adds in the same order, so a result does not depend on which kernel
 * or lane computed it.
 *
 * <p>The float kernels read B from a <em>panel</em>: {@link #FLOAT_PANEL} columns of B packed contiguously, row
 * {@code p} at {@code panel[p0 + p * FLOAT_PANEL]}. A panel of a contraction block (128 rows, 16 KiB with AVX-512)
 * stays in the L1 cache while every row of A is multiplied by it, and its loads need no per-row stride; reading B in
 * place instead (a strided block, fetched again from L2 for every eight rows) made TrainGpt's twelve block products
 * 13.6-15.6 ms against 9.6-10.3 ms ({@code GptGemmsRun}, docs/benchmarks.md). A is read in place through strides
 * (row-major, transposed, or a packed copy). The double kernels read packed row-major copies: A rows at {@code a[a0 + r
 * * k + p]}, B at {@code b[p * n + jc + j]}.
 */
public final class GemmSimd {
    private GemmSimd() {}

    private static final VectorSpecies<Float> F = FloatSimd.SPECIES;
    private static final VectorSpecies<Double> D = VectorSpecies.of(double.class, F.vectorShape());

    /** Floats per vector of these kernels. */
    public static int floatLanes() {
        return F.length();
    }

    /** Rows of A one call of {@link #float8} takes. */
    public static final int FLOAT_ROWS = 8;

    /** Columns of B per packed panel: two vectors, the width of the float kernels' accumulator rows. */
    public static final int FLOAT_PANEL = 2 * F.length();

    /**
     * Eight rows of float accumulators += those rows of A x a panel of B, over a contraction block of {@code kc}. A's
     * row {@code r} at contraction index {@code p} is {@code a[a0 + r * aRow + p * aCol]}; the panel's row {@code p} is
     * {@code panel[p0 + p * FLOAT_PANEL]}; accumulator row {@code r} is {@code acc[c0 + r * ldc]}, {@link #FLOAT_PANEL}
     * wide. Eight rows x two vectors of accumulators (16 registers, with the two B vectors and a broadcast 19 of
     * AVX-512's 32) make each B vector feed eight fused multiply-adds.
     */
    public static void float8(
            float[] a, int a0, int aRow, int aCol, float[] panel, int p0, int kc, float[] acc, int c0, int ldc) {
        int lanes = F.length();
        int a1 = a0 + aRow, a2 = a1 + aRow, a3 = a2 + aRow, a4 = a3 + aRow, a5 = a4 + aRow, a6 = a5 + aRow;
        int a7 = a6 + aRow;
        int c1 = c0 + ldc, c2 = c1 + ldc, c3 = c2 + ldc, c4 = c3 + ldc, c5 = c4 + ldc, c6 = c5 + ldc, c7 = c6 + ldc;
        FloatVector s0 = FloatVector.fromArray(F, acc, c0), t0 = FloatVector.fromArray(F, acc, c0 + lanes);
        FloatVector s1 = FloatVector.fromArray(F, acc, c1), t1 = FloatVector.fromArray(F, acc, c1 + lanes);
        FloatVector s2 = FloatVector.fromArray(F, acc, c2), t2 = FloatVector.fromArray(F, acc, c2 + lanes);
        FloatVector s3 = FloatVector.fromArray(F, acc, c3), t3 = FloatVector.fromArray(F, acc, c3 + lanes);
        FloatVector s4 = FloatVector.fromArray(F, acc, c4), t4 = FloatVector.fromArray(F, acc, c4 + lanes);
        FloatVector s5 = FloatVector.fromArray(F, acc, c5), t5 = FloatVector.fromArray(F, acc, c5 + lanes);
        FloatVector s6 = FloatVector.fromArray(F, acc, c6), t6 = FloatVector.fromArray(F, acc, c6 + lanes);
        FloatVector s7 = FloatVector.fromArray(F, acc, c7), t7 = FloatVector.fromArray(F, acc, c7 + lanes);
        for (int p = 0; p < kc; p++) {
            int row = p0 + p * FLOAT_PANEL, q = p * aCol;
            FloatVector y = FloatVector.fromArray(F, panel, row), z = FloatVector.fromArray(F, panel, row + lanes);
            FloatVector x = FloatVector.broadcast(F, a[a0 + q]);
            s0 = y.fma(x, s0);
            t0 = z.fma(x, t0);
            x = FloatVector.broadcast(F, a[a1 + q]);
            s1 = y.fma(x, s1);
            t1 = z.fma(x, t1);
            x = FloatVector.broadcast(F, a[a2 + q]);
            s2 = y.fma(x, s2);
            t2 = z.fma(x, t2);
            x = FloatVector.broadcast(F, a[a3 + q]);
            s3 = y.fma(x, s3);
            t3 = z.fma(x, t3);
            x = FloatVector.broadcast(F, a[a4 + q]);
            s4 = y.fma(x, s4);
            t4 = z.fma(x, t4);
            x = FloatVector.broadcast(F, a[a5 + q]);
            s5 = y.fma(x, s5);
            t5 = z.fma(x, t5);
            x = FloatVector.broadcast(F, a[a6 + q]);
            s6 = y.fma(x, s6);
            t6 = z.fma(x, t6);
            x = FloatVector.broadcast(F, a[a7 + q]);
            s7 = y.fma(x, s7);
            t7 = z.fma(x, t7);
        }
        s0.intoArray(acc, c0);
        t0.intoArray(acc, c0 + lanes);
        s1.intoArray(acc, c1);
        t1.intoArray(acc, c1 + lanes);
        s2.intoArray(acc, c2);
        t2.intoArray(acc, c2 + lanes);
        s3.intoArray(acc, c3);
        t3.intoArray(acc, c3 + lanes);
        s4.intoArray(acc, c4);
        t4.intoArray(acc, c4 + lanes);
        s5.intoArray(acc, c5);
        t5.intoArray(acc, c5 + lanes);
        s6.intoArray(acc, c6);
        t6.intoArray(acc, c6 + lanes);
        s7.intoArray(acc, c7);
        t7.intoArray(acc, c7 + lanes);
    }

    /**
     * One row of float accumulators ({@code acc[c0 + j]}, j &lt; {@link #FLOAT_PANEL}) += A's row ({@code a[a0 + p *
     * aCol]}) x a panel of B: the rows {@link #float8} leaves. Each accumulator takes the same chain of fused
     * multiply-adds as in {@link #float8}, so a result does not depend on which kernel computed it.
     */
    public static void float1(float[] a, int a0, int aCol, float[] panel, int p0, int kc, float[] acc, int c0) {
        int lanes = F.length();
        FloatVector s = FloatVector.fromArray(F, acc, c0), t = FloatVector.fromArray(F, acc, c0 + lanes);
        for (int p = 0; p < kc; p++) {
            int row = p0 + p * FLOAT_PANEL;
            FloatVector x = FloatVector.broadcast(F, a[a0 + p * aCol]);
            s = FloatVector.fromArray(F, panel, row).fma(x, s);
            t = FloatVector.fromArray(F, panel, row + lanes).fma(x, t);
        }
        s.intoArray(acc, c0);
        t.intoArray(acc, c0 + lanes);
    }

    /** Four rows of double accumulators += packed A rows x packed B block. */
    public static void double4(
            double[] a, int a0, int k, double[] b, int n, int jc, int nc, int pc, int pe, double[] acc, int c0) {
        int a1 = a0 + k, a2 = a1 + k, a3 = a2 + k;
        int c1 = c0 + nc, c2 = c1 + nc, c3 = c2 + nc;
        int lanes = D.length(), j = 0;
        for (; j + 2 * lanes <= nc; j += 2 * lanes) {
            int jl = j + lanes;
            DoubleVector s0 = DoubleVector.fromArray(D, acc, c0 + j), t0 = DoubleVector.fromArray(D, acc, c0 + jl);
            DoubleVector s1 = DoubleVector.fromArray(D, acc, c1 + j), t1 = DoubleVector.fromArray(D, acc, c1 + jl);
            DoubleVector s2 = DoubleVector.fromArray(D, acc, c2 + j), t2 = DoubleVector.fromArray(D, acc, c2 + jl);
            DoubleVector s3 = DoubleVector.fromArray(D, acc, c3 + j), t3 = DoubleVector.fromArray(D, acc, c3 + jl);
            for (int p = pc; p < pe; p++) {
                int row = p * n + jc;
                DoubleVector y = DoubleVector.fromArray(D, b, row + j), z = DoubleVector.fromArray(D, b, row + jl);
                DoubleVector x0 = DoubleVector.broadcast(D, a[a0 + p]), x1 = DoubleVector.broadcast(D, a[a1 + p]);
                DoubleVector x2 = DoubleVector.broadcast(D, a[a2 + p]), x3 = DoubleVector.broadcast(D, a[a3 + p]);
                s0 = y.fma(x0, s0);
                t0 = z.fma(x0, t0);
                s1 = y.fma(x1, s1);
                t1 = z.fma(x1, t1);
                s2 = y.fma(x2, s2);
                t2 = z.fma(x2, t2);
                s3 = y.fma(x3, s3);
                t3 = z.fma(x3, t3);
            }
            s0.intoArray(acc, c0 + j);
            t0.intoArray(acc, c0 + jl);
            s1.intoArray(acc, c1 + j);
            t1.intoArray(acc, c1 + jl);
            s2.intoArray(acc, c2 + j);
            t2.intoArray(acc, c2 + jl);
            s3.intoArray(acc, c3 + j);
            t3.intoArray(acc, c3 + jl);
        }
        if (j < nc) {
            double1(a, a0, b, n, jc + j, nc - j, pc, pe, acc, c0 + j);
            double1(a, a1, b, n, jc + j, nc - j, pc, pe, acc, c1 + j);
            double1(a, a2, b, n, jc + j, nc - j, pc, pe, acc, c2 + j);
            double1(a, a3, b, n, jc + j, nc - j, pc, pe, acc, c3 + j);
        }
    }

    /** One row of double accumulators ({@code acc[c0 + j]}, j &lt; nc) += a packed A row x packed B block. */
    public static void double1(
            double[] a, int a0, double[] b, int n, int jc, int nc, int pc, int pe, double[] acc, int c0) {
        int lanes = D.length(), j = 0;
        for (; j + lanes <= nc; j += lanes) {
            DoubleVector s = DoubleVector.fromArray(D, acc, c0 + j);
            for (int p = pc; p < pe; p++) {
                s = DoubleVector.fromArray(D, b, p * n + jc + j).fma(DoubleVector.broadcast(D, a[a0 + p]), s);
            }
            s.intoArray(acc, c0 + j);
        }
        for (; j < nc; j++) {
            double s = acc[c0 + j];
            for (int p = pc; p < pe; p++) s = Math.fma(a[a0 + p], b[p * n + jc + j], s);
            acc[c0 + j] = s;
        }
    }
}
