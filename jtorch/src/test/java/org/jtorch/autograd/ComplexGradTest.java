package org.jtorch.autograd;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.ComplexOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Complex gradients follow PyTorch's convention: for a real loss L of z = x + iy the gradient is dL/dx + i·dL/dy (so
 * the gradient of {@code a * b} with respect to {@code a} is {@code g * conj(b)}).
 *
 * <p>The finite-difference table checks it without complex perturbations: real leaves go through {@code complex(x, y)},
 * the op, then {@code view_as_real}, a real-to-real function whose Jacobian is the op's real Jacobian; the chained VJPs
 * reproduce it only if every rule on the way (including complex, view_as_real and the engine's complex-to-real cast)
 * uses that convention. Hand-computed cases pin the convention itself, since a consistently conjugated set of rules
 * would pass the table too.
 */
class ComplexGradTest {
    private static final double[] RE = {0.3, -0.5, 0.6};
    private static final double[] IM = {0.4, 0.2, -0.3};
    private static final double[] RE2 = {-0.7, 0.4, 0.9};
    private static final double[] IM2 = {0.5, -0.6, 0.35};

    private record Case(String name, Function<List<Tensor>, Tensor> fn, double[]... inputs) {}

    /** A real view of a complex result, the result itself when it is real. */
    private static Tensor asReal(Tensor t) {
        return t.isComplex() ? ComplexOps.viewAsReal(t) : t;
    }

    private static Tensor z(List<Tensor> xs, int first) {
        return Torch.complex(xs.get(first), xs.get(first + 1));
    }

    private static Case unary(String name, UnaryOperator<Tensor> op) {
        return new Case(name, xs -> asReal(op.apply(z(xs, 0))), RE, IM);
    }

    private static Case binary(String name, BinaryOperator<Tensor> op) {
        return new Case(name, xs -> asReal(op.apply(z(xs, 0), z(xs, 2))), RE, IM, RE2, IM2);
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        for (var e : List.<Map.Entry<String, UnaryOperator<Tensor>>>of(
                entry("exp", Torch::exp),
                entry("log", Torch::log),
                entry("log2", Torch::log2),
                entry("log10", Torch::log10),
                entry("sqrt", Torch::sqrt),
                entry("rsqrt", Torch::rsqrt),
                entry("sin", Torch::sin),
                entry("cos", Torch::cos),
                entry("tan", Torch::tan),
                entry("asin", Torch::asin),
                entry("acos", Torch::acos),
                entry("atan", Torch::atan),
                entry("sinh", Torch::sinh),
                entry("cosh", Torch::cosh),
                entry("tanh", Torch::tanh),
                entry("asinh", Torch::asinh),
                entry("acosh", Torch::acosh),
                entry("atanh", Torch::atanh),
                entry("sigmoid", Torch::sigmoid),
                entry("reciprocal", Torch::reciprocal),
                entry("square", Torch::square),
                entry("neg", Torch::neg),
                entry("sgn", Torch::sgn),
                entry("abs", Torch::abs),
                entry("angle", Torch::angle),
                entry("nan_to_num", Torch::nanToNum),
                entry("pow-scalar", x -> Torch.pow(x, 2.5)),
                entry("conj", x -> ComplexOps.conj(x).mul(x.exp())),
                entry("conj_physical", x -> ComplexOps.conjPhysical(x).mul(x.sin())),
                entry("real", x -> ComplexOps.real(x.square())),
                entry("imag", x -> ComplexOps.imag(x.square())),
                entry("abs-of-sgn-product", x -> Torch.abs(Torch.sgn(x).mul(x))),
                entry(
                        "masked_fill",
                        x -> Torch.maskedFill(
                                x.square(), Torch.tensor(new boolean[] {true, false, true}), Scalar.complex(1, -2))))) {
            c.add(unary(e.getKey(), e.getValue()));
        }
        c.add(binary("mul", Torch::mul));
        c.add(binary("div", Torch::div));
        c.add(binary("pow", Torch::pow));
        c.add(binary("lerp-complex-scalar-weight", (a, b) -> Torch.lerp(a, b, Scalar.complex(0.3, 0.2))));
        c.add(new Case(
                "lerp-tensor", xs -> asReal(Torch.lerp(z(xs, 0), z(xs, 2), z(xs, 4))), RE, IM, RE2, IM2, IM, RE));
        c.add(new Case(
                "addcmul",
                xs -> asReal(Torch.addcmul(z(xs, 0), z(xs, 2), z(xs, 4), Scalar.complex(0.5, -1))),
                RE,
                IM,
                RE2,
                IM2,
                IM,
                RE));
        c.add(new Case(
                "addcdiv",
                xs -> asReal(Torch.addcdiv(z(xs, 0), z(xs, 2), z(xs, 4), Scalar.complex(0.5, -1))),
                RE,
                IM,
                RE2,
                IM2,
                IM,
                RE));
        c.add(new Case(
                "masked_fill-tensor-value",
                xs -> asReal(Torch.maskedFill(
                        z(xs, 0).exp(), Torch.tensor(new boolean[] {true, false, true}), z(xs, 2).reshape())),
                RE,
                IM,
                new double[] {0.2},
                new double[] {-0.9}));
        c.add(new Case("real-times-complex", xs -> asReal(xs.get(0).mul(z(xs, 1).exp())), RE2, RE, IM));
        c.add(new Case("complex", xs -> asReal(z(xs, 0).square()), RE, IM));
        c.add(new Case(
                "polar", xs -> asReal(Torch.polar(xs.get(0), xs.get(1)).square()), new double[] {0.7, 1.3, 2.0}, IM2));
        c.add(new Case(
                "view_as_complex",
                xs -> asReal(ComplexOps.viewAsComplex(xs.get(0).view(3, 2)).pow(3L)),
                new double[] {0.3, 0.4, -0.5, 0.2, 0.6, -0.3}));
        return c;
    }

    private static List<Tensor> leaves(double[][] values) {
        List<Tensor> xs = new ArrayList<>();
        for (double[] v : values) xs.add(Torch.tensor(v).requiresGrad(true));
        return xs;
    }

    @TestFactory
    Stream<DynamicTest> complexRulesMatchTheRealJacobian() {
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

    // ---- the convention on hand-computed cases --------------------------------------------------------

    private static Tensor leaf(double re, double im) {
        return Torch.complex(Torch.tensor(new double[] {re}), Torch.tensor(new double[] {im}))
                .requiresGrad(true);
    }

    /** The gradient of the real scalar {@code loss} with respect to {@code z}, as [re, im]. */
    private static double[] grad(Tensor loss, Tensor z) {
        Tensor g = Autograd.grad(
                        List.of(loss.sum()),
                        List.of(z),
                        Autograd.GradOptions.defaults().retainGraph(true))
                .get(0);
        return g.toDoubleArray();
    }

    private static final double X = 0.5, Y = 0.3;

    @Test
    void productWithAConjugate() {
        // L = Re(z·conj(w)) = xu + yv: dL/dz = u + iv = w, dL/dw = z
        Tensor z = leaf(X, Y), w = leaf(-0.2, 0.9);
        Tensor loss = ComplexOps.real(z.mul(ComplexOps.conj(w)));
        assertArrayEquals(new double[] {-0.2, 0.9}, grad(loss, z), 1e-15);
        assertArrayEquals(new double[] {X, Y}, grad(loss, w), 1e-15);
    }

    @Test
    void realAndImaginaryParts() {
        Tensor z = leaf(X, Y);
        assertArrayEquals(new double[] {1, 0}, grad(ComplexOps.real(z), z), 0);
        assertArrayEquals(new double[] {0, 1}, grad(ComplexOps.imag(z), z), 0);
        assertArrayEquals(
                new double[] {2, -3}, grad(ComplexOps.viewAsReal(z).mul(Torch.tensor(new double[] {2, -3})), z), 0);
    }

    @Test
    void nonHolomorphicFunctions() {
        Tensor z = leaf(X, Y);
        double r = Math.hypot(X, Y);
        assertArrayEquals(new double[] {X / r, Y / r}, grad(Torch.abs(z), z), 1e-15); // d|z| = z/|z|
        // angle = atan2(y, x): (-y, x)/|z|² = i·z/|z|²
        assertArrayEquals(new double[] {-Y / (r * r), X / (r * r)}, grad(Torch.angle(z), z), 1e-15);
        // Re(sgn z) = x/|z|: d/dx = y²/|z|³, d/dy = -xy/|z|³
        double r3 = r * r * r;
        assertArrayEquals(new double[] {Y * Y / r3, -X * Y / r3}, grad(ComplexOps.real(Torch.sgn(z)), z), 1e-15);
        // Im(sgn z) = y/|z|: d/dx = -xy/|z|³, d/dy = x²/|z|³
        assertArrayEquals(new double[] {-X * Y / r3, X * X / r3}, grad(ComplexOps.imag(Torch.sgn(z)), z), 1e-15);
    }

    @Test
    void holomorphicFunctionsGiveTheConjugateDerivative() {
        Tensor z = leaf(X, Y);
        // Re(sinh z): gradient conj(cosh z) = cosh x cos y - i sinh x sin y
        assertArrayEquals(
                new double[] {Math.cosh(X) * Math.cos(Y), -Math.sinh(X) * Math.sin(Y)},
                grad(ComplexOps.real(Torch.sinh(z)), z),
                1e-15);
        // Im(sinh z) = cosh x sin y: gradient (sinh x sin y, cosh x cos y) = i·conj(cosh z)
        assertArrayEquals(
                new double[] {Math.sinh(X) * Math.sin(Y), Math.cosh(X) * Math.cos(Y)},
                grad(ComplexOps.imag(Torch.sinh(z)), z),
                1e-15);
    }

    @Test
    void valuesPyTorchGives() {
        // gradients of Re(f(z)) at z = 0.5 + 0.3i from PyTorch 1.13 (4 decimals; these rules did not change since)
        Tensor z = leaf(X, Y);
        assertArrayEquals(new double[] {0.4540, -0.7566}, grad(ComplexOps.real(Torch.sgn(z)), z), 1e-4);
        assertArrayEquals(new double[] {-0.8824, 1.4706}, grad(Torch.angle(z), z), 1e-4);
        assertArrayEquals(new double[] {1.1017, -0.3598}, grad(ComplexOps.real(Torch.tan(z)), z), 1e-4);
        assertArrayEquals(new double[] {0.9063, 0.1153}, grad(ComplexOps.real(Torch.asinh(z)), z), 1e-4);
        assertArrayEquals(new double[] {1.0558, -0.3771}, grad(ComplexOps.real(Torch.atanh(z)), z), 1e-4);
        assertArrayEquals(new double[] {0.1807, 1.0433}, grad(ComplexOps.real(Torch.acosh(z)), z), 1e-4);
        assertArrayEquals(new double[] {1.0, -0.6}, grad(ComplexOps.real(Torch.square(z)), z), 1e-15);
    }

    @Test
    void polarAndComplexConstructors() {
        Tensor r = Torch.tensor(new double[] {2.0}).requiresGrad(true),
                t = Torch.tensor(new double[] {0.7}).requiresGrad(true);
        Tensor p = Torch.polar(r, t);
        List<Tensor> re = Autograd.grad(
                List.of(ComplexOps.real(p).sum()),
                List.of(r, t),
                Autograd.GradOptions.defaults().retainGraph(true));
        assertArrayEquals(new double[] {Math.cos(0.7)}, re.get(0).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {-2 * Math.sin(0.7)}, re.get(1).toDoubleArray(), 1e-15);
        List<Tensor> im =
                Autograd.grad(List.of(ComplexOps.imag(p).sum()), List.of(r, t), Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {Math.sin(0.7)}, im.get(0).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {2 * Math.cos(0.7)}, im.get(1).toDoubleArray(), 1e-15);
        // view_as_complex([a, b])² has real part a² - b²
        Tensor ab = Torch.tensor(new double[] {0.8, -0.3}).requiresGrad(true);
        Tensor sq = ComplexOps.real(ComplexOps.viewAsComplex(ab).square());
        assertArrayEquals(new double[] {1.6, 0.6}, Autograd.grad(sq, ab, false).toDoubleArray(), 1e-15);
    }

    @Test
    void complexWeightOfLerp() {
        // Re(lerp(s, e, w)) with w = 0.3 + 0.2i: d/ds = conj(1 - w), d/de = conj(w)
        Tensor s = leaf(1, 2), e = leaf(-1, 0.5);
        Tensor loss = ComplexOps.real(Torch.lerp(s, e, Scalar.complex(0.3, 0.2)));
        assertArrayEquals(new double[] {0.7, 0.2}, grad(loss, s), 1e-15);
        assertArrayEquals(new double[] {0.3, -0.2}, grad(loss, e), 1e-15);
    }

    @Test
    void realOfARealTensorIsTheTensorItselfAndStaysALeaf() {
        Tensor x = Torch.tensor(new double[] {1, 2}).requiresGrad(true);
        Tensor r = ComplexOps.real(x);
        assertTrue(r == x && x.isLeaf());
        r.mul(3.0).sum().backward();
        assertArrayEquals(new double[] {3, 3}, x.grad().toDoubleArray(), 0);
    }
}
