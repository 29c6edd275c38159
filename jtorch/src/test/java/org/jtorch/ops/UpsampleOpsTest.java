package org.jtorch.ops;

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
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * First and second derivatives of the upsampling ops and pixel shuffles in float64 against finite differences, and
 * nearest upsampling of uint8 images against the closed form (each output copies input {@code floor(o · in/out)}).
 * Values against PyTorch: {@code ConvFamilyGoldenTest}; meta, layouts, forward AD and vmap: the op-table sweeps.
 */
class UpsampleOpsTest {
    private static Tensor leaf(long... shape) {
        Torch.manualSeed(shape.length * 17L + shape[shape.length - 1]);
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static void gradcheck(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
    }

    @Test
    void everyModeHasFirstAndSecondDerivatives() {
        gradcheck(x -> F.interpolate(x.get(0), new long[] {5, 7}, "bilinear", false), leaf(1, 2, 3, 4));
        gradcheck(x -> F.interpolate(x.get(0), new long[] {2, 3}, "bilinear", true), leaf(1, 2, 3, 4));
        gradcheck(x -> F.interpolate(x.get(0), new double[] {1.5}, "bicubic", false), leaf(1, 1, 3, 4));
        gradcheck(x -> F.interpolate(x.get(0), new long[] {7}, "linear", true), leaf(2, 2, 4));
        gradcheck(x -> F.interpolate(x.get(0), new long[] {3, 2, 4}, "trilinear", false), leaf(1, 1, 2, 3, 2));
        gradcheck(x -> F.interpolate(x.get(0), new double[] {1.7, 0.6}, "nearest", null), leaf(1, 2, 3, 5));
        gradcheck(x -> F.interpolate(x.get(0), new long[] {4, 3, 3}, "nearest-exact", null), leaf(1, 1, 2, 3, 2));
        gradcheck(x -> F.interpolate(x.get(0), new long[] {3, 2}, "area", null), leaf(1, 2, 5, 4));
    }

    @Test
    void pixelShufflesHaveFirstAndSecondDerivatives() {
        gradcheck(x -> F.pixelShuffle(x.get(0), 2), leaf(1, 8, 2, 3));
        gradcheck(x -> F.pixelUnshuffle(x.get(0), 2), leaf(2, 1, 4, 2));
    }

    @Test
    void nearestCopiesUint8Pixels() {
        Tensor x = Torch.arange(12).to(DType.UINT8).reshape(1, 1, 3, 4);
        Tensor y = F.interpolate(x, new long[] {6, 6}, "nearest", null);
        assertEquals(DType.UINT8, y.dtype());
        long[] got = y.to(DType.INT64).toLongArray();
        for (int oy = 0; oy < 6; oy++) {
            for (int ox = 0; ox < 6; ox++) {
                int iy = (int) Math.floor(oy * (3f / 6f)), ix = (int) Math.floor(ox * (4f / 6f));
                assertEquals(iy * 4 + ix, got[oy * 6 + ox], "(" + oy + ", " + ox + ")");
            }
        }
        assertThrows(TorchException.class, () -> F.interpolate(x, new long[] {6, 6}, "bilinear", false));
    }

    @Test
    void scaleFactorsGiveTheFlooredSize() {
        Tensor y = F.interpolate(Torch.zeros(1, 1, 5, 7), new double[] {1.5, 0.5}, "bilinear", false);
        assertArrayEquals(new long[] {1, 1, 7, 3}, y.shape());
    }
}
