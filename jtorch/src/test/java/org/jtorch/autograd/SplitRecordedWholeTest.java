package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.junit.jupiter.api.Test;

/**
 * {@code split}, {@code split_with_sizes}, {@code chunk} and {@code unbind} are recorded as one node in eager code, as
 * PyTorch records them ({@code SplitBackward0}, {@code SplitWithSizesBackward0}, {@code UnbindBackward0}), whose
 * backward joins the pieces' gradients with one {@code cat} (or {@code stack}) instead of summing a zero-filled
 * gradient per piece; gradients are checked against closed forms and by gradcheck/gradgradcheck in float64.
 */
class SplitRecordedWholeTest {
    private static Tensor input() {
        return Torch.tensor(new double[] {0.5, -1.25, 2, 3.5, -0.75, 1, 4, -2, 0.25, 1.5, -3, 2.25})
                .view(2, 6)
                .clone() // a leaf of its own, not a view of the 1-d tensor
                .requiresGrad(true);
    }

    @Test
    void theViewsShareOneNodeNamedAsPyTorchNamesIt() {
        Tensor x = input();
        List<Tensor> pieces = x.split(2, 1);
        for (int i = 0; i < pieces.size(); i++) {
            assertSame(pieces.get(0).gradFn(), pieces.get(i).gradFn(), "piece " + i);
            assertEquals(i, pieces.get(i).outputNr());
            assertSame(x, pieces.get(i).viewBase(), "a view of the input");
        }
        assertEquals("SplitBackward0", pieces.get(0).gradFn().name());
        assertEquals("SplitBackward0", x.chunk(3, 1).get(0).gradFn().name());
        assertEquals(
                "SplitWithSizesBackward0",
                x.splitWithSizes(new long[] {1, 5}, 1).get(0).gradFn().name());
        assertEquals("UnbindBackward0", x.unbind(0).get(1).gradFn().name());
    }

    /** {@code d/dx (Σ w₀·p₀ + Σ w₂·p₂)} is w₀, then zeros where the unused middle piece was, then w₂. */
    @Test
    void theGradientJoinsThePiecesWithZerosForAPieceNoGradientReached() {
        Tensor x = input();
        List<Tensor> p = x.split(2, 1);
        Tensor w0 = Torch.tensor(new double[] {1, 2, 3, 4}).view(2, 2);
        Tensor w2 = Torch.tensor(new double[] {5, 6, 7, 8}).view(2, 2);
        p.get(0).mul(w0).sum().add(p.get(2).mul(w2).sum()).backward();
        assertArrayEquals(
                new double[] {1, 2, 0, 0, 5, 6, 3, 4, 0, 0, 7, 8}, x.grad().toDoubleArray());
    }

    @Test
    void unbindStacksTheGradients() {
        Tensor x = input();
        List<Tensor> rows = x.unbind(0);
        rows.get(1).mul(3.0).sum().backward();
        assertArrayEquals(
                new double[] {0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3}, x.grad().toDoubleArray());
    }

    @Test
    void gradcheckAndGradgradcheck() {
        Tensor x = Torch.randn(new long[] {3, 7}, DType.FLOAT64).requiresGrad(true);
        java.util.function.Function<Tensor, Tensor> splits = t -> {
            List<Tensor> p = t.splitWithSizes(new long[] {2, 0, 5}, 1);
            List<Tensor> c = t.chunk(2, 0);
            return p.get(0)
                    .sin()
                    .sum()
                    .add(p.get(2).mul(p.get(2)).sum())
                    .add(c.get(1).exp().sum())
                    .add(t.unbind(1).get(3).pow(3).sum());
        };
        assertTrue(Autograd.gradcheck(splits, x));
        assertTrue(Autograd.gradgradcheck(splits, x));
    }

    /** A trace still sees the pieces: interpreters decompose the op, as every composite. */
    @Test
    void aTraceRecordsThePieces() {
        GraphModule gm = Fx.makeFx(a -> a[0].split(2, 1).toArray(Tensor[]::new), input());
        String code = gm.printReadable();
        assertTrue(code.contains("slice"), code);
    }
}
