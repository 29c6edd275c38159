package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * Backward rules of the decompositions against finite differences (gradcheck, gradgradcheck) in float64 and, through a
 * real parametrisation {@code A = complex(t[0], t[1])} with real outputs, complex128. Losses use only quantities that
 * do not depend on the vectors' arbitrary signs or phases.
 */
class LinalgDecompositionGradTest {
    private static Tensor eye(long n) {
        return Torch.eye(n, n, DType.FLOAT64, Device.CPU);
    }

    private static Tensor flat(Tensor... parts) {
        return Torch.cat(java.util.Arrays.stream(parts)
                .map(p -> (p.isComplex() ? Torch.viewAsReal(p) : p).reshape(-1))
                .toList());
    }

    /** A complex matrix from a real input of shape (2, *): the real and imaginary parts. */
    private static Tensor complexOf(Tensor t) {
        return Torch.complex(t.select(0, 0), t.select(0, 1));
    }

    private static void check(Function<Tensor, Tensor> f, Tensor x) {
        assertTrue(Autograd.gradcheck(f, x));
        assertTrue(Autograd.gradgradcheck(f, x));
    }

    private static Tensor input(long seed, long... shape) {
        Torch.manualSeed(seed);
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    @Test
    void eighGradients() {
        Function<Tensor, Tensor> real = t -> {
            Eigh e = Linalg.eigh(t.add(t.mT()));
            return flat(e.eigenvalues(), e.eigenvectors().square());
        };
        check(real, input(1, 2, 3, 3));
        check(t -> Linalg.eigvalsh(t.add(t.mT())), input(2, 3, 3));
        Function<Tensor, Tensor> complex = t -> {
            Tensor a = complexOf(t);
            Eigh e = Linalg.eigh(a.add(a.mH()));
            Tensor v = e.eigenvectors();
            return flat(e.eigenvalues(), v.mul(v.conj()).real());
        };
        check(complex, input(3, 2, 3, 3));
    }

    @Test
    void svdGradients() {
        Function<Tensor, Tensor> real = t -> {
            Svd s = Linalg.svd(t, false);
            return flat(s.s(), s.u().matmul(s.vh()), s.u().square());
        };
        check(real, input(4, 4, 3));
        check(real, input(5, 3, 5));
        check(
                t -> {
                    Svd s = Linalg.svd(t, true); // the extra columns of a full SVD carry no gradient
                    return flat(s.s(), s.u().narrow(-1, 0, 2).matmul(s.vh().narrow(-2, 0, 2)));
                },
                input(6, 2, 4, 2));
        check(Linalg::svdvals, input(7, 3, 4));
        check(
                t -> {
                    Svd s = Linalg.svd(complexOf(t), false);
                    return flat(s.s(), s.u().matmul(s.vh()));
                },
                input(8, 2, 4, 3));
    }

    @Test
    void svdRefusesPhaseDependentLoss() {
        Tensor a = Torch.complex(
                        Torch.randn(new long[] {3, 3}, DType.FLOAT64), Torch.randn(new long[] {3, 3}, DType.FLOAT64))
                .requiresGrad(true);
        TorchException e = assertThrows(
                TorchException.class, () -> Linalg.svd(a).u().sum().abs().backward());
        assertTrue(
                e.getMessage().contains("svd_backward: The singular vectors in the complex case are specified up to"));
        Tensor h = a.detach().add(a.detach().mH()).requiresGrad(true);
        e = assertThrows(
                TorchException.class,
                () -> Linalg.eigh(h).eigenvectors().sum().abs().backward());
        assertTrue(e.getMessage().contains("linalg_eigh_backward: The eigenvectors in the complex case"));
    }

    @Test
    void qrGradients() {
        check(
                t -> {
                    QR qr = Linalg.qr(t);
                    return flat(qr.q(), qr.r());
                },
                input(9, 2, 4, 3));
        check(
                t -> {
                    QR qr = Linalg.qr(t);
                    return flat(qr.q(), qr.r());
                },
                input(10, 3, 5));
        check(
                t -> {
                    QR qr = Linalg.qr(t, QrMode.COMPLETE);
                    return flat(qr.q(), qr.r());
                },
                input(11, 3, 3));
        check(
                t -> {
                    QR qr = Linalg.qr(complexOf(t));
                    return flat(qr.q(), qr.r());
                },
                input(12, 2, 3, 2));
        Tensor tall = input(13, 3, 2);
        assertTrue(assertThrows(
                        TorchException.class,
                        () -> Linalg.qr(tall, QrMode.COMPLETE).q().sum().backward())
                .getMessage()
                .contains("not differentiable when mode='complete' and nrows > ncols"));
        assertTrue(assertThrows(
                        TorchException.class,
                        () -> Linalg.qr(tall, QrMode.R).r().sum().backward())
                .getMessage()
                .contains("which is not computed when mode='r'"));
    }

    @Test
    void polarGradients() {
        check(
                t -> {
                    Polar p = Linalg.polar(t);
                    return flat(p.u(), p.h());
                },
                input(14, 3, 3));
        check(
                t -> {
                    Polar p = Linalg.polar(t);
                    return flat(p.u(), p.h());
                },
                input(15, 2, 4, 2));
        check(
                t -> {
                    Polar p = Linalg.polar(complexOf(t));
                    return flat(p.u(), p.h());
                },
                input(16, 2, 3, 3));
    }

    @Test
    void polarGradientIsFiniteForRepeatedSingularValues() {
        // an orthogonal A has all singular values 1: the SVD's rule divides by s_j^2 - s_i^2 = 0, polar's does not
        Tensor rotation = Torch.tensor(new double[][] {{0.6, -0.8}, {0.8, 0.6}}).requiresGrad(true);
        assertTrue(Autograd.gradcheck(
                t -> {
                    Polar p = Linalg.polar(t);
                    return flat(p.u(), p.h());
                },
                rotation));
        Tensor a = eye(3).mul(2.0).requiresGrad(true);
        Polar p = Linalg.polar(a);
        p.u().sum().add(p.h().sum()).backward();
        for (double v : a.grad().toDoubleArray()) assertTrue(Double.isFinite(v));
    }

    @Test
    void polarGradientOnFloat32() {
        Tensor a = Torch.tensor(new float[][] {{1, -1}, {2, 4}}).requiresGrad(true);
        Polar p = Linalg.polar(a);
        p.u().sum().add(p.h().sum()).backward();
        Tensor a64 = a.detach().to(DType.FLOAT64).requiresGrad(true);
        Polar p64 = Linalg.polar(a64);
        p64.u().sum().add(p64.h().sum()).backward();
        double[] g = a.grad().toDoubleArray(), g64 = a64.grad().toDoubleArray();
        for (int i = 0; i < g.length; i++) org.junit.jupiter.api.Assertions.assertEquals(g64[i], g[i], 1e-5);
    }

    @Test
    void matrixSqrthGradients() {
        Function<Tensor, Tensor> spd = t -> t.matmul(t.mT()).add(eye(t.size(-1)).mul(3.0));
        check(t -> Linalg.matrixSqrth(spd.apply(t)), input(17, 2, 3, 3));
        check(
                t -> {
                    Tensor c = complexOf(t);
                    Tensor h = c.matmul(c.mH()).add(eye(3).mul(3.0));
                    return Torch.viewAsReal(Linalg.matrixSqrth(h));
                },
                input(18, 2, 3, 3));
    }

    /**
     * matrix_sqrth clamps negative eigenvalues to 0: its derivative there is the clamped function's (flat along two
     * clamped eigenvalues), not the square root's, which was infinite for two clamped eigenvalues.
     */
    @Test
    void matrixSqrthGradientsOfAnIndefiniteMatrix() {
        // eigenvalues 4, -1, -2 in a rotated basis: two clamped, one kept
        Tensor q = Linalg.qr(Torch.tensor(new double[] {1, 2, 0, -1, 1, 3, 2, 0, 1}, DType.FLOAT64, 3, 3))
                .q();
        Tensor a = q.matmul(Torch.diag(Torch.tensor(new double[] {4, -1, -2}))).matmul(q.mT());
        Tensor x = a.detach().requiresGrad(true);
        check(t -> Linalg.matrixSqrth(t.add(t.mT()).mul(0.5)), x);
        Tensor g = Autograd.grad(Linalg.matrixSqrth(x).sum(), x, false);
        assertTrue(Torch.isfinite(g).all().item() != 0, "gradient " + java.util.Arrays.toString(g.toDoubleArray()));
    }

    @Test
    void complexGradientsOfTheLuAndCholeskyOps() {
        Function<Tensor, Tensor> wellConditioned = t -> complexOf(t).add(eye(3).mul(4.0));
        check(t -> Torch.viewAsReal(Linalg.inv(wellConditioned.apply(t))), input(19, 2, 3, 3));
        check(t -> Torch.viewAsReal(Linalg.det(wellConditioned.apply(t))), input(20, 2, 3, 3));
        check(
                t -> {
                    Slogdet s = Linalg.slogdet(wellConditioned.apply(t));
                    return flat(s.sign(), s.logabsdet());
                },
                input(21, 2, 3, 3));
        check(
                t -> {
                    Tensor a = wellConditioned.apply(t.narrow(-1, 0, 3));
                    Tensor b = complexOf(t.narrow(-1, 3, 2));
                    return flat(Linalg.solve(a, b), Linalg.solve(a, b.mT(), false));
                },
                input(22, 2, 3, 5));
        check(
                t -> {
                    Tensor c = complexOf(t);
                    return Torch.viewAsReal(Linalg.cholesky(c.matmul(c.mH()).add(eye(3).mul(3.0))));
                },
                input(23, 2, 3, 3));
        check(t -> Linalg.choleskyEx(t.matmul(t.mT()).add(eye(3).mul(3.0))).l(), input(24, 3, 3));
        check(t -> Linalg.invEx(t.add(eye(3).mul(4.0))).inverse(), input(25, 3, 3));
        check(t -> Linalg.solveEx(t.add(eye(3).mul(4.0)), t.mT()).result(), input(26, 3, 3));
    }

    @Test
    void normGradients() {
        for (String ord : new String[] {"fro", "nuc"}) check(t -> Linalg.matrixNorm(t, ord), input(30, 2, 3, 4));
        for (double ord : new double[] {2, -2, 1, -1, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            check(t -> Linalg.matrixNorm(t, ord), input(31, 2, 3, 4));
        }
        check(t -> Linalg.matrixNorm(complexOf(t), "nuc"), input(32, 2, 3, 3));
        check(t -> Linalg.norm(t, 3.0, new long[] {1}, true), input(33, 2, 3));
        check(Linalg::cond, input(34, 3, 4));
        check(t -> Linalg.cond(t.add(eye(3).mul(3.0)), 1.0), input(35, 3, 3));
        check(Linalg::pinv, input(36, 4, 3));
        check(t -> Linalg.pinv(t.add(t.mT()), null, null, true), input(37, 3, 3));
    }

    @Test
    void batchedEqualsLoop() {
        Torch.manualSeed(27);
        Tensor a = Torch.randn(new long[] {6, 5, 5}, DType.FLOAT64);
        Tensor h = a.add(a.mT());
        Tensor values = Linalg.eigvalsh(h),
                sv = Linalg.svdvals(a),
                r = Linalg.qr(a).r();
        for (int b = 0; b < 6; b++) {
            same(values.select(0, b), Linalg.eigvalsh(h.select(0, b)));
            same(sv.select(0, b), Linalg.svdvals(a.select(0, b)));
            same(r.select(0, b), Linalg.qr(a.select(0, b)).r());
        }
    }

    private static void same(Tensor expected, Tensor actual) {
        double[] e = expected.toDoubleArray(), x = actual.toDoubleArray();
        org.junit.jupiter.api.Assertions.assertArrayEquals(e, x, 1e-12);
    }
}
