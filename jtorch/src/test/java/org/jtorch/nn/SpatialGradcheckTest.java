package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * First and second derivatives of the 3-d convolutions, 1-d and LP pooling, max unpooling, fold/unfold, grid_sample and
 * affine_grid against finite differences in float64 (values are checked against PyTorch in {@link SpatialGoldenTest}).
 */
class SpatialGradcheckTest {
    private static Tensor leaf(long... shape) {
        Torch.manualSeed(shape.length * 31L + shape[shape.length - 1]);
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static void gradcheck(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
    }

    private static long[] ls(long... v) {
        return v;
    }

    @Test
    void conv3dAndTransposed() {
        gradcheck(
                t -> F.conv3d(t.get(0), t.get(1), t.get(2), ls(2, 1, 1), ls(1, 0, 1), ls(1, 2, 1), 2),
                leaf(1, 4, 4, 5, 3),
                leaf(2, 2, 2, 2, 2),
                leaf(2));
        gradcheck(
                t -> F.convTranspose3d(t.get(0), t.get(1), t.get(2), ls(2, 1, 2), ls(1, 0, 0), ls(1, 0, 1), 2, ls(1)),
                leaf(1, 2, 2, 3, 2),
                leaf(2, 1, 2, 2, 2),
                leaf(2));
    }

    @Test
    void foldAndUnfold() {
        gradcheck(t -> F.unfold(t.get(0), ls(2, 3), ls(1, 2), ls(1), ls(2, 1)), leaf(2, 2, 4, 5));
        gradcheck(t -> F.fold(t.get(0), ls(4, 5), ls(2, 2), ls(1), ls(1), ls(2, 1)), leaf(2, 8, 18));
    }

    @Test
    void pooling1dLpAndUnpool() {
        gradcheck(t -> F.maxPool1d(t.get(0), 3, 2L, 1, 1, true), leaf(2, 3, 8));
        gradcheck(t -> F.avgPool1d(t.get(0), 3, 2L, 1, true, false), leaf(2, 3, 8));
        gradcheck(t -> F.adaptiveAvgPool1d(t.get(0), 3), leaf(2, 7));
        gradcheck(t -> F.lpPool2d(t.get(0).abs().add(0.5), 2.0, ls(2), null, false), leaf(1, 2, 4, 4));
        gradcheck(t -> F.lpPool1d(t.get(0).abs().add(0.5), 3.0, 2, 1L, false), leaf(2, 5));
        Tensor indices = Torch.tensor(new long[] {0, 3, 9, 14, 5, 2, 12, 10}).reshape(1, 2, 2, 2);
        gradcheck(t -> F.maxUnpool2d(t.get(0), indices, ls(2), null, ls(0), null), leaf(1, 2, 2, 2));
    }

    @Test
    void gridSampleEveryModeAndPadding() {
        for (String mode : List.of("bilinear", "nearest", "bicubic")) {
            for (String padding : List.of("zeros", "border", "reflection")) {
                for (boolean align : new boolean[] {false, true}) {
                    Tensor grid = Torch.rand(new long[] {1, 3, 2, 2}, DType.FLOAT64)
                            .mul(2.4)
                            .sub(1.2)
                            .requiresGrad(true);
                    gradcheck(t -> F.gridSample(t.get(0), t.get(1), mode, padding, align), leaf(1, 2, 3, 4), grid);
                }
            }
        }
        Tensor grid3 = Torch.rand(new long[] {1, 2, 2, 2, 3}, DType.FLOAT64)
                .mul(2.4)
                .sub(1.2)
                .requiresGrad(true);
        gradcheck(t -> F.gridSample(t.get(0), t.get(1), "bilinear", "reflection", false), leaf(1, 2, 3, 3, 2), grid3);
    }

    @Test
    void affineGrid() {
        gradcheck(t -> F.affineGrid(t.get(0), ls(2, 1, 3, 4), false), leaf(2, 2, 3));
        gradcheck(t -> F.affineGrid(t.get(0), ls(1, 1, 2, 3, 2), true), leaf(1, 3, 4));
    }
}
