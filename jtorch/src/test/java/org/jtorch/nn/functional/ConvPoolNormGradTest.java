package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.Reduction;
import org.junit.jupiter.api.Test;

/**
 * Gradients of the convolution, pooling and normalisation functionals against finite differences in float64
 * (gradcheck), second derivatives through the backward ops (gradgradcheck), an im2col-free reference loop for the
 * convolution, other dtypes, layouts, empty tensors and the meta device.
 */
class ConvPoolNormGradTest {
    private static final long[] ONE = {1};

    private static Tensor leaf(long... shape) {
        Torch.manualSeed(shape.length * 31L + shape[shape.length - 1]);
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static void check(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        // gradcheck's calls warn as PyTorch does (padding='same' with an even kernel); recorded, not printed
        try (var _ = Warnings.catchWarnings()) {
            assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
            assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
        }
    }

    @Test
    void conv2dFirstAndSecondDerivatives() {
        check(
                x -> F.conv2d(x.get(0), x.get(1), x.get(2), new long[] {2, 1}, new long[] {1, 0}, new long[] {1, 2}, 2),
                leaf(2, 4, 5, 6),
                leaf(4, 2, 3, 2),
                leaf(4));
        check(x -> F.conv2d(x.get(0), x.get(1), null, ONE, "same", ONE, 1), leaf(1, 2, 4, 4), leaf(2, 2, 2, 3));
    }

    @Test
    void conv1dFirstAndSecondDerivatives() {
        check(x -> F.conv1d(x.get(0), x.get(1), x.get(2), 2, 1, 2, 1), leaf(2, 2, 9), leaf(3, 2, 3), leaf(3));
    }

    @Test
    void backwardOpsAreDifferentiable() {
        long[] p = {1};
        check(
                x -> org.jtorch.ops.ConvOps.convolutionBackwardInput(
                        x.get(0), x.get(1), new long[] {1, 2, 5, 5}, ONE, p, ONE, 1),
                leaf(1, 3, 5, 5),
                leaf(3, 2, 3, 3));
        check(
                x -> org.jtorch.ops.ConvOps.convolutionBackwardWeight(
                        x.get(0), x.get(1), new long[] {3, 2, 3, 3}, ONE, p, ONE, 1),
                leaf(1, 3, 5, 5),
                leaf(1, 2, 5, 5));
    }

    @Test
    void poolingDerivatives() {
        check(
                x -> F.maxPool2d(
                        x.get(0), new long[] {3, 2}, new long[] {2, 1}, new long[] {1, 1}, new long[] {1, 2}, true),
                leaf(2, 2, 6, 7));
        check(
                x -> F.avgPool2d(x.get(0), new long[] {3}, new long[] {2}, new long[] {1}, true, false, null),
                leaf(2, 2, 6, 5));
        check(
                x -> F.avgPool2d(x.get(0), new long[] {2, 3}, new long[] {1, 2}, new long[] {1, 1}, false, true, 5L),
                leaf(1, 2, 5, 6));
        check(x -> F.adaptiveAvgPool2d(x.get(0), 3, 4), leaf(2, 2, 7, 5));
    }

    @Test
    void normalisationDerivatives() {
        check(
                x -> F.batchNorm(x.get(0), null, null, x.get(1), x.get(2), true, 0.1, 1e-5),
                leaf(4, 3, 2, 2),
                leaf(3),
                leaf(3));
        check(x -> F.groupNorm(x.get(0), 2, x.get(1), x.get(2), 1e-5), leaf(2, 4, 3), leaf(4), leaf(4));
        check(x -> F.normalize(x.get(0)), leaf(3, 4));
        check(x -> F.bilinear(x.get(0), x.get(1), x.get(2), x.get(3)), leaf(3, 2), leaf(3, 4), leaf(2, 2, 4), leaf(2));
        check(
                x -> F.cosineEmbeddingLoss(x.get(0), x.get(1), Torch.tensor(new long[] {1, -1, 1}), 0.1, Reduction.SUM),
                leaf(3, 5),
                leaf(3, 5));
    }

    /**
     * A direct 7-deep loop: out[n, o, y, x] = b[o] + Σ w[o, c, i, j] · in[n, g·C/G + c, y·s − p + i·d, x·s − p + j·d].
     */
    private static double[] naiveConv2d(Tensor in, Tensor w, Tensor b, int s, int p, int d, int groups) {
        long[] is = in.shape(), ws = w.shape();
        int n = (int) is[0], c = (int) is[1], h = (int) is[2], wd = (int) is[3], o = (int) ws[0], cg = (int) ws[1];
        int kh = (int) ws[2], kw = (int) ws[3];
        int oh = (h + 2 * p - d * (kh - 1) - 1) / s + 1, ow = (wd + 2 * p - d * (kw - 1) - 1) / s + 1;
        double[] x = in.toDoubleArray(),
                k = w.toDoubleArray(),
                bias = b.toDoubleArray(),
                out = new double[n * o * oh * ow];
        int og = o / groups;
        for (int a = 0; a < n; a++)
            for (int oc = 0; oc < o; oc++)
                for (int y = 0; y < oh; y++)
                    for (int xx = 0; xx < ow; xx++) {
                        double acc = bias[oc];
                        int g = oc / og;
                        for (int ci = 0; ci < cg; ci++)
                            for (int i = 0; i < kh; i++)
                                for (int j = 0; j < kw; j++) {
                                    int iy = y * s - p + i * d, ix = xx * s - p + j * d;
                                    if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                                    acc += k[((oc * cg + ci) * kh + i) * kw + j]
                                            * x[((a * c + g * cg + ci) * h + iy) * wd + ix];
                                }
                        out[((a * o + oc) * oh + y) * ow + xx] = acc;
                    }
        return out;
    }

    @Test
    void conv2dMatchesADirectLoopInEveryFloatingDtype() {
        Torch.manualSeed(5);
        Tensor x = Torch.randn(new long[] {3, 4, 9, 8}, DType.FLOAT64),
                w = Torch.randn(new long[] {6, 2, 3, 3}, DType.FLOAT64);
        Tensor b = Torch.randn(new long[] {6}, DType.FLOAT64);
        double[] expected = naiveConv2d(x, w, b, 2, 1, 2, 2);
        for (DType dt : List.of(DType.FLOAT64, DType.FLOAT32, DType.BFLOAT16, DType.FLOAT16)) {
            Tensor y = F.conv2d(x.to(dt), w.to(dt), b.to(dt), new long[] {2}, new long[] {1}, new long[] {2}, 2);
            assertEquals(dt, y.dtype());
            double tol = dt == DType.FLOAT64 ? 1e-12 : dt == DType.FLOAT32 ? 1e-4 : 0.3;
            double[] got = y.toDoubleArray();
            for (int i = 0; i < expected.length; i++)
                assertEquals(expected[i], got[i], tol * Math.max(1, Math.abs(expected[i])), dt + " at " + i);
        }
    }

    @Test
    void nonContiguousInputsGiveTheContiguousResult() {
        Torch.manualSeed(6);
        Tensor x = Torch.randn(new long[] {2, 3, 6, 5}, DType.FLOAT32),
                w = Torch.randn(new long[] {4, 3, 3, 3}, DType.FLOAT32);
        Tensor xt = x.transpose(2, 3).contiguous().transpose(2, 3); // same values, strides of a transposed layout
        assertTrue(!xt.isContiguous());
        assertArrayEquals(F.conv2d(x, w).toDoubleArray(), F.conv2d(xt, w).toDoubleArray(), 0.0);
        assertArrayEquals(F.maxPool2d(x, 2).toDoubleArray(), F.maxPool2d(xt, 2).toDoubleArray(), 0.0);
        assertArrayEquals(F.avgPool2d(x, 2).toDoubleArray(), F.avgPool2d(xt, 2).toDoubleArray(), 0.0);
    }

    @Test
    void emptyBatchesAndTheMetaDevice() {
        Tensor w = Torch.zeros(new long[] {4, 3, 3, 3});
        assertArrayEquals(
                new long[] {0, 4, 4, 4}, F.conv2d(Torch.zeros(0, 3, 6, 6), w).shape());
        Tensor meta = Torch.zeros(new long[] {2, 3, 8, 8}, DType.FLOAT32, Device.META);
        Tensor y = F.conv2d(
                meta,
                Torch.zeros(new long[] {4, 3, 3, 3}, DType.FLOAT32, Device.META),
                null,
                new long[] {2},
                new long[] {1},
                ONE,
                1);
        assertEquals(Device.META, y.device());
        assertArrayEquals(new long[] {2, 4, 4, 4}, y.shape());
        assertArrayEquals(new long[] {2, 3, 4, 4}, F.maxPool2d(meta, 2).shape());
        assertArrayEquals(new long[] {2, 3, 1, 1}, F.adaptiveAvgPool2d(meta, 1).shape());
        assertArrayEquals(new long[] {2, 3, 8, 8}, F.groupNorm(meta, 3).shape());
        assertThrows(
                TorchException.class,
                () -> F.conv2d(meta, Torch.zeros(new long[] {4, 2, 3, 3}, DType.FLOAT32, Device.META)));
    }

    @Test
    void doubleBackwardOfConvolutionMatchesTheBilinearIdentity() {
        // For y = conv(x, w): d/dw <g, conv(x, w)> = bwd_weight(g, x), which is linear in x, so its derivative wrt x
        // along h
        // is bwd_weight(g, h): check <dgw/dx, H> against a closed form.
        Torch.manualSeed(9);
        Tensor x = Torch.randn(new long[] {1, 2, 5, 5}, DType.FLOAT64).requiresGrad(true);
        Tensor w = Torch.randn(new long[] {3, 2, 3, 3}, DType.FLOAT64).requiresGrad(true);
        Tensor g = Torch.randn(new long[] {1, 3, 3, 3}, DType.FLOAT64);
        Tensor hw = Torch.randn(new long[] {3, 2, 3, 3}, DType.FLOAT64);
        Tensor y = F.conv2d(x, w);
        Tensor gw = Autograd.grad(
                        List.of(y),
                        List.of(w),
                        Autograd.GradOptions.defaults().gradOutputs(List.of(g)).createGraph(true))
                .get(0);
        Tensor gx = Autograd.grad(gw.mul(hw).sum(), x, false);
        // <g, conv(x, hw)> is linear in x with gradient bwd_input(g, hw)
        Tensor xx = x.detach().requiresGrad(true);
        Tensor expected = Autograd.grad(F.conv2d(xx, hw).mul(g).sum(), xx, false);
        assertArrayEquals(expected.toDoubleArray(), gx.toDoubleArray(), 1e-10);
    }
}
