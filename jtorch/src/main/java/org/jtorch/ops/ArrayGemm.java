package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.kernels.blas.FloatGemm;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.JavaGemm;

/**
 * One row-major GEMM on {@code float[]} or {@code double[]} operands, {@code C = op(A)·op(B)} or {@code C +=
 * op(A)·op(B)}, computed on the calling thread: by OpenBLAS when it is loaded, else by {@link JavaGemm}. For kernels
 * that spread many cache-sized products over Java's workers themselves and call this inside {@link #singleThreaded}.
 */
final class ArrayGemm {
    private ArrayGemm() {}

    /** A row-major matrix in an array: first element, rows {@code ld} apart, stored transposed when {@code t}. */
    record Operand(Object array, int offset, int ld, boolean t) {}

    /** Runs {@code body} with OpenBLAS single-threaded (the caller brings the parallelism), or as it is without it. */
    static void singleThreaded(Runnable body) {
        if (OpenBlas.isAvailable()) OpenBlas.singleThreaded(body);
        else body.run();
    }

    /** {@code C = op(A)·op(B)} (or {@code C += } when {@code accumulate}) with C m × n and the contraction k. */
    static void gemm(int m, int n, int k, Operand a, Operand b, boolean accumulate, Object c, int co, int ldc) {
        if (m == 0 || n == 0) return;
        MemorySegment as = segment(a.array()), bs = segment(b.array()), cs = segment(c);
        if (OpenBlas.isAvailable()) {
            Transpose ta = a.t() ? Transpose.TRANSPOSE : Transpose.NONE,
                    tb = b.t() ? Transpose.TRANSPOSE : Transpose.NONE;
            if (c instanceof float[]) {
                FloatGemm.sgemm(
                        ta,
                        tb,
                        m,
                        n,
                        k,
                        1f,
                        as,
                        a.offset(),
                        a.ld(),
                        bs,
                        b.offset(),
                        b.ld(),
                        accumulate ? 1f : 0f,
                        cs,
                        co,
                        ldc);
            } else {
                OpenBlas.dgemm(
                        ta,
                        tb,
                        m,
                        n,
                        k,
                        1,
                        as,
                        a.offset(),
                        a.ld(),
                        bs,
                        b.offset(),
                        b.ld(),
                        accumulate ? 1 : 0,
                        cs,
                        co,
                        ldc);
            }
            return;
        }
        DType ct = c instanceof float[] ? DType.FLOAT32 : DType.FLOAT64;
        JavaGemm.gemm(
                1,
                m,
                n,
                k,
                Scalar.of(1L),
                Scalar.of(accumulate ? 1L : 0L),
                operand(ct, as, a),
                operand(ct, bs, b),
                new JavaGemm.Operand(cs, ct, co, 0, ldc, 1),
                false);
    }

    private static JavaGemm.Operand operand(DType ct, MemorySegment seg, Operand m) {
        return m.t()
                ? new JavaGemm.Operand(seg, ct, m.offset(), 0, 1, m.ld())
                : new JavaGemm.Operand(seg, ct, m.offset(), 0, m.ld(), 1);
    }

    private static MemorySegment segment(Object array) {
        return array instanceof float[] f ? MemorySegment.ofArray(f) : MemorySegment.ofArray((double[]) array);
    }
}
