package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.func.Func;
import org.jtorch.func.VmapOptions;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The linear-algebra dtype and shape gaps the differential run against PyTorch 2.13 found, against that PyTorch's
 * values (golden/linalg_solve.json, made by make_golden_linalg_solve.py): matrix_norm and norm in float16/bfloat16 (bit
 * for bit), matrix_exp in float16/bfloat16 (the exponential rounded to the dtype; PyTorch 2.13's own result is wrong
 * there, which each case records), solve_triangular with A and B of different dtypes (values, result dtype, gradients
 * in each input's dtype, PyTorch's refusals), and solve_ex's info shape (A's batch shape), also under vmap.
 */
class LinalgDtypeGapsTest {
    private static final String FIXTURES = "linalg_solve.json";

    private static Stream<Golden.Case> cases(String op) {
        List<Golden.Case> all =
                Golden.cases(FIXTURES).stream().filter(c -> c.op().equals(op)).toList();
        assertFalse(all.isEmpty(), "fixture has " + op + " cases");
        return all.stream();
    }

    private static Tensor expected(Golden.Case c, int i) {
        return (Tensor) ((List<?>) Golden.decode(c.out())).get(i);
    }

    /** Bit-for-bit equality of values (NaN equal to NaN), dtype and shape. */
    private static void assertBits(Tensor expected, Tensor got, String what) {
        assertEquals(expected.dtype(), got.dtype(), what + ": dtype");
        assertArrayEquals(expected.shape(), got.shape(), what + ": shape");
        double[] e = expected.toDoubleArray(), g = got.toDoubleArray();
        for (int i = 0; i < e.length; i++)
            assertEquals(0, Double.compare(e[i], g[i]), what + " at " + i + ": expected " + e[i] + ", got " + g[i]);
    }

    private static void assertClose(Tensor expected, Tensor got, double tol, String what) {
        assertEquals(expected.dtype(), got.dtype(), what + ": dtype");
        assertArrayEquals(expected.shape(), got.shape(), what + ": shape");
        double[] e = expected.toDoubleArray(), g = got.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertTrue(
                    Math.abs(e[i] - g[i]) <= tol * (1 + Math.abs(e[i])),
                    what + " at " + i + ": expected " + e[i] + ", got " + g[i]);
        }
    }

    // ---------------------------------------------------------------- matrix_norm / norm in float16, bfloat16

    private static Tensor matrixNorm(Golden.Case c) {
        Tensor a = c.tensorArg(0);
        long[] dim = c.has("dim")
                ? ((List<?>) c.kwarg("dim"))
                        .stream().mapToLong(o -> ((Number) o).longValue()).toArray()
                : new long[] {-2, -1};
        boolean keepdim = c.has("keepdim") && (Boolean) c.kwarg("keepdim");
        Object ord = c.kwarg("ord"); // "fro", "nuc", "1", ...; the fixture reader turns "inf" into a number
        if (ord instanceof Number n) return Linalg.matrixNorm(a, n.doubleValue(), dim, keepdim);
        String s = (String) ord;
        return s.equals("fro") || s.equals("nuc")
                ? Linalg.matrixNorm(a, s, dim, keepdim)
                : Linalg.matrixNorm(a, Double.parseDouble(s), dim, keepdim);
    }

    @TestFactory
    Stream<DynamicTest> halfPrecisionMatrixNormMatchesPyTorchBitForBit() {
        return cases("matrix_norm_half")
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    if (c.expectsError()) {
                        TorchException e = assertThrows(TorchException.class, () -> matrixNorm(c));
                        assertTrue(e.getMessage().contains(c.error()), e.getMessage());
                    } else {
                        assertBits((Tensor) Golden.decode(c.out()), matrixNorm(c), c.id());
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> halfPrecisionNormMatchesPyTorchBitForBit() {
        return cases("norm_half")
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor a = c.tensorArg(0);
                    Tensor got = c.kwarg("ord") == null ? Linalg.norm(a) : Linalg.norm(a, Double.POSITIVE_INFINITY);
                    assertBits((Tensor) Golden.decode(c.out()), got, c.id());
                }));
    }

    // ---------------------------------------------------------------- matrix_exp in float16, bfloat16

    /** One unit in the last place of {@code v} in float16 (10 fraction bits) or bfloat16 (7). */
    private static double ulp(double v, DType dtype) {
        return Math.ulp((float) v) * (dtype == DType.FLOAT16 ? 1 << 13 : 1 << 16);
    }

    @TestFactory
    Stream<DynamicTest> halfPrecisionMatrixExpIsTheRoundedExponential() {
        return cases("matrix_exp_half")
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    Tensor a = c.tensorArg(0);
                    Tensor expected = (Tensor) Golden.decode(c.out());
                    Tensor got = Linalg.matrixExp(a);
                    assertEquals(a.dtype(), got.dtype());
                    assertArrayEquals(expected.shape(), got.shape());
                    double[] e = expected.toDoubleArray(), g = got.toDoubleArray();
                    for (int i = 0; i < e.length; i++) {
                        // both round an accurate exponential once; they may part at a rounding boundary, never further
                        assertTrue(
                                Math.abs(e[i] - g[i]) <= ulp(e[i], a.dtype()),
                                c.id() + " at " + i + ": " + e[i] + " vs " + g[i]);
                    }
                }));
    }

    @Test
    void pyTorch213sOwnHalfPrecisionMatrixExpIsWrongPastDegreeTwo() {
        // what known-differences.txt documents: only the zero matrix (degree 1) and 1 x 1 (exp) come out right
        List<Golden.Case> all = cases("matrix_exp_half").toList();
        for (Golden.Case c : all) {
            String matrix = c.id().split("/")[1]; // ids are matrix_exp_half/<matrix>/<dtype>
            boolean trivial = matrix.equals("zero") || matrix.equals("1x1");
            assertEquals(trivial, (Boolean) c.kwarg("torch_equal"), c.id());
        }
        assertTrue(all.stream().anyMatch(c -> !(Boolean) c.kwarg("torch_finite")));
    }

    // ---------------------------------------------------------------- solve_triangular, mixed dtypes

    private static List<Tensor> grad(Tensor loss, List<Tensor> inputs) {
        return Autograd.grad(
                List.of(loss), inputs, Autograd.GradOptions.defaults().retainGraph(true));
    }

    private static double tolerance(DType d) {
        DType real = d.toReal();
        if (real == DType.FLOAT64) return 1e-10;
        return real == DType.FLOAT32 ? 1e-5 : 2e-3;
    }

    @TestFactory
    Stream<DynamicTest> solveTriangularConvertsBToAsDtype() {
        return cases("solve_triangular_mixed")
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    boolean upper = (Boolean) c.kwarg("upper"), left = (Boolean) c.kwarg("left");
                    Tensor a = c.tensorArg(0), b = c.tensorArg(1);
                    if (c.expectsError()) {
                        TorchException e = assertThrows(
                                TorchException.class, () -> Linalg.solveTriangular(a, b, upper, left, false));
                        assertTrue(e.getMessage().contains(c.error()), e.getMessage());
                        return;
                    }
                    Tensor la = a.detach().requiresGrad(true);
                    boolean bDifferentiable =
                            b.dtype().isFloatingPoint() || b.dtype().isComplex();
                    Tensor lb = bDifferentiable ? b.detach().requiresGrad(true) : b;
                    Tensor x = Linalg.solveTriangular(la, lb, upper, left, false);
                    assertEquals(a.dtype(), x.dtype(), "the result has A's dtype");
                    assertClose(expected(c, 0), x.detach(), tolerance(a.dtype()), "X");
                    Tensor loss = x.mul(c.tensorArg(2)).sum();
                    Tensor scalar = loss.isComplex() ? loss.real() : loss;
                    List<Tensor> grads = grad(scalar, bDifferentiable ? List.of(la, lb) : List.of(la));
                    assertClose(expected(c, 1), grads.get(0), tolerance(a.dtype()), "dA");
                    if (bDifferentiable) {
                        assertEquals(b.dtype(), grads.get(1).dtype(), "B's gradient comes back in B's dtype");
                        assertClose(expected(c, 2), grads.get(1), tolerance(a.dtype()), "dB");
                    }
                }));
    }

    // ---------------------------------------------------------------- solve_ex's info

    @TestFactory
    Stream<DynamicTest> solveExInfoHasAsBatchShape() {
        return cases("solve_ex")
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    SolveEx r = Linalg.solveEx(c.tensorArg(0), c.tensorArg(1), (Boolean) c.kwarg("left"), false);
                    assertBits(expected(c, 1), r.info(), "info");
                    Tensor x = expected(c, 0);
                    assertArrayEquals(x.shape(), r.result().shape());
                    // a singular matrix's solution is whatever LAPACK left; compare where info says the solve succeeded
                    if (Arrays.stream(r.info().toLongArray()).allMatch(i -> i == 0))
                        assertClose(x, r.result(), 1e-10, "result");
                }));
    }

    @Test
    void solveExUnderVmapGivesTheInfoOfEachExample() {
        // per example: A (3, 3) against B (4, 3, 2); logically info is 0-d, so the batched info is (batch,)
        Tensor good = Torch.tensor(new double[][] {{4, 1, 0}, {1, 3, 1}, {0, 1, 2}});
        Tensor singular = Torch.tensor(new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
        Tensor as = Torch.stack(List.of(good, singular, good));
        Tensor b = Torch.ones(new long[] {4, 3, 2}, DType.FLOAT64);
        Object out = Func.vmap(
                        (Object[] in) -> {
                            SolveEx r = Linalg.solveEx((Tensor) in[0], (Tensor) in[1], true, false);
                            return List.of(r.result(), r.info());
                        },
                        VmapOptions.defaults().inDims(0, null))
                .apply(new Object[] {as, b});
        @SuppressWarnings("unchecked")
        List<Tensor> results = (List<Tensor>) out;
        Tensor info = results.get(1);
        assertArrayEquals(new long[] {3}, info.shape());
        assertEquals(DType.INT32, info.dtype());
        long[] codes = info.toLongArray();
        assertEquals(0, codes[0]);
        assertTrue(codes[1] > 0, "the singular example reports its zero pivot");
        assertEquals(0, codes[2]);
        assertArrayEquals(new long[] {3, 4, 3, 2}, results.get(0).shape());
        // and the same info as each example alone
        for (int k = 0; k < 3; k++) {
            SolveEx alone = Linalg.solveEx(as.select(0, k), b, true, false);
            assertEquals(0, alone.info().dim());
            assertEquals((long) alone.info().item(), codes[k]);
        }
    }

    @Test
    void solveExCheckErrorsNamesTheBatchElementOfA() {
        Tensor a = Torch.stack(List.of(Torch.eye(3).to(DType.FLOAT64), Torch.zeros(new long[] {3, 3}, DType.FLOAT64)))
                .unsqueeze(1); // (2, 1, 3, 3): batch element 1 of A is singular
        Tensor b = Torch.ones(new long[] {4, 3, 1}, DType.FLOAT64);
        TorchException e = assertThrows(TorchException.class, () -> Linalg.solveEx(a, b, true, true));
        assertTrue(e.getMessage().contains("(Batch element 1)"), e.getMessage());
    }
}
