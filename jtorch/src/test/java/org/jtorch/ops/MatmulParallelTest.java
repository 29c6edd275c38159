package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.kernels.blas.OpenBlas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The products large enough for {@link MatmulKernels} to split them over Java workers with single-threaded OpenBLAS
 * calls (batch-parallel, row blocks, column blocks), against a naive loop, with operands as stored, transposed (strides
 * (1, ld)) and in float64; and the thread-count section.
 */
class MatmulParallelTest {

    /** {@code a} [B, m, k] times {@code b} [B, k, n] by the textbook triple loop, in double. */
    private static double[] naive(double[] a, double[] b, int batch, int m, int k, int n) {
        double[] c = new double[batch * m * n];
        for (int i = 0; i < batch; i++)
            for (int r = 0; r < m; r++)
                for (int col = 0; col < n; col++) {
                    double s = 0;
                    for (int p = 0; p < k; p++) s += a[(i * m + r) * k + p] * b[(i * k + p) * n + col];
                    c[(i * m + r) * n + col] = s;
                }
        return c;
    }

    private static void assertClose(double[] expected, Tensor actual, double tol) {
        double[] got = actual.contiguous().toDoubleArray();
        assertEquals(expected.length, got.length);
        for (int i = 0; i < got.length; i++) {
            assertEquals(expected[i], got[i], tol * (1 + Math.abs(expected[i])), "element " + i);
        }
    }

    // batch >= threads: one matrix per call, spread over workers; batch 1: row blocks (m >= n) or column blocks.
    @ParameterizedTest
    @CsvSource({"3, 70, 60, 80", "1, 600, 70, 40", "1, 40, 70, 600", "2, 1, 300, 1000", "1, 2000, 300, 1"})
    void batchedProductsAboveTheSplitThresholdMatchANaiveLoop(int batch, int m, int k, int n) {
        Torch.manualSeed(7);
        for (DType dtype : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            Tensor a = Torch.randn(new long[] {batch, m, k}, dtype), b = Torch.randn(new long[] {batch, k, n}, dtype);
            double[] expected = naive(a.toDoubleArray(), b.toDoubleArray(), batch, m, k, n);
            double tol = dtype == DType.FLOAT32 ? 1e-4 : 1e-12;
            assertClose(expected, a.bmm(b), tol);
            // Transposed storage: BLAS reads these with op = TRANSPOSE, so block offsets move along columns.
            Tensor at = a.transpose(1, 2).contiguous().transpose(1, 2),
                    bt = b.transpose(1, 2).contiguous().transpose(1, 2);
            assertClose(expected, at.bmm(bt), tol);
            assertClose(expected, at.bmm(b), tol);
        }
    }

    @Test
    void matmulOfLargeMatricesSplitsIntoBlocksAndStillAddsTheBias() {
        Torch.manualSeed(3);
        int m = 300, k = 200, n = 500;
        Tensor a = Torch.randn(m, k), b = Torch.randn(k, n), bias = Torch.randn(n);
        double[] expected = naive(a.toDoubleArray(), b.toDoubleArray(), 1, m, k, n);
        double[] biasValues = bias.toDoubleArray();
        for (int r = 0; r < m; r++)
            for (int c = 0; c < n; c++) expected[r * n + c] = 0.5 * biasValues[c] + 2 * expected[r * n + c];
        assertClose(expected, Torch.addmm(bias, a, b, 0.5, 2), 1e-4);
    }

    @Test
    void singleThreadedSectionsNestAndRestoreTheThreadCount() {
        int before = OpenBlas.numThreads();
        try {
            OpenBlas.setNumThreads(2);
            OpenBlas.singleThreaded(() -> {
                assertEquals(1, OpenBlas.numThreads());
                OpenBlas.singleThreaded(() -> assertEquals(1, OpenBlas.numThreads()));
                assertEquals(1, OpenBlas.numThreads()); // the inner section's end must not restore
                OpenBlas.setNumThreads(3); // deferred to the end of the outermost section
                assertEquals(1, OpenBlas.numThreads());
            });
            assertEquals(3, OpenBlas.numThreads());
            assertThrows(
                    IllegalStateException.class,
                    () -> OpenBlas.singleThreaded(() -> {
                        throw new IllegalStateException("body failed");
                    }));
            assertEquals(3, OpenBlas.numThreads()); // restored after a failing body too
        } finally {
            OpenBlas.setNumThreads(before);
        }
    }
}
