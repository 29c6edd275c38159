package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.linalg.Linalg;
import org.junit.jupiter.api.Test;

/** Divergences from PyTorch 2.13 that the differential run found and JTorch fixed, each against PyTorch's values. */
class DiffRunFindingsTest {
    /**
     * acosh below 1 is NaN, also for large negative x, where x + sqrt(x² - 1) cancelled to 0 and gave -inf; large x no
     * longer overflows x²; near 1 the log1p form keeps the digits. Expected values: PyTorch 2.13,
     * {@code torch.acosh(torch.tensor([...], dtype=torch.float64))}.
     */
    @Test
    void acoshMatchesPyTorchFromEdgeToEdge() {
        double[] x = {-1e30, Double.NEGATIVE_INFINITY, -2.0, 0.5, 1.0, 1.0 + 0x1p-40, 1.5, 3.0, 1e10, 1e200};
        double[] expected = {
            Double.NaN,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            0.0,
            1.3486991523485068e-06,
            0.9624236501192069,
            1.762747174039086,
            23.7189981105004,
            461.2101657793691
        };
        double[] got = Torch.acosh(Torch.tensor(x, DType.FLOAT64, x.length)).toDoubleArray();
        for (int i = 0; i < x.length; i++) {
            double tol = Math.abs(expected[i]) * 1e-15;
            if (Double.isNaN(expected[i])) assertEquals(Double.NaN, got[i], "acosh(" + x[i] + ")");
            else assertEquals(expected[i], got[i], tol, "acosh(" + x[i] + ")");
        }
        assertEquals(
                Double.POSITIVE_INFINITY,
                Torch.acosh(Torch.scalarTensor(Double.POSITIVE_INFINITY, DType.FLOAT64))
                        .item());
    }

    /** linalg.vecdot refuses integer and bool inputs as ATen's checkFloatingOrComplex does (PyTorch 2.13's message). */
    @Test
    void vecdotRefusesIntegerInputs() {
        Tensor i = Torch.tensor(new double[] {1, 2}, DType.INT64, 2);
        TorchException e = assertThrows(TorchException.class, () -> Linalg.vecdot(i, i));
        assertEquals("linalg.vecdot: Expected a floating point or complex tensor as input. Got Long", e.getMessage());
        Tensor b = Torch.tensor(new double[] {1}, DType.BOOL, 1);
        e = assertThrows(TorchException.class, () -> Linalg.vecdot(b, b));
        assertEquals("linalg.vecdot: Expected a floating point or complex tensor as input. Got Bool", e.getMessage());
    }

    /**
     * The softmax backward ops return grad_output's dtype whatever input_dtype says (ATen's meta; only a float32 grad
     * of a float16 input becomes float16). Expected: PyTorch 2.13, {@code torch.ops.aten._log_softmax_backward_data}
     * and {@code _softmax_backward_data} on the same tensors.
     */
    @Test
    void softmaxBackwardDataKeepsGradOutputsDtype() {
        Tensor g = Torch.tensor(new double[] {0.5, -1.0, 2.0}, DType.BFLOAT16, 1, 3);
        Tensor logY = Torch.tensor(new double[] {-1.25, -0.5, -2.0}, DType.BFLOAT16, 1, 3);
        Tensor r = ReductionOps.logSoftmaxBackwardData(g, logY, 1, DType.FLOAT64);
        assertEquals(DType.BFLOAT16, r.dtype());
        assertArrayEquals(new double[] {0.0703125, -1.90625, 1.796875}, r.toDoubleArray());

        Tensor g32 = Torch.tensor(new double[] {0.5, -1.0, 2.0}, DType.FLOAT32, 1, 3);
        Tensor y = Torch.tensor(new double[] {0.25, 0.5, 0.25}, DType.FLOAT32, 1, 3);
        Tensor s = ReductionOps.softmaxBackwardData(g32, y, 1, DType.FLOAT64);
        assertEquals(DType.FLOAT32, s.dtype());
        assertArrayEquals(new double[] {0.09375, -0.5625, 0.46875}, s.toDoubleArray());
    }

    /** Values equal to PyTorch's, NaN for NaN and infinities exactly, else within a relative 1e-12. */
    private static void assertMatches(double[] expected, double[] got, String what) {
        assertEquals(expected.length, got.length, what);
        for (int i = 0; i < expected.length; i++) {
            String at = what + " at " + i + ": " + got[i];
            if (Double.isNaN(expected[i])) assertTrue(Double.isNaN(got[i]), at);
            else assertEquals(expected[i], got[i], Math.abs(expected[i]) * 1e-12, at);
        }
    }

    /**
     * First gradients of {@code y.sum()} and the gradients of {@code Σ (i + 1.5) · first[i]}, as the run takes them.
     */
    private static List<Tensor> secondOrder(List<Tensor> leaves, Tensor y, List<Tensor> firstOut) {
        List<Tensor> first = Autograd.grad(
                List.of(y.sum()), leaves, Autograd.GradOptions.defaults().createGraph(true));
        firstOut.addAll(first);
        Tensor total = null;
        for (int i = 0; i < first.size(); i++) {
            if (!first.get(i).requiresGrad()) continue;
            Tensor term = first.get(i).mul(i + 1.5).sum();
            total = total == null ? term : total.add(term);
        }
        if (total == null) return null;
        return Autograd.grad(
                List.of(total), leaves, Autograd.GradOptions.defaults().allowUnused(true));
    }

    /**
     * pow.Tensor_Tensor's gradients follow ATen's pow_backward_self / pow_backward_exponent exactly: the where around
     * the product with the incoming gradient masks the NaN that log(-0.75) brings into the second derivative where the
     * exponent is 0, and a zero base has exponent gradient -inf for a negative exponent. Expected values: PyTorch 2.13,
     * {@code b = [-0.75, 0, 0, 2, 0]}, {@code e = [0, 2, -1, 1.5, 0]}, first gradients of {@code pow(b, e).sum()} and
     * the gradients of {@code 1.5 · Σ gb + 2.5 · Σ ge}.
     */
    @Test
    void powSecondDerivativeMasksAsPyTorch() {
        Tensor b = Torch.tensor(new double[] {-0.75, 0, 0, 2, 0}).requiresGrad(true);
        Tensor e = Torch.tensor(new double[] {0, 2, -1, 1.5, 0}).requiresGrad(true);
        List<Tensor> first = new ArrayList<>();
        List<Tensor> second = secondOrder(List.of(b, e), Torch.pow(b, e), first);
        double inf = Double.POSITIVE_INFINITY, nan = Double.NaN;
        assertMatches(
                new double[] {0, 0, -inf, 2.121320343559643, 0}, first.get(0).toDoubleArray(), "d/db");
        assertMatches(
                new double[] {nan, 0, -inf, 1.9605162869370945, 0}, first.get(1).toDoubleArray(), "d/de");
        assertMatches(
                new double[] {-3.3333333333333335, nan, inf, 8.006997072774656, nan},
                second.get(0).toDoubleArray(),
                "second, base");
        assertMatches(
                new double[] {nan, nan, inf, 7.724217008194623, nan},
                second.get(1).toDoubleArray(),
                "second, exp");
    }

    /**
     * A variance over the whole tensor with no degrees of freedom left takes ATen's var_backward branch: NaN where x
     * equals the mean, inf elsewhere, a constant of x, so the first derivative does not depend on x (PyTorch's second
     * derivative is 0, its first gradient does not even require grad). Expected values: PyTorch 2.13.
     */
    @Test
    void varianceWithoutDegreesOfFreedomDifferentiatesAsPyTorch() {
        Tensor x = Torch.scalarTensor(0.7, DType.FLOAT64).requiresGrad(true);
        for (Tensor y : List.of(Torch.var(x), Torch.var(x, 0), Torch.varMean(x)[0])) {
            List<Tensor> first = new ArrayList<>();
            assertNull(secondOrder(List.of(x), y, first), "the first derivative is a constant of x");
            assertTrue(Double.isNaN(first.get(0).item()));
        }
        Tensor v = Torch.tensor(new double[] {1, 2, 2}).requiresGrad(true);
        double inf = Double.POSITIVE_INFINITY;
        for (double correction : new double[] {3, 4}) {
            List<Tensor> first = new ArrayList<>();
            assertNull(secondOrder(List.of(v), Torch.var(v, null, correction, false), first));
            assertMatches(new double[] {inf, inf, inf}, first.get(0).toDoubleArray(), "correction " + correction);
        }
        List<Tensor> first = new ArrayList<>();
        List<Tensor> second = secondOrder(List.of(v), Torch.var(v, new long[] {0}, 3, false), first);
        assertMatches(new double[] {-inf, inf, inf}, first.get(0).toDoubleArray(), "along dim 0");
        assertMatches(
                new double[] {Double.NaN, Double.NaN, Double.NaN}, second.get(0).toDoubleArray(), "along dim 0");
    }

    /**
     * sinc's gradient at complex x is {@code g · conj(f'(x))}: the rule conjugated only the denominator of f', which
     * the float64 cases cannot see and the complex ones found. Expected: PyTorch 2.13, {@code torch.autograd.grad(
     * torch.sinc(x), x, g)} at x = [0.3+0.7i, -1.2+0.4i], g = [1+0.5i, -0.3+0.2i].
     */
    @Test
    void sincGradientConjugatesTheWholeDerivative() {
        Tensor x = Torch.complex(Torch.tensor(new double[] {0.3, -1.2}), Torch.tensor(new double[] {0.7, 0.4}))
                .requiresGrad(true);
        Tensor g = Torch.complex(Torch.tensor(new double[] {1.0, -0.3}), Torch.tensor(new double[] {0.5, 0.2}));
        Tensor grad = Autograd.grad(
                        List.of(Torch.sinc(x)),
                        List.of(x),
                        Autograd.GradOptions.defaults().gradOutputs(List.of(g)))
                .get(0);
        double[] expected = {-3.924613173271399, 1.3414629018890365, 0.059646131475768915, 0.4674377565797488};
        double[] got = Torch.viewAsReal(grad).toDoubleArray();
        for (int i = 0; i < expected.length; i++) assertEquals(expected[i], got[i], 1e-13, "coordinate " + i);
    }

    /**
     * Complex pow at a zero base is ATen's exp(e · log 0): 0 for Re e > 0, inf + NaN i at the pole Re e < 0, NaN for Re
     * e = 0; it was 0 for every exponent, which made the gradient e · 0^(e-1) at 0 zero where PyTorch's is NaN (found
     * by _foreach_pow's complex gradients). Expected: PyTorch 2.13, {@code torch.pow(zeros, e)} and
     * {@code torch.autograd.grad(torch.pow(x, 0.75+0j).real.sum(), x)} at x = 0.
     */
    @Test
    void complexPowAtZeroIsAtensExpOfLog() {
        Tensor zeros = Torch.zeros(new long[] {5}, DType.COMPLEX128);
        Tensor e = Torch.complex(
                Torch.tensor(new double[] {-0.25, -0.25, 0.5, 0.0, 0.5}),
                Torch.tensor(new double[] {0.0, 0.3, 0.0, 0.3, -2.0}));
        double inf = Double.POSITIVE_INFINITY, nan = Double.NaN;
        assertArrayEquals(
                new double[] {inf, nan, inf, nan, 0, 0, nan, nan, 0, 0},
                Torch.viewAsReal(Torch.pow(zeros, e)).toDoubleArray());
        Tensor x = Torch.zeros(new long[] {1}, DType.COMPLEX128).requiresGrad(true);
        Tensor exponent = Torch.complex(Torch.tensor(new double[] {0.75}), Torch.tensor(new double[] {0.0}));
        Tensor grad = Autograd.grad(
                        List.of(Torch.real(Torch.pow(x, exponent)).sum()), List.of(x), Autograd.GradOptions.defaults())
                .get(0);
        assertArrayEquals(new double[] {nan, nan}, Torch.viewAsReal(grad).toDoubleArray());
    }
}
