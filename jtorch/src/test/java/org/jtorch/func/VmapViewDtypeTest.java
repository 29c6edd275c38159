package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.junit.jupiter.api.Test;

/**
 * {@code Tensor.view(dtype)} under vmap without the per-example loop, as PyTorch 2.13's rule: the same element size is
 * a view of the batch, another size changes the last dim only; equal to the loop of per-example views (bit for bit, as
 * {@code long} values), sharing the batch's memory, and refusing what PyTorch refuses with its messages (the checks see
 * the batch dim first, so a message names the physical dim).
 */
class VmapViewDtypeTest {
    /** {@code vmap(v -> v.view(dtype), inDim)(x)}, failing if it ran the per-example loop. */
    private static Tensor vmapView(Tensor x, DType dtype, int inDim) {
        Function<Tensor, Tensor> f = Func.vmap(v -> v.view(dtype), inDim, 0);
        try (WarningRecorder w = Warnings.catchWarnings()) {
            VmapSettings.setFallbackWarningEnabled(true);
            Tensor r = f.apply(x);
            assertTrue(
                    w.records().stream().noneMatch(m -> m.message().contains("performance drop")),
                    "ran the per-example loop");
            return r;
        }
    }

    /** The per-example views of {@code x}'s slices along {@code inDim}, stacked. */
    private static Tensor loop(Tensor x, DType dtype, int inDim) {
        List<Tensor> views = new ArrayList<>();
        for (long b = 0; b < x.size(inDim); b++) views.add(x.select(inDim, b).view(dtype));
        return Torch.stack(views, 0);
    }

    private static long[] bits(Tensor t) {
        return t.view(t.dtype().itemSize() == 8 ? DType.INT64 : DType.INT32)
                .contiguous()
                .toLongArray();
    }

    private static void sameAsLoop(Tensor x, DType dtype, int inDim, long[] shape) {
        Tensor got = vmapView(x, dtype, inDim), want = loop(x, dtype, inDim);
        assertArrayEquals(shape, got.shape());
        assertEquals(dtype, got.dtype());
        assertArrayEquals(bits(want), bits(got));
    }

    @Test
    void theSameElementSizeIsAViewOfTheBatch() {
        Tensor x = Torch.arange(24.0).to(DType.FLOAT64).reshape(2, 3, 4);
        sameAsLoop(x, DType.INT64, 0, new long[] {2, 3, 4});
        Tensor y = vmapView(x, DType.INT64, 0);
        y.select(0, 1).select(0, 2).fill_(0L); // writes through the view reach the batch
        assertEquals(0.0, x.select(0, 1).select(0, 2).abs().sum().item());
    }

    @Test
    void anotherElementSizeChangesTheLastDimOnly() {
        Tensor x = Torch.arange(24.0).to(DType.FLOAT64).reshape(2, 3, 4);
        // PyTorch 2.13: [2, 3, 8] with strides (24, 8, 1); [2, 3, 16]; mapped over dim 1: [3, 2, 8], strides (8, 24, 1)
        sameAsLoop(x, DType.INT32, 0, new long[] {2, 3, 8});
        assertArrayEquals(new long[] {24, 8, 1}, vmapView(x, DType.INT32, 0).stride());
        sameAsLoop(x, DType.INT16, 0, new long[] {2, 3, 16});
        sameAsLoop(x, DType.INT32, 1, new long[] {3, 2, 8});
        assertArrayEquals(new long[] {8, 24, 1}, vmapView(x, DType.INT32, 1).stride());
        Tensor s = Torch.arange(24L).to(DType.INT16).reshape(2, 3, 4);
        sameAsLoop(s, DType.INT64, 0, new long[] {2, 3, 1});
        sameAsLoop(s, DType.INT32, 1, new long[] {3, 2, 2});
        sameAsLoop(Torch.randn(2, 3, 4), DType.COMPLEX64, 0, new long[] {2, 3, 2});
    }

    @Test
    void refusalsAreVmapsOfPyTorch() {
        Tensor x = Torch.arange(24.0).to(DType.FLOAT64).reshape(2, 3, 4);
        assertEquals(
                "self.stride(-1) must be 1 to view Double as Int (different element sizes), but got 4",
                assertThrows(TorchException.class, () -> vmapView(x, DType.INT32, 2))
                        .getMessage());
        Tensor s = Torch.arange(24L).to(DType.INT16).reshape(2, 3, 4);
        assertEquals(
                "self.size(-1) must be divisible by 2 to view Short as Int (different element sizes), but got 3",
                assertThrows(TorchException.class, () -> vmapView(s, DType.INT32, 2))
                        .getMessage());
        Tensor base = Torch.arange(100L).to(DType.INT16);
        assertEquals(
                "self.stride(1) must be divisible by 2 to view Short as Int (different element sizes), but got 5",
                assertThrows(
                                TorchException.class,
                                () -> vmapView(
                                        base.asStrided(new long[] {2, 3, 2}, new long[] {20, 5, 1}), DType.INT32, 0))
                        .getMessage());
        Tensor odd = Torch.arange(25L).to(DType.INT16).narrow(0, 1, 24).reshape(2, 3, 4);
        assertEquals(
                "self.storage_offset() must be divisible by 2 to view Short as Int (different element sizes), "
                        + "but got 1",
                assertThrows(TorchException.class, () -> vmapView(odd, DType.INT32, 0))
                        .getMessage());
        Tensor scalars = Torch.arange(4.0).to(DType.FLOAT64);
        assertEquals(
                "self.dim() cannot be 0 to view Double as Int (different element sizes)",
                assertThrows(TorchException.class, () -> vmapView(scalars, DType.INT32, 0))
                        .getMessage());
        sameAsLoop(scalars, DType.INT64, 0, new long[] {4});
    }
}
