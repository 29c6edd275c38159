package org.jtorch.nn.utils;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** clip_grad_norm_/clip_grad_value_ and the parameter/vector conversions against hand computations. */
class ClipGradTest {
    static Tensor withGrad(double[] value, double[] grad) {
        Tensor p = Torch.tensor(value).requiresGrad(true);
        p.setGrad(Torch.tensor(grad));
        return p;
    }

    @Test
    void clipGradNormScalesByMaxOverTotal() {
        Tensor a = withGrad(new double[] {0, 0}, new double[] {3, 0});
        Tensor b = withGrad(new double[] {0}, new double[] {4});
        Tensor none = Torch.tensor(new double[] {1}).requiresGrad(true);
        // total 2-norm = sqrt(9 + 16) = 5; coefficient = 1 / (5 + 1e-6)
        Tensor total = ClipGrad.clipGradNorm_(List.of(a, b, none), 1.0);
        assertEquals(5.0, total.item(), 1e-12);
        double c = 1 / (5 + 1e-6);
        assertArrayEquals(new double[] {3 * c, 0}, a.grad().toDoubleArray(), 1e-12);
        assertArrayEquals(new double[] {4 * c}, b.grad().toDoubleArray(), 1e-12);
    }

    @Test
    void clipGradNormLeavesSmallGradientsAndSupportsOtherNorms() {
        Tensor a = withGrad(new double[] {0, 0}, new double[] {-3, 1});
        assertEquals(
                3.0,
                ClipGrad.clipGradNorm_(List.of(a), 10, Double.POSITIVE_INFINITY, false)
                        .item(),
                1e-12);
        assertArrayEquals(new double[] {-3, 1}, a.grad().toDoubleArray());
        assertEquals(4.0, ClipGrad.clipGradNorm_(List.of(a), 2, 1.0, false).item(), 1e-12);
        assertArrayEquals(
                new double[] {-3 * 2 / (4 + 1e-6), 2 / (4 + 1e-6)}, a.grad().toDoubleArray(), 1e-12);
        assertEquals(
                0.0,
                ClipGrad.clipGradNorm_(List.of(Torch.ones(2).requiresGrad(true)), 1)
                        .item());
    }

    @Test
    void nonFiniteNormCanRaise() {
        Tensor a = withGrad(new double[] {0}, new double[] {Double.NaN});
        TorchException e = assertThrows(TorchException.class, () -> ClipGrad.clipGradNorm_(List.of(a), 1, 2, true));
        assertTrue(e.getMessage().contains("is non-finite, so it cannot be clipped"));
    }

    @Test
    void clipGradValueClamps() {
        Tensor a = withGrad(new double[] {0, 0, 0}, new double[] {-5, 0.5, 7});
        ClipGrad.clipGradValue_(List.of(a), 1);
        assertArrayEquals(new double[] {-1, 0.5, 1}, a.grad().toDoubleArray());
    }

    @Test
    void parametersToVectorAndBack() {
        Tensor w = Torch.tensor(new double[][] {{1, 2}, {3, 4}}).requiresGrad(true);
        Tensor b = Torch.tensor(new double[] {5}).requiresGrad(true);
        Tensor v = ConvertParameters.parametersToVector(List.of(w, b));
        assertArrayEquals(new double[] {1, 2, 3, 4, 5}, v.toDoubleArray());
        v.sum().backward();
        assertArrayEquals(new double[] {1, 1, 1, 1}, w.grad().toDoubleArray(), "the flattening is differentiable");
        ConvertParameters.vectorToParameters(Torch.tensor(new double[] {9, 8, 7, 6, 5}), List.of(w, b));
        assertArrayEquals(new double[] {9, 8, 7, 6}, w.toDoubleArray());
        assertArrayEquals(new double[] {5}, b.toDoubleArray());
        assertThrows(
                IllegalArgumentException.class,
                () -> ConvertParameters.vectorToParameters(Torch.tensor(new double[] {1, 2}), List.of(w, b)));
        assertArrayEquals(new double[] {9, 8, 7, 6}, w.toDoubleArray(), "a short vector changes nothing");
    }
}
