package org.jtorch.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/**
 * Backward rules of Linalg: gradcheck and gradgradcheck in float64 on well-conditioned inputs, and closed forms.
 * Cholesky reads one triangle, so it is checked through a symmetrising map, as PyTorch's own tests do.
 */
class LinalgGradTest {
    private static Tensor eye(long n) {
        return Torch.eye(n, n, DType.FLOAT64, Device.CPU);
    }

    /** Well-conditioned: the identity times the order plus a random perturbation. */
    private static Tensor wellConditioned(long... shape) {
        long n = shape[shape.length - 1];
        return Torch.randn(shape, DType.FLOAT64).add(eye(n).mul((double) n)).requiresGrad(true);
    }

    /** X X^T + n I: symmetric positive definite, and every entry of X matters. */
    private static Tensor spdOf(Tensor x) {
        long n = x.size(-1);
        return x.matmul(x.mT()).add(eye(n).mul((double) n));
    }

    @Test
    void choleskyGradients() {
        Torch.manualSeed(10);
        Tensor x = Torch.randn(new long[] {2, 3, 3}, DType.FLOAT64).requiresGrad(true);
        assertTrue(Autograd.gradcheck(t -> Linalg.cholesky(spdOf(t)), x));
        assertTrue(Autograd.gradgradcheck(t -> Linalg.cholesky(spdOf(t)), x));
        assertTrue(Autograd.gradcheck(t -> Linalg.cholesky(spdOf(t), true), x));
        assertTrue(Autograd.gradgradcheck(t -> Linalg.cholesky(spdOf(t), true), x));
    }

    @Test
    void choleskyGradientClosedForm() {
        // A = [[a]] (1x1): L = sqrt(a), dL/da = 1 / (2 sqrt(a)) = 0.25 at a = 4
        Tensor a = Torch.tensor(new double[][] {{4}}).requiresGrad(true);
        Linalg.cholesky(a).sum().backward();
        assertEquals(0.25, a.grad().toDoubleArray()[0], 1e-15);
    }

    @Test
    void invGradients() {
        Torch.manualSeed(11);
        Tensor a = wellConditioned(2, 3, 3);
        assertTrue(Autograd.gradcheck(Linalg::inv, a));
        assertTrue(Autograd.gradgradcheck(Linalg::inv, a));
    }

    @Test
    void detGradients() {
        Torch.manualSeed(12);
        Tensor a = wellConditioned(2, 3, 3);
        assertTrue(Autograd.gradcheck(Linalg::det, a));
        assertTrue(Autograd.gradgradcheck(Linalg::det, a));
    }

    @Test
    void detGradientIsTheCofactorMatrix() {
        // d det / dA = det(A) A^-T = the cofactor matrix; for [[4,7],[2,6]] that is [[6,-2],[-7,4]]
        Tensor a = Torch.tensor(new double[][] {{4, 7}, {2, 6}}).requiresGrad(true);
        Linalg.det(a).backward();
        double[] g = a.grad().toDoubleArray(), expected = {6, -2, -7, 4};
        for (int i = 0; i < 4; i++) assertEquals(expected[i], g[i], 1e-13);
    }

    @Test
    void slogdetGradients() {
        Torch.manualSeed(13);
        Tensor a = wellConditioned(2, 3, 3);
        assertTrue(Autograd.gradcheck(t -> Linalg.slogdet(t).logabsdet(), a));
        assertTrue(Autograd.gradgradcheck(t -> Linalg.slogdet(t).logabsdet(), a));
    }

    @Test
    void solveGradientsForBothArgumentsAndSides() {
        Torch.manualSeed(14);
        Tensor a = wellConditioned(2, 3, 3);
        Tensor b = Torch.randn(new long[] {3, 2}, DType.FLOAT64).requiresGrad(true); // broadcast over A's batch
        Tensor v = Torch.randn(new long[] {3}, DType.FLOAT64).requiresGrad(true);
        GradCheck.Options o = GradCheck.Options.defaults();
        for (boolean left : new boolean[] {true, false}) {
            Tensor rhs = left ? b : b.mT().detach().requiresGrad(true);
            assertTrue(GradCheck.check(in -> Linalg.solve(in.get(0), in.get(1), left), List.of(a, rhs), o));
            assertTrue(GradCheck.checkSecondOrder(in -> Linalg.solve(in.get(0), in.get(1), left), List.of(a, rhs), o));
            assertTrue(GradCheck.check(in -> Linalg.solve(in.get(0), in.get(1), left), List.of(a, v), o));
            assertTrue(GradCheck.checkSecondOrder(in -> Linalg.solve(in.get(0), in.get(1), left), List.of(a, v), o));
        }
    }

    @Test
    void secondDerivativesOfTheSpecExamples() {
        // f(t) = det([[t+2, 1], [1, 2t+3]]) = 2t^2 + 7t + 5: f(0.7) = 10.88, f'' = 4
        Tensor t = Torch.tensor(new double[] {0.7}).requiresGrad(true);
        Tensor one = Torch.tensor(new double[] {1});
        Tensor f = Linalg.det(
                Torch.stack(List.of(t.add(2.0), one, one, t.mul(2.0).add(3.0))).view(2, 2));
        assertEquals(10.88, f.toDoubleArray()[0], 1e-12);
        Tensor df = Autograd.grad(f, t, true);
        assertEquals(4.0, Autograd.grad(df.sum(), t, false).toDoubleArray()[0], 1e-12);
        // f(t) = logabsdet([[t+2, 1], [1, 3]]): f(0.7) = 1.96009478404727, f'' = -9 / (3t+5)^2
        Tensor s = Torch.tensor(new double[] {0.7}).requiresGrad(true);
        Tensor g = Linalg.slogdet(
                        Torch.stack(List.of(s.add(2.0), one, one, one.mul(3.0))).view(2, 2))
                .logabsdet();
        assertEquals(1.96009478404727, g.toDoubleArray()[0], 1e-12);
        Tensor dg = Autograd.grad(g, s, true);
        assertEquals(-0.17853600476096013, Autograd.grad(dg.sum(), s, false).toDoubleArray()[0], 1e-12);
    }
}
