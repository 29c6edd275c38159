package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.JavaGemm;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernel behind every matrix product of {@link MatmulOps}: {@code out = beta * bias + alpha * op(A) B} over a
 * batch of matrices, with arguments already validated by the meta rules.
 *
 * <p>Routing: float32, float64, complex64 and complex128 go to OpenBLAS when it is loaded; every other dtype, and those
 * four when OpenBLAS is absent, goes to {@link JavaGemm}. Empty contractions ({@code k == 0}) also go to JavaGemm,
 * which writes {@code beta * bias} (or zeros) without ever forming a leading dimension, so BLAS never sees a degenerate
 * matrix.
 *
 * <p>No operand is copied when BLAS can read it as it is: a matrix whose last two strides are {@code (ld, 1)} is passed
 * as is, one with strides {@code (1, ld)} is passed transposed, only other layouts (including broadcast, stride-0 ones)
 * are made contiguous first. Heap storage is handed to BLAS directly (OpenBLAS makes that a critical downcall).
 */
final class MatmulKernels {
    private MatmulKernels() {}

    private static final Scalar ZERO = Scalar.of(0L);

    /**
     * Writes {@code out[b] = beta * bias[b] + alpha * op(a[b]) b[b]} where {@code a} is [B, m, k] and {@code b} is [B,
     * k, n] (views; any strides) and {@code out} holds B * m * n elements in row-major order of [B, m, n] (its own
     * shape may differ: [m], [], [B, m, n]...). {@code bias} is broadcast to {@code out}'s shape; it is ignored when
     * null or when beta is zero (so NaN in it does not propagate, as PyTorch documents for {@code addmm}).
     * {@code conjugateA} conjugates A (vdot).
     */
    static void run(Tensor out, Tensor bias, Tensor a, Tensor b, Scalar beta, Scalar alpha, boolean conjugateA) {
        if (out.numel() == 0) return;
        long batch = a.size(0);
        int m = Math.toIntExact(a.size(1)), k = Math.toIntExact(a.size(2)), n = Math.toIntExact(b.size(2));
        // BLAS and the Java kernel write C through its strides but must not read what they write:
        // an out= tensor that is strided or aliases an input gets a fresh buffer, copied back at the end.
        boolean direct = out.isContiguous()
                && out.impl().storage() != a.impl().storage()
                && out.impl().storage() != b.impl().storage();
        Tensor target = direct ? out : Tensor.of(TensorImpl.empty(out.impl().shapeRef(), out.dtype()));
        boolean useBias = bias != null && !isZero(beta);
        if (useBias) CopyOps.convert(bias, target);
        Scalar effectiveBeta = useBias ? beta : ZERO;
        Tensor c = Tensor.viewOf(
                target,
                target.impl()
                        .viewOf(target.storageOffset(), new long[] {batch, m, n}, new long[] {(long) m * n, n, 1}));
        DType dtype = out.dtype();
        if (k > 0 && !conjugateA && blasDtype(dtype) && OpenBlas.isAvailable()) {
            blas(dtype, batch, m, n, k, alpha, effectiveBeta, a, b, c);
        } else {
            JavaGemm.gemm(batch, m, n, k, alpha, effectiveBeta, operand(a), operand(b), operand(c), conjugateA);
        }
        if (!direct) CopyOps.convert(target, out);
    }

    private static boolean isZero(Scalar s) {
        return s.doubleValue() == 0 && s.imag() == 0;
    }

    private static boolean blasDtype(DType d) {
        return d == DType.FLOAT32 || d == DType.FLOAT64 || d == DType.COMPLEX64 || d == DType.COMPLEX128;
    }

    private static JavaGemm.Operand operand(Tensor t) {
        long[] st = t.impl().strideRef();
        return new JavaGemm.Operand(t.impl().storage().segment(), t.dtype(), t.storageOffset(), st[0], st[1], st[2]);
    }

    /** A batch of matrices as BLAS reads it: storage, first element, batch stride, op and leading dimension. */
    private record BlasMatrix(MemorySegment data, long offset, long batchStride, Transpose op, int ld) {

        /** {@code t} is [B, rows, cols]; sizes are at least 1. */
        static BlasMatrix of(Tensor t) {
            long rows = t.size(1), cols = t.size(2);
            long[] st = t.impl().strideRef();
            // Strides of size-1 dims are irrelevant, hence the rows == 1 / cols == 1 escapes (as in ATen's addmm).
            if (st[2] == 1 && (rows == 1 || st[1] >= cols) && fitsInt(rows == 1 ? cols : st[1])) {
                return new BlasMatrix(t.impl().storage().segment(), t.storageOffset(), st[0], Transpose.NONE, (int)
                        (rows == 1 ? cols : st[1]));
            }
            if (st[1] == 1 && (cols == 1 || st[2] >= rows) && fitsInt(cols == 1 ? rows : st[2])) {
                return new BlasMatrix(t.impl().storage().segment(), t.storageOffset(), st[0], Transpose.TRANSPOSE, (int)
                        (cols == 1 ? rows : st[2]));
            }
            Tensor dense = CopyOps.clone(t);
            return new BlasMatrix(
                    dense.impl().storage().segment(), dense.storageOffset(), rows * cols, Transpose.NONE, (int) cols);
        }

        private static boolean fitsInt(long v) {
            return v <= Integer.MAX_VALUE;
        }
    }

    /**
     * Multiply-adds below which a product stays one call on the caller's thread: OpenBLAS's own threshold for threading
     * a GEMM ({@code SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD} = 64³), so such calls never wake its threads
     * anyway, and a Java fork (~1 µs) would cost more than it saves.
     */
    private static final long PARALLEL_MIN_WORK = 1L << 18;

    /**
     * Rows of C per thread from which a single product is split by rows even when it has more columns. Row blocks of C
     * are contiguous, so the elementwise ops that follow (which split contiguous ranges the same way) find their half
     * in the cache of the thread that wrote it; column blocks interleave both threads' writes in every row. With fewer
     * rows, each block would repack all of op(B) for a thin slice of C, so columns are split instead. Measured on the
     * MLP step's weight gradient (256 x 784, k = 64), alternating in one process: 409-429 µs per step by rows against
     * 420-442 µs by columns.
     */
    private static final int ROWS_PER_BLOCK = 64;

    /**
     * Runs the batch of GEMMs with the parallelism in Java and OpenBLAS single-threaded.
     *
     * <p>Why not OpenBLAS's threads: the bundled build threads every call above 64³ itself, so a {@code bmm} of 32
     * attention-sized products became 32 hand-offs to its pool, and its idle workers spin ~0.1 s after each threaded
     * call, competing with JTorch's own parallel loops for the cores (measured on 2 cores: 32 x 128x64x128 took 87-550
     * ms, against ~1 ms of arithmetic). Here a batch of at least {@link Parallel#numThreads()} matrices is spread over
     * Java workers, one matrix per call; a smaller batch splits each product into row (or column) blocks instead, one
     * single-threaded GEMM per block, which for large matrices keeps within noise of OpenBLAS's own two-thread GEMM
     * (see docs/benchmarks.md) and leaves no spinning pool behind. Nested inside another parallel region (a Java
     * worker), {@link Parallel#forRange} runs serially, and the single-thread section still keeps OpenBLAS from
     * oversubscribing.
     */
    private static void blas(
            DType dtype, long batch, int m, int n, int k, Scalar alpha, Scalar beta, Tensor a, Tensor b, Tensor c) {
        BlasMatrix x = BlasMatrix.of(a), y = BlasMatrix.of(b);
        Gemm gemm =
                new Gemm(dtype, m, n, k, alpha, beta, x, y, c.impl().storage().segment(), c.storageOffset());
        long work = (long) m * n * k;
        if (work * batch < PARALLEL_MIN_WORK) {
            for (long i = 0; i < batch; i++) gemm.block(i, 0, m, 0, n);
            return;
        }
        OpenBlas.singleThreaded(() -> {
            if (batch >= Parallel.numThreads()) {
                long grain = Math.ceilDiv(PARALLEL_MIN_WORK, work);
                Parallel.forRange(batch, grain, (from, to) -> {
                    for (long i = from; i < to; i++) gemm.block(i, 0, m, 0, n);
                });
            } else if (m >= n || m >= ROWS_PER_BLOCK * Parallel.numThreads()) {
                long grain = Math.ceilDiv(PARALLEL_MIN_WORK, (long) n * k);
                for (long i = 0; i < batch; i++) {
                    long matrix = i;
                    Parallel.forRange(m, grain, (r0, r1) -> gemm.block(matrix, (int) r0, (int) r1, 0, n));
                }
            } else {
                long grain = Math.ceilDiv(PARALLEL_MIN_WORK, (long) m * k);
                for (long i = 0; i < batch; i++) {
                    long matrix = i;
                    Parallel.forRange(n, grain, (c0, c1) -> gemm.block(matrix, 0, m, (int) c0, (int) c1));
                }
            }
        });
    }

    /** One product of the batch, {@code C[i] = alpha op(A[i]) op(B[i]) + beta C[i]}, callable per block of C. */
    private record Gemm(
            DType dtype,
            int m,
            int n,
            int k,
            Scalar alpha,
            Scalar beta,
            BlasMatrix x,
            BlasMatrix y,
            MemorySegment cs,
            long cOffset) {

        /**
         * Rows {@code [r0, r1)} and columns {@code [c0, c1)} of {@code C[i]}: the matching rows of op(A), columns of
         * op(B).
         */
        void block(long i, int r0, int r1, int c0, int c1) {
            // op(A) row r is stored at r * ld (as is) or at column r (transposed); op(B) column c likewise.
            long xo = x.offset() + i * x.batchStride() + (x.op() == Transpose.NONE ? (long) r0 * x.ld() : r0);
            long yo = y.offset() + i * y.batchStride() + (y.op() == Transpose.NONE ? c0 : (long) c0 * y.ld());
            long co = cOffset + i * m * (long) n + (long) r0 * n + c0;
            int rows = r1 - r0, cols = c1 - c0;
            switch (dtype) {
                case FLOAT32 ->
                    OpenBlas.sgemm(
                            x.op(),
                            y.op(),
                            rows,
                            cols,
                            k,
                            (float) alpha.doubleValue(),
                            x.data(),
                            xo,
                            x.ld(),
                            y.data(),
                            yo,
                            y.ld(),
                            (float) beta.doubleValue(),
                            cs,
                            co,
                            n);
                case FLOAT64 ->
                    OpenBlas.dgemm(
                            x.op(),
                            y.op(),
                            rows,
                            cols,
                            k,
                            alpha.doubleValue(),
                            x.data(),
                            xo,
                            x.ld(),
                            y.data(),
                            yo,
                            y.ld(),
                            beta.doubleValue(),
                            cs,
                            co,
                            n);
                case COMPLEX64 ->
                    OpenBlas.cgemm(
                            x.op(),
                            y.op(),
                            rows,
                            cols,
                            k,
                            (float) alpha.doubleValue(),
                            (float) alpha.imag(),
                            x.data(),
                            xo,
                            x.ld(),
                            y.data(),
                            yo,
                            y.ld(),
                            (float) beta.doubleValue(),
                            (float) beta.imag(),
                            cs,
                            co,
                            n);
                default ->
                    OpenBlas.zgemm(
                            x.op(),
                            y.op(),
                            rows,
                            cols,
                            k,
                            alpha.doubleValue(),
                            alpha.imag(),
                            x.data(),
                            xo,
                            x.ld(),
                            y.data(),
                            yo,
                            y.ld(),
                            beta.doubleValue(),
                            beta.imag(),
                            cs,
                            co,
                            n);
            }
        }
    }
}
