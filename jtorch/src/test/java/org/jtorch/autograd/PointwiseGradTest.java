package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jtorch.RoundingMode;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.TernaryOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Backward rules of the pointwise, clamp and ternary families, checked against central finite differences to first and
 * second order (float64, PyTorch's gradcheck tolerances). Inputs stay away from kinks: each domain below keeps the
 * points where an op is not differentiable (ties, bounds, integers for the rounding ops, branch points) at least 0.05
 * away. Unary ops read a transposed view of their input, binary ops broadcast a [3] operand against a [2, 3] one.
 */
class PointwiseGradTest {
    private static final double[] ANY = {0.3, -1.2, 2.1, 0.7, -0.4, 1.1};
    private static final double[] POSITIVE = {0.3, 1.2, 2.1, 0.7, 0.4, 1.6};
    private static final double[] UNIT = {0.3, -0.6, 0.5, 0.7, -0.4, 0.1};
    private static final double[] PROBABILITY = {0.3, 0.6, 0.2, 0.7, 0.45, 0.9};
    private static final double[] ABOVE_ONE = {1.3, 2.2, 1.7, 3.1, 1.25, 1.9};
    /** A [3] operand: nonzero, with {@code ANY / OTHER} never near an integer (remainder, fmod, rounding division). */
    private static final double[] OTHER = {0.8, -1.3, 0.9};

    private static final double[] OTHER_POSITIVE = {0.8, 1.3, 0.9};
    /** Never within 0.2 of the matching {@code ANY} entries: no ties for maximum and friends. */
    private static final double[] RIVAL = {0.5, -1.0, 1.5};

    /** One differentiable function of float64 leaves and the leaves' values. */
    private record Case(String name, Function<List<Tensor>, Tensor> fn, double[]... inputs) {}

    private static Case unary(String name, double[] domain, UnaryOperator<Tensor> op) {
        return new Case(name, xs -> op.apply(xs.get(0).view(2, 3).t()), domain);
    }

    private static Case binary(String name, double[] self, double[] other, BinaryOperator<Tensor> op) {
        return new Case(name, xs -> op.apply(xs.get(0).view(2, 3), xs.get(1)), self, other);
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        // exponentials, logarithms, trigonometry
        c.add(unary("exp2", ANY, Torch::exp2));
        c.add(unary("expm1", ANY, Torch::expm1));
        c.add(unary("log2", POSITIVE, Torch::log2));
        c.add(unary("log10", POSITIVE, Torch::log10));
        c.add(unary("log1p", UNIT, Torch::log1p));
        c.add(unary("tan", UNIT, Torch::tan));
        c.add(unary("asin", UNIT, Torch::asin));
        c.add(unary("acos", UNIT, Torch::acos));
        c.add(unary("atan", ANY, Torch::atan));
        c.add(unary("sinh", ANY, Torch::sinh));
        c.add(unary("cosh", ANY, Torch::cosh));
        c.add(unary("asinh", ANY, Torch::asinh));
        c.add(unary("acosh", ABOVE_ONE, Torch::acosh));
        c.add(unary("atanh", UNIT, Torch::atanh));
        c.add(unary("deg2rad", ANY, Torch::deg2rad));
        c.add(unary("rad2deg", ANY, Torch::rad2deg));
        // activations and special functions
        c.add(unary("logit", PROBABILITY, Torch::logit));
        c.add(unary("logit-eps", new double[] {0.3, 0.6, 0.1, 0.7, 0.45, 0.95}, x -> Torch.logit(x, 0.2)));
        c.add(unary("silu", ANY, Torch::silu));
        c.add(unary("gelu", ANY, Torch::gelu));
        c.add(unary("gelu-tanh", ANY, x -> Torch.gelu(x, "tanh")));
        c.add(unary("softplus", ANY, Torch::softplus));
        c.add(unary("softplus-beta-threshold", ANY, x -> Torch.softplus(x, 2.0, 1.0)));
        c.add(unary("erf", ANY, Torch::erf));
        c.add(unary("erfc", ANY, Torch::erfc));
        c.add(unary("erfinv", UNIT, Torch::erfinv));
        c.add(unary("nan_to_num", ANY, Torch::nanToNum));
        // piecewise constant or linear
        c.add(unary("floor", ANY, Torch::floor));
        c.add(unary("ceil", ANY, Torch::ceil));
        c.add(unary("trunc", ANY, Torch::trunc));
        c.add(unary("round", ANY, Torch::round));
        c.add(unary("round-decimals", ANY, x -> Torch.round(x, 1L)));
        c.add(unary("sign", ANY, Torch::sign));
        c.add(unary("sgn", ANY, Torch::sgn));
        c.add(unary("angle", ANY, Torch::angle));
        c.add(unary("frac", ANY, Torch::frac));
        c.add(unary("abs", ANY, Torch::abs));
        // binary
        c.add(binary("atan2", ANY, OTHER, Torch::atan2));
        c.add(binary("hypot", ANY, OTHER, Torch::hypot));
        c.add(binary("copysign", ANY, OTHER, Torch::copysign));
        c.add(unary("copysign-scalar", ANY, x -> Torch.copysign(x, -1.5)));
        c.add(binary("xlogy", ANY, OTHER_POSITIVE, Torch::xlogy));
        c.add(unary("xlogy-scalar", ANY, x -> Torch.xlogy(x, 2.5)));
        c.add(binary("remainder", ANY, OTHER, Torch::remainder));
        c.add(unary("remainder-scalar", ANY, x -> Torch.remainder(x, 0.8)));
        c.add(binary("fmod", ANY, OTHER, Torch::fmod));
        c.add(unary("fmod-scalar", ANY, x -> Torch.fmod(x, -0.8)));
        c.add(binary("div-trunc", ANY, OTHER, (a, b) -> Torch.div(a, b, RoundingMode.TRUNC)));
        c.add(binary("div-floor", ANY, OTHER, (a, b) -> Torch.div(a, b, RoundingMode.FLOOR)));
        c.add(binary("maximum", ANY, RIVAL, Torch::maximum));
        c.add(binary("minimum", ANY, RIVAL, Torch::minimum));
        c.add(binary("fmax", ANY, RIVAL, Torch::fmax));
        c.add(binary("fmin", ANY, RIVAL, Torch::fmin));
        // clamp family: Scalar bounds, one Tensor bound, two Tensor bounds (ordered, inverted)
        c.add(unary("clamp-scalar", ANY, x -> Torch.clamp(x, -0.5, 1.0)));
        c.add(unary("clamp-scalar-min-only", ANY, x -> Torch.clamp(x, 0.5, (Double) null)));
        c.add(unary("clamp_min-scalar", ANY, x -> Torch.clampMin(x, 0.5)));
        c.add(unary("clamp_max-scalar", ANY, x -> Torch.clampMax(x, 0.5)));
        c.add(unary("hardtanh", ANY, Torch::hardtanh));
        c.add(unary("hardtanh-bounds", ANY, x -> Torch.hardtanh(x, -0.5, 0.5)));
        c.add(binary("clamp_min-tensor", ANY, RIVAL, Torch::clampMin));
        c.add(binary("clamp_max-tensor", ANY, RIVAL, Torch::clampMax));
        c.add(binary("clamp-tensor-min-only", ANY, RIVAL, (x, m) -> Torch.clamp(x, m, null)));
        c.add(binary("clamp-tensor-max-only", ANY, RIVAL, (x, m) -> Torch.clamp(x, null, m)));
        // column 1 ordered and inside, column 2 below min / above max, column 3 inverted (min > max)
        c.add(new Case(
                "clamp-tensor",
                xs -> Torch.clamp(xs.get(0).view(2, 3), xs.get(1), xs.get(2)),
                ANY,
                new double[] {-0.5, -1.0, 2.3},
                new double[] {1.0, -0.6, 1.9}));
        // ternary
        c.add(binary("lerp-scalar", ANY, OTHER, (a, b) -> Torch.lerp(a, b, 0.3)));
        c.add(new Case(
                "lerp-tensor", xs -> Torch.lerp(xs.get(0).view(2, 3), xs.get(1), xs.get(2)), ANY, OTHER, new double[] {
                    0.2, 0.7, -0.4
                }));
        c.add(new Case(
                "addcmul", xs -> Torch.addcmul(xs.get(0).view(2, 3), xs.get(1), xs.get(2), 0.5), ANY, OTHER, RIVAL));
        c.add(new Case(
                "addcdiv", xs -> Torch.addcdiv(xs.get(0).view(2, 3), xs.get(1), xs.get(2), -2.0), ANY, RIVAL, OTHER));
        c.add(unary("masked_fill-scalar", ANY, x -> Torch.maskedFill(x, mask(), 5.0)));
        c.add(new Case(
                "masked_fill-tensor",
                xs -> Torch.maskedFill(
                        xs.get(0).view(2, 3).t(), mask(), xs.get(1).reshape()),
                ANY,
                new double[] {0.7}));
        return c;
    }

    /** A [3, 2] bool mask with both values in each row and column. */
    private static Tensor mask() {
        return Torch.tensor(new boolean[] {true, false, false, true, true, false})
                .view(3, 2);
    }

    private static List<Tensor> leaves(double[][] values) {
        List<Tensor> xs = new ArrayList<>();
        for (double[] v : values) xs.add(Torch.tensor(v).requiresGrad(true));
        return xs;
    }

    @TestFactory
    Stream<DynamicTest> firstAndSecondDerivativesMatchFiniteDifferences() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Case c : cases()) {
            tests.add(DynamicTest.dynamicTest(
                    c.name() + "/gradcheck",
                    () -> assertTrue(GradCheck.check(c.fn(), leaves(c.inputs()), GradCheck.Options.defaults()))));
            tests.add(DynamicTest.dynamicTest(
                    c.name() + "/gradgradcheck",
                    () -> assertTrue(
                            GradCheck.checkSecondOrder(c.fn(), leaves(c.inputs()), GradCheck.Options.defaults()))));
        }
        return tests.stream();
    }

    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    private static double[] grad(Tensor out, Tensor in) {
        return Autograd.grad(
                        List.of(out.sum()),
                        List.of(in),
                        Autograd.GradOptions.defaults().retainGraph(true))
                .get(0)
                .toDoubleArray();
    }

    @Test
    void piecewiseConstantOpsGiveZerosNotNothing() {
        for (UnaryOperator<Tensor> op : List.<UnaryOperator<Tensor>>of(
                Torch::floor, Torch::ceil, Torch::trunc, Torch::round, Torch::sign, Torch::sgn)) {
            Tensor x = leaf(0.5, -1.5, 2.0);
            // an infinite upstream gradient must still give 0, not 0 * inf = NaN (PyTorch's zeros_like(grad))
            op.apply(x).mul(Double.POSITIVE_INFINITY).sum().backward();
            assertArrayEquals(new double[] {0, 0, 0}, x.grad().toDoubleArray(), 0);
        }
        Tensor a = leaf(7, -7), b = leaf(2, 2);
        Torch.div(a, b, RoundingMode.FLOOR)
                .add(Torch.div(a, b, RoundingMode.TRUNC))
                .sum()
                .backward();
        assertArrayEquals(new double[] {0, 0}, a.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {0, 0}, b.grad().toDoubleArray(), 0);
    }

    @Test
    void floorDivideHasNoDerivativeAsInPyTorch() {
        // PyTorch 2.13: RuntimeError "derivative for aten::floor_divide is not implemented", raised by backward
        Tensor a = leaf(7, -7), b = leaf(2, 2);
        Tensor q = Torch.floorDivide(a, b);
        assertArrayEquals(new double[] {3, -4}, q.detach().toDoubleArray(), 0);
        TorchException e = assertThrows(TorchException.class, () -> q.sum().backward());
        assertTrue(e.getMessage().contains("derivative for aten::floor_divide is not implemented"), e.getMessage());
    }

    @Test
    void closedFormsAtChosenPoints() {
        Tensor x = leaf(0.5);
        assertEquals(Math.pow(2, 0.5) * Math.log(2), grad(Torch.exp2(x), x)[0], 1e-12);
        assertEquals(1 / Math.sqrt(1 - 0.25), grad(Torch.asin(x), x)[0], 1e-12);
        assertEquals(1 / (0.5 * 0.5), grad(Torch.logit(x), x)[0], 1e-12);
        assertEquals(2 / Math.sqrt(Math.PI) * Math.exp(-0.25), grad(Torch.erf(x), x)[0], 1e-12);
        double s = 1 / (1 + Math.exp(-0.5));
        assertEquals(s * (1 + 0.5 * (1 - s)), grad(Torch.silu(x), x)[0], 1e-12);
        assertEquals(1 / (1 + Math.exp(-1.0)), grad(Torch.softplus(x, 2.0, 20.0), x)[0], 1e-12); // sigmoid(beta x)
        assertEquals(1.0, grad(Torch.softplus(x, 2.0, 0.5), x)[0], 0); // beta x above the threshold: the identity
        Tensor zero = leaf(0.0), negative = leaf(-3.0);
        assertEquals(0.0, grad(Torch.xlogy(zero, negative), zero)[0], 0); // log(y) is NaN, but at x = 0 the slope is 0
        assertEquals(Math.log(2), grad(Torch.xlogy(zero, 2.0), zero)[0], 1e-12);
        assertEquals(0.0, grad(Torch.xlogy(zero, -2.0), zero)[0], 0);
    }

    @Test
    void logitOutsideItsDomain() {
        Tensor x = leaf(-0.5, 0.1, 0.5, 1.5);
        assertArrayEquals(new double[] {Double.NaN, 1 / 0.09, 4, Double.NaN}, grad(Torch.logit(x), x), 1e-12);
        // with eps the input is clamped to [eps, 1 - eps]: 0 outside, the bounds themselves included in the inside
        assertArrayEquals(new double[] {0, 1 / 0.09, 4, 0}, grad(Torch.logit(x, 0.1), x), 1e-9);
    }

    @Test
    void nanToNumPassesGradientOnlyThroughFiniteValues() {
        Tensor x = leaf(1, Double.NaN, Double.POSITIVE_INFINITY, -2);
        assertArrayEquals(new double[] {1, 0, 0, 1}, grad(Torch.nanToNum(x), x), 0);
    }

    @Test
    void copysignAtZeroAndTheSignOperand() {
        Tensor x = leaf(0.0, 2.0, -3.0), s = leaf(-1.0, -1.0, 1.0);
        List<Tensor> g =
                Autograd.grad(List.of(Torch.copysign(x, s).sum()), List.of(x, s), Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {0, -1, -1}, g.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0, 0, 0}, g.get(1).toDoubleArray(), 0); // zeros, not a missing gradient
    }

    @Test
    void remainderAndFmodGradientsOfTheDivisor() {
        Tensor a = leaf(7.5, -7.5), b = leaf(2.0, 2.0);
        List<Tensor> r =
                Autograd.grad(List.of(Torch.remainder(a, b).sum()), List.of(a, b), Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {1, 1}, r.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {-3, 4}, r.get(1).toDoubleArray(), 0); // -floor(a / b)
        List<Tensor> f = Autograd.grad(List.of(Torch.fmod(a, b).sum()), List.of(a, b), Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {-3, 3}, f.get(1).toDoubleArray(), 0); // -trunc(a / b)
    }

    @Test
    void gradientsReachLowerPrecisionLeavesInTheirDtype() {
        Tensor x = Torch.tensor(new float[] {0.25f, 0.5f}).requiresGrad(true);
        Torch.maximum(Torch.atan(x), Torch.tensor(new float[] {0.3f, 0.3f}))
                .sum()
                .backward();
        assertEquals(org.jtorch.DType.FLOAT32, x.grad().dtype());
        assertArrayEquals(new double[] {0, 1 / 1.25}, x.grad().toDoubleArray(), 1e-6);
    }

    @Test
    void ternaryOpsClosedForms() {
        Tensor s = leaf(1, 2), e = leaf(5, 10), w = leaf(0.25, 0.5);
        List<Tensor> g =
                Autograd.grad(List.of(Torch.lerp(s, e, w).sum()), List.of(s, e, w), Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {0.75, 0.5}, g.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0.25, 0.5}, g.get(1).toDoubleArray(), 0);
        assertArrayEquals(new double[] {4, 8}, g.get(2).toDoubleArray(), 0);
        Tensor self = leaf(1, 1), t1 = leaf(2, 3), t2 = leaf(4, 5);
        g = Autograd.grad(
                List.of(Torch.addcdiv(self, t1, t2, 2.0).sum()),
                List.of(self, t1, t2),
                Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {1, 1}, g.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0.5, 0.4}, g.get(1).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {-2 * 2 / 16.0, -2 * 3 / 25.0}, g.get(2).toDoubleArray(), 1e-15);
        Tensor v = Torch.scalarTensor(3.0, org.jtorch.DType.FLOAT64).requiresGrad(true);
        Tensor m = Torch.tensor(new boolean[] {true, false, true});
        Tensor base = leaf(1, 2, 3);
        g = Autograd.grad(
                List.of(TernaryOps.maskedFill(base, m, v)
                        .mul(Torch.tensor(new double[] {10, 20, 30}))
                        .sum()),
                List.of(base, v),
                Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {0, 20, 0}, g.get(0).toDoubleArray(), 0);
        assertEquals(40.0, g.get(1).item(), 0); // the value collects the filled positions' gradients
    }

    @Test
    void inPlaceClampOnANonLeafIsDifferentiated() {
        Tensor x = leaf(-2, 0.5, 2);
        Tensor y = x.mul(1.0);
        ClampOps.clamp_(y, -1.0, 1.0);
        y.sum().backward();
        assertArrayEquals(new double[] {0, 1, 0}, x.grad().toDoubleArray(), 0);
    }

    @Test
    void complexSiluIsNotDifferentiable() {
        Tensor z = Torch.complex(Torch.tensor(new double[] {0.5}), Torch.tensor(new double[] {0.3}))
                .requiresGrad(true);
        TorchException e = assertThrows(TorchException.class, () -> Torch.silu(z));
        assertTrue(e.getMessage()
                .contains("silu does not support automatic differentiation for outputs with complex dtype"));
        try (var _ = Torch.noGrad()) {
            assertEquals(2, Torch.silu(z).toDoubleArray().length); // computing it is fine
        }
    }
}
