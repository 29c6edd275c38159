package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/**
 * In-place ops on views under autograd, with PyTorch's rebase semantics: the base's history takes the write
 * ({@code CopySlices}), the view's becomes a view of it, and gradients of base, view and the op's other inputs equal
 * those of the same computation written out of place (closed forms here; gradcheck and gradgradcheck against finite
 * differences).
 */
class ViewInplaceTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    private static List<Tensor> grads(Tensor out, Tensor... inputs) {
        return Autograd.grad(
                List.of(out), List.of(inputs), Autograd.GradOptions.defaults().allowUnused(true));
    }

    @Test
    void writeIntoASliceReachesTheBase() {
        Tensor x = leaf(1, 2, 3, 4);
        Tensor b = x.mul(1.0);
        Tensor v = b.narrow(0, 1, 2);
        v.mul_(3.0);
        assertEquals("CopySlices", b.gradFn().name());
        assertArrayEquals(new double[] {1, 6, 9, 4}, b.toDoubleArray());
        b.mul(Torch.tensor(new double[] {1, 10, 100, 1000})).sum().backward();
        assertArrayEquals(new double[] {1, 30, 300, 1000}, x.grad().toDoubleArray());
    }

    @Test
    void theWrittenViewSeesItsNewHistory() {
        Tensor x = leaf(1, 2, 3, 4);
        Tensor v = x.mul(1.0).narrow(0, 1, 2);
        v.mul_(3.0);
        assertEquals("AsStridedBackward0", v.gradFn().name());
        v.sum().backward();
        assertArrayEquals(new double[] {0, 3, 3, 0}, x.grad().toDoubleArray());
    }

    @Test
    void otherInputsOfTheWriteGetTheirGradients() {
        Tensor x = leaf(1, 2, 3, 4), y = leaf(5, 7);
        Tensor b = x.mul(1.0);
        b.narrow(0, 1, 2).mul_(y);
        Tensor w = Torch.tensor(new double[] {1, 10, 100, 1000});
        List<Tensor> g = grads(b.mul(w).sum(), x, y);
        assertArrayEquals(new double[] {1, 50, 700, 1000}, g.get(0).toDoubleArray());
        assertArrayEquals(new double[] {20, 300}, g.get(1).toDoubleArray());
    }

    @Test
    void aBaseWithoutHistoryGainsIt() {
        Tensor y = leaf(5, 7);
        Tensor b = Torch.zeros(4);
        b.narrow(0, 1, 2).add_(y);
        assertTrue(b.requiresGrad());
        Tensor w = Torch.tensor(new double[] {1, 10, 100, 1000}).to(DType.FLOAT32);
        assertArrayEquals(
                new double[] {10, 100}, grads(b.mul(w).sum(), y).get(0).toDoubleArray());
    }

    @Test
    void aViewOfALeafIsRefused() {
        Tensor x = leaf(1, 2, 3);
        TorchException e =
                assertThrows(TorchException.class, () -> x.narrow(0, 0, 2).mul_(2.0));
        assertEquals(
                "a view of a leaf Variable that requires grad is being used in an in-place operation.", e.getMessage());
    }

    /** Writes through overlapping views, a transposed view and a view of a view; returns the base. */
    private static Tensor program(Tensor x) {
        Tensor b = x.mul(x); // [3, 4]
        b.narrow(0, 0, 2).mul_(x.narrow(0, 1, 2).exp()); // rows 0-1 times exp(rows 1-2 of x)
        Tensor column = b.t().select(0, 1); // a strided view: column 1
        column.mul_(x.select(1, 0).cos().add(2.0)); // a strided write
        b.narrow(0, 1, 2)
                .select(1, 2)
                .add_(x.select(1, 3).narrow(0, 0, 2)); // overlaps the first write; a view of a view
        return b;
    }

    @Test
    void gradcheckAndGradgradcheckThroughRebasedHistory() {
        Tensor x = Torch.tensor(
                        new double[] {0.3, -0.7, 1.1, 0.5, -0.2, 0.9, 0.4, -1.3, 0.8, 0.6, -0.5, 0.1},
                        DType.FLOAT64,
                        3,
                        4)
                .requiresGrad(true);
        Function<Tensor, Tensor> fn = ViewInplaceTest::program;
        assertTrue(Autograd.gradcheck(fn, x));
        assertTrue(Autograd.gradgradcheck(fn, x));
        // and the view's own history: the column read after its write
        Function<Tensor, Tensor> column = t -> {
            Tensor b = t.mul(2.0);
            Tensor c = b.t().select(0, 2);
            b.narrow(1, 1, 2).exp_();
            return c.mul(c);
        };
        assertTrue(Autograd.gradcheck(column, x));
        assertTrue(Autograd.gradgradcheck(column, x));
    }

    @Test
    void aViewMadeBeforeAnotherWriteUsesTheBasesCurrentHistory() {
        // v2 overlaps v1; v2 is written after v1 was: its old value includes v1's write
        Tensor x = leaf(1, 2, 3, 4);
        Tensor b = x.mul(1.0);
        Tensor v1 = b.narrow(0, 0, 2), v2 = b.narrow(0, 1, 2);
        v1.mul_(2.0);
        v2.mul_(3.0);
        assertArrayEquals(new double[] {2, 12, 9, 4}, b.toDoubleArray());
        b.sum().backward();
        assertArrayEquals(new double[] {2, 6, 3, 1}, x.grad().toDoubleArray());
    }

    @Test
    void aViewWithoutHistoryGainsItWhenItsBaseIsWrittenThroughAnotherView() {
        Tensor y = leaf(1, 2, 3), z = leaf(10, 20);
        Tensor b = Torch.zeros(4).to(DType.FLOAT64);
        Tensor c = b.narrow(0, 2, 2); // made while b has no history
        b.narrow(0, 0, 3).add_(y); // c now holds [y2, 0]
        assertArrayEquals(new double[] {3, 0}, c.toDoubleArray());
        List<Tensor> g = grads(z.mul(c).sum(), y, z); // c is the second argument: found after z already requires grad
        assertArrayEquals(new double[] {0, 0, 10}, g.get(0).toDoubleArray());
        assertArrayEquals(new double[] {3, 0}, g.get(1).toDoubleArray());
    }

    @Test
    void savedTensorsStillCheckTheirVersion() {
        Tensor x = leaf(1, 2, 3);
        Tensor b = x.mul(1.0);
        Tensor e = b.exp(); // saves its output
        e.narrow(0, 0, 1).mul_(2.0); // modifies it through a view
        TorchException err =
                assertThrows(TorchException.class, () -> b.exp().add(e).sum().backward());
        assertTrue(err.getMessage().contains("modified by an inplace operation"), err.getMessage());
    }
}
