package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The LAPACKE / CBLAS routines behind the linalg solvers and factorisations (LU, triangular solves, general
 * eigenproblems, least squares, Householder products), in float64 and complex128 ({@code complex = true}: interleaved
 * (re, im) pairs of doubles), row-major.
 *
 * <p>Calls run on {@link Lapack}'s large-stack worker thread and follow its rules: every argument is checked in Java
 * before the downcall, segments are native and shared, each matrix is passed as its own segment starting at its first
 * element, and a LAPACK routine returns its {@code info} (0, or {@code k > 0} for a numerical failure at 1-based
 * position k). The high-level LAPACKE wrappers used here run LAPACK's workspace query and allocate the optimal
 * workspace themselves. LU uses the {@code _work} entry points, which need no workspace and skip LAPACKE's NaN scan of
 * the inputs: as in PyTorch (which calls LAPACK directly), NaN propagates into the factors and solutions instead of
 * being refused as an illegal argument.
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
public final class LapackSolvers {
    private LapackSolvers() {}

    private static final int ROW_MAJOR = 101;
    // CBLAS enums
    private static final int LEFT = 141,
            RIGHT = 142,
            UPPER = 121,
            LOWER = 122,
            NO_TRANS = 111,
            TRANS = 112,
            CONJ_TRANS = 113,
            NON_UNIT = 131,
            UNIT = 132;

    /** How a triangular or LU-factored matrix is applied: as is, transposed, or conjugate-transposed. */
    public enum Op {
        NONE('N', NO_TRANS),
        TRANSPOSE('T', TRANS),
        CONJ_TRANSPOSE('C', CONJ_TRANS);

        final byte lapack;
        final int cblas;

        Op(char lapack, int cblas) {
            this.lapack = (byte) lapack;
            this.cblas = cblas;
        }
    }

    /** The least-squares drivers of {@code torch.linalg.lstsq}. */
    public enum LstsqDriver {
        GELS,
        GELSY,
        GELSD,
        GELSS
    }

    private static final class Fn {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final FunctionDescriptor GETRF =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        private static final FunctionDescriptor GETRS = FunctionDescriptor.of(
                JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        private static final FunctionDescriptor ORGQR =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        private static final FunctionDescriptor GELS = FunctionDescriptor.of(
                JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT);
        // (layout, m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank)
        private static final FunctionDescriptor GELSY = FunctionDescriptor.of(
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                JAVA_INT,
                ADDRESS,
                JAVA_INT,
                ADDRESS,
                JAVA_INT,
                ADDRESS,
                JAVA_DOUBLE,
                ADDRESS);
        // (layout, m, n, nrhs, a, lda, b, ldb, s, rcond, rank): gelsd and gelss
        private static final FunctionDescriptor GELSD = GELSY;

        static final MethodHandle DGETRF = downcall("LAPACKE_dgetrf_work", GETRF);
        static final MethodHandle ZGETRF = downcall("LAPACKE_zgetrf_work", GETRF);
        static final MethodHandle DGETRS = downcall("LAPACKE_dgetrs_work", GETRS);
        static final MethodHandle ZGETRS = downcall("LAPACKE_zgetrs_work", GETRS);
        // (layout, jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr)
        static final MethodHandle DGEEV = downcall(
                "LAPACKE_dgeev",
                FunctionDescriptor.of(
                        JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_BYTE, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
                        ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
        // (layout, jobvl, jobvr, n, a, lda, w, vl, ldvl, vr, ldvr)
        static final MethodHandle ZGEEV = downcall(
                "LAPACKE_zgeev",
                FunctionDescriptor.of(
                        JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_BYTE, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
                        JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle DORGQR = downcall("LAPACKE_dorgqr", ORGQR);
        static final MethodHandle ZUNGQR = downcall("LAPACKE_zungqr", ORGQR);
        static final MethodHandle DGELS = downcall("LAPACKE_dgels", GELS);
        static final MethodHandle ZGELS = downcall("LAPACKE_zgels", GELS);
        static final MethodHandle DGELSY = downcall("LAPACKE_dgelsy", GELSY);
        static final MethodHandle ZGELSY = downcall("LAPACKE_zgelsy", GELSY);
        static final MethodHandle DGELSD = downcall("LAPACKE_dgelsd", GELSD);
        static final MethodHandle ZGELSD = downcall("LAPACKE_zgelsd", GELSD);
        static final MethodHandle DGELSS = downcall("LAPACKE_dgelss", GELSD);
        static final MethodHandle ZGELSS = downcall("LAPACKE_zgelss", GELSD);
        // (layout, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb); ztrsm takes alpha by pointer
        static final MethodHandle DTRSM = downcall(
                "cblas_dtrsm",
                FunctionDescriptor.ofVoid(
                        JAVA_INT,
                        JAVA_INT,
                        JAVA_INT,
                        JAVA_INT,
                        JAVA_INT,
                        JAVA_INT,
                        JAVA_INT,
                        JAVA_DOUBLE,
                        ADDRESS,
                        JAVA_INT,
                        ADDRESS,
                        JAVA_INT));
        static final MethodHandle ZTRSM = downcall(
                "cblas_ztrsm",
                FunctionDescriptor.ofVoid(
                        JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS,
                        JAVA_INT, ADDRESS, JAVA_INT));

        private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
            return LINKER.downcallHandle(OpenBlas.library().findOrThrow(name), descriptor);
        }
    }

    /**
     * LU factorisation with partial pivoting {@code A = P L U} of the m x n matrix {@code a} in place, and the 1-based
     * pivot rows in {@code ipiv[0 .. min(m, n))}. Returns 0, or k if {@code U[k-1, k-1]} is exactly zero (the
     * factorisation is still complete).
     */
    public static int getrf(boolean complex, int m, int n, MemorySegment a, MemorySegment ipiv) {
        String fn = complex ? "zgetrf" : "dgetrf";
        Lapack.requireAvailable(fn);
        dims(fn, m, n);
        matrix(fn, "a", a, m, n, complex, true);
        ints(fn, "ipiv", ipiv, Math.min(m, n), true);
        if (m == 0 || n == 0) return 0;
        int lda = Math.max(1, n);
        MethodHandle h = complex ? Fn.ZGETRF : Fn.DGETRF;
        return Lapack.checked(fn, Lapack.Worker.run(fn, () -> (int) h.invokeExact(ROW_MAJOR, m, n, a, lda, ipiv)));
    }

    /**
     * Solves {@code op(A) X = B} in place in the n x nrhs matrix {@code b}, from the LU factors and pivots of the n x n
     * matrix A that {@link #getrf} produced. Zero pivots give inf/NaN, as in LAPACK.
     */
    public static void getrs(
            boolean complex, Op op, int n, int nrhs, MemorySegment lu, MemorySegment ipiv, MemorySegment b) {
        String fn = complex ? "zgetrs" : "dgetrs";
        Lapack.requireAvailable(fn);
        dims(fn, n, nrhs);
        matrix(fn, "a", lu, n, n, complex, false);
        ints(fn, "ipiv", ipiv, n, false);
        matrix(fn, "b", b, n, nrhs, complex, true);
        if (b.asOverlappingSlice(lu).isPresent()) throw Lapack.invalid(fn, "b", "overlaps a");
        if (n == 0 || nrhs == 0) return;
        MethodHandle h = complex ? Fn.ZGETRS : Fn.DGETRS;
        int ld = Math.max(1, n), ldb = Math.max(1, nrhs);
        Lapack.checked(fn, Lapack.Worker.run(fn, () ->
                (int) h.invokeExact(ROW_MAJOR, op.lapack, n, nrhs, lu, ld, ipiv, b, ldb)));
    }

    /**
     * {@code B := op(A)^-1 B} (left) or {@code B := B op(A)^-1} (right) in place in the m x n matrix {@code b}, with A
     * triangular of order m (left) or n (right); with {@code unit} its diagonal is taken as ones and not read. No
     * singularity check: a zero diagonal gives inf/NaN, as in BLAS.
     */
    public static void trsm(
            boolean complex,
            boolean left,
            boolean upper,
            Op op,
            boolean unit,
            int m,
            int n,
            MemorySegment a,
            MemorySegment b) {
        String fn = complex ? "ztrsm" : "dtrsm";
        Lapack.requireAvailable(fn);
        dims(fn, m, n);
        int k = left ? m : n;
        matrix(fn, "a", a, k, k, complex, false);
        matrix(fn, "b", b, m, n, complex, true);
        if (b.asOverlappingSlice(a).isPresent()) throw Lapack.invalid(fn, "b", "overlaps a");
        if (m == 0 || n == 0) return;
        int side = left ? LEFT : RIGHT, uplo = upper ? UPPER : LOWER, diag = unit ? UNIT : NON_UNIT;
        int lda = Math.max(1, k), ldb = Math.max(1, n);
        if (complex) {
            Lapack.Worker.run(fn, () -> {
                try (var arena = java.lang.foreign.Arena.ofConfined()) {
                    MemorySegment one = arena.allocate(2 * Double.BYTES, Double.BYTES);
                    one.setAtIndex(JAVA_DOUBLE, 0, 1.0);
                    Fn.ZTRSM.invokeExact(ROW_MAJOR, side, uplo, op.cblas, diag, m, n, one, a, lda, b, ldb);
                }
                return 0;
            });
        } else {
            Lapack.Worker.run(fn, () -> {
                Fn.DTRSM.invokeExact(ROW_MAJOR, side, uplo, op.cblas, diag, m, n, 1.0, a, lda, b, ldb);
                return 0;
            });
        }
    }

    /**
     * Eigenvalues of the general n x n real matrix {@code a} (destroyed) into {@code wr}/{@code wi} (conjugate pairs
     * consecutive, positive imaginary part first) and, if {@code vr} is not null, the right eigenvectors in LAPACK's
     * packed real form. Returns 0, or {@code i > 0} if the QR algorithm failed to converge (eigenvalues {@code i+1..n}
     * are then valid).
     */
    public static int dgeev(int n, MemorySegment a, MemorySegment wr, MemorySegment wi, MemorySegment vr) {
        String fn = "dgeev";
        Lapack.requireAvailable(fn);
        dims(fn, n, n);
        matrix(fn, "a", a, n, n, false, true);
        matrix(fn, "wr", wr, 1, n, false, true);
        matrix(fn, "wi", wi, 1, n, false, true);
        if (vr != null) matrix(fn, "vr", vr, n, n, false, true);
        if (n == 0) return 0;
        int ld = Math.max(1, n);
        byte jobvr = (byte) (vr == null ? 'N' : 'V');
        MemorySegment v = vr == null ? MemorySegment.NULL : vr;
        return Lapack.checked(fn, Lapack.Worker.run(fn, () -> (int)
                Fn.DGEEV.invokeExact(ROW_MAJOR, (byte) 'N', jobvr, n, a, ld, wr, wi, MemorySegment.NULL, 1, v, ld)));
    }

    /** {@link #dgeev} for a complex matrix: eigenvalues into {@code w}, eigenvectors (unit 2-norm) into {@code vr}. */
    public static int zgeev(int n, MemorySegment a, MemorySegment w, MemorySegment vr) {
        String fn = "zgeev";
        Lapack.requireAvailable(fn);
        dims(fn, n, n);
        matrix(fn, "a", a, n, n, true, true);
        matrix(fn, "w", w, 1, n, true, true);
        if (vr != null) matrix(fn, "vr", vr, n, n, true, true);
        if (n == 0) return 0;
        int ld = Math.max(1, n);
        byte jobvr = (byte) (vr == null ? 'N' : 'V');
        MemorySegment v = vr == null ? MemorySegment.NULL : vr;
        return Lapack.checked(fn, Lapack.Worker.run(fn, () ->
                (int) Fn.ZGEEV.invokeExact(ROW_MAJOR, (byte) 'N', jobvr, n, a, ld, w, MemorySegment.NULL, 1, v, ld)));
    }

    /**
     * The first n columns of the product of k Householder reflectors {@code H_1 ... H_k}, whose vectors are below the
     * diagonal of the m x n matrix {@code a} and whose scalars are {@code tau}; in place. Needs {@code m >= n >= k}.
     */
    public static void orgqr(boolean complex, int m, int n, int k, MemorySegment a, MemorySegment tau) {
        String fn = complex ? "zungqr" : "dorgqr";
        Lapack.requireAvailable(fn);
        dims(fn, m, n);
        if (k < 0 || n > m || k > n)
            throw Lapack.invalid(fn, "k", "= " + k + " needs m >= n >= k >= 0 (m = " + m + ", n = " + n + ")");
        matrix(fn, "a", a, m, n, complex, true);
        matrix(fn, "tau", tau, 1, k, complex, false);
        if (tau.asOverlappingSlice(a).isPresent()) throw Lapack.invalid(fn, "tau", "overlaps a");
        if (n == 0) return;
        MethodHandle h = complex ? Fn.ZUNGQR : Fn.DORGQR;
        int lda = n;
        Lapack.checked(fn, Lapack.Worker.run(fn, () -> (int) h.invokeExact(ROW_MAJOR, m, n, k, a, lda, tau)));
    }

    /**
     * Least squares {@code min ||A X - B||} for the m x n matrix {@code a} (destroyed) and the {@code max(m, n) x nrhs}
     * matrix {@code b}, whose first n rows become X. gelsy needs {@code jpvt} (n ints, zeroed), gelsd and gelss fill
     * {@code s} with the {@code min(m, n)} singular values; {@code rank} (one int) receives the effective rank for all
     * but gels. Returns LAPACK's info: for gels {@code k > 0} means A is rank deficient (the k-th diagonal of its
     * triangular factor is zero), for gelsd/gelss that the SVD did not converge.
     */
    public static int gels(
            boolean complex,
            LstsqDriver driver,
            int m,
            int n,
            int nrhs,
            MemorySegment a,
            MemorySegment b,
            MemorySegment jpvt,
            MemorySegment s,
            double rcond,
            MemorySegment rank) {
        String fn = (complex ? "z" : "d") + driver.name().toLowerCase(java.util.Locale.ROOT);
        Lapack.requireAvailable(fn);
        dims(fn, m, n);
        if (nrhs < 0) throw Lapack.invalid(fn, "nrhs", "= " + nrhs + " must be >= 0");
        matrix(fn, "a", a, m, n, complex, true);
        int rows = Math.max(m, n);
        matrix(fn, "b", b, rows, nrhs, complex, true);
        if (b.asOverlappingSlice(a).isPresent()) throw Lapack.invalid(fn, "b", "overlaps a");
        if (driver == LstsqDriver.GELSY) ints(fn, "jpvt", jpvt, n, true);
        if (driver == LstsqDriver.GELSD || driver == LstsqDriver.GELSS)
            matrix(fn, "s", s, 1, Math.min(m, n), false, true);
        if (driver != LstsqDriver.GELS) ints(fn, "rank", rank, 1, true);
        if (m == 0 || n == 0 || nrhs == 0) {
            if (rank != null && driver != LstsqDriver.GELS) rank.setAtIndex(JAVA_INT, 0, 0);
            return 0;
        }
        int lda = Math.max(1, n), ldb = Math.max(1, nrhs);
        return Lapack.checked(fn, Lapack.Worker.run(fn, () -> switch (driver) {
            case GELS ->
                (int) (complex ? Fn.ZGELS : Fn.DGELS).invokeExact(ROW_MAJOR, (byte) 'N', m, n, nrhs, a, lda, b, ldb);
            case GELSY ->
                (int) (complex ? Fn.ZGELSY : Fn.DGELSY)
                        .invokeExact(ROW_MAJOR, m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank);
            case GELSD ->
                (int) (complex ? Fn.ZGELSD : Fn.DGELSD)
                        .invokeExact(ROW_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank);
            case GELSS ->
                (int) (complex ? Fn.ZGELSS : Fn.DGELSS)
                        .invokeExact(ROW_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank);
        }));
    }

    // ---------------------------------------------------------------- validation

    private static void dims(String fn, int m, int n) {
        if (m < 0) throw Lapack.invalid(fn, "m", "= " + m + " must be >= 0");
        if (n < 0) throw Lapack.invalid(fn, "n", "= " + n + " must be >= 0");
    }

    /** A dense row-major rows x cols matrix of doubles (pairs of doubles when complex) from the segment's start. */
    private static void matrix(
            String fn, String name, MemorySegment seg, int rows, int cols, boolean complex, boolean written) {
        Lapack.usable(fn, name, seg, written);
        long need = (long) rows * cols * (complex ? 2 : 1) * Double.BYTES;
        if (seg.byteSize() < need) {
            throw Lapack.invalid(
                    fn,
                    name,
                    "is too small: a " + rows + "x" + cols + (complex ? " complex" : "") + " matrix needs " + need
                            + " bytes, it has " + seg.byteSize());
        }
        if (seg.maxByteAlignment() < Double.BYTES) throw Lapack.invalid(fn, name, "is not 8-byte aligned");
    }

    private static void ints(String fn, String name, MemorySegment seg, int count, boolean written) {
        Lapack.usable(fn, name, seg, written);
        if (seg.byteSize() < (long) count * Integer.BYTES) {
            throw Lapack.invalid(fn, name, "needs " + count + " ints, it has " + seg.byteSize() / Integer.BYTES);
        }
        if (seg.maxByteAlignment() < Integer.BYTES) throw Lapack.invalid(fn, name, "is not 4-byte aligned");
    }
}
