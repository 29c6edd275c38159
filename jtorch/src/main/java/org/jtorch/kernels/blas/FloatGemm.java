package org.jtorch.kernels.blas;

import java.lang.foreign.MemorySegment;
import org.jtorch.TorchException;
import org.jtorch.kernels.blas.OpenBlas.Transpose;

/**
 * The float32 GEMM of JTorch's products: {@link OneDnn#sgemm} when oneDNN loads, else {@link OpenBlas#sgemm}. Both run
 * on the calling thread inside JTorch's own parallel blocks. {@code -Djtorch.sgemm=openblas} (or {@code onednn}, the
 * default) picks one, for comparing the two; the choice is made once per process, so a product's bits never depend on
 * which library a call happened to reach.
 */
public final class FloatGemm {
    private FloatGemm() {}

    private static final boolean ONEDNN = chooseOneDnn();

    private static boolean chooseOneDnn() {
        String choice = System.getProperty("jtorch.sgemm", "onednn");
        return switch (choice) {
            case "onednn" -> OneDnn.isAvailable();
            case "openblas" -> false;
            default -> throw new TorchException("-Djtorch.sgemm=" + choice + ": expected onednn or openblas");
        };
    }

    /** The library in use: {@code "oneDNN"} or {@code "OpenBLAS"}. */
    public static String library() {
        return ONEDNN ? "oneDNN" : "OpenBLAS";
    }

    /** {@link OpenBlas#sgemm}'s contract, computed by {@link #library()}. */
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
        if (ONEDNN) {
            OneDnn.sgemm(
                    transA,
                    transB,
                    m,
                    n,
                    k,
                    alpha,
                    a,
                    aOffsetElems,
                    lda,
                    b,
                    bOffsetElems,
                    ldb,
                    beta,
                    c,
                    cOffsetElems,
                    ldc);
        } else {
            OpenBlas.sgemm(
                    transA,
                    transB,
                    m,
                    n,
                    k,
                    alpha,
                    a,
                    aOffsetElems,
                    lda,
                    b,
                    bOffsetElems,
                    ldb,
                    beta,
                    c,
                    cOffsetElems,
                    ldc);
        }
    }
}
