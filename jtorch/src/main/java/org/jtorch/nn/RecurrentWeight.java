package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.kernels.cpu.JavaGemm;

/**
 * A weight {@code W (out, in)} a recurrent layer multiplies by once per time step: {@code weight_hh} (and
 * {@code weight_hr}) in forward, {@code C = beta·C + A·Wᵀ}, and in backward, {@code C = beta·C + A·W}, with {@code A} a
 * step's few rows of state or gate gradients.
 *
 * <p>On float32 with 512-bit vectors these products go straight to {@link JavaGemm}'s panel kernel, with the right
 * operand ({@code Wᵀ} or {@code W}) packed into the kernel's panels once per layer call ({@link JavaGemm#packFloat}),
 * not once per step. A step's product has few rows (16 per thread at batch 32), below the 128 from which the
 * matrix-product op routes float32 to that kernel, and there OpenBLAS's AVX2 kernel ran at 44-50 GFLOPS on one thread
 * against 118-125 for the panel kernel (16 x 256 x 1024 both ways, measured on the AVX-512 machine of
 * docs/benchmarks.md). Other dtypes and machines keep the matrix-product op ({@code addmm_}), whatever it routes to.
 * Like the gate kernels, the panel path writes the layer's own buffers in place without version bumps: they are saved
 * for backward only once forward has filled them.
 */
final class RecurrentWeight {
    private static final Scalar ONE = Scalar.of(1.0);
    private static final Scalar ZERO = Scalar.of(0.0);

    /** The right operand: {@code Wᵀ} or {@code W}. */
    private final Tensor operand;
    /** The operand packed for the panel kernel, or null where the products go through {@code addmm_}. */
    private final JavaGemm.PackedFloat packed;

    /** For products with {@code Wᵀ} ({@code transposed}, forward) or with {@code W} (backward). */
    RecurrentWeight(Tensor weight, boolean transposed) {
        this.operand = transposed ? weight.t() : weight;
        boolean panels = weight.dtype() == DType.FLOAT32 && JavaGemm.hasWideFloatVectors();
        this.packed = panels
                ? JavaGemm.packFloat(
                        matrix(operand), Math.toIntExact(operand.size(0)), Math.toIntExact(operand.size(1)))
                : null;
    }

    /** {@code c = beta·c + a·Wᵀ} or {@code a·W}; {@code beta} is 0 (c is not read) or 1. */
    void multiply(Tensor c, Tensor a, int beta) {
        if (packed == null) {
            c.addmm_(a, operand, beta, 1);
            return;
        }
        JavaGemm.gemmPacked(Math.toIntExact(a.size(0)), ONE, beta == 0 ? ZERO : ONE, matrix(a), packed, matrix(c));
    }

    private static JavaGemm.Operand matrix(Tensor t) {
        return new JavaGemm.Operand(
                t.impl().storage().segment(), t.dtype(), t.storageOffset(), 0, t.stride(0), t.stride(1));
    }
}
