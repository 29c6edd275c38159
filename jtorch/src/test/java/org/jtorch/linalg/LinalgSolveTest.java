package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Values of the solvers, factorizations and matrix functions against fixtures from scipy (matrix_exp:
 * scipy.linalg.expm) and PyTorch 2.13 (the rest; unchanged in 2.15), against closed forms and the spec's worked
 * examples, plus shapes of empty and meta inputs and the errors of bad input.
 */
class LinalgSolveTest {
    private static final String FIXTURES = "linalg_solve.json";

    private static Tensor m(double[][] rows) {
        return Torch.tensor(rows);
    }

    private static void close(double[] expected, Tensor got, double tol) {
        double[] g = got.toDoubleArray();
        assertEquals(expected.length, g.length, "element count");
        for (int i = 0; i < g.length; i++) {
            assertTrue(
                    Math.abs(expected[i] - g[i]) <= tol,
                    "at " + i + ": expected " + expected[i] + ", got " + g[i] + " (tol " + tol + ")");
        }
    }

    private static void close(Tensor expected, Tensor got, double tol) {
        assertArrayEquals(expected.shape(), got.shape(), "shape");
        close(expected.toDoubleArray(), got, tol);
    }

    private static Tensor expected(Golden.Case c) {
        return (Tensor) Golden.decode(c.out());
    }

    private static Tensor expected(Golden.Case c, int i) {
        return (Tensor) ((List<?>) Golden.decode(c.out())).get(i);
    }

    // ---------------------------------------------------------------- fixtures

    @TestFactory
    Stream<DynamicTest> matrixExpMatchesScipyExpm() {
        return Golden.cases(FIXTURES).stream()
                .filter(c -> c.op().equals("matrix_exp"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor a = c.tensorArg(0);
                    Tensor e = Linalg.matrixExp(a);
                    assertEquals(a.dtype(), e.dtype());
                    close(expected(c), e, Golden.number(c.kwarg("tol")));
                    // a transposed view of the transposed input gives the same result
                    Tensor t = a.mT().contiguous().mT();
                    close(expected(c), Linalg.matrixExp(t), Golden.number(c.kwarg("tol")));
                }));
    }

    @TestFactory
    Stream<DynamicTest> eigvalsMatchPyTorch() {
        return Golden.cases(FIXTURES).stream()
                .filter(c -> c.op().equals("eigvals"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor a = c.tensorArg(0);
                    Tensor l = Linalg.eigvals(a);
                    // LAPACK's order is the same routine's here, but compare as sorted multisets to stay robust
                    assertEquals(sortedPairs(expected(c)), sortedPairs(l, 1e-10));
                    Eig eig = Linalg.eig(a);
                    close(l.toDoubleArray(), eig.eigenvalues(), 1e-10);
                    // A V = V diag(L), unit-norm columns
                    Tensor ac = a.to(DType.COMPLEX128);
                    Tensor lhs = ac.matmul(eig.eigenvectors()),
                            rhs = eig.eigenvectors().mul(eig.eigenvalues().unsqueeze(-2));
                    close(rhs.toDoubleArray(), lhs, 1e-10);
                    Tensor norms = eig.eigenvectors().abs().square().sum(-2);
                    close(Torch.onesLike(norms).toDoubleArray(), norms, 1e-12);
                }));
    }

    private static List<String> sortedPairs(Tensor t) {
        return sortedPairs(t, 1e-10);
    }

    private static List<String> sortedPairs(Tensor t, double round) {
        double[] d = t.toDoubleArray();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < d.length; i += 2)
            out.add(String.format("%.8f%+.8fi", d[i] + 0.0, Math.abs(d[i + 1]) < round ? 0.0 : d[i + 1]));
        out.sort(null);
        return out;
    }

    @TestFactory
    Stream<DynamicTest> luMatchesPyTorch() {
        return Golden.cases(FIXTURES).stream()
                .filter(c -> c.op().startsWith("lu"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor a = c.tensorArg(0);
                    switch (c.op()) {
                        case "lu" -> {
                            Lu r = Linalg.lu(a);
                            close(expected(c, 0), r.p(), 0);
                            close(expected(c, 1), r.l(), 1e-12);
                            close(expected(c, 2), r.u(), 1e-12);
                        }
                        case "lu_factor" -> {
                            LuFactor r = Linalg.luFactor(a);
                            close(expected(c, 0), r.lu(), 1e-12);
                            assertEquals(DType.INT32, r.pivots().dtype());
                            close(expected(c, 1), r.pivots(), 0);
                        }
                        case "lu_factor_ex" -> {
                            LuFactorEx r = Linalg.luFactorEx(a);
                            close(expected(c, 0), r.lu(), 1e-12);
                            close(expected(c, 1), r.pivots(), 0);
                            close(expected(c, 2), r.info(), 0);
                        }
                        default -> throw new AssertionError(c.op());
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> solversAndCompositesMatchPyTorch() {
        List<String> ops = List.of("solve_triangular", "matrix_power", "cross", "vecdot", "multi_dot");
        return Golden.cases(FIXTURES).stream()
                .filter(c -> ops.contains(c.op()))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor got =
                            switch (c.op()) {
                                case "solve_triangular" ->
                                    Linalg.solveTriangular(
                                            c.tensorArg(0),
                                            c.tensorArg(1),
                                            (Boolean) c.kwarg("upper"),
                                            (Boolean) c.kwarg("left"),
                                            (Boolean) c.kwarg("unitriangular"));
                                case "matrix_power" ->
                                    Linalg.matrixPower(c.tensorArg(0), ((Number) c.kwarg("n")).longValue());
                                case "cross" ->
                                    Linalg.cross(c.tensorArg(0), c.tensorArg(1), ((Number) c.kwarg("dim")).longValue());
                                case "vecdot" ->
                                    Linalg.vecdot(
                                            c.tensorArg(0), c.tensorArg(1), ((Number) c.kwarg("dim")).longValue());
                                case "multi_dot" -> {
                                    List<Tensor> ts = new ArrayList<>();
                                    for (int i = 0; i < c.argCount(); i++) ts.add(c.tensorArg(i));
                                    yield Linalg.multiDot(ts);
                                }
                                default -> throw new AssertionError(c.op());
                            };
                    close(expected(c), got, 1e-10);
                }));
    }

    @TestFactory
    Stream<DynamicTest> householderProductAndLstsqMatchPyTorch() {
        return Golden.cases(FIXTURES).stream()
                .filter(c -> c.op().equals("householder_product") || c.op().equals("lstsq"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    if (c.op().equals("householder_product")) {
                        close(expected(c), Linalg.householderProduct(c.tensorArg(0), c.tensorArg(1)), 1e-12);
                        return;
                    }
                    Lstsq r = Linalg.lstsq(c.tensorArg(0), c.tensorArg(1), null, (String) c.kwarg("driver"));
                    close(expected(c, 0), r.solution(), 1e-10);
                    close(expected(c, 1), r.residuals(), 1e-10);
                    close(expected(c, 2), r.rank(), 0);
                    assertEquals(DType.INT64, r.rank().dtype());
                    close(expected(c, 3), r.singularValues(), 1e-12);
                }));
    }

    @Test
    void householderProductIsOrthonormalAndChecksItsArguments() {
        Torch.manualSeed(7);
        Tensor a = Torch.randn(new long[] {2, 5, 3}, DType.FLOAT64).mT().mT(),
                tau = Torch.rand(new long[] {2, 2}, DType.FLOAT64);
        // tau_i = 2 / |v_i|^2 makes each reflector orthogonal, hence Q^T Q = I
        Tensor v = a.tril(-1).add(Torch.eye(5, 3, DType.FLOAT64, Device.CPU)).narrow(-1, 0, 2);
        tau = v.square().sum(-2).reciprocal().mul(2.0);
        Tensor q = Linalg.householderProduct(a, tau);
        Tensor eye = Torch.eye(3, 3, DType.FLOAT64, Device.CPU).expand(2, 3, 3).contiguous();
        close(eye.toDoubleArray(), q.mT().matmul(q), 1e-13);
        TorchException e =
                assertThrows(TorchException.class, () -> Linalg.householderProduct(Torch.zeros(2, 3), Torch.zeros(2)));
        assertTrue(
                e.getMessage().contains("input.shape[-2] must be greater than or equal to input.shape[-1]"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.householderProduct(Torch.zeros(3, 2), Torch.zeros(3)));
        assertTrue(
                e.getMessage().contains("input.shape[-1] must be greater than or equal to tau.shape[-1]"),
                e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.householderProduct(Torch.zeros(3, 2), Torch.zeros(new long[] {2}, DType.FLOAT64)));
        assertTrue(e.getMessage().contains("tau dtype Double does not match input dtype Float"), e.getMessage());
        assertArrayEquals(
                new long[] {0, 4, 2},
                Linalg.householderProduct(Torch.zeros(0, 4, 2), Torch.zeros(0, 2))
                        .shape());
    }

    @Test
    void lstsqShapesDefaultsAndErrors() {
        Torch.manualSeed(8);
        Tensor a = Torch.randn(new long[] {3, 6, 2}, DType.FLOAT32), b = Torch.randn(new long[] {6, 4}, DType.FLOAT32);
        Lstsq r = Linalg.lstsq(a, b);
        assertArrayEquals(new long[] {3, 2, 4}, r.solution().shape());
        assertArrayEquals(new long[] {0}, r.residuals().shape()); // gelsy: never
        assertArrayEquals(new long[] {3}, r.rank().shape());
        assertArrayEquals(new long[] {0}, r.singularValues().shape());
        // the solution satisfies the normal equations A^T (A X - B) = 0
        Tensor normal = a.mT().matmul(a.matmul(r.solution()).sub(b));
        close(new double[(int) normal.numel()], normal, 2e-4);
        Lstsq gels = Linalg.lstsq(a, b, null, "gels");
        assertArrayEquals(new long[] {3, 4}, gels.residuals().shape());
        assertArrayEquals(new long[] {0}, gels.rank().shape());
        Lstsq meta = Linalg.lstsq(
                Torch.empty(new long[] {5, 3}, DType.COMPLEX64, Device.META),
                Torch.empty(new long[] {5}, DType.COMPLEX64, Device.META),
                null,
                "gelsd");
        assertArrayEquals(new long[] {3}, meta.solution().shape());
        assertArrayEquals(new long[] {1}, meta.residuals().shape());
        assertEquals(DType.FLOAT32, meta.singularValues().dtype());
        TorchException e = assertThrows(TorchException.class, () -> Linalg.lstsq(Torch.zeros(2, 3), Torch.zeros(3, 1)));
        assertTrue(
                e.getMessage().contains("torch.linalg.lstsq: input.size(-2) should match other.size(-2)"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.lstsq(Torch.zeros(3, 2), Torch.zeros(3, 1), null, "foo"));
        assertTrue(
                e.getMessage().contains("parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"),
                e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.lstsq(Torch.zeros(3, 2), Torch.zeros(new long[] {3, 1}, DType.FLOAT64)));
        assertTrue(e.getMessage().contains("Expected input and other to have the same dtype"), e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.lstsq(
                        m(new double[][] {{1, 0}, {2, 0}, {3, 0}}), m(new double[][] {{1}, {1}, {1}}), null, "gels"));
        assertTrue(e.getMessage().contains("does not have full rank"), e.getMessage());
        double[] nan = Linalg.lstsq(
                        m(new double[][] {{1, Double.NaN}, {2, 4}, {3, 6}}), m(new double[][] {{1}, {1}, {1}}))
                .solution()
                .toDoubleArray();
        for (double x : nan) assertTrue(Double.isNaN(x));
    }

    // ---------------------------------------------------------------- matrix_exp: spec and closed forms

    @Test
    void matrixExpSpecExamples() {
        // 1: rotation by 0.04 takes the degree-8 path; the fixed x7 makes it exact to round-off
        double th = 0.04;
        close(
                new double[] {Math.cos(th), -Math.sin(th), Math.sin(th), Math.cos(th)},
                Linalg.matrixExp(m(new double[][] {{0, -th}, {th, 0}})),
                2e-15);
        double t32 = 0.5;
        Tensor r32 = Linalg.matrixExp(Torch.tensor(new float[][] {{0, -0.5f}, {0.5f, 0}}));
        assertEquals(DType.FLOAT32, r32.dtype());
        close(new double[] {Math.cos(t32), -Math.sin(t32), Math.sin(t32), Math.cos(t32)}, r32, 3e-7);
        // 2: nilpotent; 3: diagonal; 4: [[1,2],[-1,3]] and the half turn
        close(new double[] {1, 1, 0, 1}, Linalg.matrixExp(m(new double[][] {{0, 1}, {0, 0}})), 0);
        close(new double[] {Math.E, 0, 0, Math.exp(2)}, Linalg.matrixExp(m(new double[][] {{1, 0}, {0, 2}})), 1e-14);
        close(
                new double[] {-2.2253522639, 12.4353526247, -6.2176763124, 10.2100003608},
                Linalg.matrixExp(m(new double[][] {{1, 2}, {-1, 3}})),
                1e-9);
        close(new double[] {-1, 0, 0, -1}, Linalg.matrixExp(m(new double[][] {{0, -Math.PI}, {Math.PI, 0}})), 2e-15);
    }

    @Test
    void torchAndTensorAliases() {
        Tensor a = m(new double[][] {{0.1, 0.2}, {0.3, 0.4}});
        close(Linalg.matrixExp(a).toDoubleArray(), Torch.matrixExp(a), 0);
        close(Linalg.matrixExp(a).toDoubleArray(), a.matrixExp(), 0);
        close(a.matmul(a).matmul(a).toDoubleArray(), Torch.matrixPower(a, 3), 1e-15);
        close(a.matmul(a).toDoubleArray(), a.matrixPower(2), 1e-15);
    }

    @Test
    void matrixExpOfEachTaylorDegreeIsARotation() {
        // exp([[0, -t], [t, 0]]) = [[cos t, -sin t], [sin t, cos t]]; the norm t picks the degree (1, 2, 4, 8, 12, 18)
        for (double t : new double[] {1e-17, 1e-9, 1e-5, 0.02, 0.2, 0.9, 5, 123.4}) {
            Tensor r = Linalg.matrixExp(m(new double[][] {{0, -t}, {t, 0}}));
            double tol = 4e-16 * Math.max(1, t);
            close(new double[] {Math.cos(t), -Math.sin(t), Math.sin(t), Math.cos(t)}, r, tol);
        }
    }

    @Test
    void matrixExpOfComplexDiagonalIsElementwise() {
        Tensor d = Torch.complex(Torch.tensor(new double[] {0.3, -2}), Torch.tensor(new double[] {1.5, 40}));
        Tensor e = Linalg.matrixExp(d.diagEmbed());
        assertEquals(DType.COMPLEX128, e.dtype());
        double[] g = e.toDoubleArray();
        assertEquals(Math.exp(0.3) * Math.cos(1.5), g[0], 1e-13);
        assertEquals(Math.exp(0.3) * Math.sin(1.5), g[1], 1e-13);
        assertEquals(Math.exp(-2) * Math.cos(40), g[6], 1e-13);
        assertEquals(Math.exp(-2) * Math.sin(40), g[7], 1e-13);
        assertEquals(0, g[2], 0);
    }

    @Test
    void matrixExpOfNanOrInfinityIsNanWithoutHanging() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
            double[] got =
                    Linalg.matrixExp(m(new double[][] {{1, bad}, {0, 1}})).toDoubleArray();
            for (double v : got) assertTrue(Double.isNaN(v));
        }
        // huge but finite: finishes (about a thousand squarings) and overflows, as the same algorithm does in PyTorch
        double[] huge =
                Linalg.matrixExp(m(new double[][] {{1e300, 0}, {0, -1e300}})).toDoubleArray();
        assertTrue(!Double.isFinite(huge[0]));
    }

    @Test
    void matrixExpShapesEmptyAndMeta() {
        assertArrayEquals(
                new long[] {2, 0, 0}, Linalg.matrixExp(Torch.zeros(2, 0, 0)).shape());
        assertArrayEquals(
                new long[] {0, 3, 3}, Linalg.matrixExp(Torch.zeros(0, 3, 3)).shape());
        Tensor meta = Torch.empty(new long[] {4, 5, 5}, DType.COMPLEX64, Device.META);
        Tensor r = Linalg.matrixExp(meta);
        assertEquals(Device.META, r.device());
        assertEquals(DType.COMPLEX64, r.dtype());
        assertArrayEquals(new long[] {4, 5, 5}, r.shape());
    }

    @Test
    void matrixExpRefusesBadInput() {
        TorchException e = assertThrows(TorchException.class, () -> Linalg.matrixExp(Torch.zeros(2, 3)));
        assertTrue(
                e.getMessage().contains("linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.matrixExp(Torch.zeros(3)));
        assertTrue(e.getMessage().contains("at least 2 dimensions"), e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.matrixExp(Torch.zeros(new long[] {2, 2}, DType.INT64)));
        assertTrue(
                e.getMessage().contains("Expected a floating point or complex tensor as input. Got Long"),
                e.getMessage());
    }

    // ---------------------------------------------------------------- eig

    @Test
    void eigSpecExamples() {
        Tensor l = Linalg.eigvals(m(new double[][] {{1, 2}, {3, 4}}));
        assertEquals(DType.COMPLEX128, l.dtype());
        double r = Math.sqrt(33);
        close(new double[] {(5 - r) / 2, 0, (5 + r) / 2, 0}, l, 1e-12);
        // conjugate pair, positive imaginary part first (LAPACK dgeev)
        close(new double[] {0, 1, 0, -1}, Linalg.eigvals(m(new double[][] {{0, -1}, {1, 0}})), 1e-15);
        close(new double[] {2, 0, 3, 0}, Linalg.eigvals(m(new double[][] {{2, 0}, {0, 3}})), 0);
        assertEquals(
                DType.COMPLEX64,
                Linalg.eigvals(Torch.tensor(new float[][] {{1, 2}, {3, 4}})).dtype());
    }

    @Test
    void eigOfRealRotationPairsConjugateEigenvectors() {
        Eig e = Linalg.eig(m(new double[][] {{0, -1}, {1, 0}}));
        double[] v = e.eigenvectors().toDoubleArray();
        // columns are conjugates of each other
        assertEquals(v[0], v[2], 1e-15);
        assertEquals(v[1], -v[3], 1e-15);
        assertEquals(v[4], v[6], 1e-15);
        assertEquals(v[5], -v[7], 1e-15);
    }

    @Test
    void eigBatchedNonContiguousAndNonFinite() {
        Torch.manualSeed(3);
        Tensor a = Torch.randn(new long[] {3, 4, 4}, DType.FLOAT64).mT();
        Tensor l = Linalg.eigvals(a);
        for (int b = 0; b < 3; b++) {
            Tensor single = Linalg.eigvals(a.select(0, b).contiguous());
            close(single.toDoubleArray(), l.select(0, b), 1e-12);
        }
        double[] nan =
                Linalg.eigvals(m(new double[][] {{1, Double.NaN}, {0, 1}})).toDoubleArray();
        for (double x : nan) assertTrue(Double.isNaN(x));
        assertArrayEquals(
                new long[] {2, 0}, Linalg.eigvals(Torch.zeros(2, 0, 0)).shape());
        TorchException e = assertThrows(TorchException.class, () -> Linalg.eig(Torch.zeros(2, 3)));
        assertTrue(e.getMessage().contains("linalg.eig: A must be batches of square matrices"), e.getMessage());
    }

    // ---------------------------------------------------------------- LU family

    @Test
    void luReconstructsWideTallBatchedAndComplexInputs() {
        Torch.manualSeed(4);
        List<Tensor> inputs = List.of(
                Torch.randn(new long[] {3, 5}, DType.FLOAT64),
                Torch.randn(new long[] {5, 3}, DType.FLOAT64),
                Torch.randn(new long[] {2, 4, 4}, DType.FLOAT64).mT(),
                Torch.complex(
                        Torch.randn(new long[] {3, 3}, DType.FLOAT64), Torch.randn(new long[] {3, 3}, DType.FLOAT64)),
                Torch.randn(new long[] {4, 4}, DType.FLOAT32));
        for (Tensor a : inputs) {
            Lu f = Linalg.lu(a);
            double tol = a.dtype() == DType.FLOAT32 ? 1e-5 : 1e-12;
            close(a.toDoubleArray(), f.p().matmul(f.l()).matmul(f.u()), tol);
        }
    }

    @Test
    void luSolveAllSidesAndAdjoints() {
        Torch.manualSeed(5);
        Tensor a = Torch.randn(new long[] {2, 3, 3}, DType.FLOAT64)
                .add(Torch.eye(3, 3, DType.FLOAT64, Device.CPU).mul(3.0));
        Tensor b = Torch.randn(new long[] {3, 2}, DType.FLOAT64); // broadcast over a's batch
        LuFactor f = Linalg.luFactor(a);
        Tensor x = Linalg.luSolve(f.lu(), f.pivots(), b);
        close(b.expand(2, 3, 2).contiguous().toDoubleArray(), a.matmul(x), 1e-12);
        Tensor xa = Linalg.luSolve(f.lu(), f.pivots(), b, true, true);
        close(b.expand(2, 3, 2).contiguous().toDoubleArray(), a.mH().matmul(xa), 1e-12);
        Tensor br = b.mT();
        Tensor xr = Linalg.luSolve(f.lu(), f.pivots(), br, false, false);
        close(br.expand(2, 2, 3).contiguous().toDoubleArray(), xr.matmul(a), 1e-12);
        Tensor xra = Linalg.luSolve(f.lu(), f.pivots(), br, false, true);
        close(br.expand(2, 2, 3).contiguous().toDoubleArray(), xra.matmul(a.mH()), 1e-12);
        // complex, conjugate transpose
        Tensor z = Torch.complex(
                Torch.randn(new long[] {3, 3}, DType.FLOAT64), Torch.randn(new long[] {3, 3}, DType.FLOAT64));
        Tensor zb = Torch.complex(
                Torch.randn(new long[] {3, 1}, DType.FLOAT64), Torch.randn(new long[] {3, 1}, DType.FLOAT64));
        LuFactor zf = Linalg.luFactor(z);
        close(zb.toDoubleArray(), z.mH().matmul(Linalg.luSolve(zf.lu(), zf.pivots(), zb, true, true)), 1e-12);
        close(
                zb.mH().toDoubleArray(),
                Linalg.luSolve(zf.lu(), zf.pivots(), zb.mH(), false, false).matmul(z),
                1e-12);
    }

    @Test
    void singularInputsToTheLuFamily() {
        Tensor s = m(new double[][] {{1, 2}, {2, 4}});
        TorchException e = assertThrows(TorchException.class, () -> Linalg.luFactor(s));
        assertTrue(e.getMessage().contains("torch.linalg.lu_factor: U[2,2] is zero"), e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.luFactor(Torch.stack(List.of(Torch.eye(2).to(DType.FLOAT64), s))));
        assertTrue(e.getMessage().contains("(Batch element 1): U[2,2] is zero"), e.getMessage());
        assertEquals(2, Linalg.luFactorEx(s).info().longItem());
        e = assertThrows(TorchException.class, () -> Linalg.luFactorEx(s, true, true));
        assertTrue(e.getMessage().contains("torch.linalg.lu_factor_ex: U[2,2] is zero"), e.getMessage());
        // lu never raises for singular input; lu_solve with singular factors gives non-finite values, as LAPACK does
        Lu f = Linalg.lu(s);
        close(s.toDoubleArray(), f.p().matmul(f.l()).matmul(f.u()), 0);
        LuFactorEx fx = Linalg.luFactorEx(s);
        double[] x = Linalg.luSolve(fx.lu(), fx.pivots(), m(new double[][] {{1}, {1}}))
                .toDoubleArray();
        assertTrue(Arrays.stream(x).anyMatch(v -> !Double.isFinite(v)));
        // NaN input: factors with NaN, no crash
        assertTrue(Double.isNaN(Linalg.luFactorEx(m(new double[][] {{Double.NaN, 1}, {1, 1}}))
                .lu()
                .sum()
                .item()));
    }

    @Test
    void luSolveRefusesPivotsOutOfRangeBeforeLapack() {
        Tensor lu = Torch.eye(3).to(DType.FLOAT64);
        Tensor bad = Torch.tensor(new int[] {1, 7, 3}).to(DType.INT32);
        TorchException e = assertThrows(
                TorchException.class,
                () -> Linalg.luSolve(lu, bad, Torch.ones(3, 1).to(DType.FLOAT64)));
        assertTrue(
                e.getMessage().contains("linalg.lu_solve: pivots must be 1-based row indices in [1, 3], got 7"),
                e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.luSolve(
                        lu, Torch.tensor(new long[] {1, 2, 3}), Torch.ones(3, 1).to(DType.FLOAT64)));
        assertTrue(e.getMessage().contains("pivots should be a Tensor of scalar type torch.int32"), e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.luSolve(
                        lu,
                        Torch.tensor(new int[] {1, 2, 3}).to(DType.INT32),
                        Torch.ones(2, 2).to(DType.FLOAT64)));
        assertTrue(
                e.getMessage()
                        .contains("linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B "
                                + "(3x3 and 2x2)"),
                e.getMessage());
    }

    @Test
    void luShapesEmptyMetaAndErrors() {
        Lu f = Linalg.lu(Torch.empty(new long[] {2, 3, 5}, DType.FLOAT32, Device.META));
        assertArrayEquals(new long[] {2, 3, 3}, f.p().shape());
        assertArrayEquals(new long[] {2, 3, 3}, f.l().shape());
        assertArrayEquals(new long[] {2, 3, 5}, f.u().shape());
        LuFactorEx fx = Linalg.luFactorEx(Torch.zeros(4, 0, 2));
        assertArrayEquals(new long[] {4, 0}, fx.pivots().shape());
        assertArrayEquals(new long[] {4}, fx.info().shape());
        TorchException e = assertThrows(TorchException.class, () -> Linalg.luFactor(Torch.zeros(3)));
        assertTrue(
                e.getMessage()
                        .contains("torch.linalg.lu_factor: Expected tensor with 2 or more dimensions. Got "
                                + "size: [3] instead"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.lu(Torch.zeros(2, 2), false));
        assertTrue(e.getMessage().contains("LU without pivoting is not implemented on the CPU"), e.getMessage());
    }

    // ---------------------------------------------------------------- solve_triangular

    @Test
    void solveTriangularBroadcastsAndReadsOnlyItsTriangle() {
        Torch.manualSeed(6);
        Tensor full = Torch.randn(new long[] {2, 1, 3, 3}, DType.FLOAT64)
                .add(Torch.eye(3, 3, DType.FLOAT64, Device.CPU).mul(4.0));
        Tensor b = Torch.randn(new long[] {5, 3, 2}, DType.FLOAT64);
        Tensor x = Linalg.solveTriangular(full, b, true);
        assertArrayEquals(new long[] {2, 5, 3, 2}, x.shape());
        close(b.expand(2, 5, 3, 2).contiguous().toDoubleArray(), full.triu().matmul(x), 1e-12);
        // unitriangular ignores the diagonal
        Tensor xu = Linalg.solveTriangular(full, b, false, true, true);
        Tensor unitLower = full.tril(-1).add(Torch.eye(3, 3, DType.FLOAT64, Device.CPU));
        close(b.expand(2, 5, 3, 2).contiguous().toDoubleArray(), unitLower.matmul(xu), 1e-12);
        // a zero diagonal gives inf/nan like BLAS trsm, no error
        double[] z = Linalg.solveTriangular(m(new double[][] {{0, 1}, {0, 1}}), m(new double[][] {{1}, {1}}), true)
                .toDoubleArray();
        assertTrue(Arrays.stream(z).anyMatch(v -> !Double.isFinite(v)));
        TorchException e = assertThrows(
                TorchException.class, () -> Linalg.solveTriangular(Torch.zeros(3, 3), Torch.zeros(2, 2), true));
        assertTrue(
                e.getMessage()
                        .contains("linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                                + "AX = B (3x3 and 2x2)"),
                e.getMessage());
        e = assertThrows(
                TorchException.class, () -> Linalg.solveTriangular(Torch.zeros(2, 3), Torch.zeros(2, 2), true));
        assertTrue(
                e.getMessage()
                        .contains("linalg.solve_triangular: A must be batches of square matrices, "
                                + "but they are 2 by 3 matrices"),
                e.getMessage());
        // B of another dtype is converted to A's (PyTorch 2.13); an A without a trsm kernel is refused
        Tensor mixed = Linalg.solveTriangular(Torch.eye(2), Torch.ones(new long[] {2, 2}, DType.FLOAT64), true);
        assertEquals(DType.FLOAT32, mixed.dtype());
        e = assertThrows(
                TorchException.class,
                () -> Linalg.solveTriangular(Torch.eye(2).to(DType.INT64), Torch.ones(2, 2), true));
        assertTrue(e.getMessage().contains("\"triangular_solve_cpu\" not implemented for 'Long'"), e.getMessage());
    }

    // ---------------------------------------------------------------- composites

    @Test
    void matrixPowerIntegerNegativeAndSingular() {
        Tensor a = Torch.tensor(new long[] {1, 1, 1, 0}).view(2, 2); // Fibonacci
        assertArrayEquals(new long[] {89, 55, 55, 34}, Linalg.matrixPower(a, 10).toLongArray());
        assertArrayEquals(new long[] {1, 0, 0, 1}, Linalg.matrixPower(a, 0).toLongArray());
        close(new double[] {0.6, -0.7, -0.2, 0.4}, Linalg.matrixPower(m(new double[][] {{4, 7}, {2, 6}}), -1), 1e-15);
        TorchException e =
                assertThrows(TorchException.class, () -> Linalg.matrixPower(m(new double[][] {{1, 2}, {2, 4}}), -2));
        assertTrue(e.getMessage().contains("linalg.inv: The diagonal element 2 is zero"), e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.matrixPower(a, -1));
        assertTrue(
                e.getMessage().contains("Expected a floating point or complex tensor as input. Got Long"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.matrixPower(Torch.zeros(2, 3), 2));
        assertTrue(
                e.getMessage().contains("linalg.matrix_power: A must be batches of square matrices"), e.getMessage());
    }

    @Test
    void crossVecdotMultiDotClosedFormsAndErrors() {
        close(
                new double[] {0, 0, 1},
                Linalg.cross(Torch.tensor(new double[] {1, 0, 0}), Torch.tensor(new double[] {0, 1, 0})),
                0);
        TorchException e = assertThrows(TorchException.class, () -> Linalg.cross(Torch.zeros(2, 2), Torch.zeros(2, 2)));
        assertTrue(
                e.getMessage().contains("linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"),
                e.getMessage());
        // vecdot conjugates x: <i, i> = 1
        Tensor i = Torch.complex(Torch.tensor(new double[] {0}), Torch.tensor(new double[] {1}));
        close(new double[] {1, 0}, Linalg.vecdot(i, i), 0);
        e = assertThrows(
                TorchException.class, () -> Linalg.vecdot(Torch.zeros(2), Torch.zeros(new long[] {2}, DType.FLOAT64)));
        assertTrue(e.getMessage().contains("linalg.vecdot: Expected x and y to have the same dtype"), e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.multiDot(Torch.zeros(2, 3)));
        assertTrue(e.getMessage().contains("multi_dot(): expected at least 2 tensors but got 1"), e.getMessage());
        e = assertThrows(TorchException.class, () -> Linalg.multiDot(Torch.zeros(2, 3), Torch.zeros(4, 5)));
        assertTrue(
                e.getMessage()
                        .contains("multi_dot(): tensors 0 and 1 with shapes [2, 3] and [4, 5] cannot be multiplied"),
                e.getMessage());
        e = assertThrows(
                TorchException.class, () -> Linalg.multiDot(Torch.zeros(2, 3), Torch.zeros(3), Torch.zeros(3, 2)));
        assertTrue(e.getMessage().contains("multi_dot(): tensor 1 must be 2D but got 1D"), e.getMessage());
        // two vectors: a scalar
        assertArrayEquals(
                new long[] {}, Linalg.multiDot(Torch.ones(3), Torch.ones(3)).shape());
    }
}
