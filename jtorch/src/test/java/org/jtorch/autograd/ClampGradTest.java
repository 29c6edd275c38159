package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * Subgradients at ties and bounds (spec autograd-rules §3, the 2.14 rule) and fmin/fmax's NaN-following gradients (§4,
 * 2.15): the spec's worked examples verbatim, then the corner cases of two Tensor bounds.
 */
class ClampGradTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    private static List<Tensor> grads(Tensor out, Tensor... inputs) {
        return Autograd.grad(List.of(out.sum()), List.of(inputs), Autograd.GradOptions.defaults());
    }

    private static void assertGrad(double[] expected, Tensor grad) {
        assertArrayEquals(expected, grad.toDoubleArray(), 0);
    }

    @Test
    void example1ScalarBoundTieGivesZero() {
        Tensor x = Torch.scalarTensor(0.0, DType.FLOAT64).requiresGrad(true);
        Torch.clampMin(x, 0.0).backward();
        assertEquals(0.0, x.grad().item(), 0); // 2.13 gave 1
    }

    @Test
    void example2TensorBoundTieSplitsEvenly() {
        Tensor v = Torch.scalarTensor(0.0, DType.FLOAT64).requiresGrad(true);
        Tensor b = Torch.scalarTensor(0.0, DType.FLOAT64).requiresGrad(true);
        Torch.clampMin(v, b).backward();
        assertEquals(0.5, v.grad().item(), 0);
        assertEquals(0.5, b.grad().item(), 0);
    }

    @Test
    void example3ScalarBoundsOfClamp() {
        Tensor x = leaf(-2, -1, 0, 1, 2);
        Torch.clamp(x, -1.0, 1.0).sum().backward();
        assertGrad(new double[] {0, 0, 1, 0, 0}, x.grad());
        Tensor h = leaf(-2, -1, 0, 1, 2);
        Torch.hardtanh(h).sum().backward(); // hardtanh is clamp with Scalar bounds: the same strict interior
        assertGrad(new double[] {0, 0, 1, 0, 0}, h.grad());
        Tensor m = leaf(-2, -1, 0, 1, 2);
        Torch.clampMax(m, 1.0).sum().backward();
        assertGrad(new double[] {1, 1, 1, 0, 0}, m.grad());
    }

    @Test
    void example4TensorBoundsOfClamp() {
        double[] xs = {-2, -1, 0, 1, 2};
        Tensor x = leaf(xs), m = leaf(-1, -1, -1, -1, -1), big = leaf(1, 1, 1, 1, 1);
        List<Tensor> g = grads(Torch.clamp(x, m, big), x, m, big);
        assertGrad(new double[] {0, 0.5, 1, 0.5, 0}, g.get(0));
        assertGrad(new double[] {1, 0.5, 0, 0, 0}, g.get(1));
        assertGrad(new double[] {0, 0, 0, 0.5, 1}, g.get(2));
        // the same as minimum(maximum(x, m), M)
        List<Tensor> composed = grads(Torch.minimum(Torch.maximum(x, m), big), x, m, big);
        for (int i = 0; i < 3; i++) assertGrad(g.get(i).toDoubleArray(), composed.get(i));
    }

    @Test
    void example5MaximumTie() {
        Tensor a = leaf(1, 2, 3), b = leaf(3, 2, 1);
        List<Tensor> g = grads(Torch.maximum(a, b), a, b);
        assertGrad(new double[] {0, 0.5, 1}, g.get(0));
        assertGrad(new double[] {1, 0.5, 0}, g.get(1));
        List<Tensor> h = grads(Torch.minimum(a, b), a, b);
        assertGrad(new double[] {1, 0.5, 0}, h.get(0));
        assertGrad(new double[] {0, 0.5, 1}, h.get(1));
    }

    @Test
    void fmaxGradientFollowsTheNanSelection() {
        Tensor a = leaf(1, Double.NaN, Double.NaN, 2), b = leaf(Double.NaN, 3, Double.NaN, 2);
        Tensor out = Torch.fmax(a, b);
        assertArrayEquals(new double[] {1, 3, Double.NaN, 2}, out.detach().toDoubleArray(), 0);
        List<Tensor> g = grads(out, a, b);
        // element 2 (both NaN) is implementation-defined in the spec; ATen's 2.15 formula gives it to self
        assertGrad(new double[] {1, 0, 1, 0.5}, g.get(0));
        assertGrad(new double[] {0, 1, 0, 0.5}, g.get(1));
    }

    @Test
    void fminForwardAndGradient() {
        Tensor a = leaf(1, Double.NaN, 4), b = leaf(0, 5, 4);
        Tensor out = Torch.fmin(a, b);
        assertArrayEquals(new double[] {0, 5, 4}, out.detach().toDoubleArray(), 0);
        List<Tensor> g = grads(out, a, b);
        assertGrad(new double[] {0, 0, 0.5}, g.get(0));
        assertGrad(new double[] {1, 1, 0.5}, g.get(1));
    }

    @Test
    void maximumWithNanSendsTheGradientToBoth() {
        // no comparison holds for NaN, so neither operand is masked (ATen's formula; the spec leaves it open)
        Tensor a = leaf(Double.NaN), b = leaf(1);
        List<Tensor> g = grads(Torch.maximum(a, b), a, b);
        assertGrad(new double[] {1}, g.get(0));
        assertGrad(new double[] {1}, g.get(1));
    }

    @Test
    void equalAndInvertedTensorBounds() {
        // x == min == max: the forward keeps x, which gets all of it; x below equal bounds: min gets it
        Tensor x = leaf(1, 0, 3, 5), min = leaf(1, 1, 2, 4), max = leaf(1, 1, 1, 4);
        List<Tensor> g = grads(Torch.clamp(x, min, max), x, min, max);
        // elements: tie at equal bounds, below equal bounds, inverted bounds (forward gives max), above max
        assertGrad(new double[] {1, 0, 0, 0}, g.get(0));
        assertGrad(new double[] {0, 1, 0, 0}, g.get(1));
        assertGrad(new double[] {0, 0, 1, 1}, g.get(2));
    }

    @Test
    void clampWithOneTensorBoundIsMaximumOrMinimum() {
        Tensor x = leaf(-1, 0, 1), m = leaf(0, 0, 0);
        List<Tensor> lower = grads(Torch.clamp(x, m, null), x, m);
        assertGrad(new double[] {0, 0.5, 1}, lower.get(0));
        assertGrad(new double[] {1, 0.5, 0}, lower.get(1));
        List<Tensor> upper = grads(Torch.clamp(x, null, m), x, m);
        assertGrad(new double[] {1, 0.5, 0}, upper.get(0));
        assertGrad(new double[] {0, 0.5, 1}, upper.get(1));
    }

    @Test
    void broadcastBoundsCollectTheirGradients() {
        Tensor x = leaf(-2, 0.5, 2, -0.5, 3, 0).view(2, 3), bound = leaf(0, 1, 2);
        List<Tensor> g = grads(Torch.clampMax(x, bound), x, bound);
        assertGrad(new double[] {1, 1, 0.5, 1, 0, 1}, g.get(0));
        assertGrad(new double[] {0, 1, 0.5}, g.get(1)); // column sums over the broadcast dim
    }
}
