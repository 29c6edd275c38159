package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The matrix exponential of one n x n float64 or complex128 matrix (row-major, complex as interleaved (re, im) pairs),
 * by PyTorch's algorithm: Bader, Blanes and Casas' optimised Taylor polynomials of degree 1, 2, 4, 8, 12 or 18 chosen
 * by the 1-norm, and for large norms degree 18 with scaling and squaring. Products go to OpenBLAS GEMM; every linear
 * combination has real coefficients, so complex matrices are combined as arrays of doubles like real ones.
 *
 * <p>One instance owns its scratch matrices (confined to the creating thread) and is reused across the matrices of a
 * batch. Not thread-safe.
 */
public final class MatrixExponential implements AutoCloseable {
    /** Largest 1-norm for which each degree is accurate to float64 round-off (the table of spec/linalg.md §5). */
    private static final double THETA_1 = 2.220446049250313e-16,
            THETA_2 = 2.580956802971767e-08,
            THETA_4 = 3.397168839976962e-04,
            THETA_8 = 4.991228871115323e-02,
            THETA_12 = 2.996158913811580e-01,
            THETA_18 = 1.090863719290036e+00;

    // Degree 8 (Bader et al. eq. 12). X7 has x3 squared in its denominator: PyTorch before 2.15 had a single
    // x3 there, which made the degree 5..8 Taylor coefficients wrong (issue #196592).
    private static final double SQRT_177 = Math.sqrt(177.0),
            X3 = 2.0 / 3.0,
            X1 = X3 * (1 + SQRT_177) / 88,
            X2 = X3 * (1 + SQRT_177) / 352,
            X4 = (-271 + 29 * SQRT_177) / (315 * X3),
            X5 = (-11 + 11 * SQRT_177) / (1260 * X3),
            X6 = (-99 + 11 * SQRT_177) / (5040 * X3),
            X7 = (89 - SQRT_177) / (5040 * X3 * X3),
            Y2 = (857 - 58 * SQRT_177) / 630;

    /**
     * Degree 12: {@code B_i = sum_j B12[i][j] A^j} for j = 0..3, then {@code A6 = B2 + B3^2}, {@code T = B0 + (B1 + A6)
     * A6}.
     */
    private static final double[][] B12 = {
        {9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740},
        {5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989},
        {0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230},
        {-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359}
    };

    /** Degree 18 on (I, A, A^2, A^3, A^6): {@code A9 = B0 B4 + B3}, {@code T = B1 + (B2 + A9) A9}. */
    private static final double[][] B18 = {
        {0, -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0},
        {
            0,
            3.97849749499645077844e-01,
            1.36783778460411720168e+00,
            4.98289622525382669416e-01,
            -6.37898194594723280150e-04
        },
        {
            -1.09676396052962061844e+01,
            1.68015813878906206114e+00,
            5.71779846478865511061e-02,
            -6.98210122488052056106e-03,
            3.34975017086070470649e-05
        },
        {
            -9.04316832390810593223e-02,
            -6.76404519071381882256e-02,
            6.75961301770459654925e-02,
            2.95552570429315521194e-02,
            -1.39180257516060693404e-05
        },
        {0, 0, -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05}
    };

    private final int n;
    private final boolean complex;
    private final long doubles;
    private final Arena arena = Arena.ofConfined();
    /** Whether this matrix's products use OpenBLAS's threads (see {@link #gemm}). */
    private boolean threaded;

    private final MemorySegment a, a2, a3, a6, tmp, tmp2, out;
    private final MemorySegment[] b = new MemorySegment[5];

    /** Scratch for n x n matrices; {@link #input()} is where the caller writes A. */
    public MatrixExponential(int n, boolean complex) {
        if (n < 0) throw new IllegalArgumentException("MatrixExponential: n = " + n + " must be >= 0");
        this.n = n;
        this.complex = complex;
        this.doubles = (long) n * n * (complex ? 2 : 1);
        a = alloc();
        a2 = alloc();
        a3 = alloc();
        a6 = alloc();
        tmp = alloc();
        tmp2 = alloc();
        out = alloc();
        for (int i = 0; i < b.length; i++) b[i] = alloc();
    }

    private MemorySegment alloc() {
        return arena.allocate(Math.max(1, doubles) * Double.BYTES, Double.BYTES);
    }

    /** The input matrix A, to be filled before {@link #compute}; computing overwrites it. */
    public MemorySegment input() {
        return a;
    }

    /**
     * exp(A) of the matrix in {@link #input()}; the returned segment is valid until the next call.
     * {@code alwaysDegree18}: PyTorch takes the degree-18 path for every matrix of a batch of more than one. A NaN or
     * infinite norm gives an all-NaN result (the scaling would otherwise never end). {@code mayThread}: whether a large
     * matrix may use OpenBLAS's threads on idle cores; false in deterministic mode, where the result must not depend on
     * the machine's load.
     */
    public MemorySegment compute(boolean alwaysDegree18, boolean mayThread) {
        if (n == 0) return out;
        if (n == 1) return scalarExp();
        threaded = mayThread && n >= THREADED_ORDER && IdleCores.available(OpenBlas.numThreads());
        double norm = norm1();
        if (!Double.isFinite(norm)) {
            for (long i = 0; i < doubles; i++) out.setAtIndex(JAVA_DOUBLE, i, Double.NaN);
            return out;
        }
        if (!alwaysDegree18) {
            if (norm <= THETA_1) return taylor1();
            if (norm <= THETA_2) return taylor2();
            if (norm <= THETA_4) return taylor4();
            if (norm <= THETA_8) return taylor8();
            if (norm < THETA_12) return taylor12();
        }
        // s = max(0, ceil(log2(norm / theta18))): at most ~1030 squarings for the largest finite norm
        int s = (int) Math.max(0, Math.ceil(Math.log(norm / THETA_18) / Math.log(2)));
        if (s > 0) {
            for (long i = 0; i < doubles; i++)
                a.setAtIndex(JAVA_DOUBLE, i, Math.scalb(a.getAtIndex(JAVA_DOUBLE, i), -s));
        }
        MemorySegment r = taylor18();
        MemorySegment other = tmp;
        for (int k = 0; k < s; k++) {
            gemm(other, r, r);
            MemorySegment t = r;
            r = other;
            other = t;
        }
        return r;
    }

    @Override
    public void close() {
        arena.close();
    }

    // ---------------------------------------------------------------- the polynomials

    private MemorySegment taylor1() {
        combine(out, new double[] {1, 1}, null, a);
        return out;
    }

    private MemorySegment taylor2() {
        gemm(a2, a, a);
        combine(out, new double[] {1, 1, 0.5}, null, a, a2);
        return out;
    }

    private MemorySegment taylor4() {
        gemm(a2, a, a);
        combine(tmp, new double[] {1 / 2.0, 1 / 6.0, 1 / 24.0}, null, a, a2);
        gemm(a3, a2, tmp);
        combine(out, new double[] {1, 1, 1}, null, a, a3);
        return out;
    }

    private MemorySegment taylor8() {
        gemm(a2, a, a);
        combine(tmp, new double[] {X1, X2}, a, a2);
        MemorySegment a4 = a3;
        gemm(a4, a2, tmp);
        combine(tmp, new double[] {X3, 1}, a2, a4);
        combine(tmp2, new double[] {X4, X5, X6, X7}, null, a, a2, a4);
        MemorySegment a8 = a6;
        gemm(a8, tmp, tmp2);
        combine(out, new double[] {1, 1, Y2, 1}, null, a, a2, a8);
        return out;
    }

    private MemorySegment taylor12() {
        gemm(a2, a, a);
        gemm(a3, a, a2);
        for (int i = 0; i < 4; i++) combine(b[i], B12[i], null, a, a2, a3);
        gemm(tmp, b[3], b[3]);
        combine(a6, new double[] {1, 1}, b[2], tmp); // A6 = B2 + B3^2
        combine(tmp, new double[] {1, 1}, b[1], a6);
        gemm(tmp2, tmp, a6);
        combine(out, new double[] {1, 1}, b[0], tmp2);
        return out;
    }

    private MemorySegment taylor18() {
        gemm(a2, a, a);
        gemm(a3, a, a2);
        gemm(a6, a3, a3);
        for (int i = 0; i < 5; i++) combine(b[i], B18[i], null, a, a2, a3, a6);
        gemm(tmp, b[0], b[4]);
        combine(tmp2, new double[] {1, 1}, b[3], tmp); // A9 = B0 B4 + B3
        combine(tmp, new double[] {1, 1}, b[2], tmp2);
        gemm(a2, tmp, tmp2);
        combine(out, new double[] {1, 1}, b[1], a2);
        return out;
    }

    private MemorySegment scalarExp() {
        double re = a.getAtIndex(JAVA_DOUBLE, 0);
        if (!complex) {
            out.setAtIndex(JAVA_DOUBLE, 0, Math.exp(re));
        } else {
            double im = a.getAtIndex(JAVA_DOUBLE, 1), m = Math.exp(re);
            out.setAtIndex(JAVA_DOUBLE, 0, im == 0 ? m : m * Math.cos(im));
            out.setAtIndex(JAVA_DOUBLE, 1, im == 0 ? 0 : m * Math.sin(im));
        }
        return out;
    }

    // ---------------------------------------------------------------- building blocks

    /** Max column sum of absolute values. NaN anywhere gives NaN. */
    private double norm1() {
        double max = 0;
        boolean nan = false;
        for (int j = 0; j < n; j++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                long k = (long) i * n + j;
                double v = complex
                        ? Math.hypot(a.getAtIndex(JAVA_DOUBLE, 2 * k), a.getAtIndex(JAVA_DOUBLE, 2 * k + 1))
                        : Math.abs(a.getAtIndex(JAVA_DOUBLE, k));
                sum += v;
            }
            if (Double.isNaN(sum)) nan = true;
            max = Math.max(max, sum);
        }
        return nan ? Double.NaN : max;
    }

    /**
     * {@code dst = c[0] M0 + c[1] M1 + ...} where M0 is the identity if {@code first} is null, else {@code first},
     * followed by {@code rest}. dst may not be one of the operands.
     */
    private void combine(MemorySegment dst, double[] c, MemorySegment first, MemorySegment... rest) {
        // one pass per term, each a plain loop the JIT vectorises
        if (first != null) scaleInto(dst, c[0], first);
        else dst.fill((byte) 0);
        for (int j = 1; j < c.length; j++) axpy(dst, c[j], rest[j - 1]);
        if (first == null && c[0] != 0) {
            long step = (long) (n + 1) * (complex ? 2 : 1);
            for (long i = 0; i < n; i++)
                dst.setAtIndex(JAVA_DOUBLE, i * step, dst.getAtIndex(JAVA_DOUBLE, i * step) + c[0]);
        }
    }

    private void scaleInto(MemorySegment dst, double c, MemorySegment x) {
        for (long i = 0; i < doubles; i++) dst.setAtIndex(JAVA_DOUBLE, i, c * x.getAtIndex(JAVA_DOUBLE, i));
    }

    private void axpy(MemorySegment dst, double c, MemorySegment x) {
        if (c == 0) return;
        for (long i = 0; i < doubles; i++)
            dst.setAtIndex(JAVA_DOUBLE, i, dst.getAtIndex(JAVA_DOUBLE, i) + c * x.getAtIndex(JAVA_DOUBLE, i));
    }

    /**
     * {@code c = x y}, with OpenBLAS's own threads only when they would find idle cores (decided once per matrix,
     * {@link IdleCores}), else single-threaded on this thread: OpenBLAS's threads hand work back and forth by
     * busy-waiting, and under load a 256 x 256 matrix_exp took 384 ms with them against 29 ms single-threaded. (Row
     * blocks over Java workers were no cure: each product then waits for two wake-ups, 58-256 ms medians at load 5-6.)
     */
    private void gemm(MemorySegment c, MemorySegment x, MemorySegment y) {
        if (threaded) rows(c, x, y, 0, n);
        else OpenBlas.singleThreaded(() -> rows(c, x, y, 0, n));
    }

    /** Below this order OpenBLAS would not thread a product anyway (its threshold is 64^3 multiply-adds). */
    private static final int THREADED_ORDER = 64;

    /** Rows {@code [from, to)} of {@code c = x y}. */
    private void rows(MemorySegment c, MemorySegment x, MemorySegment y, int from, int to) {
        int m = to - from;
        if (complex) {
            OpenBlas.zgemm(
                    OpenBlas.Transpose.NONE,
                    OpenBlas.Transpose.NONE,
                    m,
                    n,
                    n,
                    1,
                    0,
                    x,
                    (long) from * n,
                    n,
                    y,
                    0,
                    n,
                    0,
                    0,
                    c,
                    (long) from * n,
                    n);
        } else {
            OpenBlas.dgemm(
                    OpenBlas.Transpose.NONE,
                    OpenBlas.Transpose.NONE,
                    m,
                    n,
                    n,
                    1,
                    x,
                    (long) from * n,
                    n,
                    y,
                    0,
                    n,
                    0,
                    c,
                    (long) from * n,
                    n);
        }
    }
}
