package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.RoundingMode;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Golden.Deviation;
import org.jtorch.testing.Golden.Kind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The pointwise ops against PyTorch's own results: every golden case of a binary or unary pointwise op, of the
 * type-promotion block and of the float16/bfloat16 rounding block becomes one test that calls the op through
 * {@link Torch} (or {@link ComplexOps} for the complex views) as a user would.
 *
 * <p>Cases of other families in the same blocks (reductions, where, clamp...) are left to those families' tests.
 * Conversions ({@code to}) are compared exactly, since a conversion has one correct answer; other floating results
 * within {@link Golden}'s per-dtype tolerance.
 */
class PointwiseGoldenTest {

    /** The ops this test owns, by PyTorch name. */
    static final Set<String> OPS = Set.of(
            "add",
            "sub",
            "mul",
            "div",
            "remainder",
            "fmod",
            "pow",
            "maximum",
            "minimum",
            "fmax",
            "fmin",
            "atan2",
            "eq",
            "ne",
            "lt",
            "le",
            "gt",
            "ge",
            "logical_and",
            "logical_or",
            "logical_xor",
            "logical_not",
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "bitwise_not",
            "bitwise_left_shift",
            "bitwise_right_shift",
            "hypot",
            "copysign",
            "xlogy",
            "neg",
            "abs",
            "sign",
            "sgn",
            "reciprocal",
            "exp",
            "exp2",
            "expm1",
            "log",
            "log2",
            "log10",
            "log1p",
            "sqrt",
            "rsqrt",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "sigmoid",
            "relu",
            "gelu",
            "silu",
            "softplus",
            "erf",
            "erfc",
            "erfinv",
            "floor",
            "ceil",
            "round",
            "trunc",
            "frac",
            "square",
            "isnan",
            "isinf",
            "isfinite",
            "isposinf",
            "isneginf",
            "signbit",
            "nan_to_num",
            "logit",
            "deg2rad",
            "rad2deg",
            "angle",
            "real",
            "imag",
            "conj",
            "to");

    /**
     * gelu(+inf): PyTorch 2.13's contiguous float32/bfloat16 kernel gives NaN (its vectorised erf), its strided,
     * float16 and float64 paths +inf; JTorch gives +inf on every path (GeluBackwardTest.geluAtInfinityIsTheLimit).
     */
    private static Deviation geluAtInfinity(String id) {
        return new Deviation(id, Kind.NOT_COMPARED, "gelu(+inf) is +inf on every path, PyTorch's vector kernel NaN");
    }

    /** Where JTorch (PyTorch 2.15 semantics, Java API) knowingly differs from the PyTorch 2.13 fixtures. */
    static final List<Deviation> DEVIATIONS = List.of(
            geluAtInfinity("gelu/float32/special"),
            geluAtInfinity("gelu/bfloat16/special"),
            geluAtInfinity("gelu/float32/kw0-special"),
            new Deviation(
                    "div/error/bad-rounding",
                    Kind.NOT_COMPARED,
                    "rounding_mode is the RoundingMode enum in Java: an invalid mode cannot be passed"),
            new Deviation(
                    "lt/error/complex",
                    Kind.MESSAGE,
                    "2.15 raises TypeError for ordering complex numbers (2.13: NotImplementedError "
                            + "\"lt_cpu\" not implemented)"),
            new Deviation(
                    "ge/error/complex",
                    Kind.MESSAGE,
                    "2.15 raises TypeError for ordering complex numbers (2.13: NotImplementedError "
                            + "\"ge_cpu\" not implemented)"),
            bfloat16Complex("promotion/add/bfloat16+complex64/dim-0d"),
            bfloat16Complex("promotion/add/bfloat16+complex128/dim-0d"),
            bfloat16Complex("promotion/add/bfloat16+complex-scalar"),
            bfloat16Complex("promotion/add/bfloat16-0d+complex-scalar"));

    /** A bfloat16 tensor with a lower-priority complex operand keeps its precision: bcomplex32 since 2.14. */
    private static Deviation bfloat16Complex(String id) {
        return Deviation.dtype(
                id,
                DType.BCOMPLEX32,
                "bfloat16 with a 0-d or scalar complex operand promotes to bcomplex32"
                        + " since 2.14 (2.13: complex64)");
    }

    @TestFactory
    Stream<DynamicTest> pointwiseCasesMatchPyTorch() {
        Golden.assertLoaded(1000);
        Golden.assertDeviationsExist(DEVIATIONS);
        List<Case> cases =
                Golden.cases().stream().filter(c -> OPS.contains(c.op())).toList();
        for (String op : OPS) assertTrue(cases.stream().anyMatch(c -> c.op().equals(op)), "no golden case for " + op);
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(
                        c.id(), () -> Golden.check(c, DEVIATIONS, c.op().equals("to"), () -> run(c))));
    }

    /** Calls the op of a case as a JTorch user would. */
    static Object run(Case c) {
        Tensor x = c.arg(0) instanceof Tensor t ? t : null;
        Object other = c.argCount() > 1 ? c.arg(1) : null;
        return switch (c.op()) {
            case "add" ->
                c.has("alpha")
                        ? Torch.add(x, (Tensor) other, ((Number) c.kwarg("alpha")).doubleValue())
                        : arith(PointwiseOps.ADD, x, other);
            case "sub" ->
                c.has("alpha")
                        ? Torch.sub(x, (Tensor) other, ((Number) c.kwarg("alpha")).doubleValue())
                        : arith(PointwiseOps.SUB, x, other);
            case "mul" -> arith(PointwiseOps.MUL, x, other);
            case "div" ->
                c.has("rounding_mode")
                        ? Torch.div(
                                x,
                                other,
                                RoundingMode.valueOf(((String) c.kwarg("rounding_mode")).toUpperCase(Locale.ROOT)))
                        : arith(PointwiseOps.DIV, x, other);
            case "remainder" -> Torch.remainder(x, other);
            case "fmod" -> Torch.fmod(x, other);
            case "pow" -> pow(c.arg(0), other);
            case "maximum" -> Torch.maximum(x, (Tensor) other);
            case "minimum" -> Torch.minimum(x, (Tensor) other);
            case "fmax" -> Torch.fmax(x, (Tensor) other);
            case "fmin" -> Torch.fmin(x, (Tensor) other);
            case "atan2" -> Torch.atan2(x, (Tensor) other);
            case "hypot" -> Torch.hypot(x, (Tensor) other);
            case "copysign" -> Torch.copysign(x, other);
            case "xlogy" -> Torch.xlogy(x, other);
            case "eq" -> Torch.eq(x, other);
            case "ne" -> Torch.ne(x, other);
            case "lt" -> Torch.lt(x, other);
            case "le" -> Torch.le(x, other);
            case "gt" -> Torch.gt(x, other);
            case "ge" -> Torch.ge(x, other);
            case "logical_and" -> Torch.logicalAnd(x, other);
            case "logical_or" -> Torch.logicalOr(x, other);
            case "logical_xor" -> Torch.logicalXor(x, other);
            case "logical_not" -> Torch.logicalNot(x);
            case "bitwise_and" -> Torch.bitwiseAnd(x, other);
            case "bitwise_or" -> Torch.bitwiseOr(x, other);
            case "bitwise_xor" -> Torch.bitwiseXor(x, other);
            case "bitwise_not" -> Torch.bitwiseNot(x);
            case "bitwise_left_shift" -> Torch.bitwiseLeftShift(x, other);
            case "bitwise_right_shift" -> Torch.bitwiseRightShift(x, other);
            case "neg" -> Torch.neg(x);
            case "abs" -> Torch.abs(x);
            case "sign" -> Torch.sign(x);
            case "sgn" -> Torch.sgn(x);
            case "reciprocal" -> Torch.reciprocal(x);
            case "exp" -> Torch.exp(x);
            case "exp2" -> Torch.exp2(x);
            case "expm1" -> Torch.expm1(x);
            case "log" -> Torch.log(x);
            case "log2" -> Torch.log2(x);
            case "log10" -> Torch.log10(x);
            case "log1p" -> Torch.log1p(x);
            case "sqrt" -> Torch.sqrt(x);
            case "rsqrt" -> Torch.rsqrt(x);
            case "sin" -> Torch.sin(x);
            case "cos" -> Torch.cos(x);
            case "tan" -> Torch.tan(x);
            case "asin" -> Torch.asin(x);
            case "acos" -> Torch.acos(x);
            case "atan" -> Torch.atan(x);
            case "sinh" -> Torch.sinh(x);
            case "cosh" -> Torch.cosh(x);
            case "tanh" -> Torch.tanh(x);
            case "asinh" -> Torch.asinh(x);
            case "acosh" -> Torch.acosh(x);
            case "atanh" -> Torch.atanh(x);
            case "sigmoid" -> Torch.sigmoid(x);
            case "relu" -> Torch.relu(x);
            case "gelu" -> c.has("approximate") ? Torch.gelu(x, (String) c.kwarg("approximate")) : Torch.gelu(x);
            case "silu" -> Torch.silu(x);
            case "softplus" ->
                Torch.softplus(
                        x,
                        c.has("beta") ? ((Number) c.kwarg("beta")).doubleValue() : 1.0,
                        c.has("threshold") ? ((Number) c.kwarg("threshold")).doubleValue() : 20.0);
            case "erf" -> Torch.erf(x);
            case "erfc" -> Torch.erfc(x);
            case "erfinv" -> Torch.erfinv(x);
            case "floor" -> Torch.floor(x);
            case "ceil" -> Torch.ceil(x);
            case "round" ->
                c.has("decimals") ? Torch.round(x, ((Number) c.kwarg("decimals")).longValue()) : Torch.round(x);
            case "trunc" -> Torch.trunc(x);
            case "frac" -> Torch.frac(x);
            case "square" -> Torch.square(x);
            case "isnan" -> Torch.isnan(x);
            case "isinf" -> Torch.isinf(x);
            case "isfinite" -> Torch.isfinite(x);
            case "isposinf" -> Torch.isposinf(x);
            case "isneginf" -> Torch.isneginf(x);
            case "signbit" -> Torch.signbit(x);
            case "nan_to_num" -> Torch.nanToNum(x, optDouble(c, "nan"), optDouble(c, "posinf"), optDouble(c, "neginf"));
            case "logit" -> c.has("eps") ? Torch.logit(x, ((Number) c.kwarg("eps")).doubleValue()) : Torch.logit(x);
            case "deg2rad" -> Torch.deg2rad(x);
            case "rad2deg" -> Torch.rad2deg(x);
            case "angle" -> Torch.angle(x);
            case "real" -> ComplexOps.real(x);
            case "imag" -> ComplexOps.imag(x);
            case "conj" -> ComplexOps.resolveConj(ComplexOps.conj(x)); // the fixture is t.conj().resolve_conj()
            case "to" -> x.to((DType) c.kwarg("dtype"));
            default -> throw new IllegalStateException("no mapping for op " + c.op());
        };
    }

    /**
     * add/sub/mul/div with a tensor, a Java {@code long} or a {@code double}, through their typed {@link Torch}
     * overloads. Bool and complex scalars have no typed overload, so those go to the op directly (as a
     * {@code Torch.add(Tensor, Object)} would).
     */
    private static Tensor arith(OpDef op, Tensor a, Object b) {
        return switch (b) {
            case Tensor t when op == PointwiseOps.ADD -> Torch.add(a, t);
            case Tensor t when op == PointwiseOps.SUB -> Torch.sub(a, t);
            case Tensor t when op == PointwiseOps.MUL -> Torch.mul(a, t);
            case Tensor t -> Torch.div(a, t);
            case Long l when op == PointwiseOps.ADD -> Torch.add(a, l.longValue());
            case Long l when op == PointwiseOps.SUB -> Torch.sub(a, l.longValue());
            case Long l when op == PointwiseOps.MUL -> Torch.mul(a, l.longValue());
            case Long l -> Torch.div(a, l.longValue());
            case Double d when op == PointwiseOps.ADD -> Torch.add(a, d.doubleValue());
            case Double d when op == PointwiseOps.SUB -> Torch.sub(a, d.doubleValue());
            case Double d when op == PointwiseOps.MUL -> Torch.mul(a, d.doubleValue());
            case Double d -> Torch.div(a, d.doubleValue());
            default -> op.call1(a, b);
        };
    }

    /** pow(tensor, tensor | long | double) and pow(scalar, tensor). */
    private static Tensor pow(Object base, Object exponent) {
        if (base instanceof Tensor a) {
            return switch (exponent) {
                case Tensor t -> Torch.pow(a, t);
                case Long l -> Torch.pow(a, l.longValue());
                case Double d -> Torch.pow(a, d.doubleValue());
                case Boolean b -> Torch.pow(a, b.booleanValue());
                default -> throw new IllegalArgumentException("pow exponent " + exponent);
            };
        }
        Tensor e = (Tensor) exponent;
        if (base instanceof Double d) return Torch.pow(d.doubleValue(), e);
        // An int base keeps an integral exponent integral; Torch has only pow(double, Tensor).
        Scalar s = Scalar.of(base);
        return PointwiseOps.POW.call1(Creation.scalarTensor(s, Torch.resultType(e, base)), e);
    }

    private static Double optDouble(Case c, String kw) {
        return c.has(kw) ? ((Number) c.kwarg(kw)).doubleValue() : null;
    }

    // ---- what the fixtures do not show ------------------------------------------------------------

    /**
     * The complex inverse functions on and off their branch cuts, signed zeros included, against Python's {@code cmath}
     * (C99 {@code casin} & co., which {@code std::complex} follows): the fixtures hold only random points off the cuts.
     */
    @Test
    void complexInverseFunctionsFollowC99BranchCuts() {
        double[] z = {0.5, 0.25, -2, 0.0, -2, -0.0, 2, 0.0, 0.0, 2, -0.0, 2, 0.0, -2, 3, -4};
        Tensor x = Tensor.of(TensorImpl.of(Storage.wrap(z), 0, new long[] {8}, new long[] {1}, DType.COMPLEX128));
        double h = Math.PI / 2;
        assertC99(
                Torch.asin(x),
                0.5016088532755008,
                0.28139605624529274,
                -h,
                1.3169578969248166,
                -h,
                -1.3169578969248166,
                h,
                1.3169578969248166,
                0,
                1.4436354751788103,
                -0.0,
                1.4436354751788103,
                0,
                -1.4436354751788103,
                0.6339838656391766,
                -2.305509031243477);
        assertC99(
                Torch.acos(x),
                1.069187473519396,
                -0.28139605624529274,
                Math.PI,
                -1.3169578969248166,
                Math.PI,
                1.3169578969248166,
                0,
                -1.3169578969248166,
                h,
                -1.4436354751788103,
                h,
                -1.4436354751788103,
                h,
                1.4436354751788103,
                0.9368124611557198,
                2.305509031243477);
        assertC99(
                Torch.atan(x),
                0.4842544903299662,
                0.20058661813123432,
                -1.1071487177940904,
                0.0,
                -1.1071487177940904,
                -0.0,
                1.1071487177940904,
                0.0,
                h,
                0.5493061443340549,
                -h,
                0.5493061443340549,
                h,
                -0.5493061443340549,
                1.4483069952314644,
                -0.15899719167999918);
        assertC99(
                Torch.asinh(x),
                0.4926756834207706,
                0.2243284526346675,
                -1.4436354751788103,
                0.0,
                -1.4436354751788103,
                -0.0,
                1.4436354751788103,
                0.0,
                1.3169578969248166,
                h,
                -1.3169578969248166,
                h,
                1.3169578969248166,
                -h,
                2.2999140408792695,
                -0.9176168533514787);
        assertC99(
                Torch.acosh(x),
                0.28139605624529274,
                1.069187473519396,
                1.3169578969248166,
                Math.PI,
                1.3169578969248166,
                -Math.PI,
                1.3169578969248166,
                0.0,
                1.4436354751788103,
                h,
                1.4436354751788103,
                h,
                1.4436354751788103,
                -h,
                2.305509031243477,
                -0.9368124611557198);
        assertC99(
                Torch.atanh(x),
                0.5003700000525311,
                0.3143981432077165,
                -0.5493061443340549,
                h,
                -0.5493061443340549,
                -h,
                0.5493061443340549,
                h,
                0.0,
                1.1071487177940904,
                -0.0,
                1.1071487177940904,
                0.0,
                -1.1071487177940904,
                0.1175009073114339,
                -1.4099210495965755);
    }

    private static void assertC99(Tensor got, double... expected) {
        double[] v = got.toDoubleArray();
        assertEquals(expected.length, v.length);
        for (int i = 0; i < v.length; i++) {
            assertEquals(
                    expected[i],
                    v[i],
                    1e-15 + 1e-14 * Math.abs(expected[i]),
                    "element " + i / 2 + (i % 2 == 0 ? " re" : " im"));
            if (expected[i] == 0)
                assertEquals(Math.copySign(1, expected[i]), Math.copySign(1, v[i]), "sign of zero at " + i);
        }
    }

    /**
     * ATen's sub_check and alpha_check beyond the recorded cases: a bool with a non-bool operand, bool and complex
     * alpha.
     */
    @Test
    void boolExponentsAreOneAndZero() {
        // PyTorch 2.13: pow(bool, True) keeps bool, pow(bool, False) is all True, pow(x, False) is 1 even at NaN
        Tensor bits = Torch.tensor(new boolean[] {true, false});
        assertEquals(DType.BOOL, Torch.pow(bits, true).dtype());
        assertArrayEquals(new double[] {1, 0}, Torch.pow(bits, true).toDoubleArray());
        assertArrayEquals(new double[] {1, 1}, Torch.pow(bits, false).toDoubleArray());
        Tensor x = Torch.tensor(new double[] {Double.NaN, -2.5}).requiresGrad(true);
        assertArrayEquals(new double[] {1, 1}, x.pow(false).toDoubleArray());
        Tensor y = x.pow(true);
        assertEquals(DType.FLOAT64, y.dtype());
        assertArrayEquals(new double[] {Double.NaN, -2.5}, y.toDoubleArray());
        y.sum().backward(); // d/dx x^1 = 1 everywhere (PyTorch's pow_backward: exponent · x^0)
        assertArrayEquals(new double[] {1, 1}, x.grad().toDoubleArray());
        assertThrows(TorchException.class, () -> Torch.pow(Torch.tensor(new long[] {2}), -1L));
    }

    @Test
    void complexExp2IsExpOfLn2Z() {
        // 2^(1+i) = 2·(cos ln2 + i sin ln2); its derivative is ln2 · 2^z, conjugated by the VJP
        Tensor z = Torch.complex(
                        Torch.tensor(new double[] {1}).to(DType.FLOAT64),
                        Torch.tensor(new double[] {1}).to(DType.FLOAT64))
                .requiresGrad(true);
        double ln2 = Math.log(2);
        Tensor y = Torch.exp2(z);
        assertArrayEquals(
                new double[] {2 * Math.cos(ln2), 2 * Math.sin(ln2)},
                Torch.viewAsReal(y).toDoubleArray(),
                1e-15);
        Torch.viewAsReal(y).select(-1, 0).sum().backward();
        // d Re(2^z) / d(re, im) = (Re(ln2·2^z), -Im(ln2·2^z)) as the gradient's (re, im)
        assertArrayEquals(
                new double[] {ln2 * 2 * Math.cos(ln2), -ln2 * 2 * Math.sin(ln2)},
                Torch.viewAsReal(z.grad()).toDoubleArray(),
                1e-15);
    }

    @Test
    void subtractionAndAlphaChecksUseAtensWording() {
        Tensor bool = Torch.tensor(new boolean[] {true, false}), ints = Torch.tensor(new long[] {1, 2});
        assertMessage("Subtraction, the `-` operator, with a bool tensor is not supported.", () -> Torch.sub(bool, 1L));
        assertMessage(
                "Subtraction, the `-` operator, with a bool tensor is not supported.", () -> Torch.sub(ints, bool));
        assertMessage(
                "Boolean alpha only supported for Boolean results.", () -> PointwiseOps.ADD.call1(ints, ints, true));
        assertMessage(
                "For non-complex input tensors, argument alpha must not be a complex number.",
                () -> PointwiseOps.ADD.call1(
                        Torch.tensor(new double[] {1}), Torch.tensor(new double[] {2}), Scalar.complex(1, 1)));
        assertMessage(
                "For integral input tensors, argument alpha must not be a floating point number.", // checked first, as
                // ATen does
                () -> PointwiseOps.ADD.call1(ints, ints, Scalar.complex(1, 1)));
        assertArrayEquals(
                new long[] {3, 6}, PointwiseOps.ADD.call1(ints, ints, 2L).toLongArray());
        Tensor meta = Tensor.of(TensorImpl.meta(new long[] {2}, DType.BOOL));
        assertMessage("with two bool tensors", () -> Torch.sub(meta, meta)); // the meta rule owns the check
    }

    private static void assertMessage(String substring, Runnable call) {
        TorchException e = assertThrows(TorchException.class, call::run);
        assertTrue(
                e.getMessage().contains(substring),
                () -> "message \"" + e.getMessage() + "\" lacks \"" + substring + "\"");
    }
}
