package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jtorch.TorchException;

/**
 * LAPACKE routines of the bundled OpenBLAS (see {@link OpenBlas} for how it is found), bound through FFM: Cholesky, LU,
 * symmetric/Hermitian eigen, SVD and QR factorisations, on float64 and complex128.
 *
 * <p>As in {@link OpenBlas}, every argument is validated in Java before the downcall and bad input throws
 * {@link TorchException} naming the method and the argument. Segments must be native (these calls can run long, so they
 * are never critical calls that would block the GC) and shared or global (every call runs on one worker thread, see
 * {@link Worker}); offsets and leading dimensions are in elements. Each routine returns LAPACK's {@code info}: 0 on
 * success, {@code k > 0} for a numerical failure at (1-based) position k, which callers turn into their own errors.
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
public final class Lapack {
    private Lapack() {}

    private static final int COL_MAJOR = 102;

    /** The bound functions; initialising this class loads OpenBLAS (or fails if it is unavailable). */
    private static final class Fn {
        private static final Linker LINKER = Linker.nativeLinker();

        // lapack_int LAPACKE_dpotrf(int matrix_layout, char uplo, lapack_int n, double *a, lapack_int lda);
        private static final FunctionDescriptor DPOTRF_D =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_INT, ADDRESS, JAVA_INT);
        static final MethodHandle DPOTRF = downcall("LAPACKE_dpotrf", DPOTRF_D);
        // lapack_int LAPACKE_dgetrf(int matrix_layout, lapack_int m, lapack_int n, double *a, lapack_int lda,
        //                           lapack_int *ipiv);
        private static final FunctionDescriptor DGETRF_D =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle DGETRF = downcall("LAPACKE_dgetrf", DGETRF_D);
        // lapack_int LAPACKE_dgetri(int matrix_layout, lapack_int n, double *a, lapack_int lda, const lapack_int
        // *ipiv);
        private static final FunctionDescriptor DGETRI_D =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle DGETRI = downcall("LAPACKE_dgetri", DGETRI_D);
        // lapack_int LAPACKE_dgetrs(int matrix_layout, char trans, lapack_int n, lapack_int nrhs, const double *a,
        //                           lapack_int lda, const lapack_int *ipiv, double *b, lapack_int ldb);
        private static final FunctionDescriptor DGETRS_D = FunctionDescriptor.of(
                JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        static final MethodHandle DGETRS = downcall("LAPACKE_dgetrs", DGETRS_D);

        // the same four in complex128 (interleaved re, im doubles), same C signatures with void* matrices
        static final MethodHandle ZPOTRF = downcall("LAPACKE_zpotrf", DPOTRF_D);
        static final MethodHandle ZGETRF = downcall("LAPACKE_zgetrf", DGETRF_D);
        static final MethodHandle ZGETRI = downcall("LAPACKE_zgetri", DGETRI_D);
        static final MethodHandle ZGETRS = downcall("LAPACKE_zgetrs", DGETRS_D);
        // lapack_int LAPACKE_dsyevd(int layout, char jobz, char uplo, lapack_int n, double *a, lapack_int lda, double
        // *w);
        // (zheevd: the same with a complex a, w stays double)
        private static final FunctionDescriptor EVD_D =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_BYTE, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle DSYEVD = downcall("LAPACKE_dsyevd", EVD_D);
        static final MethodHandle ZHEEVD = downcall("LAPACKE_zheevd", EVD_D);
        // lapack_int LAPACKE_dgesdd(int layout, char jobz, lapack_int m, lapack_int n, double *a, lapack_int lda,
        //                           double *s, double *u, lapack_int ldu, double *vt, lapack_int ldvt);
        private static final FunctionDescriptor GESDD_D = FunctionDescriptor.of(
                JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
                ADDRESS, JAVA_INT);
        static final MethodHandle DGESDD = downcall("LAPACKE_dgesdd", GESDD_D);
        static final MethodHandle ZGESDD = downcall("LAPACKE_zgesdd", GESDD_D);
        // lapack_int LAPACKE_dgeqrf(int layout, lapack_int m, lapack_int n, double *a, lapack_int lda, double *tau);
        private static final FunctionDescriptor GEQRF_D =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle DGEQRF = downcall("LAPACKE_dgeqrf", GEQRF_D);
        static final MethodHandle ZGEQRF = downcall("LAPACKE_zgeqrf", GEQRF_D);
        // lapack_int LAPACKE_dorgqr(int layout, lapack_int m, lapack_int n, lapack_int k, double *a, lapack_int lda,
        //                           const double *tau);
        private static final FunctionDescriptor ORGQR_D =
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle DORGQR = downcall("LAPACKE_dorgqr", ORGQR_D);
        static final MethodHandle ZUNGQR = downcall("LAPACKE_zungqr", ORGQR_D);

        static {
            // LAPACKE's high-level wrappers otherwise scan every input for NaN and answer "illegal argument";
            // the callers decide what non-finite input means (PyTorch: NaN results, or an error for svd).
            try {
                downcall("LAPACKE_set_nancheck", FunctionDescriptor.ofVoid(JAVA_INT))
                        .invokeExact(0);
            } catch (Throwable t) {
                throw unchecked(t);
            }
        }

        private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
            return LINKER.downcallHandle(OpenBlas.library().findOrThrow(name), descriptor);
        }
    }

    /**
     * The threads every LAPACK call runs on. OpenBLAS's threaded LAPACK keeps large per-thread job tables on the
     * caller's stack, more than a Java thread's default 1 MB: measured, LAPACKE_dgetrf of order 200 with 2 OpenBLAS
     * threads kills the JVM (SIGSEGV, no hs_err) at -Xss1m and runs at -Xss4m. Workers with 64 MB stacks make that
     * independent of the caller's thread. A single call runs on one worker (OpenBLAS parallelises inside it);
     * {@link #forEach} spreads a batch of small, independent problems over all of them. A call made on a worker runs
     * directly.
     */
    static final class Worker {
        private static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());
        private static volatile Thread first;
        private static final ExecutorService EXECUTOR = Executors.newFixedThreadPool(THREADS, task -> {
            Thread t = new WorkerThread(task);
            if (first == null) first = t;
            return t;
        });

        private static final class WorkerThread extends Thread {
            WorkerThread(Runnable task) {
                super(null, task, "jtorch-lapack", 64L << 20);
                setDaemon(true);
            }
        }

        static {
            // Creates a thread now (execute() does so on this thread), so thread() is set before any
            // argument check needs it. Not waited for: a task that needed this class would deadlock
            // against its still-running initialiser.
            EXECUTOR.execute(Thread::yield);
        }

        /** A worker, to ask whether a segment can be read from the workers (shared segments can). */
        static Thread thread() {
            return first;
        }

        static boolean onWorker() {
            return Thread.currentThread() instanceof WorkerThread;
        }

        static int run(String fn, NativeCall call) {
            if (onWorker()) {
                try {
                    return call.run();
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }
            return await(fn, EXECUTOR.submit(() -> {
                try {
                    return call.run();
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }));
        }

        static void forEach(String fn, long count, boolean parallel, boolean singleThreaded, Range body) {
            if (count <= 0) return;
            Range range = singleThreaded
                    ? (from, to) -> {
                        // OpenBLAS's thread count is process-wide: the counted section shares it with matmul's.
                        OpenBlas.Threads.enter();
                        try {
                            body.run(from, to);
                        } finally {
                            OpenBlas.Threads.exit();
                        }
                    }
                    : body;
            if (onWorker()) {
                range.run(0, count);
                return;
            }
            int chunks = parallel ? (int) Math.min(THREADS, count) : 1;
            List<Future<Integer>> parts = new ArrayList<>(chunks);
            for (int c = 0; c < chunks; c++) {
                long from = count * c / chunks, to = count * (c + 1) / chunks;
                parts.add(EXECUTOR.submit(() -> {
                    range.run(from, to);
                    return 0;
                }));
            }
            RuntimeException failure = null;
            for (Future<Integer> part : parts) {
                try {
                    await(fn, part);
                } catch (RuntimeException e) {
                    if (failure == null) failure = e; // every part must finish: they write the caller's memory
                }
            }
            if (failure != null) throw failure;
        }

        private static int await(String fn, Future<Integer> result) {
            try {
                return result.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                if (e.getCause() instanceof Error err) throw err;
                throw new TorchException(fn + ": " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                // the call itself cannot be interrupted: wait for it, since it is writing our segments
                try {
                    return result.get();
                } catch (InterruptedException | ExecutionException again) {
                    throw new TorchException(fn + ": interrupted", again);
                }
            }
        }
    }

    /** A downcall; MethodHandle.invokeExact declares Throwable. */
    @FunctionalInterface
    interface NativeCall {
        int run() throws Throwable;
    }

    /** True when OpenBLAS (and with it LAPACKE) is available. */
    public static boolean isAvailable() {
        return OpenBlas.isAvailable();
    }

    /** A contiguous part {@code [from, to)} of a batch, run on one LAPACK worker. */
    @FunctionalInterface
    public interface Range {
        void run(long from, long to);
    }

    /**
     * Runs {@code body} over {@code [0, count)} on the LAPACK workers, split into one range per worker when
     * {@code parallel}, and returns when all are done. LAPACK calls made inside run directly, and may use segments
     * confined to the worker's thread (scratch from {@code Arena.ofConfined()}).
     *
     * <p>With {@code singleThreaded}, OpenBLAS runs single-threaded inside the body, and parallelism comes from the
     * batch instead: measured on this project's loaded 2-core machine, one 64 x 64 dsyevd took 483 ms with OpenBLAS's 2
     * threads handing work back and forth, and 10.7 ms with 1.
     */
    public static void forEach(long count, boolean parallel, boolean singleThreaded, Range body) {
        requireAvailable("forEach");
        Worker.forEach("forEach", count, parallel, singleThreaded, body);
    }

    // ---------------------------------------------------------------- column-major, real or complex
    //
    // The routines below take column-major matrices of float64 ({@code complex} false) or complex128
    // ({@code complex} true: interleaved re, im doubles); sizes and leading dimensions count matrix
    // elements, and each segment starts at the matrix's first element.

    /**
     * {@code ?potrf}: Cholesky factor of the Hermitian positive-definite n x n A in the chosen triangle; info k > 0:
     * minor k.
     */
    public static int potrf(boolean complex, boolean upper, int n, MemorySegment a, int lda) {
        String fn = complex ? "zpotrf" : "dpotrf";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = columns(fn, "a", a, lda, n, n, complex, true);
        if (n == 0) return 0;
        MethodHandle h = complex ? Fn.ZPOTRF : Fn.DPOTRF;
        return checked(
                fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, (byte) (upper ? 'U' : 'L'), n, ar, lda)));
    }

    /**
     * {@code ?getrf}: {@code A = P L U} in place, 1-based pivots in ipiv[0, min(m, n)); info k > 0: {@code U[k-1, k-1]
     * = 0}.
     */
    public static int getrf(boolean complex, int m, int n, MemorySegment a, int lda, MemorySegment ipiv) {
        String fn = complex ? "zgetrf" : "dgetrf";
        requireAvailable(fn);
        requireNonNegative(fn, "m", m);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = columns(fn, "a", a, lda, m, n, complex, true);
        MemorySegment pr = pivots(fn, ipiv, 0, Math.min(m, n), true);
        if (ar.asOverlappingSlice(pr).isPresent()) throw invalid(fn, "ipiv", "overlaps a");
        if (m == 0 || n == 0) return 0;
        MethodHandle h = complex ? Fn.ZGETRF : Fn.DGETRF;
        return checked(fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, m, n, ar, lda, pr)));
    }

    /** {@code ?getri}: the inverse from {@link #getrf}'s factors, in place; info k > 0: singular. */
    public static int getri(boolean complex, int n, MemorySegment a, int lda, MemorySegment ipiv) {
        String fn = complex ? "zgetri" : "dgetri";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = columns(fn, "a", a, lda, n, n, complex, true);
        MemorySegment pr = pivots(fn, ipiv, 0, n, false);
        if (ar.asOverlappingSlice(pr).isPresent()) throw invalid(fn, "ipiv", "overlaps a");
        if (n == 0) return 0;
        MethodHandle h = complex ? Fn.ZGETRI : Fn.DGETRI;
        return checked(fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, n, ar, lda, pr)));
    }

    /**
     * {@code ?getrs}: solves {@code op(A) X = B} in place in the n x nrhs B from {@link #getrf}'s non-singular factors;
     * {@code trans} is 'N', 'T' or 'C' (conjugate transpose).
     */
    public static void getrs(
            boolean complex,
            char trans,
            int n,
            int nrhs,
            MemorySegment a,
            int lda,
            MemorySegment ipiv,
            MemorySegment b,
            int ldb) {
        String fn = complex ? "zgetrs" : "dgetrs";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        requireNonNegative(fn, "nrhs", nrhs);
        if (trans != 'N' && trans != 'T' && trans != 'C')
            throw invalid(fn, "trans", "= '" + trans + "' must be N, T or C");
        MemorySegment ar = columns(fn, "a", a, lda, n, n, complex, false);
        MemorySegment pr = pivots(fn, ipiv, 0, n, false);
        MemorySegment br = columns(fn, "b", b, ldb, n, nrhs, complex, true);
        if (br.asOverlappingSlice(ar).isPresent()) throw invalid(fn, "b", "overlaps a");
        if (br.asOverlappingSlice(pr).isPresent()) throw invalid(fn, "b", "overlaps ipiv");
        if (n == 0 || nrhs == 0) return;
        MethodHandle h = complex ? Fn.ZGETRS : Fn.DGETRS;
        checked(fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, (byte) trans, n, nrhs, ar, lda, pr, br, ldb)));
    }

    /**
     * {@code dsyevd}/{@code zheevd}: eigenvalues (ascending, into the n doubles of w) of the Hermitian A read from one
     * triangle, and with {@code vectors} the orthonormal eigenvectors in A's columns (A is destroyed otherwise). Info k
     * > 0: the algorithm did not converge.
     */
    public static int heevd(
            boolean complex, boolean vectors, boolean upper, int n, MemorySegment a, int lda, MemorySegment w) {
        String fn = complex ? "zheevd" : "dsyevd";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = columns(fn, "a", a, lda, n, n, complex, true);
        MemorySegment wr = columns(fn, "w", w, Math.max(1, n), n, 1, false, true);
        if (ar.asOverlappingSlice(wr).isPresent()) throw invalid(fn, "w", "overlaps a");
        if (n == 0) return 0;
        MethodHandle h = complex ? Fn.ZHEEVD : Fn.DSYEVD;
        byte jobz = (byte) (vectors ? 'V' : 'N'), uplo = (byte) (upper ? 'U' : 'L');
        return checked(fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, jobz, uplo, n, ar, lda, wr)));
    }

    /**
     * {@code ?gesdd}: singular values (descending, min(m, n) doubles into s) of the m x n A (destroyed), and with jobz
     * 'A' all of U (m x m) and V^H (n x n), with 'S' the leading min(m, n) of each, with 'N' neither (u and vt may then
     * be any 1-element segments). Info k > 0: did not converge.
     */
    public static int gesdd(
            boolean complex,
            char jobz,
            int m,
            int n,
            MemorySegment a,
            int lda,
            MemorySegment s,
            MemorySegment u,
            int ldu,
            MemorySegment vt,
            int ldvt) {
        String fn = complex ? "zgesdd" : "dgesdd";
        requireAvailable(fn);
        requireNonNegative(fn, "m", m);
        requireNonNegative(fn, "n", n);
        int k = Math.min(m, n);
        MemorySegment ar = columns(fn, "a", a, lda, m, n, complex, true);
        MemorySegment sr = columns(fn, "s", s, Math.max(1, k), k, 1, false, true);
        MemorySegment ur, vr;
        switch (jobz) {
            case 'A' -> {
                ur = columns(fn, "u", u, ldu, m, m, complex, true);
                vr = columns(fn, "vt", vt, ldvt, n, n, complex, true);
            }
            case 'S' -> {
                ur = columns(fn, "u", u, ldu, m, k, complex, true);
                vr = columns(fn, "vt", vt, ldvt, k, n, complex, true);
            }
            case 'N' -> {
                ur = columns(fn, "u", u, Math.max(1, ldu), 1, 1, complex, true);
                vr = columns(fn, "vt", vt, Math.max(1, ldvt), 1, 1, complex, true);
            }
            default -> throw invalid(fn, "jobz", "= '" + jobz + "' must be A, S or N");
        }
        for (MemorySegment other : List.of(sr, ur, vr)) {
            if (ar.asOverlappingSlice(other).isPresent()) throw invalid(fn, "a", "overlaps an output");
        }
        if (k == 0) return 0;
        MethodHandle h = complex ? Fn.ZGESDD : Fn.DGESDD;
        return checked(fn, Worker.run(fn, () ->
                (int) h.invokeExact(COL_MAJOR, (byte) jobz, m, n, ar, lda, sr, ur, ldu, vr, ldvt)));
    }

    /**
     * {@code ?geqrf}: Householder QR of the m x n A in place (R above the diagonal, reflectors below), min(m, n)
     * scalars tau.
     */
    public static void geqrf(boolean complex, int m, int n, MemorySegment a, int lda, MemorySegment tau) {
        String fn = complex ? "zgeqrf" : "dgeqrf";
        requireAvailable(fn);
        requireNonNegative(fn, "m", m);
        requireNonNegative(fn, "n", n);
        int k = Math.min(m, n);
        MemorySegment ar = columns(fn, "a", a, lda, m, n, complex, true);
        MemorySegment tr = columns(fn, "tau", tau, Math.max(1, k), k, 1, complex, true);
        if (ar.asOverlappingSlice(tr).isPresent()) throw invalid(fn, "tau", "overlaps a");
        if (k == 0) return;
        MethodHandle h = complex ? Fn.ZGEQRF : Fn.DGEQRF;
        checked(fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, m, n, ar, lda, tr)));
    }

    /**
     * {@code dorgqr}/{@code zungqr}: the m x n Q (m >= n >= k) with orthonormal columns from k reflectors of
     * {@link #geqrf}, in place.
     */
    public static void ungqr(boolean complex, int m, int n, int k, MemorySegment a, int lda, MemorySegment tau) {
        String fn = complex ? "zungqr" : "dorgqr";
        requireAvailable(fn);
        requireNonNegative(fn, "k", k);
        if (n > m || k > n) throw invalid(fn, "n", "= " + n + " must satisfy m = " + m + " >= n >= k = " + k);
        MemorySegment ar = columns(fn, "a", a, lda, m, n, complex, true);
        MemorySegment tr = columns(fn, "tau", tau, Math.max(1, k), k, 1, complex, false);
        if (ar.asOverlappingSlice(tr).isPresent()) throw invalid(fn, "tau", "overlaps a");
        if (n == 0) return;
        MethodHandle h = complex ? Fn.ZUNGQR : Fn.DORGQR;
        checked(fn, Worker.run(fn, () -> (int) h.invokeExact(COL_MAJOR, m, n, k, ar, lda, tr)));
    }

    // ---------------------------------------------------------------- validation

    static void requireAvailable(String fn) {
        if (!isAvailable()) throw new TorchException(fn + ": OpenBLAS is unavailable: " + OpenBlas.unavailableReason());
    }

    private static void requireNonNegative(String fn, String name, int value) {
        if (value < 0) throw invalid(fn, name, "= " + value + " must be >= 0");
    }

    /** LAPACKE's negative info means an illegal argument, which the checks above exist to prevent. */
    static int checked(String fn, int info) {
        if (info < 0)
            throw new TorchException(fn + ": LAPACKE rejected argument " + (-info) + " (info = " + info + ")");
        return info;
    }

    /** Checks one rows x cols column-major matrix of float64 or complex128 with leading dimension {@code ld}. */
    private static MemorySegment columns(
            String fn, String name, MemorySegment seg, int ld, int rows, int cols, boolean complex, boolean written) {
        usable(fn, name, seg, written);
        if (ld < Math.max(1, rows)) {
            throw invalid(fn, "ld" + name, "= " + ld + " must be >= max(1, " + rows + "), the rows of " + name);
        }
        long width = complex ? 2L * Double.BYTES : Double.BYTES;
        long capacity = seg.byteSize() / width;
        long span = rows == 0 || cols == 0 ? 0 : (long) (cols - 1) * ld + rows;
        if (span > capacity) {
            throw invalid(
                    fn,
                    name,
                    "is too small: a " + rows + "x" + cols + " matrix with ld" + name + " = " + ld + " needs " + span
                            + " elements, it has " + capacity);
        }
        MemorySegment region = seg.asSlice(0, span * width);
        if (region.maxByteAlignment() < JAVA_DOUBLE.byteAlignment()) throw invalid(fn, name, "is not 8-byte aligned");
        return region;
    }

    /** Checks {@code count} int32 pivots stored from {@code offset}. */
    private static MemorySegment pivots(String fn, MemorySegment seg, long offset, int count, boolean written) {
        usable(fn, "ipiv", seg, written);
        long capacity = seg.byteSize() / Integer.BYTES;
        if (offset < 0 || offset > capacity || count > capacity - offset) {
            throw invalid(
                    fn, "ipiv", "needs " + count + " ints from ipivOffsetElems = " + offset + ", it has " + capacity);
        }
        MemorySegment region = seg.asSlice(offset * Integer.BYTES, (long) count * Integer.BYTES);
        if (region.maxByteAlignment() < JAVA_INT.byteAlignment()) throw invalid(fn, "ipiv", "is not 4-byte aligned");
        return region;
    }

    static void usable(String fn, String name, MemorySegment seg, boolean written) {
        if (seg == null) throw invalid(fn, name, "is null");
        if (!seg.isNative()) throw invalid(fn, name, "is not a native segment");
        if (!seg.scope().isAlive()) throw invalid(fn, name, "belongs to a closed arena");
        Thread user = Worker.onWorker() ? Thread.currentThread() : Worker.thread();
        if (!seg.isAccessibleBy(user))
            throw invalid(fn, name, "is confined to a thread (use a shared or global arena)");
        if (written && seg.isReadOnly()) throw invalid(fn, name, "is read-only");
    }

    static TorchException invalid(String fn, String argument, String problem) {
        return new TorchException(fn + ": " + argument + " " + problem);
    }

    /** Downcalls declare Throwable but throw only unchecked exceptions (from the linker's own checks). */
    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) return e;
        if (t instanceof Error e) throw e;
        return new TorchException("unexpected checked exception from a downcall", t);
    }
}
