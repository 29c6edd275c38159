package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.LinAlgException;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Values of the decompositions: PyTorch 1.13 / scipy fixtures (make_golden_linalg.py), the worked examples of
 * spec/linalg.md, and defining identities (A Q = Q diag(L), U^H U = I, Q R = A) where the result is unique only up to
 * phase.
 */
class LinalgDecompositionTest {
    private static Tensor m(double[][] v) {
        return Torch.tensor(v);
    }

    private static void close(double[] expected, Tensor actual, double tol) {
        double[] a = actual.toDoubleArray();
        assertEquals(expected.length, a.length, "numel");
        for (int i = 0; i < a.length; i++) assertEquals(expected[i], a[i], tol, "element " + i);
    }

    /** Element-wise closeness of two tensors, complex parts included. */
    private static void close(Tensor expected, Tensor actual, double tol) {
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        if (expected.isComplex()) {
            close(Torch.viewAsReal(expected.contiguous()).toDoubleArray(), Torch.viewAsReal(actual.contiguous()), tol);
        } else {
            close(expected.toDoubleArray(), actual, tol);
        }
    }

    private static Tensor eye(long n, DType dtype) {
        return Torch.eye(n, n, dtype, Device.CPU);
    }

    @SuppressWarnings("unchecked")
    private static Tensor arg(Golden.Case c, int i) {
        return Golden.tensor((Map<String, Object>) c.args().get(i));
    }

    @SuppressWarnings("unchecked")
    private static Tensor out(Golden.Case c, int i) {
        Object o = c.out();
        return Golden.tensor((Map<String, Object>) (o instanceof List<?> l ? l.get(i) : o));
    }

    @TestFactory
    List<DynamicTest> goldenFixtures() {
        return Golden.cases("linalg.json").stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor a = arg(c, 0);
                    double tol = 1e-10;
                    switch (c.op()) {
                        case "cholesky" -> close(out(c, 0), Linalg.cholesky(a), tol);
                        case "cholesky_upper" -> close(out(c, 0), Linalg.cholesky(a, true), tol);
                        case "eigvalsh" -> close(out(c, 0), Linalg.eigvalsh(a), tol);
                        case "matrix_sqrth" -> close(out(c, 0), Linalg.matrixSqrth(a), 1e-9);
                        case "inv" -> close(out(c, 0), Linalg.inv(a), tol);
                        case "det" -> close(out(c, 0), Linalg.det(a), 1e-8);
                        case "slogdet" -> {
                            Slogdet s = Linalg.slogdet(a);
                            close(out(c, 0), s.sign(), tol);
                            close(out(c, 1), s.logabsdet(), tol);
                        }
                        case "solve" -> close(out(c, 0), Linalg.solve(a, arg(c, 1)), tol);
                        case "svdvals" -> close(out(c, 0), Linalg.svdvals(a), tol);
                        case "qr_reduced", "qr_complete", "qr_r" -> {
                            QR qr = Linalg.qr(
                                    a, QrMode.valueOf(c.op().substring(3).toUpperCase(java.util.Locale.ROOT)));
                            close(out(c, 0), qr.q(), tol);
                            close(out(c, 1), qr.r(), tol);
                        }
                        case "polar" -> {
                            Polar p = Linalg.polar(a);
                            close(out(c, 0), p.u(), 1e-9);
                            close(out(c, 1), p.h(), 1e-9);
                        }
                        case "matrix_norm" ->
                            close(out(c, 0), matrixNorm(a, ord(c), new long[] {-2, -1}, false), 1e-10);
                        case "matrix_norm_dims" ->
                            close(out(c, 0), matrixNorm(a, ord(c), new long[] {0, 2}, true), 1e-10);
                        case "cond" -> {
                            Object p = ord(c);
                            Tensor r = p == null
                                    ? Linalg.cond(a)
                                    : p instanceof String str ? Linalg.cond(a, str) : Linalg.cond(a, (Double) p);
                            close(out(c, 0), r, 1e-9);
                        }
                        case "norm" -> close(out(c, 0), Linalg.norm(a), 1e-10);
                        case "norm_vector" -> close(out(c, 0), Linalg.norm(a, 3.0, new long[] {1}, false), 1e-10);
                        case "pinv" -> close(out(c, 0), Linalg.pinv(a), 1e-9);
                        case "pinv_hermitian" -> close(out(c, 0), Linalg.pinv(a, null, null, true), 1e-9);
                        case "matrix_rank" -> close(out(c, 0), Linalg.matrixRank(a), 0);
                        case "matrix_rank_hermitian" -> close(out(c, 0), Linalg.matrixRank(a, null, null, true), 0);
                        case "matrix_rank_atol" -> close(out(c, 0), Linalg.matrixRank(a, 1.0, 0.0, false), 0);
                        default -> throw new AssertionError("unknown op " + c.op());
                    }
                }))
                .toList();
    }

    /** The fixture's ord: null, a Double, or "fro"/"nuc" (numbers are written as their names, "inf" included). */
    private static Object ord(Golden.Case c) {
        Object o = c.kwargs().get("ord");
        if (o == null) return null;
        if (o instanceof Number n) return n.doubleValue();
        String s = (String) o;
        return switch (s) {
            case "fro", "nuc" -> s;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    private static Tensor matrixNorm(Tensor a, Object ord, long[] dim, boolean keepdim) {
        return ord instanceof String s
                ? Linalg.matrixNorm(a, s, dim, keepdim)
                : Linalg.matrixNorm(a, (Double) ord, dim, keepdim);
    }

    // ---- spec/linalg.md worked examples

    @Test
    void polarExamples() {
        Polar p = Linalg.polar(m(new double[][] {{1, -1}, {2, 4}}));
        close(new double[] {0.8574929257, -0.5144957554, 0.5144957554, 0.8574929257}, p.u(), 1e-10);
        close(new double[] {1.8864844366, 1.2004900960, 1.2004900960, 3.9444674583}, p.h(), 1e-10);
        p = Linalg.polar(m(new double[][] {{0, 2}, {3, 0}}));
        close(new double[] {0, 1, 1, 0}, p.u(), 1e-14);
        close(new double[] {3, 0, 0, 2}, p.h(), 1e-14);
        p = Linalg.polar(m(new double[][] {{3, 0}, {4, 0}, {0, 1}}));
        close(new double[] {0.6, 0, 0.8, 0, 0, 1}, p.u(), 1e-14);
        close(new double[] {5, 0, 0, 1}, p.h(), 1e-14);
        assertTrue(p.u().isContiguous() && p.h().isContiguous());
        // complex [[1j, 0], [0, 2]]: U = [[1j, 0], [0, 1]], H = diag(1, 2), still complex
        Tensor c = Torch.complex(m(new double[][] {{0, 0}, {0, 2}}), m(new double[][] {{1, 0}, {0, 0}}));
        p = Linalg.polar(c);
        assertEquals(DType.COMPLEX128, p.h().dtype());
        close(new double[] {0, 1, 0, 0, 0, 0, 1, 0}, Torch.viewAsReal(p.u()), 1e-14);
        close(new double[] {1, 0, 0, 0, 0, 0, 2, 0}, Torch.viewAsReal(p.h()), 1e-14);
        TorchException e = assertThrows(TorchException.class, () -> Linalg.polar(Torch.zeros(2, 3)));
        assertTrue(
                e.getMessage().contains("at least as many rows as columns")
                        && e.getMessage().contains("2 by 3"),
                e.getMessage());
        assertEquals(
                "linalg.polar: The input tensor A must have at least 2 dimensions.",
                assertThrows(TorchException.class, () -> Linalg.polar(Torch.zeros(3)))
                        .getMessage());
    }

    @Test
    void polarOfRankDeficientAndBatchedInput() {
        // rank 1: U is not unique; only the defining properties hold
        Tensor a = m(new double[][] {{1, 2}, {2, 4}, {3, 6}});
        Polar p = Linalg.polar(a);
        close(a.toDoubleArray(), p.u().matmul(p.h()), 1e-12);
        close(p.h().toDoubleArray(), p.h().mT(), 0);
        assertTrue(Linalg.eigvalsh(p.h()).toDoubleArray()[0] > -1e-12);
        Torch.manualSeed(3);
        Tensor batch = Torch.randn(new long[] {3, 4, 3}, DType.FLOAT32);
        p = Linalg.polar(batch);
        assertArrayEquals(new long[] {3, 4, 3}, p.u().shape());
        assertArrayEquals(new long[] {3, 3, 3}, p.h().shape());
        close(batch.toDoubleArray(), p.u().matmul(p.h()), 1e-5);
        close(
                eye(3, DType.FLOAT32).expand(3, 3, 3).contiguous().toDoubleArray(),
                p.u().mT().matmul(p.u()),
                1e-5);
        Polar empty = Linalg.polar(Torch.zeros(new long[] {2, 0, 0}, DType.FLOAT64));
        assertArrayEquals(new long[] {2, 0, 0}, empty.u().shape());
    }

    @Test
    void matrixSqrthExamples() {
        close(new double[] {Math.sqrt(2), 0, 0, 3}, Linalg.matrixSqrth(m(new double[][] {{2, 0}, {0, 9}})), 1e-14);
        close(new double[] {2, 1, 1, 2}, Linalg.matrixSqrth(m(new double[][] {{5, 4}, {4, 5}})), 1e-14);
        Tensor h = Torch.complex(m(new double[][] {{2, 0}, {0, 2}}), m(new double[][] {{0, 1}, {-1, 0}}));
        close(
                new double[] {1.3660254038, 0, 0, 0.3660254038, 0, -0.3660254038, 1.3660254038, 0},
                Torch.viewAsReal(Linalg.matrixSqrth(h)),
                1e-10);
        // non-PD: negative eigenvalues clamp to zero (spec, no error)
        close(new double[] {1, 0, 0, 0}, Linalg.matrixSqrth(m(new double[][] {{1, 0}, {0, -4}})), 1e-14);
        // only the lower triangle is read
        close(new double[] {2, 1, 1, 2}, Linalg.matrixSqrth(m(new double[][] {{5, 100}, {4, 5}})), 1e-14);
        assertEquals(
                0,
                Linalg.matrixSqrth(Torch.zeros(new long[] {3, 0, 0}, DType.FLOAT64))
                        .numel());
        assertTrue(assertThrows(TorchException.class, () -> Linalg.matrixSqrth(Torch.zeros(2, 3)))
                .getMessage()
                .contains("square matrices"));
    }

    @Test
    void matrixSqrthGradientExamples() {
        Tensor a = m(new double[][] {{4, 0}, {0, 9}}).requiresGrad(true);
        Linalg.matrixSqrth(a).sum().backward();
        close(new double[] {0.25, 0.2, 0.2, 1.0 / 6}, a.grad(), 1e-10);
        Tensor b = m(new double[][] {{5, 4}, {4, 5}}).requiresGrad(true);
        Linalg.matrixSqrth(b).sum().backward();
        close(new double[] {1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6}, b.grad(), 1e-10);
        // a repeated eigenvalue is fine: the Sylvester denominators are s_i + s_j, not differences
        Tensor c = eye(3, DType.FLOAT64).mul(4.0).requiresGrad(true);
        Linalg.matrixSqrth(c).sum().backward();
        close(Torch.ones(3, 3).mul(0.25).toDoubleArray(), c.grad(), 1e-12);
    }

    @Test
    void choleskyStopsAtTheFirstNanPivotAsReferenceLapackDoes() {
        // torch.linalg.cholesky_ex(A).info in PyTorch 2.13: OpenBLAS's potrf let NaN pivots pass with info 0
        double nan = Double.NaN;
        double[][][] inputs = {
            {{nan, nan, nan}, {nan, nan, nan}, {nan, nan, nan}},
            {{4, 2}, {2, nan}},
            {{4, nan}, {nan, 5}},
            {{nan, 0}, {0, 1}},
            {{1, 0, 0}, {0, 1, 0}, {0, 0, nan}}
        };
        int[] info = {1, 2, 2, 1, 3};
        for (int i = 0; i < inputs.length; i++) {
            Tensor a = m(inputs[i]);
            assertEquals(info[i], Linalg.choleskyEx(a).info().item(), "input " + i);
            assertEquals(
                    info[i], Linalg.choleskyEx(a.to(DType.COMPLEX128)).info().item(), "complex input " + i);
            LinAlgException e = assertThrows(LinAlgException.class, () -> Linalg.cholesky(a));
            assertEquals(
                    "linalg.cholesky: The factorization could not be completed because the input is not "
                            + "positive-definite (the leading minor of order " + info[i]
                            + " is not positive-definite).",
                    e.getMessage());
        }
        Tensor batch = Torch.stack(List.of(m(new double[][] {{4, 2}, {2, 3}}), m(inputs[3])), 0);
        LinAlgException e = assertThrows(LinAlgException.class, () -> Linalg.cholesky(batch));
        assertTrue(e.getMessage().startsWith("linalg.cholesky: (Batch element 1): "), e.getMessage());
    }

    @Test
    void choleskyAndQrExamples() {
        close(new double[] {2, 0, 1, Math.sqrt(2)}, Linalg.cholesky(m(new double[][] {{4, 2}, {2, 3}})), 1e-14);
        close(new double[] {2, 1, 0, Math.sqrt(2)}, Linalg.cholesky(m(new double[][] {{4, 2}, {2, 3}}), true), 1e-14);
        CholeskyEx ex = Linalg.choleskyEx(m(new double[][] {{1, 2}, {2, 1}}));
        assertEquals(DType.INT32, ex.info().dtype());
        assertEquals(2, ex.info().item());
        LinAlgException e = assertThrows(
                LinAlgException.class, () -> Linalg.choleskyEx(m(new double[][] {{1, 2}, {2, 1}}), false, true));
        assertTrue(e.getMessage().contains("the leading minor of order 2 is not positive-definite"), e.getMessage());
        QR qr = Linalg.qr(m(new double[][] {{3, 1}, {4, 2}}));
        close(new double[] {-0.6, -0.8, -0.8, 0.6}, qr.q(), 1e-14);
        close(new double[] {-5, -2.2, 0, 0.4}, qr.r(), 1e-14);
        Tensor a = m(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        qr = Linalg.qr(a);
        close(
                new double[] {-0.1690308509, 0.8970852271, -0.5070925528, 0.2760262237, -0.8451542547, -0.3450327797},
                qr.q(),
                1e-10);
        close(new double[] {-5.9160797831, -7.4373574416, 0, 0.8280786712}, qr.r(), 1e-10);
        qr = Linalg.qr(a, QrMode.COMPLETE);
        assertArrayEquals(new long[] {3, 3}, qr.q().shape());
        close(new double[] {0.4082482905, -0.8164965809, 0.4082482905}, qr.q().select(1, 2), 1e-10);
        close(new double[] {0, 0}, qr.r().select(0, 2), 0);
        qr = Linalg.qr(a, QrMode.R);
        assertArrayEquals(new long[] {0}, qr.q().shape());
        assertArrayEquals(new long[] {2, 2}, qr.r().shape());
    }

    @Test
    void eighAndSvdExamples() {
        Eigh e = Linalg.eigh(m(new double[][] {{2, 1}, {1, 2}}));
        close(new double[] {1, 3}, e.eigenvalues(), 1e-14);
        double[] q = e.eigenvectors().abs().toDoubleArray();
        for (double v : q) assertEquals(Math.sqrt(0.5), v, 1e-14);
        // UPLO: only the named triangle is read
        close(new double[] {1, 3}, Linalg.eigvalsh(m(new double[][] {{2, 1}, {-50, 2}}), "U"), 1e-14);
        assertEquals(
                "Expected UPLO argument to be 'L' or 'U', but got X",
                assertThrows(TorchException.class, () -> Linalg.eigh(m(new double[][] {{1}}), "X"))
                        .getMessage());
        Svd s = Linalg.svd(m(new double[][] {{3, 0}, {4, 5}}));
        close(new double[] {Math.sqrt(45), Math.sqrt(5)}, s.s(), 1e-14);
        close(new double[] {3, 0, 4, 5}, s.u().mul(s.s().unsqueeze(-2)).matmul(s.vh()), 1e-14);
        // full vs reduced shapes for a wide matrix
        Tensor wide = Torch.randn(new long[] {2, 3, 5}, DType.FLOAT64);
        Svd full = Linalg.svd(wide), reduced = Linalg.svd(wide, false);
        assertArrayEquals(new long[] {2, 3, 3}, full.u().shape());
        assertArrayEquals(new long[] {2, 5, 5}, full.vh().shape());
        assertArrayEquals(new long[] {2, 3, 5}, reduced.vh().shape());
        close(wide.toDoubleArray(), reduced.u().mul(reduced.s().unsqueeze(-2)).matmul(reduced.vh()), 1e-12);
        close(
                eye(5, DType.FLOAT64).expand(2, 5, 5).contiguous().toDoubleArray(),
                full.vh().matmul(full.vh().mT()),
                1e-12);
    }

    @Test
    void complexEighIsADecomposition() {
        Torch.manualSeed(5);
        Tensor x = Torch.complex(
                Torch.randn(new long[] {2, 4, 4}, DType.FLOAT64), Torch.randn(new long[] {2, 4, 4}, DType.FLOAT64));
        Tensor h = x.add(x.mH());
        Eigh e = Linalg.eigh(h);
        assertEquals(DType.FLOAT64, e.eigenvalues().dtype());
        Tensor v = e.eigenvectors();
        Tensor rebuilt = v.mul(e.eigenvalues().unsqueeze(-2)).matmul(v.mH());
        close(h, rebuilt, 1e-12);
        Svd s = Linalg.svd(x.to(DType.COMPLEX64), false);
        close(x.to(DType.COMPLEX64), s.u().mul(s.s().unsqueeze(-2)).matmul(s.vh()), 1e-5);
    }

    @Test
    void exVariantsReportInfoPerBatchElement() {
        Tensor batch = Torch.stack(List.of(m(new double[][] {{4, 7}, {2, 6}}), m(new double[][] {{1, 2}, {2, 4}})), 0);
        InvEx inv = Linalg.invEx(batch);
        close(new double[] {0, 2}, inv.info(), 0);
        close(new double[] {0.6, -0.7, -0.2, 0.4}, inv.inverse().select(0, 0), 1e-14);
        LinAlgException e = assertThrows(LinAlgException.class, () -> Linalg.inv(batch));
        assertTrue(
                e.getMessage().startsWith("linalg.inv: (Batch element 1): The diagonal element 2 is zero"),
                e.getMessage());
        SolveEx solve = Linalg.solveEx(batch, Torch.ones(new long[] {2, 2}, DType.FLOAT64));
        close(new double[] {0, 2}, solve.info(), 0);
        e = assertThrows(
                LinAlgException.class,
                () -> Linalg.solveEx(batch, Torch.ones(new long[] {2, 2}, DType.FLOAT64), true, true));
        assertTrue(
                e.getMessage().contains("(Batch element 1): The solver failed because the input matrix is singular"));
        Tensor spdThenIndefinite =
                Torch.stack(List.of(m(new double[][] {{4, 2}, {2, 3}}), m(new double[][] {{1, 2}, {2, 1}})), 0);
        CholeskyEx ch = Linalg.choleskyEx(spdThenIndefinite);
        assertEquals(0, ch.info().toDoubleArray()[0]);
        assertEquals(2, ch.info().toDoubleArray()[1]);
        // meta: shapes and dtypes only
        CholeskyEx meta = Linalg.choleskyEx(Torch.empty(new long[] {5, 3, 3}, DType.COMPLEX64, Device.META));
        assertArrayEquals(new long[] {5}, meta.info().shape());
        assertEquals(DType.INT32, meta.info().dtype());
    }

    @Test
    void complexDetSlogdetSolveInv() {
        // [[1+i, 2], [0, 3-i]]: det = (1+i)(3-i) = 4 + 2i
        Tensor a = Torch.complex(m(new double[][] {{1, 2}, {0, 3}}), m(new double[][] {{1, 0}, {0, -1}}));
        close(new double[] {4, 2}, Torch.viewAsReal(Linalg.det(a)), 1e-14);
        Slogdet s = Linalg.slogdet(a);
        assertEquals(DType.FLOAT64, s.logabsdet().dtype());
        assertEquals(Math.log(Math.hypot(4, 2)), s.logabsdet().item(), 1e-14);
        close(new double[] {4 / Math.hypot(4, 2), 2 / Math.hypot(4, 2)}, Torch.viewAsReal(s.sign()), 1e-14);
        Tensor inv = Linalg.inv(a);
        close(eye(2, DType.COMPLEX128), a.matmul(inv), 1e-14);
        Tensor b = Torch.complex(m(new double[][] {{1, 0}, {2, 1}}), m(new double[][] {{0, 1}, {1, 0}}));
        close(b, a.matmul(Linalg.solve(a, b)), 1e-14);
        close(b, Linalg.solve(a, b, false).matmul(a), 1e-14);
    }

    @Test
    void nonFiniteInputNeverHangs() {
        Tensor nan = m(new double[][] {{1, Double.NaN}, {Double.NaN, 2}});
        for (double v : Linalg.eigvalsh(nan).toDoubleArray()) assertTrue(Double.isNaN(v));
        LinAlgException e = assertThrows(LinAlgException.class, () -> Linalg.svd(nan));
        assertEquals(
                "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.",
                e.getMessage());
        assertThrows(
                LinAlgException.class, () -> Linalg.svdvals(m(new double[][] {{Double.POSITIVE_INFINITY, 0}, {0, 1}})));
        assertThrows(LinAlgException.class, () -> Linalg.polar(nan));
        assertTrue(Double.isNaN(Linalg.det(nan).item()));
        for (double v : Linalg.qr(nan).r().toDoubleArray()) assertTrue(Double.isNaN(v) || v == 0);
        for (double v : Linalg.matrixSqrth(nan).toDoubleArray()) assertTrue(Double.isNaN(v));
    }

    @Test
    void metaShapes() {
        Tensor a = Torch.empty(new long[] {2, 5, 3}, DType.COMPLEX128, Device.META);
        Svd s = Linalg.svd(a);
        assertArrayEquals(new long[] {2, 5, 5}, s.u().shape());
        assertArrayEquals(new long[] {2, 3}, s.s().shape());
        assertEquals(DType.FLOAT64, s.s().dtype());
        QR qr = Linalg.qr(a, QrMode.COMPLETE);
        assertArrayEquals(new long[] {2, 5, 5}, qr.q().shape());
        assertArrayEquals(new long[] {2, 5, 3}, qr.r().shape());
        Polar p = Linalg.polar(Torch.empty(new long[] {5, 3}, DType.FLOAT32, Device.META));
        assertArrayEquals(new long[] {3, 3}, p.h().shape());
        assertEquals(
                Device.META,
                Linalg.matrixSqrth(Torch.empty(new long[] {4, 4}, DType.FLOAT64, Device.META))
                        .device());
    }
}
