package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.TorchException;
import org.jtorch.kernels.blas.FloatGemm;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.Parallel;

/**
 * A batch of native GEMMs {@code C[i] = alpha·op(A[i])·op(B[i]) + beta·C[i]} on row-major operands, cut into a fixed
 * set of blocks of C that Java's workers share, with the library single-threaded: float32 through {@link FloatGemm}
 * (oneDNN, else OpenBLAS), the other dtypes through OpenBLAS. Matrix products (except the float32 shapes
 * {@link MatmulKernels} gives JTorch's own kernel) and the convolution's GEMMs run through it.
 *
 * <p>Why Java's parallelism: the bundled OpenBLAS threads every call above 64³ itself, so a {@code bmm} of 32
 * attention-sized products became 32 hand-offs to its pool, and its idle workers spin ~0.1 s after each threaded call,
 * competing with JTorch's own parallel loops for the cores (measured on 2 cores: 32 x 128x64x128 took 87-550 ms,
 * against ~1 ms of arithmetic). Blocks of one product keep within noise of OpenBLAS's own two-thread GEMM for large
 * matrices (see docs/benchmarks.md) and leave no spinning pool behind.
 *
 * <p>Why a fixed plan: OpenBLAS computes an element in a full register tile and one in a remainder tile at the edge of
 * a call with different instruction sequences, whose roundings differ; cutting C where the thread count says would make
 * the bits depend on it (measured: 114 of 300 random float32/float64 products differed between 1 and 2 threads). The
 * blocks here depend only on the shapes and on the machine's processor count, never on {@link Parallel#numThreads()} or
 * on concurrent callers, so every thread count gives the same bits (deterministic mode's promise).
 *
 * @param dtype float32, float64, complex64 or complex128
 * @param m rows of C
 * @param n columns of C
 * @param k the contraction (at least 1)
 */
record BlockedGemm(
        DType dtype,
        int m,
        int n,
        int k,
        Scalar alpha,
        Scalar beta,
        Operand a,
        Operand b,
        MemorySegment c,
        long cOffset,
        long cBatchStride,
        int ldc) {

    /** One row-major operand of the batch: storage, first element, batch stride, op and leading dimension. */
    record Operand(MemorySegment data, long offset, long batchStride, Transpose op, int ld) {}

    /**
     * Multiply-adds below which a product stays one call on the caller's thread: OpenBLAS's own threshold for threading
     * a GEMM ({@code SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD} = 64³), so such calls never wake its threads
     * anyway, and a Java fork (~1 µs) would cost more than it saves. Also the least work of one block.
     */
    static final long PARALLEL_MIN_WORK = 1L << 18;

    /**
     * Rows of C per block from which a product is cut by rows even when it has more columns. Row blocks of C are
     * contiguous, so the elementwise ops that follow (which split contiguous ranges the same way) find their part in
     * the cache of the thread that wrote it; column blocks interleave the threads' writes in every row. With fewer
     * rows, each block would repack all of op(B) for a thin slice of C, so columns are cut instead. Measured on the MLP
     * step's weight gradient (256 x 784, k = 64), alternating in one process: 409-429 µs per step by rows against
     * 420-442 µs by columns.
     */
    private static final int ROWS_PER_BLOCK = 64;

    /** Blocks start at multiples of this many rows or columns, a multiple of every OpenBLAS x86 register tile. */
    private static final int BLOCK_ALIGN = 48;

    /**
     * The most blocks one product is cut into: the processors the JVM was given, fixed for the process (unlike the
     * thread count a program may change), so a product's blocks are the same whatever the thread count.
     */
    private static final int MAX_BLOCKS = Math.max(1, Runtime.getRuntime().availableProcessors());

    /** Runs the {@code batch} products. */
    void run(long batch) {
        long work = (long) m * n * k;
        if (work * batch < PARALLEL_MIN_WORK) {
            for (long i = 0; i < batch; i++) block(i, 0, m, 0, n);
            return;
        }
        int blocks = (int) Math.min(MAX_BLOCKS, Math.max(1, work / PARALLEL_MIN_WORK));
        boolean byRows = m >= n || m >= ROWS_PER_BLOCK * blocks;
        int extent = byRows ? m : n;
        int step = Math.min(extent, roundUp(Math.ceilDiv(extent, blocks), BLOCK_ALIGN));
        int perMatrix = Math.ceilDiv(extent, step);
        long blockWork = work / perMatrix;
        OpenBlas.singleThreaded(
                () -> Parallel.forRange(batch * perMatrix, Math.ceilDiv(PARALLEL_MIN_WORK, blockWork), (t0, t1) -> {
                    for (long t = t0; t < t1; t++) {
                        long matrix = t / perMatrix;
                        int lo = (int) (t % perMatrix) * step, hi = Math.min(extent, lo + step);
                        if (byRows) block(matrix, lo, hi, 0, n);
                        else block(matrix, 0, m, lo, hi);
                    }
                }));
    }

    private static int roundUp(int value, int multiple) {
        return Math.ceilDiv(value, multiple) * multiple;
    }

    /**
     * Rows {@code [r0, r1)} and columns {@code [c0, c1)} of {@code C[i]}: the matching rows of op(A), columns of op(B).
     */
    private void block(long i, int r0, int r1, int c0, int c1) {
        // op(A) row r is stored at r * ld (as is) or at column r (transposed); op(B) column c likewise.
        long ao = a.offset() + i * a.batchStride() + (a.op() == Transpose.NONE ? (long) r0 * a.ld() : r0);
        long bo = b.offset() + i * b.batchStride() + (b.op() == Transpose.NONE ? c0 : (long) c0 * b.ld());
        long co = cOffset + i * cBatchStride + (long) r0 * ldc + c0;
        int rows = r1 - r0, cols = c1 - c0;
        switch (dtype) {
            case FLOAT32 ->
                FloatGemm.sgemm(
                        a.op(),
                        b.op(),
                        rows,
                        cols,
                        k,
                        (float) alpha.doubleValue(),
                        a.data(),
                        ao,
                        a.ld(),
                        b.data(),
                        bo,
                        b.ld(),
                        (float) beta.doubleValue(),
                        c,
                        co,
                        ldc);
            case FLOAT64 ->
                OpenBlas.dgemm(
                        a.op(),
                        b.op(),
                        rows,
                        cols,
                        k,
                        alpha.doubleValue(),
                        a.data(),
                        ao,
                        a.ld(),
                        b.data(),
                        bo,
                        b.ld(),
                        beta.doubleValue(),
                        c,
                        co,
                        ldc);
            case COMPLEX64 ->
                OpenBlas.cgemm(
                        a.op(),
                        b.op(),
                        rows,
                        cols,
                        k,
                        (float) alpha.doubleValue(),
                        (float) alpha.imag(),
                        a.data(),
                        ao,
                        a.ld(),
                        b.data(),
                        bo,
                        b.ld(),
                        (float) beta.doubleValue(),
                        (float) beta.imag(),
                        c,
                        co,
                        ldc);
            case COMPLEX128 ->
                OpenBlas.zgemm(
                        a.op(),
                        b.op(),
                        rows,
                        cols,
                        k,
                        alpha.doubleValue(),
                        alpha.imag(),
                        a.data(),
                        ao,
                        a.ld(),
                        b.data(),
                        bo,
                        b.ld(),
                        beta.doubleValue(),
                        beta.imag(),
                        c,
                        co,
                        ldc);
            default -> throw new TorchException("BlockedGemm: " + dtype + " is not a BLAS dtype");
        }
    }
}
