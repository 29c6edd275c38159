package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.func.Func;
import org.jtorch.storage.TensorImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code gelu_backward} as one op: values and its own derivatives against PyTorch 1.13
 * ({@code torch.ops.aten.gelu_backward} and autograd through it, float64), finite differences
 * (gradcheck/gradgradcheck), the float32 vector kernel against float64, layouts, meta and errors.
 */
class GeluBackwardTest {
    private static final double[] X = {-6.0, -3.5, -1.25, -0.3, 0.0, 0.7, 1.9, 4.2};
    private static final double[] G = {1.0, -2.0, 0.5, 3.0, 1.5, -0.25, 2.0, 1.0};
    private static final double[] V = {0.3, 1.0, -1.0, 2.0, 0.5, 1.5, -0.7, 0.2};

    private static double[] expected(String approximate) {
        return "tanh".equals(approximate)
                ? new double[] {
                    -7.709976012836329e-10,
                    0.004845287520233467,
                    -0.06124631612482431,
                    0.8031136450835945,
                    0.75,
                    -0.244089304664026,
                    2.1935636161995893,
                    1.000133975488202
                }
                : new double[] {
                    -3.546870945402639e-08,
                    0.005643520707249241,
                    -0.06133079153471108,
                    0.8030166995186704,
                    0.75,
                    -0.24415352528341497,
                    2.1919069765117674,
                    1.0002342151355617
                };
    }

    /** d/dself of sum(V · gelu_backward(G, self)), from PyTorch. */
    private static double[] expectedSecond(String approximate) {
        return "tanh".equals(approximate)
                ? new double[] {
                    -2.0472741434844693e-09,
                    0.01709891832173015,
                    -0.040590489902441865,
                    4.368890690603471,
                    0.5984134206021491,
                    -0.1765735975667376,
                    0.14695841186795178,
                    -0.0001278769886077761
                }
                : new double[] {
                    -6.197400506819752e-08,
                    0.01788999524843808,
                    -0.03995448742884855,
                    4.370704365177606,
                    0.5984134206021491,
                    -0.1768137897689286,
                    0.14789804650212102,
                    -0.0001843739159424567
                };
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tanh"})
    void valuesMatchPyTorch(String approximate) {
        Tensor out = PointwiseOps.geluBackward(Torch.tensor(G), Torch.tensor(X), approximate);
        assertArrayEquals(expected(approximate), out.toDoubleArray(), 1e-15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tanh"})
    void geluGradientIsGeluBackward(String approximate) {
        Tensor x = Torch.tensor(X).requiresGrad(true);
        Tensor dx =
                Autograd.grad(Torch.gelu(x, approximate).mul(Torch.tensor(G)).sum(), x, false);
        assertArrayEquals(expected(approximate), dx.toDoubleArray(), 1e-15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tanh"})
    void ownDerivativesMatchPyTorch(String approximate) {
        Tensor g = Torch.tensor(G).requiresGrad(true), x = Torch.tensor(X).requiresGrad(true);
        Tensor y = PointwiseOps.geluBackward(g, x, approximate)
                .mul(Torch.tensor(V))
                .sum();
        List<Tensor> d = Autograd.grad(List.of(y), List.of(g, x), Autograd.GradOptions.defaults());
        // d/dgrad is V · gelu'(x) = gelu_backward(V, x)
        assertArrayEquals(
                PointwiseOps.geluBackward(Torch.tensor(V), Torch.tensor(X), approximate)
                        .toDoubleArray(),
                d.get(0).toDoubleArray(),
                1e-15);
        assertArrayEquals(expectedSecond(approximate), d.get(1).toDoubleArray(), 1e-14);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tanh"})
    void gradcheckAndGradgradcheck(String approximate) {
        Tensor x = Torch.tensor(new double[] {-2.5, -0.8, 0.1, 1.3, 3.1}).requiresGrad(true);
        Tensor g = Torch.tensor(new double[] {0.7, -1.1, 2.0, 0.4, -0.3});
        assertTrue(Autograd.gradcheck(t -> Torch.gelu(t, approximate), x));
        assertTrue(Autograd.gradgradcheck(t -> Torch.gelu(t, approximate), x));
        assertTrue(Autograd.gradcheck(t -> PointwiseOps.geluBackward(g, t, approximate), x));
        assertTrue(Autograd.gradgradcheck(t -> PointwiseOps.geluBackward(g, t, approximate), x));
        assertTrue(Autograd.gradgradcheck(
                t -> PointwiseOps.geluBackward(t, x.detach(), approximate),
                g.clone().requiresGrad(true)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tanh"})
    void forwardModeMatchesReverseMode(String approximate) {
        Tensor x = Torch.tensor(X), t = Torch.tensor(V), g = Torch.tensor(G);
        Tensor tangent = (Tensor) Func.jvp(
                        a -> PointwiseOps.geluBackward((Tensor) a[0], (Tensor) a[1], approximate),
                        new Object[] {g, x},
                        new Object[] {t, t})
                .jvpOut();
        // tangent = gelu_backward(t, x) + t · g · gelu''(x), the second term being d/dx of sum(t·g·gelu'(x)) per
        // element
        Tensor xr = x.clone().requiresGrad(true);
        Tensor second = Autograd.grad(
                PointwiseOps.geluBackward(g.mul(t), xr, approximate).sum(), xr, false);
        Tensor expected = PointwiseOps.geluBackward(t, x, approximate).add(second);
        assertArrayEquals(expected.toDoubleArray(), tangent.toDoubleArray(), 1e-14);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tanh"})
    void float32KernelAgreesWithFloat64OnStridedAndBroadcastLayouts(String approximate) {
        Tensor x64 = Torch.linspace(-7, 7, 6 * 37, DType.FLOAT64).reshape(6, 37);
        Tensor g64 = Torch.linspace(-2, 3, 37, DType.FLOAT64);
        Tensor ref = PointwiseOps.geluBackward(g64, x64, approximate);
        // transposed self and broadcast grad, in float32
        Tensor x32 = x64.to(DType.FLOAT32).t().contiguous().t();
        Tensor out = PointwiseOps.geluBackward(g64.to(DType.FLOAT32), x32, approximate);
        assertEquals(DType.FLOAT32, out.dtype());
        assertArrayEquals(new long[] {6, 37}, out.shape());
        double[] r = ref.toDoubleArray(), o = out.toDoubleArray();
        for (int i = 0; i < r.length; i++) assertEquals(r[i], o[i], 2e-6 * Math.max(1, Math.abs(r[i])), "element " + i);
        Tensor fwd = Torch.gelu(x32, approximate);
        double[] fr = Torch.gelu(x64, approximate).toDoubleArray(), fo = fwd.toDoubleArray();
        for (int i = 0; i < fr.length; i++)
            assertEquals(fr[i], fo[i], 2e-6 * Math.max(1, Math.abs(fr[i])), "gelu element " + i);
    }

    @Test
    void emptyMetaAndPromotion() {
        assertArrayEquals(
                new long[] {0, 3},
                PointwiseOps.geluBackward(Torch.zeros(0, 3), Torch.zeros(0, 3), "none")
                        .shape());
        Tensor meta = PointwiseOps.geluBackward(
                Tensor.of(TensorImpl.meta(new long[] {4, 1}, DType.FLOAT32)),
                Tensor.of(TensorImpl.meta(new long[] {5}, DType.FLOAT64)),
                "tanh");
        assertEquals(Device.META, meta.device());
        assertEquals(DType.FLOAT64, meta.dtype());
        assertArrayEquals(new long[] {4, 5}, meta.shape());
    }

    @Test
    void integerInputsAreRefused() {
        TorchException e = assertThrows(
                TorchException.class,
                () -> PointwiseOps.geluBackward(Torch.tensor(new long[] {1}), Torch.tensor(new long[] {2}), "none"));
        assertTrue(e.getMessage().contains("\"gelu_backward_cpu\" not implemented for 'Long'"), e.getMessage());
    }

    @Test
    void geluAtInfinityIsTheLimit() {
        // x·Φ(x) → +inf as x → +inf on every dtype and layout (PyTorch: the same on its strided, float16 and float64
        // paths; its contiguous float32/bfloat16 kernel gives NaN); at -inf, -inf·0 is NaN as in every PyTorch path
        for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64, DType.BFLOAT16, DType.FLOAT16)) {
            Tensor x = Torch.tensor(new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0})
                    .to(dtype);
            double[] y = org.jtorch.nn.functional.F.gelu(x).toDoubleArray();
            assertEquals(Double.POSITIVE_INFINITY, y[0], 0, dtype.pyName());
            assertTrue(Double.isNaN(y[1]), dtype.pyName());
        }
    }
}
