package org.jtorch.kernels.blas;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import org.jtorch.TorchException;
import org.jtorch.kernels.blas.OpenBlas.Transpose;

/**
 * oneDNN 3.11's float32 GEMM ({@code dnnl_sgemm}) bound through FFM: the products of float32 tensors when it loads (see
 * {@link FloatGemm}).
 *
 * <p>Why oneDNN beside OpenBLAS: its JIT-generated float32 kernels are the ones PyTorch's CPU build reaches for, and on
 * one core of the Intel machine of docs/benchmarks.md they run TrainGpt's and the LSTM's products 11–47% faster than
 * OpenBLAS 0.3.31 (the weight gradients' transposed-A shapes run at the same speed). OpenBLAS stays for float64,
 * complex and LAPACK, which oneDNN does not have.
 *
 * <p>Threads: every call runs on the calling thread alone. JTorch cuts a product into blocks that its own workers share
 * ({@code BlockedGemm}); oneDNN's OpenMP runtime is told {@code omp_set_num_threads(1)} on each calling thread before
 * the call, so it never starts a team of its own that would spin beside JTorch's workers.
 *
 * <p>The library comes from the {@code org.bytedeco:dnnl:linux-x86_64} jar (with the GNU OpenMP runtime it was built
 * against) or from {@code -Djtorch.onednn=FILE}, the path of a {@code libdnnl.so}. Arguments are validated in Java
 * before the downcall, as {@link OpenBlas#sgemm} does.
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
public final class OneDnn {
    private OneDnn() {}

    /** True when oneDNN loaded and {@link #sgemm} is bound. Loads it on the first call. */
    public static boolean isAvailable() {
        return Availability.FAILURE == null;
    }

    /** Why oneDNN could not be loaded, or null when it is available. */
    public static String unavailableReason() {
        return Availability.FAILURE;
    }

    private static final class Availability {
        static final String FAILURE = load();

        private static String load() {
            try {
                Fn.init();
                return null;
            } catch (ExceptionInInitializerError e) {
                return String.valueOf(e.getCause());
            }
        }
    }

    private static void requireAvailable(String fn) {
        if (!isAvailable()) throw new TorchException(fn + ": oneDNN is unavailable: " + unavailableReason());
    }

    /** The bound functions; initialising this class loads the libraries. */
    private static final class Fn {
        private static final String VERSION = "3.11";
        private static final Linker LINKER = Linker.nativeLinker();
        private static final SymbolLookup LIBRARY = open();

        // dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N, dnnl_dim_t K, float alpha,
        //         const float *A, dnnl_dim_t lda, const float *B, dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t
        // ldc);
        private static final FunctionDescriptor SGEMM_TYPE = FunctionDescriptor.of(
                JAVA_INT,
                JAVA_BYTE,
                JAVA_BYTE,
                JAVA_LONG,
                JAVA_LONG,
                JAVA_LONG,
                JAVA_FLOAT,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_LONG,
                JAVA_FLOAT,
                ADDRESS,
                JAVA_LONG);
        static final MethodHandle SGEMM = LINKER.downcallHandle(LIBRARY.findOrThrow("dnnl_sgemm"), SGEMM_TYPE);
        /** Takes heap segments too; blocks safepoints for the call, as {@link OpenBlas}'s critical handles do. */
        static final MethodHandle SGEMM_CRITICAL =
                LINKER.downcallHandle(LIBRARY.findOrThrow("dnnl_sgemm"), SGEMM_TYPE, Linker.Option.critical(true));
        // void omp_set_num_threads(int), from the OpenMP runtime libdnnl links
        static final MethodHandle SET_OMP_THREADS =
                LINKER.downcallHandle(LIBRARY.findOrThrow("omp_set_num_threads"), FunctionDescriptor.ofVoid(JAVA_INT));

        static void init() {}

        private static SymbolLookup open() {
            String override = System.getProperty("jtorch.onednn");
            try {
                // a library's lookup also finds the symbols of what it links, so omp_set_num_threads comes with it
                if (override != null) return SymbolLookup.libraryLookup(Path.of(override), Arena.global());
                BundledLibrary.requireLinuxX64("oneDNN", "point -Djtorch.onednn at a libdnnl.so");
                // libdnnl finds the OpenMP runtime through its RUNPATH ($ORIGIN): it must be extracted beside it
                return new BundledLibrary("org/bytedeco/dnnl/linux-x86_64/", "jtorch-onednn-" + VERSION)
                        .load("libdnnl.so.3", "libgomp.so.1");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot extract the bundled oneDNN: " + e.getMessage(), e);
            } catch (IllegalArgumentException e) { // dlopen failed
                throw new IllegalStateException(
                        e.getMessage() + " (a tmpdir mounted noexec is a common cause:"
                                + " move it with -Djava.io.tmpdir, or use -Djtorch.onednn)",
                        e);
            }
        }
    }

    /**
     * {@code C = alpha * op(A) * op(B) + beta * C} on float32, on the calling thread: the contract of
     * {@link OpenBlas#sgemm}, arguments and checks included (with {@code beta == 0}, C is written without being read).
     *
     * @throws TorchException if oneDNN is unavailable, any argument is invalid, or oneDNN reports an error
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
        if (k == 0) { // oneDNN refuses empty operands (invalid_arguments); BLAS then computes C = beta * C
            scale(op.c(), m, n, ldc, beta);
            return;
        }
        MethodHandle gemm = op.critical() ? Fn.SGEMM_CRITICAL : Fn.SGEMM;
        int status;
        try {
            Fn.SET_OMP_THREADS.invokeExact(1);
            status = (int) gemm.invokeExact(
                    flag(transA),
                    flag(transB),
                    (long) m,
                    (long) n,
                    (long) k,
                    alpha,
                    op.a(),
                    (long) lda,
                    op.b(),
                    (long) ldb,
                    beta,
                    op.c(),
                    (long) ldc);
        } catch (Throwable t) {
            throw t instanceof RuntimeException r ? r : new IllegalStateException(t);
        }
        if (status != 0) {
            throw new TorchException(
                    "sgemm: oneDNN's dnnl_sgemm failed with status " + status + " for m=" + m + " n=" + n + " k=" + k);
        }
    }

    /** {@code C = beta * C} over the m x n matrix C (rows ldc apart); with beta = 0, C is written, never read. */
    private static void scale(MemorySegment c, int m, int n, int ldc, float beta) {
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                long at = (long) i * ldc + j;
                c.setAtIndex(JAVA_FLOAT, at, beta == 0 ? 0f : beta * c.getAtIndex(JAVA_FLOAT, at));
            }
        }
    }

    /** oneDNN's transpose flag ('N' or 'T'; a real matrix's conjugate transpose is its transpose). */
    private static byte flag(Transpose t) {
        return (byte) (t == Transpose.NONE ? 'N' : 'T');
    }
}
