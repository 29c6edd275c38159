package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.LinAlgException;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/**
 * Values of Linalg against the spec's worked examples and naive references written here, plus errors and meta shapes.
 */
class LinalgTest {
    private static Tensor m(double[][] v) {
        return Torch.tensor(v);
    }

    private static void close(double[] expected, Tensor got, double tol) {
        double[] g = got.toDoubleArray();
        assertEquals(expected.length, g.length, "element count");
        for (int i = 0; i < g.length; i++) assertEquals(expected[i], g[i], tol, "element " + i);
    }

    /** A random symmetric positive-definite n x n float64 matrix batch: X X^T + n I. */
    private static Tensor spd(long... shape) {
        Tensor x = Torch.randn(shape, DType.FLOAT64);
        long n = shape[shape.length - 1];
        return x.matmul(x.mT()).add(Torch.eye(n, n, DType.FLOAT64, Device.CPU).mul((double) n));
    }

    /** Naive Laplace expansion along the first row: an independent determinant. */
    private static double laplace(double[] a, int n) {
        if (n == 0) return 1;
        double sum = 0;
        for (int c = 0; c < n; c++) {
            double[] minor = new double[(n - 1) * (n - 1)];
            for (int i = 1, k = 0; i < n; i++) for (int j = 0; j < n; j++) if (j != c) minor[k++] = a[i * n + j];
            sum += (c % 2 == 0 ? 1 : -1) * a[c] * laplace(minor, n - 1);
        }
        return sum;
    }

    // ---------------------------------------------------------------- cholesky

    @Test
    void choleskySpecExample() {
        Tensor a = m(new double[][] {{4, 2}, {2, 3}});
        close(new double[] {2, 0, 1, Math.sqrt(2)}, Linalg.cholesky(a), 1e-15);
        close(new double[] {2, 1, 0, Math.sqrt(2)}, Linalg.cholesky(a, true), 1e-15);
    }

    @Test
    void choleskyReadsOnlyTheChosenTriangle() {
        Tensor lowerOnly = m(new double[][] {{4, 99}, {2, 3}});
        close(new double[] {2, 0, 1, Math.sqrt(2)}, Linalg.cholesky(lowerOnly), 1e-15);
        Tensor upperOnly = m(new double[][] {{4, 2}, {-99, 3}});
        close(new double[] {2, 1, 0, Math.sqrt(2)}, Linalg.cholesky(upperOnly, true), 1e-15);
    }

    @Test
    void choleskyReconstructsBatchedTransposedAndFloat32Inputs() {
        Torch.manualSeed(1);
        Tensor a = spd(3, 4, 4);
        Tensor l = Linalg.cholesky(a.mT()); // symmetric, so the transposed view is the same matrix
        assertTrue(l.isContiguous());
        close(a.toDoubleArray(), l.matmul(l.mT()), 1e-12);
        close(new double[(int) l.numel()], l.triu(1), 0); // lower triangular
        Tensor l32 = Linalg.cholesky(a.to(DType.FLOAT32));
        assertEquals(DType.FLOAT32, l32.dtype());
        close(l.toDoubleArray(), l32, 1e-5);
    }

    @Test
    void choleskyOfNonPositiveDefiniteNamesTheLeadingMinor() {
        TorchException e =
                assertThrows(LinAlgException.class, () -> Linalg.cholesky(m(new double[][] {{1, 2}, {2, 1}})));
        assertEquals(
                "linalg.cholesky: The factorization could not be completed because the input is not positive-definite"
                        + " (the leading minor of order 2 is not positive-definite).",
                e.getMessage());
        Tensor batch = Torch.stack(List.of(m(new double[][] {{4, 2}, {2, 3}}), m(new double[][] {{-1, 0}, {0, 1}})), 0);
        e = assertThrows(LinAlgException.class, () -> Linalg.cholesky(batch));
        assertTrue(e.getMessage().startsWith("linalg.cholesky: (Batch element 1): "), e.getMessage());
        assertTrue(e.getMessage().contains("leading minor of order 1"), e.getMessage());
    }

    // ---------------------------------------------------------------- inv and det

    @Test
    void invAndDetSpecExample() {
        Tensor a = m(new double[][] {{4, 7}, {2, 6}});
        close(new double[] {10}, Linalg.det(a), 1e-13);
        assertEquals(0, Linalg.det(a).dim());
        close(new double[] {0.6, -0.7, -0.2, 0.4}, Linalg.inv(a), 1e-15);
    }

    @Test
    void detMatchesLaplaceExpansionOnBatchedStridedInputs() {
        Torch.manualSeed(2);
        Tensor a = Torch.randn(new long[] {3, 4, 4, 4}, DType.FLOAT64)
                .transpose(0, 1)
                .mT(); // non-contiguous
        Tensor d = Linalg.det(a);
        assertArrayEquals(new long[] {4, 3}, d.shape());
        Tensor c = a.contiguous();
        double[] all = c.toDoubleArray(), expected = new double[12];
        for (int b = 0; b < 12; b++) expected[b] = laplace(Arrays.copyOfRange(all, b * 16, b * 16 + 16), 4);
        close(expected, d, 1e-12);
    }

    @Test
    void detSignFollowsRowSwaps() {
        close(new double[] {-1}, Linalg.det(m(new double[][] {{0, 1}, {1, 0}})), 0);
        close(new double[] {0}, Linalg.det(m(new double[][] {{1, 2}, {2, 4}})), 0);
        close(new double[] {-2}, Linalg.det(m(new double[][] {{1, 2}, {3, 4}}).to(DType.FLOAT32)), 1e-6);
    }

    @Test
    void invTimesInputIsIdentity() {
        Torch.manualSeed(3);
        Tensor a = Torch.randn(new long[] {5, 3, 3}, DType.FLOAT64).mT();
        Tensor product = Linalg.inv(a).matmul(a);
        close(
                Torch.eye(3, 3, DType.FLOAT64, Device.CPU)
                        .expand(5, 3, 3)
                        .contiguous()
                        .toDoubleArray(),
                product,
                1e-10);
    }

    @Test
    void singularInverseIsAnError() {
        TorchException e = assertThrows(LinAlgException.class, () -> Linalg.inv(m(new double[][] {{1, 2}, {2, 4}})));
        assertEquals(
                "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input"
                        + " matrix is singular.",
                e.getMessage());
    }

    @Test
    void emptyMatricesAndEmptyBatches() {
        Tensor none = Torch.empty(new long[] {2, 0, 0}, DType.FLOAT64, Device.CPU);
        assertArrayEquals(new long[] {2, 0, 0}, Linalg.cholesky(none).shape());
        assertArrayEquals(new long[] {2, 0, 0}, Linalg.inv(none).shape());
        close(new double[] {1, 1}, Linalg.det(none), 0); // the empty product
        Tensor noBatch = Torch.empty(new long[] {0, 3, 3}, DType.FLOAT32, Device.CPU);
        assertArrayEquals(new long[] {0}, Linalg.det(noBatch).shape());
        assertArrayEquals(new long[] {0, 3, 3}, Linalg.inv(noBatch).shape());
    }

    // ---------------------------------------------------------------- slogdet

    @Test
    void slogdetSpecExamples() {
        Slogdet swap = Linalg.slogdet(m(new double[][] {{0, 1}, {1, 0}}));
        close(new double[] {-1}, swap.sign(), 0);
        close(new double[] {0}, swap.logabsdet(), 0);
        Slogdet singular = Linalg.slogdet(m(new double[][] {{1, 2}, {2, 4}}));
        close(new double[] {0}, singular.sign(), 0);
        assertEquals(Double.NEGATIVE_INFINITY, singular.logabsdet().toDoubleArray()[0]);
    }

    @Test
    void slogdetAgreesWithDetAndDoesNotOverflow() {
        Torch.manualSeed(4);
        Tensor a = Torch.randn(new long[] {6, 3, 3}, DType.FLOAT64).mT();
        Slogdet r = Linalg.slogdet(a);
        double[] det = Linalg.det(a).toDoubleArray(),
                sign = r.sign().toDoubleArray(),
                log = r.logabsdet().toDoubleArray();
        for (int i = 0; i < det.length; i++) {
            assertEquals(Math.signum(det[i]), sign[i]);
            assertEquals(Math.log(Math.abs(det[i])), log[i], 1e-12);
        }
        // 1e3 * I of order 200: det = 1e600 overflows a double, its log does not
        Tensor big = Torch.eye(200, 200, DType.FLOAT64, Device.CPU).mul(1e3);
        close(new double[] {200 * Math.log(1e3)}, Linalg.slogdet(big).logabsdet(), 1e-9);
        Slogdet meta = Linalg.slogdet(Torch.empty(new long[] {4, 2, 2}, DType.FLOAT32, Device.META));
        assertArrayEquals(new long[] {4}, meta.sign().shape());
        assertEquals(DType.FLOAT32, meta.logabsdet().dtype());
    }

    // ---------------------------------------------------------------- solve

    @Test
    void solveSpecExampleAndVectorCase() {
        Tensor a = m(new double[][] {{3, 1}, {1, 2}});
        Tensor x = Linalg.solve(a, Torch.tensor(new double[] {9, 8}));
        assertArrayEquals(new long[] {2}, x.shape());
        close(new double[] {2, 3}, x, 1e-14);
        // the same right-hand side as a 2x1 matrix keeps its column
        Tensor col = Linalg.solve(a, m(new double[][] {{9}, {8}}));
        assertArrayEquals(new long[] {2, 1}, col.shape());
        close(new double[] {2, 3}, col, 1e-14);
    }

    @Test
    void solveBroadcastsBatchesAndMatchesInverse() {
        Torch.manualSeed(5);
        Tensor a = Torch.randn(new long[] {3, 1, 4, 4}, DType.FLOAT64)
                .add(Torch.eye(4, 4, DType.FLOAT64, Device.CPU).mul(4.0));
        Tensor b = Torch.randn(new long[] {2, 5, 4}, DType.FLOAT64).mT(); // (2, 4, 5), transposed view
        Tensor x = Linalg.solve(a, b);
        assertArrayEquals(new long[] {3, 2, 4, 5}, x.shape());
        close(Linalg.inv(a).matmul(b).contiguous().toDoubleArray(), x, 1e-12);
        close(b.expand(3, 2, 4, 5).contiguous().toDoubleArray(), a.matmul(x), 1e-12);
    }

    @Test
    void solveFromTheRight() {
        Torch.manualSeed(6);
        Tensor a = Torch.randn(new long[] {2, 3, 3}, DType.FLOAT64)
                .add(Torch.eye(3, 3, DType.FLOAT64, Device.CPU).mul(3.0));
        Tensor b = Torch.randn(new long[] {2, 4, 3}, DType.FLOAT64);
        Tensor x = Linalg.solve(a, b, false);
        assertArrayEquals(new long[] {2, 4, 3}, x.shape());
        close(b.toDoubleArray(), x.matmul(a), 1e-12);
        Tensor f32 = Linalg.solve(a.to(DType.FLOAT32), b.to(DType.FLOAT32), false);
        assertEquals(DType.FLOAT32, f32.dtype());
        close(x.toDoubleArray(), f32, 1e-4);
    }

    @Test
    void solveErrors() {
        Tensor a = m(new double[][] {{1, 2}, {2, 4}});
        assertEquals(
                "torch.linalg.solve: The solver failed because the input matrix is singular.",
                assertThrows(TorchException.class, () -> Linalg.solve(a, Torch.tensor(new double[] {1, 1})))
                        .getMessage());
        Tensor a3 = Torch.empty(new long[] {3, 3}, DType.FLOAT64, Device.META);
        assertEquals(
                "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x1)",
                assertThrows(
                                TorchException.class,
                                () -> Linalg.solve(a3, Torch.empty(new long[] {2, 1}, DType.FLOAT64, Device.META)))
                        .getMessage());
        assertTrue(assertThrows(
                        TorchException.class,
                        () -> Linalg.solve(a3, Torch.empty(new long[] {3, 1}, DType.FLOAT32, Device.META)))
                .getMessage()
                .contains("Expected A and B to have the same dtype"));
        Tensor x = Linalg.solve(a3, Torch.empty(new long[] {5, 3, 2}, DType.FLOAT64, Device.META));
        assertArrayEquals(new long[] {5, 3, 2}, x.shape());
    }

    // ---------------------------------------------------------------- meta and input errors

    @Test
    void metaGivesShapesAndDtypesOnly() {
        Tensor a = Torch.empty(new long[] {5, 2, 3, 3}, DType.FLOAT32, Device.META);
        Tensor l = Linalg.cholesky(a), i = Linalg.inv(a), d = Linalg.det(a);
        assertEquals(Device.META, l.device());
        assertArrayEquals(new long[] {5, 2, 3, 3}, l.shape());
        assertArrayEquals(new long[] {5, 2, 3, 3}, i.shape());
        assertArrayEquals(new long[] {5, 2}, d.shape());
        assertEquals(DType.FLOAT32, d.dtype());
    }

    @Test
    void shapeAndDtypeErrors() {
        Tensor vector = Torch.empty(new long[] {3}, DType.FLOAT64, Device.CPU);
        assertEquals(
                "linalg.cholesky: The input tensor A must have at least 2 dimensions.",
                assertThrows(TorchException.class, () -> Linalg.cholesky(vector))
                        .getMessage());
        Tensor wide = Torch.empty(new long[] {2, 3}, DType.FLOAT64, Device.META);
        assertEquals(
                "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices",
                assertThrows(TorchException.class, () -> Linalg.det(wide)).getMessage());
        Tensor ints = Torch.empty(new long[] {2, 2}, DType.INT64, Device.CPU);
        assertEquals(
                "linalg.inv: Expected a floating point or complex tensor as input. Got Long",
                assertThrows(TorchException.class, () -> Linalg.inv(ints)).getMessage());
        Tensor half = Torch.empty(new long[] {2, 2}, DType.FLOAT16, Device.CPU);
        assertTrue(assertThrows(TorchException.class, () -> Linalg.det(half))
                .getMessage()
                .contains("Low precision dtypes"));
        // complex input is supported: a zero complex matrix fails as not positive-definite, not on its dtype
        Tensor complex = Torch.zeros(new long[] {2, 2}, DType.COMPLEX128);
        assertThrows(LinAlgException.class, () -> Linalg.cholesky(complex));
    }
}
