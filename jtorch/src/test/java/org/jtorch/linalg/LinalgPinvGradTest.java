package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.DualLevel;
import org.jtorch.autograd.ForwardAD;
import org.jtorch.autograd.GradCheck;
import org.jtorch.ops.ComplexOps;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The derivatives of linalg.pinv (PyTorch's pinv_backward / pinv_jvp) and of linalg.lstsq's solution (through pinv) and
 * residuals, above all for rank-deficient input: against PyTorch 1.13 gradients and forward-mode tangents
 * (make_golden_linalg_grad.py; unchanged in 2.15), and against finite differences (gradcheck, gradgradcheck and the
 * forward-AD check) on constant-rank parametrisations {@code A = X Y} with X m x r and Y r x n, as PyTorch's own OpInfo
 * samples do: a perturbation of A itself would change its rank, where the pseudo-inverse is discontinuous.
 */
class LinalgPinvGradTest {
    private static final String FIXTURES = "linalg_grad.json";
    private static final GradCheck.Options O = GradCheck.Options.defaults().checkForwardAd(true);

    private static Tensor leaf(long... shape) {
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static Tensor asReal(Tensor t) {
        return t.isComplex() ? ComplexOps.viewAsReal(t) : t;
    }

    private static Tensor cplx(List<Tensor> x, int i) {
        return Torch.complex(x.get(i), x.get(i + 1));
    }

    private static void all(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), O));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), O.checkForwardAd(false)));
    }

    private static void close(Tensor expected, Tensor got, double tol) {
        assertArrayEquals(expected.shape(), got.shape(), "shape");
        assertEquals(expected.dtype(), got.dtype(), "dtype");
        double[] e = asReal(expected).contiguous().toDoubleArray(),
                g = asReal(got.detach()).contiguous().toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertTrue(
                    Math.abs(e[i] - g[i]) <= tol * (1 + Math.abs(e[i])),
                    "at " + i + ": expected " + e[i] + ", got " + g[i]);
        }
    }

    private static Tensor expected(Golden.Case c, int i) {
        return (Tensor) ((List<?>) Golden.decode(c.out())).get(i);
    }

    /** The fixtures' loss {@code sum(Re(conj(W) * out))}. */
    private static Tensor loss(Tensor out, Tensor w) {
        return out.isComplex() ? w.conj().mul(out).real().sum() : w.mul(out).sum();
    }

    @TestFactory
    Stream<DynamicTest> pinvGradientsAndTangentsMatchPyTorch() {
        return Golden.cases(FIXTURES).stream()
                .filter(c -> c.op().equals("pinv"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    boolean hermitian = (Boolean) c.kwarg("hermitian");
                    Tensor a = c.tensorArg(0).requiresGrad(true), w = c.tensorArg(1), t = c.tensorArg(2);
                    loss(Linalg.pinv(a, null, null, hermitian), w).backward();
                    close(expected(c, 0), a.grad(), 1e-9);
                    try (DualLevel _ = ForwardAD.dualLevel()) {
                        Tensor p = Linalg.pinv(ForwardAD.makeDual(c.tensorArg(0), t), null, null, hermitian);
                        close(expected(c, 1), ForwardAD.unpackDual(p).tangent(), 1e-9);
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> lstsqGradientsAndTangentsMatchPyTorch() {
        return Golden.cases(FIXTURES).stream()
                .filter(c -> c.op().equals("lstsq"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    String driver = (String) c.kwarg("driver");
                    Tensor a = c.tensorArg(0).requiresGrad(true),
                            b = c.tensorArg(1).requiresGrad(true),
                            w = c.tensorArg(2);
                    loss(Linalg.lstsq(a, b, null, driver).solution(), w).backward();
                    close(expected(c, 0), a.grad(), 1e-9);
                    close(expected(c, 1), b.grad(), 1e-9);
                    try (DualLevel _ = ForwardAD.dualLevel()) {
                        Tensor x = Linalg.lstsq(
                                        ForwardAD.makeDual(c.tensorArg(0), c.tensorArg(3)),
                                        ForwardAD.makeDual(c.tensorArg(1), c.tensorArg(4)),
                                        null,
                                        driver)
                                .solution();
                        close(expected(c, 2), ForwardAD.unpackDual(x).tangent(), 1e-9);
                    }
                }));
    }

    @Test
    void pinvOfRankDeficientRealMatrices() {
        Torch.manualSeed(41);
        all(x -> Linalg.pinv(x.get(0).matmul(x.get(1))), leaf(5, 2), leaf(2, 3)); // tall, rank 2
        all(x -> Linalg.pinv(x.get(0).matmul(x.get(1))), leaf(2, 1), leaf(1, 4)); // wide, rank 1
        all(x -> Linalg.pinv(x.get(0).matmul(x.get(1))), leaf(2, 4, 2), leaf(2, 2, 4)); // batched square, rank 2
        all(x -> Linalg.pinv(x.get(0)), leaf(3, 4)); // full rank
    }

    @Test
    void pinvOfRankDeficientComplexMatrices() {
        Torch.manualSeed(42);
        all(x -> asReal(Linalg.pinv(cplx(x, 0).matmul(cplx(x, 2)))), leaf(4, 2), leaf(4, 2), leaf(2, 3), leaf(2, 3));
        all(x -> asReal(Linalg.pinv(cplx(x, 0).matmul(cplx(x, 2)))), leaf(2, 1), leaf(2, 1), leaf(1, 3), leaf(1, 3));
    }

    @Test
    void hermitianPinvOfRankDeficientMatrices() {
        Torch.manualSeed(43);
        all(x -> Linalg.pinv(x.get(0).matmul(x.get(0).mT()), null, null, true), leaf(4, 2));
        all(
                x -> {
                    Tensor f = cplx(x, 0);
                    return asReal(Linalg.pinv(f.matmul(f.mH()), null, null, true));
                },
                leaf(3, 1),
                leaf(3, 1));
        all(x -> Linalg.pinv(x.get(0).add(x.get(0).mT()), null, null, true), leaf(3, 3)); // full rank
    }

    @Test
    void rankDeficientPinvGradientIsFinite() {
        // through the SVD, the two zero singular values of this rank-1 matrix would give 0/0
        Tensor a =
                Torch.tensor(new double[][] {{1, 2, 3}, {2, 4, 6}, {3, 6, 9}}).requiresGrad(true);
        Linalg.pinv(a).sum().backward();
        for (double v : a.grad().toDoubleArray()) assertTrue(Double.isFinite(v), "finite gradient");
    }

    @Test
    void lstsqOfRankDeficientMatrices() {
        Torch.manualSeed(44);
        for (String driver : new String[] {"gelsy", "gelsd", "gelss"}) {
            all(
                    x -> Linalg.lstsq(x.get(0).matmul(x.get(1)), x.get(2), null, driver)
                            .solution(),
                    leaf(5, 2),
                    leaf(2, 3),
                    leaf(5, 2));
        }
        all(
                x -> Linalg.lstsq(x.get(0).matmul(x.get(1)), x.get(2)).solution(),
                leaf(2, 1),
                leaf(1, 4),
                leaf(2, 3)); // wide, rank 1
        all(
                x -> Linalg.lstsq(x.get(0).matmul(x.get(1)), x.get(2)).solution(),
                leaf(4, 2),
                leaf(2, 3),
                leaf(4)); // vector B
        all(
                x -> asReal(
                        Linalg.lstsq(cplx(x, 0).matmul(cplx(x, 2)), cplx(x, 4)).solution()),
                leaf(4, 1),
                leaf(4, 1),
                leaf(1, 3),
                leaf(1, 3),
                leaf(4, 2),
                leaf(4, 2));
    }

    @Test
    void lstsqFullRankStillMatchesFiniteDifferencesInBothModes() {
        Torch.manualSeed(45);
        all(x -> Linalg.lstsq(x.get(0), x.get(1), null, "gels").solution(), leaf(5, 3), leaf(5, 2));
        all(x -> Linalg.lstsq(x.get(0), x.get(1)).solution(), leaf(2, 4, 3), leaf(4, 1)); // broadcast B
    }

    @Test
    void lstsqResidualsAreDifferentiable() {
        // PyTorch 2.7+ (#148526; 1.13 has no residual gradient to compare with): finite differences, both modes
        Torch.manualSeed(46);
        for (String driver : new String[] {"gelsd", "gels", "gelss"}) {
            all(x -> Linalg.lstsq(x.get(0), x.get(1), null, driver).residuals(), leaf(5, 3), leaf(5, 2));
        }
        all(x -> Linalg.lstsq(x.get(0), x.get(1), null, "gelsd").residuals(), leaf(2, 5, 2), leaf(5, 3)); // broadcast B
        all(x -> Linalg.lstsq(x.get(0), x.get(1), null, "gels").residuals(), leaf(4, 2), leaf(4)); // vector B
        all(
                x -> Linalg.lstsq(cplx(x, 0), cplx(x, 2), null, "gelsd").residuals(),
                leaf(4, 2),
                leaf(4, 2),
                leaf(4, 1),
                leaf(4, 1));
    }

    @Test
    void lstsqResidualGradientIsDanskins() {
        // d/dA sum_k |A x_k - b_k|^2 at the optimum = 2 (A X - B) X^T, d/dB = -2 (A X - B): the solution's own motion
        // drops out
        Torch.manualSeed(47);
        Tensor a = Torch.randn(new long[] {6, 3}, DType.FLOAT64).requiresGrad(true),
                b = Torch.randn(new long[] {6, 2}, DType.FLOAT64).requiresGrad(true);
        Lstsq r = Linalg.lstsq(a, b, null, "gelsd");
        Tensor x = r.solution().detach(), res = a.detach().matmul(x).sub(b.detach());
        close(res.square().sum(0), r.residuals().detach(), 1e-12);
        r.residuals().sum().backward();
        close(res.matmul(x.mT()).mul(2.0), a.grad(), 1e-10);
        close(res.mul(-2.0), b.grad(), 1e-10);
    }
}
