package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradCheck;
import org.junit.jupiter.api.Test;

/**
 * Strided transposed convolutions with four channels a group or more, which run by output phase (sub-pixel
 * decomposition, forward and both gradients at once), against finite differences in float64: first and second
 * derivatives for stride 2 and 3, groups, output padding, dilation and a phase no tap reaches (batches of two: the
 * backward runs by phase from two samples on). Their values against PyTorch are in {@code ConvFamilyGoldenTest} (the
 * "phases/" cases).
 */
class SubPixelConvolutionTest {

    private static Tensor leaf(long seed, long... shape) {
        Torch.manualSeed(seed);
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static Function<List<Tensor>, Tensor> transposed(
            long[] stride, long[] padding, long[] dilation, long[] outputPadding, long groups) {
        return t -> Torch.convolution(
                t.get(0),
                t.get(1),
                t.size() > 2 ? t.get(2) : null,
                stride,
                padding,
                dilation,
                true,
                outputPadding,
                groups);
    }

    private static void gradcheck(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(SubPixelForward.MIN_CHANNELS <= 4);
        assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
    }

    @Test
    void strideTwoWithBiasAndOutputPadding() {
        gradcheck(
                transposed(new long[] {2, 2}, new long[] {1, 0}, new long[] {1, 1}, new long[] {1, 1}, 1),
                leaf(1, 2, 4, 3, 2),
                leaf(2, 4, 4, 3, 2),
                leaf(3, 4));
    }

    @Test
    void strideThreeGroupsAndDilation() {
        gradcheck(
                transposed(new long[] {3, 2}, new long[] {1, 2}, new long[] {2, 1}, new long[] {2, 0}, 2),
                leaf(4, 2, 8, 2, 3),
                leaf(5, 8, 4, 2, 3));
    }

    /**
     * Kernels a multiple of the stride, one group: every phase has the same taps, so the phases run stacked
     * ({@link PhaseStack}), forward and backward, with a batch of at least one sample per processor. Output padding
     * gives the phases different sizes; the strides differ per axis.
     */
    @Test
    void stackedPhases() {
        int n = Math.max(2, Runtime.getRuntime().availableProcessors());
        long[][] cases = { // stride, padding, output padding, kernel (rows, columns)
            {2, 2, 1, 1, 1, 1, 4, 4}, {3, 2, 2, 0, 0, 1, 3, 4}
        };
        for (long[] c : cases) {
            long[] stride = {c[0], c[1]}, padding = {c[2], c[3]}, outputPadding = {c[4], c[5]};
            Tensor x = leaf(9, n, 4, 3, 2), w = leaf(10, 4, 5, c[6], c[7]), b = leaf(11, 5);
            long[] y = Torch.convolution(x, w, b, stride, padding, new long[] {1, 1}, true, outputPadding, 1)
                    .shape();
            ConvOps.Geometry g = ConvOps.transposedGeometry(
                    x.shape(), w.shape(), stride, padding, new long[] {1, 1}, outputPadding, 1);
            assertTrue(PhaseStack.of(g) != null && g.h() == y[2] && g.w() == y[3]);
            gradcheck(transposed(stride, padding, new long[] {1, 1}, outputPadding, 1), x, w, b);
        }
    }

    @Test
    void aPhaseWithoutTaps() {
        // dilation 2 at stride 2 with even padding: odd output rows and columns meet no tap (the bias alone)
        gradcheck(
                transposed(new long[] {2, 2}, new long[] {2, 2}, new long[] {2, 2}, new long[] {0, 0}, 1),
                leaf(6, 2, 4, 3, 3),
                leaf(7, 4, 4, 3, 3),
                leaf(8, 4));
    }
}
