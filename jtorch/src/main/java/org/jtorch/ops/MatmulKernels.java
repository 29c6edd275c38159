package org.jtorch.ops;

import java.util.Locale;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.JavaGemm;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernel behind every matrix product of {@link MatmulOps}: {@code out = beta * bias + alpha * op(A) B} over a
 * batch of matrices, with arguments already validated by the meta rules.
 *
 * <p>Routing: float32, float64, complex64 and complex128 go to the native GEMMs of {@link BlockedGemm} (oneDNN for
 * float32, OpenBLAS for the rest) when OpenBLAS is loaded; every other dtype, and those four when OpenBLAS is absent,
 * goes to {@link JavaGemm}. So do the float32 shapes JavaGemm's AVX-512 panel kernel computes faster than an AVX2
 * OpenBLAS kernel (see {@link #javaPanelsFaster}). Empty contractions ({@code k == 0}) also go to JavaGemm, which
 * writes {@code beta * bias} (or zeros) without ever forming a leading dimension, so BLAS never sees a degenerate
 * matrix.
 *
 * <p>No operand is copied when BLAS can read it as it is: a matrix whose last two strides are {@code (ld, 1)} is passed
 * as is, one with strides {@code (1, ld)} is passed transposed, only other layouts (including broadcast, stride-0 ones)
 * are made contiguous first. Heap storage is handed to BLAS directly (OpenBLAS makes that a critical downcall).
 */
final class MatmulKernels {
    private MatmulKernels() {}

    private static final Scalar ZERO = Scalar.of(0L);

    /** OpenBLAS's core names whose GEMM kernels use 512-bit vectors. */
    private static final Set<String> AVX512_CORES = Set.of("skylakex", "cooperlake", "sapphirerapids");

    /** The machine has 512-bit float vectors and OpenBLAS runs a kernel written for 256-bit ones. */
    private static final boolean BLAS_KERNEL_NARROWER = JavaGemm.hasWideFloatVectors()
            && OpenBlas.isAvailable()
            && !AVX512_CORES.contains(OpenBlas.coreName().toLowerCase(Locale.ROOT));

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
        if (k > 0 && !conjugateA && blasDtype(dtype) && OpenBlas.isAvailable() && !javaPanelsFaster(dtype, m, n, k)) {
            new BlockedGemm(
                            dtype,
                            m,
                            n,
                            k,
                            alpha,
                            effectiveBeta,
                            blasOperand(a),
                            blasOperand(b),
                            c.impl().storage().segment(),
                            c.storageOffset(),
                            (long) m * n,
                            n)
                    .run(batch);
        } else {
            JavaGemm.gemm(batch, m, n, k, alpha, effectiveBeta, operand(a), operand(b), operand(c), conjugateA);
        }
        if (!direct) CopyOps.convert(target, out);
    }

    /**
     * Whether JavaGemm's float32 panel kernel, rather than OpenBLAS, computes a product: on machines with 512-bit float
     * vectors where OpenBLAS runs a 256-bit (AVX2) kernel — because it has no AVX-512 one for the processor, or because
     * {@code OPENBLAS_CORETYPE} chose one — for the shapes the panel kernel serves without tails or tiny blocks.
     * Measured on the AVX-512 machine of docs/benchmarks.md ({@code GptGemmsRun}, quiet, alternating): TrainGpt's
     * twelve products 11.4-12.2 ms against 14.4-15.3 ms with OpenBLAS's Haswell kernel; shapes the rule leaves out (64
     * rows, a contraction of 32, 65 columns) measured slower than OpenBLAS in development. OpenBLAS's AVX-512 kernels
     * stay ahead of it (8.4-10.2 ms for the twelve), so they keep every product. The rule depends on the machine and
     * the shape only, never on the thread count, so the bits do not either.
     */
    private static boolean javaPanelsFaster(DType dtype, int m, int n, int k) {
        return dtype == DType.FLOAT32 && BLAS_KERNEL_NARROWER && m >= 128 && k >= 64 && n >= 64 && n % 32 == 0;
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

    /** A batch of matrices {@code t} ([B, rows, cols]; sizes at least 1) as BLAS reads it. */
    private static BlockedGemm.Operand blasOperand(Tensor t) {
        long rows = t.size(1), cols = t.size(2);
        long[] st = t.impl().strideRef();
        // Strides of size-1 dims are irrelevant, hence the rows == 1 / cols == 1 escapes (as in ATen's addmm).
        if (st[2] == 1 && (rows == 1 || st[1] >= cols) && fitsInt(rows == 1 ? cols : st[1])) {
            return new BlockedGemm.Operand(t.impl().storage().segment(), t.storageOffset(), st[0], Transpose.NONE, (int)
                    (rows == 1 ? cols : st[1]));
        }
        if (st[1] == 1 && (cols == 1 || st[2] >= rows) && fitsInt(cols == 1 ? rows : st[2])) {
            return new BlockedGemm.Operand(
                    t.impl().storage().segment(), t.storageOffset(), st[0], Transpose.TRANSPOSE, (int)
                            (cols == 1 ? rows : st[2]));
        }
        Tensor dense = CopyOps.clone(t);
        return new BlockedGemm.Operand(
                dense.impl().storage().segment(), dense.storageOffset(), rows * cols, Transpose.NONE, (int) cols);
    }

    private static boolean fitsInt(long v) {
        return v <= Integer.MAX_VALUE;
    }
}
