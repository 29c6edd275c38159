package org.jtorch.foreach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.DualLevel;
import org.jtorch.autograd.ForwardAD;
import org.jtorch.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/**
 * Autograd and forward AD of the foreach functions, against closed forms and central finite differences: each position
 * differentiates as its single-tensor op (second derivatives and tangents included), a shared 0-d tensor collects the
 * gradients of every position, the in-place functions follow PyTorch's in-place rules, and the ops PyTorch 2.13 gives
 * no derivative refuse as it does. (The differential run compares every foreach op's first and second gradients with
 * PyTorch 2.13 itself.)
 */
class ForeachGradTest {
    private static final GradCheck.Options BOTH_MODES =
            new GradCheck.Options(1e-6, 1e-5, 1e-3, true, true, true, false, 0);

    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    /** The sum of every element of every tensor of a list, as one 0-d tensor. */
    private static Tensor total(List<Tensor> ts) {
        Tensor s = ts.get(0).sum();
        for (int i = 1; i < ts.size(); i++) s = s.add(ts.get(i).sum());
        return s;
    }

    /** gradcheck and gradgradcheck (reverse and forward mode) of a function of two lists of two tensors each. */
    private static void gradcheckPairs(Function<List<Tensor>, List<Tensor>> fn) {
        List<Tensor> inputs = new ArrayList<>();
        double[][] values = {{0.3, 1.1, 0.7}, {0.9}, {0.5, 0.8, 1.4}, {1.2}};
        for (double[] v : values) inputs.add(leaf(v));
        Function<List<Tensor>, Tensor> flat = xs -> {
            List<Tensor> out = fn.apply(xs);
            List<Tensor> pieces = new ArrayList<>();
            for (Tensor o : out) pieces.add(o.reshape(-1));
            return Torch.cat(pieces);
        };
        assertTrue(GradCheck.check(flat, inputs, BOTH_MODES));
        assertTrue(GradCheck.checkSecondOrder(flat, inputs, GradCheck.Options.defaults()));
    }

    @Test
    void listOpsMatchFiniteDifferencesToSecondOrder() {
        gradcheckPairs(xs -> Foreach.mul(xs.subList(0, 2), xs.subList(2, 4)));
        gradcheckPairs(xs -> Foreach.div(xs.subList(0, 2), xs.subList(2, 4)));
        gradcheckPairs(xs -> Foreach.pow(xs.subList(0, 2), xs.subList(2, 4)));
        gradcheckPairs(xs -> Foreach.sub(xs.subList(0, 2), xs.subList(2, 4), 2.5));
        gradcheckPairs(xs -> Foreach.lerp(xs.subList(0, 2), xs.subList(2, 4), new double[] {0.25, 0.75}));
        gradcheckPairs(xs -> Foreach.addcdiv(xs.subList(0, 2), xs.subList(2, 4), xs.subList(0, 2), 0.5));
        gradcheckPairs(xs -> Foreach.sigmoid(Foreach.log(xs)));
        gradcheckPairs(xs -> Foreach.norm(xs, 3));
    }

    @Test
    void secondDerivativeIsTheSingleTensorOpsAtEachPosition() {
        Tensor a = leaf(0.5, 1.5), b = leaf(-2);
        List<Tensor> y = Foreach.sin(List.of(a, b));
        List<Tensor> g = Autograd.grad(
                List.of(total(y)),
                List.of(a, b),
                Autograd.GradOptions.defaults().createGraph(true));
        assertArrayEquals(new double[] {Math.cos(0.5), Math.cos(1.5)}, g.get(0).toDoubleArray(), 1e-12);
        List<Tensor> gg = Autograd.grad(List.of(total(g)), List.of(a, b), Autograd.GradOptions.defaults());
        assertArrayEquals(
                new double[] {-Math.sin(0.5), -Math.sin(1.5)}, gg.get(0).toDoubleArray(), 1e-12);
        assertArrayEquals(new double[] {-Math.sin(-2)}, gg.get(1).toDoubleArray(), 1e-12);
    }

    @Test
    void forwardModeGivesEachPositionItsTangent() {
        try (DualLevel level = ForwardAD.dualLevel()) {
            Tensor a = ForwardAD.makeDual(Torch.tensor(new double[] {0.5, 2}), Torch.tensor(new double[] {1, 3}));
            Tensor b = Torch.tensor(new double[] {4}); // no tangent: its position's output has none
            List<Tensor> y = Foreach.exp(List.of(a, b));
            assertArrayEquals(
                    new double[] {Math.exp(0.5), 3 * Math.exp(2)},
                    ForwardAD.unpackDual(y.get(0), level).tangent().toDoubleArray(),
                    1e-12);
            assertNull(ForwardAD.unpackDual(y.get(1), level).tangent());
        }
    }

    @Test
    void aSharedTensorCollectsTheGradientOfEveryPosition() {
        Tensor a = leaf(1, 2),
                b = leaf(5),
                s = Torch.scalarTensor(3.0, DType.FLOAT64).requiresGrad(true);
        List<Tensor> y = Foreach.mul(List.of(a, b), s);
        List<Tensor> g = Autograd.grad(List.of(total(y)), List.of(a, b, s), Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {3, 3}, g.get(0).toDoubleArray());
        assertArrayEquals(new double[] {3}, g.get(1).toDoubleArray());
        assertEquals(0, g.get(2).dim());
        assertEquals(8.0, g.get(2).item(), 1e-12, "d/ds of s·Σa + s·Σb");
        Tensor divided = Foreach.div(List.of(a, b), s).get(1).sum();
        assertEquals(-5.0 / 9, Autograd.grad(divided, s, false).item(), 1e-12, "d/ds of b / s");
    }

    @Test
    void anUnusedPositionGetsNoGradient() {
        Tensor a = leaf(1, 2), b = leaf(5);
        List<Tensor> y = Foreach.exp(List.of(a, b));
        assertTrue(y.get(1).requiresGrad(), "one node for the call, as PyTorch's out-of-place foreach ops");
        y.get(0).sum().backward();
        assertArrayEquals(new double[] {Math.exp(1), Math.exp(2)}, a.grad().toDoubleArray(), 1e-12);
        assertNull(b.grad());
    }

    @Test
    void inPlaceRecordsEachPositionAsTheSingleTensorOp() {
        Tensor a = leaf(1, 2), plain = Torch.tensor(new double[] {3});
        List<Tensor> y = List.of(a.mul(1.0), plain.clone());
        Foreach.exp_(y);
        assertEquals("ExpBackward0", y.get(0).gradFn().name());
        assertFalse(y.get(1).requiresGrad(), "a position without gradients stays out of the graph, as in PyTorch");
        y.get(0).sum().backward();
        assertArrayEquals(new double[] {Math.exp(1), Math.exp(2)}, a.grad().toDoubleArray(), 1e-12);
        assertEquals(1, y.get(0).version());
    }

    @Test
    void inPlaceOnALeafRefusesBeforeWritingAnyPosition() {
        Tensor a = leaf(1, 2), b = leaf(3);
        Tensor nonLeaf = a.mul(1.0);
        TorchException e = assertThrows(TorchException.class, () -> Foreach.add_(List.of(nonLeaf, b), 1.0));
        assertEquals("a leaf Variable that requires grad is being used in an in-place operation.", e.getMessage());
        assertArrayEquals(new double[] {1, 2}, nonLeaf.toDoubleArray(), "the first position is not written");
        assertEquals(0, nonLeaf.version());
    }

    @Test
    void inPlaceWriteOfASavedTensorFailsTheBackward() {
        Tensor a = leaf(1, 2);
        List<Tensor> y = Foreach.exp(List.of(a)); // exp saves its output
        Foreach.mul_(y, 3.0);
        TorchException e =
                assertThrows(TorchException.class, () -> y.get(0).sum().backward());
        assertTrue(e.getMessage().contains("modified by an inplace operation"), e.getMessage());
    }

    @Test
    void opsWithoutADerivativeRefuseAsInPyTorch() {
        Tensor a = leaf(1, 2);
        List<Tensor> copied = List.of(Torch.zeros(2).to(a.dtype()));
        Foreach.copy_(copied, List.of(a.mul(2.0)));
        assertThrows(TorchException.class, () -> copied.get(0).sum().backward(), "_foreach_copy_ has no derivative");
        List<Tensor> zeroed = List.of(a.mul(2.0));
        Foreach.zero_(zeroed);
        zeroed.get(0).sum().backward(); // zero_'s derivative: nothing flows back (PyTorch's grad is zeros)
        assertTrue(a.grad() == null || a.grad().abs().sum().item() == 0);
        try (var _ = ForwardAD.dualLevel()) {
            Tensor e = ForwardAD.makeDual(Torch.tensor(new double[] {1}), Torch.tensor(new double[] {1}));
            UnsupportedOperationException refused =
                    assertThrows(UnsupportedOperationException.class, () -> Foreach.pow(2.0, List.of(e)));
            assertTrue(refused.getMessage().contains("_foreach_pow"), refused.getMessage());
        }
        Tensor e = leaf(1.5);
        Tensor y = Foreach.pow(2.0, List.of(e)).get(0).sum();
        assertEquals(Math.pow(2, 1.5) * Math.log(2), Autograd.grad(y, e, false).item(), 1e-12);
    }

    @Test
    void underNoGradNothingIsRecorded() {
        Tensor a = leaf(1, 2);
        try (var _ = Torch.noGrad()) {
            assertFalse(Foreach.mul(List.of(a), 2.0).get(0).requiresGrad());
        }
    }
}
