package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jtorch.TorchException;

/**
 * LAPACKE routines of the bundled OpenBLAS (see {@link OpenBlas} for how it is found), bound through
 * FFM: Cholesky and LU factorisations on float64, row-major.
 *
 * <p>As in {@link OpenBlas}, every argument is validated in Java before the downcall and bad input
 * throws {@link TorchException} naming the method and the argument. Segments must be native (these
 * calls can run long, so they are never critical calls that would block the GC) and shared or global
 * (every call runs on one worker thread, see {@link Worker}); offsets and leading dimensions are in
 * elements. Each routine returns LAPACK's {@code info}: 0 on success, {@code k > 0}
 * for a numerical failure at (1-based) position k, which callers turn into their own errors.
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
public final class Lapack {
    private Lapack() {}

    private static final int ROW_MAJOR = 101;

    /** The bound functions; initialising this class loads OpenBLAS (or fails if it is unavailable). */
    private static final class Fn {
        private static final Linker LINKER = Linker.nativeLinker();

        // lapack_int LAPACKE_dpotrf(int matrix_layout, char uplo, lapack_int n, double *a, lapack_int lda);
        static final MethodHandle DPOTRF = downcall("LAPACKE_dpotrf",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_INT, ADDRESS, JAVA_INT));
        // lapack_int LAPACKE_dgetrf(int matrix_layout, lapack_int m, lapack_int n, double *a, lapack_int lda,
        //                           lapack_int *ipiv);
        static final MethodHandle DGETRF = downcall("LAPACKE_dgetrf",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        // lapack_int LAPACKE_dgetri(int matrix_layout, lapack_int n, double *a, lapack_int lda, const lapack_int *ipiv);
        static final MethodHandle DGETRI = downcall("LAPACKE_dgetri",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        // lapack_int LAPACKE_dgetrs(int matrix_layout, char trans, lapack_int n, lapack_int nrhs, const double *a,
        //                           lapack_int lda, const lapack_int *ipiv, double *b, lapack_int ldb);
        static final MethodHandle DGETRS = downcall("LAPACKE_dgetrs", FunctionDescriptor.of(JAVA_INT,
                JAVA_INT, JAVA_BYTE, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));

        private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
            return LINKER.downcallHandle(OpenBlas.library().findOrThrow(name), descriptor);
        }
    }

    /**
     * The thread every LAPACK call runs on. OpenBLAS's threaded LAPACK keeps large per-thread job
     * tables on the caller's stack, more than a Java thread's default 1 MB: measured, LAPACKE_dgetrf
     * of order 200 with 2 OpenBLAS threads kills the JVM (SIGSEGV, no hs_err) at -Xss1m and runs at
     * -Xss4m. A single worker with a 64 MB stack makes that independent of the caller's thread; it
     * also serialises LAPACK calls, which OpenBLAS parallelises internally anyway.
     */
    static final class Worker {
        private static volatile Thread thread;
        private static final ExecutorService EXECUTOR = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(null, task, "jtorch-lapack", 64L << 20);
            t.setDaemon(true);
            thread = t;
            return t;
        });

        static {
            // Creates the thread now (execute() does so on this thread), so thread() is set before any
            // argument check needs it. Not waited for: a task that needed this class would deadlock
            // against its still-running initialiser.
            EXECUTOR.execute(Thread::yield);
        }

        static Thread thread() { return thread; }

        static int run(String fn, NativeCall call) {
            Future<Integer> result = EXECUTOR.submit(() -> {
                try {
                    return call.run();
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            });
            try {
                return result.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new TorchException(fn + ": " + e.getCause(), e.getCause());
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
    public static boolean isAvailable() { return OpenBlas.isAvailable(); }

    /**
     * Cholesky factorisation of the n x n symmetric positive-definite matrix A in place: its lower
     * triangle becomes L with {@code A = L L^T} (upper: U with {@code A = U^T U}); only that triangle
     * is read or written. Returns 0, or k if the leading minor of order k is not positive-definite.
     */
    public static int dpotrf(boolean upper, int n, MemorySegment a, long aOffsetElems, int lda) {
        String fn = "dpotrf";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = region(fn, "a", a, "aOffsetElems", aOffsetElems, "lda", lda, n, n, true);
        if (n == 0) return 0;
        return checked(fn, Worker.run(fn, () -> (int) Fn.DPOTRF.invokeExact(ROW_MAJOR, (byte) (upper ? 'U' : 'L'), n, ar, lda)));
    }

    /**
     * LU factorisation with partial pivoting {@code A = P L U} of the m x n matrix A in place (L unit
     * lower, U upper), and the 1-based pivot rows in {@code ipiv[0 .. min(m, n))}. Returns 0, or k if
     * {@code U[k-1, k-1]} is exactly zero (the factorisation is still complete).
     */
    public static int dgetrf(int m, int n, MemorySegment a, long aOffsetElems, int lda, MemorySegment ipiv, long ipivOffsetElems) {
        String fn = "dgetrf";
        requireAvailable(fn);
        requireNonNegative(fn, "m", m);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = region(fn, "a", a, "aOffsetElems", aOffsetElems, "lda", lda, m, n, true);
        MemorySegment pr = pivots(fn, ipiv, ipivOffsetElems, Math.min(m, n), true);
        if (ar.asOverlappingSlice(pr).isPresent()) throw invalid(fn, "ipiv", "overlaps a");
        if (m == 0 || n == 0) return 0;
        return checked(fn, Worker.run(fn, () -> (int) Fn.DGETRF.invokeExact(ROW_MAJOR, m, n, ar, lda, pr)));
    }

    /**
     * Inverse of the n x n matrix whose LU factors and pivots {@link #dgetrf} left in {@code a} and
     * {@code ipiv}, in place. Returns 0, or k if {@code U[k-1, k-1]} is zero (A is singular).
     */
    public static int dgetri(int n, MemorySegment a, long aOffsetElems, int lda, MemorySegment ipiv, long ipivOffsetElems) {
        String fn = "dgetri";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        MemorySegment ar = region(fn, "a", a, "aOffsetElems", aOffsetElems, "lda", lda, n, n, true);
        MemorySegment pr = pivots(fn, ipiv, ipivOffsetElems, n, false);
        if (ar.asOverlappingSlice(pr).isPresent()) throw invalid(fn, "ipiv", "overlaps a");
        if (n == 0) return 0;
        return checked(fn, Worker.run(fn, () -> (int) Fn.DGETRI.invokeExact(ROW_MAJOR, n, ar, lda, pr)));
    }

    /**
     * Solves {@code A X = B} (or {@code A^T X = B} when {@code transpose}) in place in the n x nrhs
     * matrix B, from the LU factors and pivots of the n x n matrix A that {@link #dgetrf} produced.
     * The factors must be non-singular (check dgetrf's info first).
     */
    public static void dgetrs(boolean transpose, int n, int nrhs, MemorySegment a, long aOffsetElems, int lda,
            MemorySegment ipiv, long ipivOffsetElems, MemorySegment b, long bOffsetElems, int ldb) {
        String fn = "dgetrs";
        requireAvailable(fn);
        requireNonNegative(fn, "n", n);
        requireNonNegative(fn, "nrhs", nrhs);
        MemorySegment ar = region(fn, "a", a, "aOffsetElems", aOffsetElems, "lda", lda, n, n, false);
        MemorySegment pr = pivots(fn, ipiv, ipivOffsetElems, n, false);
        MemorySegment br = region(fn, "b", b, "bOffsetElems", bOffsetElems, "ldb", ldb, n, nrhs, true);
        if (br.asOverlappingSlice(ar).isPresent()) throw invalid(fn, "b", "overlaps a");
        if (br.asOverlappingSlice(pr).isPresent()) throw invalid(fn, "b", "overlaps ipiv");
        if (n == 0 || nrhs == 0) return;
        checked(fn, Worker.run(fn, () -> (int) Fn.DGETRS.invokeExact(ROW_MAJOR, (byte) (transpose ? 'T' : 'N'), n, nrhs, ar, lda, pr, br, ldb)));
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
        if (info < 0) throw new TorchException(fn + ": LAPACKE rejected argument " + (-info) + " (info = " + info + ")");
        return info;
    }

    /** Checks one rows x cols row-major float64 matrix stored from {@code offset} with leading dimension {@code ld}. */
    private static MemorySegment region(String fn, String name, MemorySegment seg, String offsetName, long offset,
            String ldName, int ld, int rows, int cols, boolean written) {
        usable(fn, name, seg, written);
        if (ld < Math.max(1, cols)) {
            throw invalid(fn, ldName, "= " + ld + " must be >= max(1, " + cols + "), the columns of " + name);
        }
        long capacity = seg.byteSize() / Double.BYTES;
        if (offset < 0 || offset > capacity) {
            throw invalid(fn, offsetName, "= " + offset + " is outside " + name + " (" + capacity + " elements)");
        }
        long span = rows == 0 || cols == 0 ? 0 : (long) (rows - 1) * ld + cols;
        if (span > capacity - offset) {
            throw invalid(fn, name, "is too small: a " + rows + "x" + cols + " matrix with " + ldName + " = " + ld
                    + " at " + offsetName + " = " + offset + " needs " + (offset + span) + " elements, it has " + capacity);
        }
        MemorySegment region = seg.asSlice(offset * Double.BYTES, span * Double.BYTES);
        if (region.maxByteAlignment() < JAVA_DOUBLE.byteAlignment()) throw invalid(fn, name, "is not 8-byte aligned");
        return region;
    }

    /** Checks {@code count} int32 pivots stored from {@code offset}. */
    private static MemorySegment pivots(String fn, MemorySegment seg, long offset, int count, boolean written) {
        usable(fn, "ipiv", seg, written);
        long capacity = seg.byteSize() / Integer.BYTES;
        if (offset < 0 || offset > capacity || count > capacity - offset) {
            throw invalid(fn, "ipiv", "needs " + count + " ints from ipivOffsetElems = " + offset + ", it has " + capacity);
        }
        MemorySegment region = seg.asSlice(offset * Integer.BYTES, (long) count * Integer.BYTES);
        if (region.maxByteAlignment() < JAVA_INT.byteAlignment()) throw invalid(fn, "ipiv", "is not 4-byte aligned");
        return region;
    }

    static void usable(String fn, String name, MemorySegment seg, boolean written) {
        if (seg == null) throw invalid(fn, name, "is null");
        if (!seg.isNative()) throw invalid(fn, name, "is not a native segment");
        if (!seg.scope().isAlive()) throw invalid(fn, name, "belongs to a closed arena");
        if (!seg.isAccessibleBy(Worker.thread())) throw invalid(fn, name, "is confined to a thread (use a shared or global arena)");
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
