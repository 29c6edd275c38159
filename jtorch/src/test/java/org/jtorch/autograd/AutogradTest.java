package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Reverse mode: closed-form gradients, finite-difference checks, higher order, grad modes and errors. */
class AutogradTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    @Test
    void polynomialGradientsOfAnyOrder() {
        Tensor x = Torch.scalarTensor(2.0, DType.FLOAT64).requiresGrad(true);
        Tensor y = x.pow(3L); // 8
        Tensor dy = Autograd.grad(y, x, true); // 3x² = 12
        Tensor d2y = Autograd.grad(dy, x, true); // 6x = 12
        Tensor d3y = Autograd.grad(d2y, x, false); // 6
        assertEquals(12.0, dy.item(), 1e-12);
        assertEquals(12.0, d2y.item(), 1e-12);
        assertEquals(6.0, d3y.item(), 1e-12);
    }

    @Test
    void backwardAccumulatesIntoLeaves() {
        Tensor a = leaf(1, 2, 3), b = leaf(4, 5, 6);
        a.mul(b).sum().backward();
        assertArrayEquals(new double[] {4, 5, 6}, a.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 2, 3}, b.grad().toDoubleArray(), 0);
        a.mul(b).sum().backward(); // accumulates
        assertArrayEquals(new double[] {8, 10, 12}, a.grad().toDoubleArray(), 0);
        assertTrue(a.isLeaf());
        assertFalse(a.mul(b).isLeaf());
        assertEquals("MulBackward0", a.mul(b).gradFn().name());
    }

    @Test
    void broadcastingGradientsAreSummedToInputShapes() {
        Tensor m = Torch.ones(2, 3).to(DType.FLOAT64).requiresGrad(true);
        Tensor bias = leaf(1, 2, 3);
        m.add(bias).mul(2.0).sum().backward();
        assertArrayEquals(new double[] {4, 4, 4}, bias.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {2, 2, 2, 2, 2, 2}, m.grad().toDoubleArray(), 0);
        Tensor f = Torch.ones(3).requiresGrad(true); // float32 leaf mixed with a float64 tensor
        f.mul(bias).sum().backward();
        assertEquals(DType.FLOAT32, f.grad().dtype());
        assertArrayEquals(new double[] {1, 2, 3}, f.grad().toDoubleArray(), 0);
    }

    @Test
    void finiteDifferencesAgreeWithBackwardRules() {
        Tensor x = leaf(0.3, -1.2, 2.5, 0.7, -0.4, 1.1);
        assertTrue(Autograd.gradcheck(
                t -> t.exp().mul(t.sin()).add(t.square().sqrt()).sum(), x));
        assertTrue(Autograd.gradcheck(t -> t.view(2, 3).matmul(t.view(3, 2)).tanh(), x));
        assertTrue(Autograd.gradcheck(
                t -> t.view(2, 3).sum(0L).div(t.view(2, 3).mean(1L, true).sum()), x));
        assertTrue(Autograd.gradcheck(
                t -> t.view(2, 3).transpose(0, 1).select(0, 1).sigmoid(), x));
        assertTrue(Autograd.gradcheck(
                t -> t.view(3, 2).slice(0, 1L, 3L).reciprocal().abs(), x));
        assertTrue(Autograd.gradcheck(t -> t.abs().add(0.5).pow(t.cos()).log(), x));
        assertTrue(Autograd.gradcheck(
                t -> Torch.addmm(t.view(2, 3).sum(1L, true), t.view(2, 3), t.view(3, 2), 0.5, 2.0), x));
    }

    @Test
    void secondDerivativesByFiniteDifferences() {
        Tensor x = leaf(0.3, -1.2, 2.5, 0.7);
        assertTrue(Autograd.gradgradcheck(t -> t.sin().mul(t.exp()).sum(), x));
        assertTrue(Autograd.gradgradcheck(t -> t.view(2, 2).matmul(t.view(2, 2)).tanh(), x));
        assertTrue(
                Autograd.gradgradcheck(t -> t.view(2, 2).select(1, 0).sigmoid().square(), x));
    }

    @Test
    void wrongRulesAreCaught() {
        Tensor x = leaf(0.3, -1.2);
        GradCheck.GradcheckError e = assertThrows(
                GradCheck.GradcheckError.class,
                () -> GradCheck.check(
                        xs -> xs.get(0).detach().square().add(xs.get(0)), List.of(x), GradCheck.Options.defaults()));
        assertTrue(e.getMessage().contains("Jacobian mismatch"));
    }

    @Test
    void gradModes() {
        Tensor x = leaf(1, 2);
        try (var _ = Torch.noGrad()) {
            Tensor y = x.mul(2.0);
            assertFalse(y.requiresGrad());
            try (var _ = Torch.enableGrad()) {
                assertTrue(x.mul(2.0).requiresGrad());
            }
            assertFalse(Torch.isGradEnabled());
        }
        assertTrue(Torch.isGradEnabled());
        try (var _ = Torch.inferenceMode()) {
            assertFalse(x.exp().requiresGrad());
            assertTrue(Torch.isInferenceModeEnabled());
        }
        Tensor y = x.mul(2.0);
        Tensor d = y.detach();
        assertFalse(d.requiresGrad());
        assertTrue(d.isLeaf());
        assertSame(y.untypedStorage(), d.untypedStorage()); // detach shares memory, drops history
        assertArrayEquals(new double[] {2, 4}, d.toDoubleArray(), 0);
    }

    @Test
    void retainGradAndHooks() {
        Tensor x = leaf(1, 2, 3);
        Tensor y = x.mul(3.0);
        y.retainGrad();
        y.registerHook(g -> g.mul(10.0));
        y.sum().backward();
        assertArrayEquals(new double[] {10, 10, 10}, y.grad().toDoubleArray(), 0); // hooks run in order of registration
        assertArrayEquals(new double[] {30, 30, 30}, x.grad().toDoubleArray(), 0);
        Tensor z = leaf(1, 1);
        z.registerHook(g -> g.mul(2.0));
        z.sum().backward();
        assertArrayEquals(new double[] {2, 2}, z.grad().toDoubleArray(), 0);
    }

    @Test
    void gradOfSeveralInputsAndUnusedInputs() {
        Tensor a = leaf(1, 2), b = leaf(3, 4), c = leaf(5, 6);
        Tensor out = a.mul(b).sum();
        List<Tensor> g = Autograd.grad(
                List.of(out),
                List.of(a, b, c),
                Autograd.GradOptions.defaults().allowUnused(true).retainGraph(true));
        assertArrayEquals(new double[] {3, 4}, g.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 2}, g.get(1).toDoubleArray(), 0);
        assertNull(g.get(2));
        assertNull(a.grad()); // grad() leaves .grad alone
        TorchException unused = assertThrows(
                TorchException.class,
                () -> Autograd.grad(
                        List.of(out),
                        List.of(c),
                        Autograd.GradOptions.defaults().retainGraph(true)));
        assertTrue(unused.getMessage().contains("appears to not have been used in the graph"));
        List<Tensor> z = Autograd.grad(
                List.of(out), List.of(c), Autograd.GradOptions.defaults().materializeGrads(true));
        assertArrayEquals(new double[] {0, 0}, z.get(0).toDoubleArray(), 0);
    }

    @Test
    void pytorchErrors() {
        Tensor x = leaf(1, 2);
        Tensor y = x.exp().sum();
        y.backward();
        TorchException twice = assertThrows(TorchException.class, y::backward);
        assertTrue(twice.getMessage().contains("backward through the graph a second time"));
        TorchException nonScalar =
                assertThrows(TorchException.class, () -> x.mul(2.0).backward());
        assertTrue(nonScalar.getMessage().contains("grad can be implicitly created only for scalar outputs"));
        TorchException noGrad =
                assertThrows(TorchException.class, () -> Torch.ones(2).sum().backward());
        assertTrue(noGrad.getMessage().contains("does not require grad and does not have a grad_fn"));
        TorchException leafInPlace = assertThrows(TorchException.class, () -> x.mul_(2.0));
        assertTrue(leafInPlace
                .getMessage()
                .contains("a leaf Variable that requires grad is being used in an in-place operation."));
        Tensor a = leaf(1, 2);
        Tensor e = a.exp();
        Tensor s = e.sum();
        e.mul_(2.0); // exp saved its output: backward must refuse
        TorchException modified = assertThrows(TorchException.class, s::backward);
        assertTrue(modified.getMessage().contains("modified by an inplace operation"));
        assertThrows(TorchException.class, () -> Torch.ones(2).to(DType.INT64).requiresGrad(true));
    }

    @Test
    void inPlaceOnNonLeafIsDifferentiated() {
        Tensor x = leaf(1, 2, 3);
        Tensor y = x.mul(2.0);
        y.mul_(Torch.tensor(new double[] {1, 2, 3})); // y = 2x * [1,2,3]
        y.sum().backward();
        assertArrayEquals(new double[] {2, 4, 6}, x.grad().toDoubleArray(), 0);
        Tensor a = leaf(1, 2), b = leaf(3, 4);
        Tensor c = a.mul(1.0);
        c.mul_(b); // the rule needs c's old value: it was saved before the write
        c.sum().backward();
        assertArrayEquals(new double[] {3, 4}, a.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 2}, b.grad().toDoubleArray(), 0);
    }
}
