package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import org.jtorch.TorchException;

/**
 * OpenBLAS 0.3.31 bound through FFM: row-major GEMM for float, double, complex64 and complex128, and the library's
 * thread controls.
 *
 * <p>The library comes from the {@code org.bytedeco:openblas:linux-x86_64} jar on the class path, or from
 * {@code -Djtorch.blas=FILE} (the path of a {@code libopenblas.so}). It is loaded on first use; when that fails
 * {@link #isAvailable()} is false, {@link #unavailableReason()} says why, and every other method throws, so callers
 * check first and fall back to Java kernels.
 *
 * <p>Every argument is validated in Java before the downcall: bad input throws {@link TorchException} naming the method
 * and the argument, and never reaches native code (whose only error handling is to print and return, or to scribble
 * over memory). Matrices are row-major, offsets and leading dimensions are in elements; a complex element is an
 * interleaved (re, im) pair. Call {@link #setNumThreads} to grow the thread count only at start-up, not while another
 * thread is in a GEMM: OpenBLAS grows its thread pool without synchronising with running calls.
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
public final class OpenBlas {
    private OpenBlas() {}

    /** What GEMM applies to an operand before multiplying: {@code op(X)} in {@code C = alpha op(A) op(B) + beta C}. */
    public enum Transpose {
        NONE(111),
        TRANSPOSE(112),
        /** Conjugate transpose; for real matrices the same as {@link #TRANSPOSE}. */
        CONJ_TRANSPOSE(113);

        final int cblas;

        Transpose(int cblas) {
            this.cblas = cblas;
        }
    }

    private static final int ROW_MAJOR = 101;

    // ---------------------------------------------------------------- loading

    /** True when OpenBLAS loaded and every function below is bound. Loads it on the first call. */
    public static boolean isAvailable() {
        return Availability.FAILURE == null;
    }

    /** Why OpenBLAS could not be loaded, or null when it is available. */
    public static String unavailableReason() {
        return Availability.FAILURE;
    }

    /** Outcome of initialising {@link Fn}, computed once. */
    private static final class Availability {
        static final String FAILURE = load();

        private static String load() {
            try {
                Fn.init();
                return null;
            } catch (ExceptionInInitializerError e) {
                // The JVM remembers the failure: Fn is never touched again, requireAvailable() sees to that.
                return String.valueOf(e.getCause());
            }
        }
    }

    /** The loaded library, for {@link Lapack}'s bindings (the bundled OpenBLAS also exports LAPACKE). */
    static SymbolLookup library() {
        requireAvailable("library");
        return Fn.LIBRARY;
    }

    private static void requireAvailable(String fn) {
        if (!isAvailable()) throw new TorchException(fn + ": OpenBLAS is unavailable: " + unavailableReason());
    }

    /** Finds and loads the shared library. */
    private static final class Loader {
        private static final String VERSION = "0.3.31";
        private static final String OPENBLAS = "libopenblas.so.0";

        static SymbolLookup open() {
            String override = System.getProperty("jtorch.blas");
            if (override != null) {
                try {
                    return SymbolLookup.libraryLookup(Path.of(override), Arena.global());
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("cannot load -Djtorch.blas=" + override + ": " + e.getMessage(), e);
                }
            }
            BundledLibrary.requireLinuxX64("OpenBLAS", "point -Djtorch.blas at a libopenblas.so");
            try {
                // In dependency order. libopenblas finds libgfortran through its RUNPATH ($ORIGIN), but libgfortran
                // has no RUNPATH: its own dependencies must already be loaded (the dynamic linker then matches them by
                // soname), else it looks for system copies that may not be installed.
                return new BundledLibrary("org/bytedeco/openblas/linux-x86_64/", "jtorch-openblas-" + VERSION)
                        .load(OPENBLAS, BundledLibrary.GCC_S, "libquadmath.so.0", "libgfortran.so.5");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot extract the bundled OpenBLAS: " + e.getMessage(), e);
            } catch (IllegalArgumentException e) { // dlopen failed
                throw new IllegalStateException(
                        e.getMessage() + " (a tmpdir mounted noexec is a common cause:"
                                + " move it with -Djava.io.tmpdir, or use -Djtorch.blas)",
                        e);
            }
        }
    }

    /**
     * The bound functions. Initialising this class loads the library; if that fails the class stays unusable and
     * {@link Availability} records why.
     *
     * <p>Each GEMM comes twice. The plain handle takes native segments only. The critical handle also takes heap
     * segments ({@code MemorySegment.ofArray}), so tensors stored in Java arrays need no copy, but a critical call
     * blocks safepoints for its whole duration: no GC and no deoptimisation anywhere in the JVM until it returns
     * (measured: a 2048^3 sgemm held every safepoint for ~150 ms). That stall is the price of zero-copy heap storage,
     * so the critical handle is used only when an operand is on the heap.
     */
    private static final class Fn {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final SymbolLookup LIBRARY = Loader.open();

        private static final FunctionDescriptor REAL_GEMM_FLOAT = realGemm(JAVA_FLOAT);
        private static final FunctionDescriptor REAL_GEMM_DOUBLE = realGemm(JAVA_DOUBLE);
        private static final FunctionDescriptor COMPLEX_GEMM = FunctionDescriptor.ofVoid(
                JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
                JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        private static final Linker.Option CRITICAL = Linker.Option.critical(true);

        // void cblas_sgemm(enum CBLAS_ORDER Order, enum CBLAS_TRANSPOSE TransA, enum CBLAS_TRANSPOSE TransB,
        //                  blasint M, blasint N, blasint K, float alpha, const float *A, blasint lda,
        //                  const float *B, blasint ldb, float beta, float *C, blasint ldc);
        static final MethodHandle SGEMM = downcall("cblas_sgemm", REAL_GEMM_FLOAT);
        static final MethodHandle SGEMM_CRITICAL = downcall("cblas_sgemm", REAL_GEMM_FLOAT, CRITICAL);
        // void cblas_dgemm(... same, with double alpha, const double *A, ..., double beta, double *C ...);
        static final MethodHandle DGEMM = downcall("cblas_dgemm", REAL_GEMM_DOUBLE);
        static final MethodHandle DGEMM_CRITICAL = downcall("cblas_dgemm", REAL_GEMM_DOUBLE, CRITICAL);
        // void cblas_cgemm(enum CBLAS_ORDER Order, enum CBLAS_TRANSPOSE TransA, enum CBLAS_TRANSPOSE TransB,
        //                  blasint M, blasint N, blasint K, const void *alpha, const void *A, blasint lda,
        //                  const void *B, blasint ldb, const void *beta, void *C, blasint ldc);
        static final MethodHandle CGEMM = downcall("cblas_cgemm", COMPLEX_GEMM);
        static final MethodHandle CGEMM_CRITICAL = downcall("cblas_cgemm", COMPLEX_GEMM, CRITICAL);
        // void cblas_zgemm(... same as cblas_cgemm, on double complex ...);
        static final MethodHandle ZGEMM = downcall("cblas_zgemm", COMPLEX_GEMM);
        static final MethodHandle ZGEMM_CRITICAL = downcall("cblas_zgemm", COMPLEX_GEMM, CRITICAL);
        // void openblas_set_num_threads(int num_threads);
        static final MethodHandle SET_NUM_THREADS =
                downcall("openblas_set_num_threads", FunctionDescriptor.ofVoid(JAVA_INT));
        // int openblas_get_num_threads(void);
        static final MethodHandle GET_NUM_THREADS =
                downcall("openblas_get_num_threads", FunctionDescriptor.of(JAVA_INT));
        // char* openblas_get_config(void);
        static final MethodHandle GET_CONFIG = downcall("openblas_get_config", FunctionDescriptor.of(ADDRESS));
        // char* openblas_get_corename(void);
        static final MethodHandle GET_CORENAME = downcall("openblas_get_corename", FunctionDescriptor.of(ADDRESS));

        /** Forces initialisation (the holder idiom's trigger). */
        static void init() {}

        private static FunctionDescriptor realGemm(ValueLayout scalar) {
            return FunctionDescriptor.ofVoid(
                    JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, scalar, ADDRESS, JAVA_INT, ADDRESS,
                    JAVA_INT, scalar, ADDRESS, JAVA_INT);
        }

        private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
            return LINKER.downcallHandle(LIBRARY.findOrThrow(name), descriptor, options);
        }
    }

    // ---------------------------------------------------------------- GEMM

    /**
     * {@code C = alpha * op(A) * op(B) + beta * C} on float32, where op(A) is m x k, op(B) is k x n and C is m x n, all
     * row-major. {@code a} holds A from element {@code aOffsetElems} on, with rows {@code lda} elements apart (so
     * {@code lda >= max(1, cols of A as stored)}); likewise B and C. C must not overlap A or B. Segments may be native
     * or heap ({@code MemorySegment.ofArray}); a heap segment makes this a critical call, which blocks GC for its whole
     * duration. With {@code k == 0}, C becomes {@code beta * C}; with {@code m == 0 || n == 0} nothing happens.
     *
     * @throws TorchException if OpenBLAS is unavailable or any argument is invalid
     */
    public static void sgemm(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            float alpha,
            MemorySegment a,
            long aOffsetElems,
            int lda,
            MemorySegment b,
            long bOffsetElems,
            int ldb,
            float beta,
            MemorySegment c,
            long cOffsetElems,
            int ldc) {
        requireAvailable("sgemm");
        GemmOperands op = GemmOperands.check(
                "sgemm",
                Float.BYTES,
                1,
                transA,
                transB,
                m,
                n,
                k,
                a,
                aOffsetElems,
                lda,
                b,
                bOffsetElems,
                ldb,
                c,
                cOffsetElems,
                ldc);
        if (m == 0 || n == 0) return;
        MethodHandle gemm = op.critical() ? Fn.SGEMM_CRITICAL : Fn.SGEMM;
        try {
            gemm.invokeExact(
                    ROW_MAJOR, transA.cblas, transB.cblas, m, n, k, alpha, op.a(), lda, op.b(), ldb, beta, op.c(), ldc);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@link #sgemm} on float64. */
    public static void dgemm(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            double alpha,
            MemorySegment a,
            long aOffsetElems,
            int lda,
            MemorySegment b,
            long bOffsetElems,
            int ldb,
            double beta,
            MemorySegment c,
            long cOffsetElems,
            int ldc) {
        requireAvailable("dgemm");
        GemmOperands op = GemmOperands.check(
                "dgemm",
                Double.BYTES,
                1,
                transA,
                transB,
                m,
                n,
                k,
                a,
                aOffsetElems,
                lda,
                b,
                bOffsetElems,
                ldb,
                c,
                cOffsetElems,
                ldc);
        if (m == 0 || n == 0) return;
        MethodHandle gemm = op.critical() ? Fn.DGEMM_CRITICAL : Fn.DGEMM;
        try {
            gemm.invokeExact(
                    ROW_MAJOR, transA.cblas, transB.cblas, m, n, k, alpha, op.a(), lda, op.b(), ldb, beta, op.c(), ldc);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * {@link #sgemm} on complex64: each element is an interleaved (re, im) pair of floats, and offsets and leading
     * dimensions count such pairs. {@link Transpose#CONJ_TRANSPOSE} conjugates.
     */
    public static void cgemm(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            float alphaRe,
            float alphaIm,
            MemorySegment a,
            long aOffsetElems,
            int lda,
            MemorySegment b,
            long bOffsetElems,
            int ldb,
            float betaRe,
            float betaIm,
            MemorySegment c,
            long cOffsetElems,
            int ldc) {
        requireAvailable("cgemm");
        GemmOperands op = GemmOperands.check(
                "cgemm",
                Float.BYTES,
                2,
                transA,
                transB,
                m,
                n,
                k,
                a,
                aOffsetElems,
                lda,
                b,
                bOffsetElems,
                ldb,
                c,
                cOffsetElems,
                ldc);
        if (m == 0 || n == 0) return;
        MemorySegment scalars = SCALARS.get();
        scalars.setAtIndex(JAVA_FLOAT, 0, alphaRe);
        scalars.setAtIndex(JAVA_FLOAT, 1, alphaIm);
        scalars.setAtIndex(JAVA_FLOAT, 2, betaRe);
        scalars.setAtIndex(JAVA_FLOAT, 3, betaIm);
        MethodHandle gemm = op.critical() ? Fn.CGEMM_CRITICAL : Fn.CGEMM;
        try {
            gemm.invokeExact(
                    ROW_MAJOR,
                    transA.cblas,
                    transB.cblas,
                    m,
                    n,
                    k,
                    scalars,
                    op.a(),
                    lda,
                    op.b(),
                    ldb,
                    scalars.asSlice(2 * Float.BYTES),
                    op.c(),
                    ldc);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@link #cgemm} on complex128: interleaved (re, im) pairs of doubles. */
    public static void zgemm(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            double alphaRe,
            double alphaIm,
            MemorySegment a,
            long aOffsetElems,
            int lda,
            MemorySegment b,
            long bOffsetElems,
            int ldb,
            double betaRe,
            double betaIm,
            MemorySegment c,
            long cOffsetElems,
            int ldc) {
        requireAvailable("zgemm");
        GemmOperands op = GemmOperands.check(
                "zgemm",
                Double.BYTES,
                2,
                transA,
                transB,
                m,
                n,
                k,
                a,
                aOffsetElems,
                lda,
                b,
                bOffsetElems,
                ldb,
                c,
                cOffsetElems,
                ldc);
        if (m == 0 || n == 0) return;
        MemorySegment scalars = SCALARS.get();
        scalars.setAtIndex(JAVA_DOUBLE, 0, alphaRe);
        scalars.setAtIndex(JAVA_DOUBLE, 1, alphaIm);
        scalars.setAtIndex(JAVA_DOUBLE, 2, betaRe);
        scalars.setAtIndex(JAVA_DOUBLE, 3, betaIm);
        MethodHandle gemm = op.critical() ? Fn.ZGEMM_CRITICAL : Fn.ZGEMM;
        try {
            gemm.invokeExact(
                    ROW_MAJOR,
                    transA.cblas,
                    transB.cblas,
                    m,
                    n,
                    k,
                    scalars,
                    op.a(),
                    lda,
                    op.b(),
                    ldb,
                    scalars.asSlice(2 * Double.BYTES),
                    op.c(),
                    ldc);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Per-thread native home for complex alpha and beta, which BLAS takes by pointer: cheaper than an arena per call,
     * and safe because a GEMM never calls back into Java on the same thread. Auto arena, so a dead thread's 32 bytes go
     * with it.
     */
    private static final ThreadLocal<MemorySegment> SCALARS =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(4 * Double.BYTES, Double.BYTES));

    // ---------------------------------------------------------------- threads and configuration

    /**
     * Sets the number of threads OpenBLAS uses (it caps this at its MAX_THREADS, 64 for the bundled build). Inside a
     * {@link #singleThreaded} section the count is remembered and applied when the last section ends.
     */
    public static void setNumThreads(int n) {
        requireAvailable("setNumThreads");
        if (n < 1) throw new TorchException("setNumThreads: n = " + n + " must be >= 1");
        synchronized (Threads.class) {
            if (Threads.sections > 0) Threads.outside = n;
            else Threads.set(n);
        }
    }

    /**
     * Runs {@code body} with OpenBLAS single-threaded, for callers that bring their own parallelism (a batch spread
     * over Java workers, one GEMM split into row blocks, LAPACK on its workers).
     *
     * <p>Why a process-wide section: the bundled build is the pthreads one ({@code openblas_get_parallel() == 1}),
     * whose thread count is a single global; {@code openblas_set_num_threads_local} sets that same global (measured:
     * after another thread calls it with 1, every thread reads 1). So "one BLAS thread inside Java's parallel regions,
     * N elsewhere" can only be a counted section: the first caller in drops the count to 1, the last one out restores
     * it. Concurrent GEMMs from other threads run single-threaded meanwhile, which is what one wants while Java workers
     * already occupy the cores. Lowering to 1 and restoring never grows OpenBLAS's pool, so it is safe while other
     * GEMMs run (a GEMM reads the count once, on entry). A toggle costs ~0.3 µs.
     */
    public static void singleThreaded(Runnable body) {
        requireAvailable("singleThreaded");
        Threads.enter();
        try {
            body.run();
        } finally {
            Threads.exit();
        }
    }

    /** The counted single-thread sections of {@link #singleThreaded}; guarded by the class lock. */
    static final class Threads {
        private Threads() {}

        private static int sections;
        /** The count to restore when the last section ends: the one in force, or set meanwhile. */
        private static int outside;

        static synchronized void enter() {
            if (sections++ == 0) {
                outside = numThreads();
                if (outside != 1) set(1);
            }
        }

        static synchronized void exit() {
            if (--sections == 0 && outside != 1) set(outside);
        }

        private static void set(int n) {
            try {
                Fn.SET_NUM_THREADS.invokeExact(n);
            } catch (Throwable t) {
                throw unchecked(t);
            }
        }
    }

    /** The number of threads OpenBLAS uses. */
    public static int numThreads() {
        requireAvailable("numThreads");
        try {
            return (int) Fn.GET_NUM_THREADS.invokeExact();
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** The build configuration, e.g. {@code OpenBLAS 0.3.31 DYNAMIC_ARCH NO_AFFINITY Cooperlake MAX_THREADS=64}. */
    public static String config() {
        requireAvailable("config");
        return string(Fn.GET_CONFIG);
    }

    /** The CPU kernel set OpenBLAS picked at load time, e.g. {@code Cooperlake}. */
    public static String coreName() {
        requireAvailable("coreName");
        return string(Fn.GET_CORENAME);
    }

    // synchronized: openblas_get_config assembles its answer in one static buffer, so concurrent
    // callers could read each other's half-written string.
    private static synchronized String string(MethodHandle function) {
        try {
            MemorySegment chars = (MemorySegment) function.invokeExact();
            return chars.reinterpret(Long.MAX_VALUE).getString(0); // NUL-terminated, length unknown up front
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Downcalls declare Throwable but throw only unchecked exceptions (from the linker's own checks). */
    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) return e;
        if (t instanceof Error e) throw e;
        return new TorchException("unexpected checked exception from a downcall", t);
    }
}
