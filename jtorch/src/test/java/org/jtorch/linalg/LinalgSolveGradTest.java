package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.ops.ComplexOps;
import org.junit.jupiter.api.Test;

/**
 * Backward rules of the solvers, factorizations and matrix functions: gradcheck and gradgradcheck in float64 against
 * finite differences. Complex functions are checked through real inputs (real and imaginary parts) and real outputs
 * (view_as_real), as in ComplexGradTest. Eigenvector losses are made phase-invariant (|V|), as PyTorch's own eig tests
 * do.
 */
class LinalgSolveGradTest {
    private static final GradCheck.Options O = GradCheck.Options.defaults();

    private static Tensor eye(long n) {
        return Torch.eye(n, n, DType.FLOAT64, Device.CPU);
    }

    private static Tensor leaf(long... shape) {
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static Tensor asReal(Tensor t) {
        return t.isComplex() ? ComplexOps.viewAsReal(t) : t;
    }

    private static void both(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), O));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), O));
    }

    @Test
    void matrixExpSingleMatricesOfEachDegreeAndBatches() {
        Torch.manualSeed(20);
        // 1-norms chosen to land in the degree-4, 8, 12 and 18 (scaled) regions; the backward's 2n x 2n block goes its
        // own way
        for (double scale : new double[] {1e-4, 0.01, 0.06, 0.5, 3}) {
            Tensor a = Torch.randn(new long[] {3, 3}, DType.FLOAT64)
                    .mul(scale)
                    .detach()
                    .requiresGrad(true);
            both(x -> Linalg.matrixExp(x.get(0)), a);
        }
        both(x -> Linalg.matrixExp(x.get(0)), leaf(2, 3, 3));
    }

    @Test
    void matrixExpComplex() {
        Torch.manualSeed(21);
        Tensor re = leaf(3, 3), im = leaf(3, 3);
        both(x -> asReal(Linalg.matrixExp(Torch.complex(x.get(0), x.get(1)))), re, im);
    }

    @Test
    void matrixExpGradientOfTraceIsTheTransposedExponential() {
        // d tr(exp(A)) / dA = exp(A)^T
        Tensor a = Torch.tensor(new double[][] {{0.3, 1.2}, {-0.4, 0.1}}).requiresGrad(true);
        Linalg.matrixExp(a).diagonal().sum().backward();
        double[] expected = Linalg.matrixExp(a.detach()).mT().contiguous().toDoubleArray(),
                got = a.grad().toDoubleArray();
        for (int i = 0; i < 4; i++) assertEquals(expected[i], got[i], 1e-14);
    }

    @Test
    void solveTriangularBothArgumentsAllVariants() {
        Torch.manualSeed(22);
        Tensor a = Torch.randn(new long[] {2, 3, 3}, DType.FLOAT64)
                .add(eye(3).mul(3.0))
                .detach()
                .requiresGrad(true);
        Tensor b = leaf(3, 2), br = leaf(2, 3);
        for (boolean upper : new boolean[] {true, false}) {
            for (boolean unit : new boolean[] {false, true}) {
                both(x -> Linalg.solveTriangular(x.get(0), x.get(1), upper, true, unit), a, b);
                both(x -> Linalg.solveTriangular(x.get(0), x.get(1), upper, false, unit), a, br);
            }
        }
        Tensor re = leaf(3, 3), im = leaf(3, 3), bre = leaf(3, 1), bim = leaf(3, 1);
        both(
                x -> asReal(Linalg.solveTriangular(
                        Torch.complex(x.get(0), x.get(1)).add(eye(3).mul(3.0)),
                        Torch.complex(x.get(2), x.get(3)),
                        false)),
                re,
                im,
                bre,
                bim);
    }

    @Test
    void luFactorsSquareWideTallAndComplex() {
        Torch.manualSeed(23);
        for (long[] shape : new long[][] {{3, 3}, {2, 4}, {4, 2}, {2, 3, 3}}) {
            Tensor a = leaf(shape);
            both(x -> Linalg.lu(x.get(0)).l(), a);
            both(x -> Linalg.lu(x.get(0)).u(), a);
            both(x -> Linalg.luFactorEx(x.get(0)).lu(), a);
        }
        Tensor re = leaf(3, 3), im = leaf(3, 3);
        both(x -> asReal(Linalg.lu(Torch.complex(x.get(0), x.get(1))).u()), re, im);
        both(x -> asReal(Linalg.luFactor(Torch.complex(x.get(0), x.get(1))).lu()), re, im);
    }

    @Test
    void luSolveThroughTheFactorsEverySideAndAdjoint() {
        Torch.manualSeed(24);
        Tensor a = Torch.randn(new long[] {3, 3}, DType.FLOAT64)
                .add(eye(3).mul(3.0))
                .detach()
                .requiresGrad(true);
        Tensor b = leaf(3, 2), br = leaf(2, 3);
        for (boolean left : new boolean[] {true, false}) {
            for (boolean adjoint : new boolean[] {false, true}) {
                Tensor rhs = left ? b : br;
                both(
                        x -> {
                            LuFactor f = Linalg.luFactor(x.get(0));
                            return Linalg.luSolve(f.lu(), f.pivots(), x.get(1), left, adjoint);
                        },
                        a,
                        rhs);
            }
        }
    }

    @Test
    void eigValuesAndPhaseInvariantVectors() {
        Torch.manualSeed(25);
        Tensor a = leaf(3, 3);
        both(x -> asReal(Linalg.eigvals(x.get(0))), a);
        both(x -> asReal(Linalg.eig(x.get(0)).eigenvalues()), a);
        both(x -> Linalg.eig(x.get(0)).eigenvectors().abs(), a);
        Tensor re = leaf(3, 3), im = leaf(3, 3);
        both(x -> asReal(Linalg.eigvals(Torch.complex(x.get(0), x.get(1)))), re, im);
        both(x -> Linalg.eig(Torch.complex(x.get(0), x.get(1))).eigenvectors().abs(), re, im);
    }

    @Test
    void eigBackwardRefusesPhaseDependentLosses() {
        Torch.manualSeed(26);
        Tensor re = leaf(3, 3), im = leaf(3, 3);
        Tensor v = Linalg.eig(Torch.complex(re, im)).eigenvectors();
        TorchException e =
                assertThrows(TorchException.class, () -> v.imag().sum().backward());
        assertTrue(
                e.getMessage()
                        .contains("linalg_eig_backward: The eigenvectors in the complex case are specified "
                                + "up to multiplication"),
                e.getMessage());
    }

    @Test
    void eigvalsGradientOfTheSumIsTheIdentity() {
        // sum of eigenvalues = trace, so its gradient is I whatever A is (real part of the complex result)
        Tensor a = Torch.tensor(new double[][] {{1, 2}, {3, 4}}).requiresGrad(true);
        Linalg.eigvals(a).real().sum().backward();
        double[] g = a.grad().toDoubleArray();
        double[] expected = {1, 0, 0, 1};
        for (int i = 0; i < 4; i++) assertEquals(expected[i], g[i], 1e-12);
    }

    @Test
    void matrixPowerNegativeAndComposites() {
        Torch.manualSeed(27);
        Tensor a = Torch.randn(new long[] {3, 3}, DType.FLOAT64)
                .add(eye(3).mul(3.0))
                .detach()
                .requiresGrad(true);
        both(x -> Linalg.matrixPower(x.get(0), -2), a);
        both(x -> Linalg.matrixPower(x.get(0), 5), a);
        Tensor x3 = leaf(2, 3), y3 = leaf(3);
        both(x -> Linalg.cross(x.get(0), x.get(1).expand(2, 3)), x3, y3);
        both(x -> Linalg.vecdot(x.get(0), x.get(1)), x3, y3);
        Tensor m1 = leaf(4), m2 = leaf(4, 2), m3 = leaf(2, 5);
        both(x -> Linalg.multiDot(x.get(0), x.get(1), x.get(2)), m1, m2, m3);
    }

    @Test
    void householderProductBothArguments() {
        Torch.manualSeed(28);
        both(x -> Linalg.householderProduct(x.get(0), x.get(1)), leaf(4, 3), leaf(3));
        both(x -> Linalg.householderProduct(x.get(0), x.get(1)), leaf(2, 3, 3), leaf(2, 2));
        Tensor re = leaf(3, 2), im = leaf(3, 2), tre = leaf(2), tim = leaf(2);
        both(
                x -> asReal(Linalg.householderProduct(
                        Torch.complex(x.get(0), x.get(1)), Torch.complex(x.get(2), x.get(3)))),
                re,
                im,
                tre,
                tim);
    }

    @Test
    void lstsqTallWideVectorAndComplex() {
        Torch.manualSeed(29);
        for (String driver : new String[] {"gelsy", "gelsd", "gels"}) {
            both(x -> Linalg.lstsq(x.get(0), x.get(1), null, driver).solution(), leaf(5, 3), leaf(5, 2));
        }
        both(x -> Linalg.lstsq(x.get(0), x.get(1)).solution(), leaf(2, 4), leaf(2, 2));
        both(x -> Linalg.lstsq(x.get(0), x.get(1)).solution(), leaf(2, 4, 3), leaf(4));
        Tensor re = leaf(4, 2), im = leaf(4, 2), bre = leaf(4, 1), bim = leaf(4, 1);
        both(
                x -> asReal(Linalg.lstsq(Torch.complex(x.get(0), x.get(1)), Torch.complex(x.get(2), x.get(3)))
                        .solution()),
                re,
                im,
                bre,
                bim);
    }

    @Test
    void secondDerivativeOfMatrixExpIsExact() {
        // f(t) = exp([[t, 1], [0, t]])[0, 1] = t-independent shift: exp(tI + N) = e^t (I + N), so f = e^t and f'' = e^t
        Tensor t = Torch.tensor(new double[] {0.7}).requiresGrad(true);
        Tensor one = Torch.tensor(new double[] {1}), zero = Torch.tensor(new double[] {0});
        Tensor m = Torch.cat(List.of(t, one, zero, t)).view(2, 2);
        Tensor f = Linalg.matrixExp(m).select(0, 0).select(0, 1);
        Tensor df = Autograd.grad(f, t, true);
        assertEquals(Math.exp(0.7), df.toDoubleArray()[0], 1e-13);
        assertEquals(Math.exp(0.7), Autograd.grad(df.sum(), t, false).toDoubleArray()[0], 1e-13);
    }
}
