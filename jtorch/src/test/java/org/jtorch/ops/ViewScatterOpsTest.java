package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** {@code slice_scatter}, {@code select_scatter} and {@code diagonal_scatter} against values worked out by hand. */
class ViewScatterOpsTest {
    private static Tensor grid() {
        return Torch.arange(12).to(DType.FLOAT32).view(3, 4);
    }

    @Test
    void sliceScatterReplacesEveryOtherColumn() {
        Tensor src = Torch.full(new long[] {3, 2}, -1.0);
        Tensor out = Torch.sliceScatter(grid(), src, 1, 0L, null, 2);
        assertArrayEquals(new double[] {-1, 1, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11}, out.toDoubleArray());
    }

    @Test
    void selectScatterReplacesARowAndKeepsSelfsDtype() {
        Tensor src = Torch.tensor(new double[] {0.5, 1.5, 2.5, 3.5}); // float64 into float32
        Tensor out = Torch.selectScatter(grid(), src, 0, -1);
        assertEquals(DType.FLOAT32, out.dtype());
        assertArrayEquals(new double[] {0, 1, 2, 3, 4, 5, 6, 7, 0.5, 1.5, 2.5, 3.5}, out.toDoubleArray());
    }

    @Test
    void diagonalScatterReplacesTheDiagonalAboveTheMain() {
        Tensor src = Torch.full(new long[] {3}, 100.0);
        Tensor out = Torch.diagonalScatter(grid(), src, 1, 0, 1);
        assertArrayEquals(new double[] {0, 100, 2, 3, 4, 5, 100, 7, 8, 9, 10, 100}, out.toDoubleArray());
    }

    @Test
    void srcOfAnotherShapeThanTheViewIsRefused() {
        TorchException e = assertThrows(TorchException.class, () -> Torch.selectScatter(grid(), Torch.zeros(3), 0, 0));
        assertEquals(
                "expected src to have a size equal to the slice of self. src size = [3], slice size = [4]",
                e.getMessage());
    }
}
