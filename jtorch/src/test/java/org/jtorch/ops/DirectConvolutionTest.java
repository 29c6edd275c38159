package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.func.Func;
import org.jtorch.func.VmapOptions;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The direct float32 convolution kernels ({@link DirectConvKernels}) against PyTorch 2.13
 * ({@code make_golden_direct_convolution.py}): every convolution case has few weights per output channel, so that the
 * forward and both gradients take the direct path (checked here too), with strides, padding, dilation, many groups, 1-d
 * and a transposed convolution; and per-sample gradients of two small CNNs by vmap(grad), whose batched convolutions
 * are the direct kernels' main use. Float32 sums in another order than PyTorch's differ by rounding: each value must be
 * within 1e-5 of the largest magnitude of its tensor (plus 1e-5 relative).
 */
class DirectConvolutionTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("direct_convolution.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        List<Tensor> got = c.op().equals("per_sample_grad") ? perSample(c) : convolution(c);
        List<?> want = (List<?>) c.out();
        assertEquals(want.size(), got.size(), c.id() + ": number of outputs");
        for (int i = 0; i < got.size(); i++) {
            @SuppressWarnings("unchecked")
            Tensor expected = Golden.tensor((Map<String, Object>) want.get(i));
            assertClose(expected, got.get(i), c.id() + "[" + i + "]");
        }
    }

    private static List<Tensor> convolution(Golden.Case c) {
        Tensor x = c.tensorArg(0).requiresGrad(true), w = c.tensorArg(1).requiresGrad(true);
        Tensor b = (Tensor) c.arg(2);
        if (b != null) b.requiresGrad(true);
        long[] s = longs(c.kwarg("stride")), p = longs(c.kwarg("padding")), d = longs(c.kwarg("dilation"));
        long[] op = longs(c.kwarg("output_padding"));
        boolean transposed = (Boolean) c.kwarg("transposed");
        long groups = ((Number) c.kwarg("groups")).longValue();
        ConvOps.Geometry g = transposed
                ? ConvOps.transposedGeometry(x.shape(), w.shape(), s, p, d, op, groups)
                : ConvOps.geometry("convolution", x.shape(), w.shape(), s, p, d, groups);
        assertTrue(DirectConvKernels.fits(DType.FLOAT32, g), c.id() + " takes the direct kernels");
        Tensor out = Torch.convolution(x, w, b, s, p, d, transposed, op, groups);
        out.mul(c.tensorArg(3)).sum().backward();
        List<Tensor> results = new ArrayList<>(List.of(out.detach(), x.grad(), w.grad()));
        if (b != null) results.add(b.grad());
        return results;
    }

    /** torch.func's per-sample gradients: vmap(grad(loss), in_dims=(None, ..., 0, 0)) over the CNN's parameters. */
    private static List<Tensor> perSample(Golden.Case c) {
        boolean maxPool = c.kwarg("downsample").equals("maxPool");
        Function<Object[], Object> grads = Func.grad(
                a -> {
                    Tensor[] t = Arrays.copyOf(a, a.length, Tensor[].class);
                    return cnnLoss(maxPool, t);
                },
                Func.GradOptions.defaults().argnumsTuple(0, 1, 2, 3, 4, 5));
        Object[] args = new Object[8];
        for (int i = 0; i < 8; i++) args[i] = c.tensorArg(i);
        Object[] got = (Object[])
                Func.vmap(grads, VmapOptions.defaults().inDims(Arrays.asList(null, null, null, null, null, null, 0, 0)))
                        .apply(args);
        List<Tensor> r = new ArrayList<>();
        for (Object g : got) r.add((Tensor) g);
        return r;
    }

    /** The golden script's CNN on one sample {@code t[6]} of class {@code t[7]}, parameters {@code t[0..5]}. */
    private static Tensor cnnLoss(boolean maxPool, Tensor[] t) {
        long[] one = {1}, zero = {0}, two = {2};
        Tensor h;
        if (maxPool) {
            h = F.maxPool2d(F.relu(F.conv2d(t[6].unsqueeze(0), t[0], t[1], one, zero, one, 1)), 2);
            h = F.maxPool2d(F.relu(F.conv2d(h, t[2], t[3], one, zero, one, 1)), 2);
        } else {
            h = F.relu(F.conv2d(t[6].unsqueeze(0), t[0], t[1], two, one, one, 1));
            h = F.relu(F.conv2d(h, t[2], t[3], two, one, one, 1));
        }
        return F.crossEntropy(F.linear(h.flatten(1), t[4], t[5]), t[7].unsqueeze(0));
    }

    /** The range of the direct kernels: float32, up to 72 weights per output channel. */
    @Test
    void fitsFloat32ProblemsWithFewWeightsPerChannel() {
        long[] one = {1}, zero = {0};
        long[] in = {2, 8, 13, 13};
        ConvOps.Geometry small = ConvOps.geometry("convolution", in, new long[] {16, 8, 3, 3}, one, zero, one, 1);
        assertTrue(DirectConvKernels.fits(DType.FLOAT32, small));
        assertFalse(DirectConvKernels.fits(DType.FLOAT64, small));
        ConvOps.Geometry wide =
                ConvOps.geometry("convolution", new long[] {2, 9, 13, 13}, new long[] {16, 9, 3, 3}, one, zero, one, 1);
        assertFalse(DirectConvKernels.fits(DType.FLOAT32, wide), "81 weights per channel");
        ConvOps.Geometry grouped =
                ConvOps.geometry("convolution", new long[] {2, 9, 13, 13}, new long[] {18, 3, 3, 3}, one, zero, one, 3);
        assertTrue(DirectConvKernels.fits(DType.FLOAT32, grouped), "27 weights per channel of each group");
    }

    private static void assertClose(Tensor want, Tensor got, String what) {
        assertEquals(want.dtype(), got.dtype(), what + ": dtype");
        assertArrayEquals(want.shape(), got.shape(), what + ": shape");
        double[] w = want.toDoubleArray(), g = got.toDoubleArray();
        double scale = 0;
        for (double v : w) scale = Math.max(scale, Math.abs(v));
        for (int i = 0; i < w.length; i++) {
            double tol = 1e-5 * scale + 1e-5 * Math.abs(w[i]);
            assertTrue(
                    Math.abs(w[i] - g[i]) <= tol, what + ": element " + i + " expected " + w[i] + " but was " + g[i]);
        }
    }

    private static long[] longs(Object list) {
        return ((List<?>) list)
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }
}
