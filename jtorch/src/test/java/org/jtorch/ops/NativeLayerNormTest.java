package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * native_layer_norm: its statistics against their definition computed here in double, the fused first-order backward
 * against the differentiable rule (taken under create_graph) and finite differences, gradients that reach the mean and
 * rstd outputs, thread-count independence, and ATen's errors. F.layer_norm's values against PyTorch are in
 * FunctionalGoldenTest.
 */
class NativeLayerNormTest {

    private static Tensor randn(DType dtype, long seed, long... shape) {
        return Torch.randn(shape, dtype, org.jtorch.Device.CPU, new Generator().manualSeed(seed));
    }

    @Test
    void statisticsAndOutputFollowTheDefinition() {
        int rows = 6, n = 37; // n not a multiple of the vector width: the scalar tails run too
        Tensor x = randn(DType.FLOAT32, 1, 2, 3, n).mul(3).add(1),
                w = randn(DType.FLOAT32, 2, n),
                b = randn(DType.FLOAT32, 3, n);
        Tensor[] r = NormOps.nativeLayerNorm(x, new long[] {n}, w, b, 1e-5);
        assertArrayEquals(new long[] {2, 3, 1}, r[1].shape());
        assertArrayEquals(new long[] {2, 3, 1}, r[2].shape());
        float[] xs = x.toFloatArray(), ws = w.toFloatArray(), bs = b.toFloatArray();
        float[] out = r[0].toFloatArray(), mean = r[1].toFloatArray(), rstd = r[2].toFloatArray();
        for (int i = 0; i < rows; i++) {
            double s = 0, ss = 0;
            for (int j = 0; j < n; j++) s += xs[i * n + j];
            double mu = s / n;
            for (int j = 0; j < n; j++) ss += (xs[i * n + j] - mu) * (xs[i * n + j] - mu);
            double rs = 1 / Math.sqrt(ss / n + 1e-5);
            assertEquals(mu, mean[i], 1e-5);
            assertEquals(rs, rstd[i], 1e-5 * rs);
            for (int j = 0; j < n; j++) assertEquals((xs[i * n + j] - mu) * rs * ws[j] + bs[j], out[i * n + j], 2e-5);
        }
    }

    @Test
    void emptyNormalizedShapeGivesZeroMeanAndNaNRstdAsATen() {
        Tensor[] r = NormOps.nativeLayerNorm(Torch.zeros(3, 0), new long[] {0}, null, null, 1e-5);
        assertArrayEquals(new long[] {3, 0}, r[0].shape());
        assertArrayEquals(new double[] {0, 0, 0}, r[1].toDoubleArray());
        for (double v : r[2].toDoubleArray()) assertTrue(Double.isNaN(v));
    }

    /** The fused kernel runs in a plain backward; under create_graph the differentiable rule runs: they must agree. */
    @Test
    void fusedBackwardMatchesTheDifferentiableRule() {
        for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
            for (boolean affine : new boolean[] {true, false}) {
                Tensor x = randn(dtype, 4, 5, 7, 33).requiresGrad(true);
                Tensor w = affine ? randn(dtype, 5, 7, 33).requiresGrad(true) : null;
                Tensor b = affine ? randn(dtype, 6, 7, 33).requiresGrad(true) : null;
                Tensor g = randn(dtype, 7, 5, 7, 33);
                List<Tensor> inputs = affine ? List.of(x, w, b) : List.of(x);
                List<Tensor> fused = Autograd.grad(
                        List.of(F.layerNorm(x, new long[] {7, 33}, w, b, 1e-5)),
                        inputs,
                        Autograd.GradOptions.defaults().gradOutputs(List.of(g)));
                List<Tensor> rule = Autograd.grad(
                        List.of(F.layerNorm(x, new long[] {7, 33}, w, b, 1e-5)),
                        inputs,
                        Autograd.GradOptions.defaults().gradOutputs(List.of(g)).createGraph(true));
                double tol = dtype == DType.FLOAT32 ? 1e-4 : 1e-12;
                for (int i = 0; i < inputs.size(); i++) {
                    assertArrayEquals(
                            rule.get(i).toDoubleArray(), fused.get(i).toDoubleArray(), tol, dtype + " input " + i);
                }
            }
        }
    }

    @Test
    void gradientsByFiniteDifferencesOfTheOutputAndStatisticsOutsideTheGraph() {
        Tensor x = randn(DType.FLOAT64, 8, 3, 5).requiresGrad(true),
                w = randn(DType.FLOAT64, 9, 5).requiresGrad(true);
        Tensor b = randn(DType.FLOAT64, 10, 5).requiresGrad(true);
        GradCheck.Options o = GradCheck.Options.defaults();
        List<Tensor> in = List.of(x, w, b);
        java.util.function.Function<List<Tensor>, Tensor> out =
                t -> NormOps.nativeLayerNorm(t.get(0), new long[] {5}, t.get(1), t.get(2), 1e-5)[0];
        assertTrue(GradCheck.check(out, in, o));
        assertTrue(GradCheck.checkSecondOrder(out, in, o));
        // PyTorch: native_layer_norm's output_differentiability is [True, False, False]
        Tensor[] r = NormOps.nativeLayerNorm(x, new long[] {5}, w, b, 1e-5);
        assertTrue(r[0].requiresGrad());
        assertFalse(r[1].requiresGrad() || r[2].requiresGrad());
    }

    @Test
    void resultsDoNotDependOnTheThreadCount() {
        Tensor x = randn(DType.FLOAT32, 11, 512, 256).requiresGrad(true),
                w = randn(DType.FLOAT32, 12, 256).requiresGrad(true);
        Tensor b = randn(DType.FLOAT32, 13, 256).requiresGrad(true), g = randn(DType.FLOAT32, 14, 512, 256);
        int before = Torch.getNumThreads();
        try {
            double[][] one = run(1, x, w, b, g), two = run(2, x, w, b, g);
            for (int i = 0; i < one.length; i++) assertArrayEquals(one[i], two[i], 0.0);
        } finally {
            Torch.setNumThreads(before);
        }
    }

    private static double[][] run(int threads, Tensor x, Tensor w, Tensor b, Tensor g) {
        Torch.setNumThreads(threads);
        Tensor y = F.layerNorm(x, new long[] {256}, w, b, 1e-5);
        List<Tensor> grads = Autograd.grad(
                List.of(y), List.of(x, w, b), Autograd.GradOptions.defaults().gradOutputs(List.of(g)));
        return new double[][] {
            y.toDoubleArray(),
            grads.get(0).toDoubleArray(),
            grads.get(1).toDoubleArray(),
            grads.get(2).toDoubleArray()
        };
    }

    @Test
    void bfloat16ComputesInFloat() {
        Tensor x = randn(DType.FLOAT32, 15, 4, 64);
        Tensor want = F.layerNorm(x.to(DType.BFLOAT16).to(DType.FLOAT32), new long[] {64});
        Tensor got = F.layerNorm(x.to(DType.BFLOAT16), new long[] {64});
        assertEquals(DType.BFLOAT16, got.dtype());
        assertArrayEquals(want.to(DType.BFLOAT16).toDoubleArray(), got.toDoubleArray(), 0.0);
    }

    /**
     * Reduced precision backward computes in float32 (as ATen's kernel) from the bfloat16 statistics the forward kept:
     * its gradients are float32's to within bfloat16 rounding.
     */
    @Test
    void bfloat16BackwardComputesInFloat() {
        Tensor x32 = randn(DType.FLOAT32, 16, 8, 64),
                w32 = randn(DType.FLOAT32, 17, 64),
                g32 = randn(DType.FLOAT32, 18, 8, 64);
        Tensor x = x32.to(DType.BFLOAT16).requiresGrad(true),
                w = w32.to(DType.BFLOAT16).requiresGrad(true);
        Tensor xf = x.detach().to(DType.FLOAT32).requiresGrad(true),
                wf = w.detach().to(DType.FLOAT32).requiresGrad(true);
        Tensor g = g32.to(DType.BFLOAT16);
        List<Tensor> got = Autograd.grad(
                List.of(F.layerNorm(x, new long[] {64}, w, null, 1e-5)),
                List.of(x, w),
                Autograd.GradOptions.defaults().gradOutputs(List.of(g)));
        List<Tensor> want = Autograd.grad(
                List.of(F.layerNorm(xf, new long[] {64}, wf, null, 1e-5)),
                List.of(xf, wf),
                Autograd.GradOptions.defaults().gradOutputs(List.of(g.to(DType.FLOAT32))));
        for (int i = 0; i < 2; i++) {
            assertEquals(DType.BFLOAT16, got.get(i).dtype());
            double[] w64 = want.get(i).toDoubleArray(), g64 = got.get(i).toDoubleArray();
            for (int j = 0; j < w64.length; j++)
                assertEquals(w64[j], g64[j], 0.02 * Math.max(1, Math.abs(w64[j])), "input " + i + " at " + j);
        }
    }

    /**
     * vmap(grad(f)) through layer norm (the batch rule, then the differentiable rule under the transforms) equals a
     * loop.
     */
    @Test
    void perSampleGradientsUnderVmapMatchALoop() {
        Tensor xs = randn(DType.FLOAT64, 19, 4, 3, 6),
                w = randn(DType.FLOAT64, 20, 6),
                c = randn(DType.FLOAT64, 21, 3, 6);
        java.util.function.Function<Tensor, Tensor> f = x ->
                F.layerNorm(x, new long[] {6}, w, null, 1e-5).mul(c).square().sum();
        Tensor got = org.jtorch.func.Func.vmap(org.jtorch.func.Func.grad(f)).apply(xs);
        for (int i = 0; i < 4; i++) {
            Tensor xi = xs.select(0, i).clone().requiresGrad(true);
            Tensor want = Autograd.grad(f.apply(xi), xi, false);
            assertArrayEquals(want.toDoubleArray(), got.select(0, i).toDoubleArray(), 1e-12, "sample " + i);
        }
    }

    @Test
    void atenErrors() {
        Tensor x = Torch.zeros(2, 4);
        assertEquals(
                "\"LayerNormKernelImpl\" not implemented for 'Long'",
                assertThrows(
                                TorchException.class,
                                () -> NormOps.nativeLayerNorm(
                                        Torch.zeros(new long[] {2, 4}, DType.INT64), new long[] {4}, null, null, 1e-5))
                        .getMessage());
        assertEquals(
                "mixed dtype (CPU): expect parameter to have scalar type of Float", // PyTorch 2.13's check
                assertThrows(
                                TorchException.class,
                                () -> NormOps.nativeLayerNorm(
                                        x, new long[] {4}, Torch.ones(new long[] {4}, DType.FLOAT64), null, 1e-5))
                        .getMessage());
        assertEquals(
                "Expected weight to be of same shape as normalized_shape, "
                        + "but got weight of shape [3] and normalized_shape = [4]",
                assertThrows(
                                TorchException.class,
                                () -> NormOps.nativeLayerNorm(x, new long[] {4}, Torch.ones(3), null, 1e-5))
                        .getMessage());
        assertEquals(
                "Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 4]",
                assertThrows(TorchException.class, () -> NormOps.nativeLayerNorm(x, new long[] {3}, null, null, 1e-5))
                        .getMessage());
    }
}
