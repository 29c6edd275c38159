package org.jtorch.ops;

import static org.jtorch.ops.Pointwise.ALL;
import static org.jtorch.ops.Pointwise.FLOATS;
import static org.jtorch.ops.Pointwise.INTS;
import static org.jtorch.ops.Pointwise.NUMBERS;
import static org.jtorch.ops.Pointwise.REAL;
import static org.jtorch.ops.Pointwise.REAL_FLOATS;

import java.util.EnumSet;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.kernels.cpu.ComplexMath;
import org.jtorch.kernels.cpu.Erf;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.Gamma;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.ops.Pointwise.Promotion;
import org.jtorch.storage.LowPrecision;

/**
 * Pointwise ops: arithmetic, exponentials and logarithms, trigonometry, activations, rounding, comparisons, logical and
 * bitwise ops. Each op is one {@link OpDef}; the static methods at the end are the Java entry points that {@code Torch}
 * and {@code Tensor} delegate to.
 */
public final class PointwiseOps {
    private PointwiseOps() {}

    /** Why comparisons and predicates have no derivative. */
    private static final String BOOL_RESULT =
            "a bool result carries no gradient; written in place into a floating tensor, "
                    + "its zero gradient is not defined yet";

    /** Why bitwise ops have no derivative. */
    private static final String INTEGER_ONLY =
            "integer and bool dtypes only: there is no floating result to differentiate";

    // ---- formula helpers --------------------------------------------------------------------------

    private static Fns.Unary real(java.util.function.DoubleUnaryOperator d) {
        return new Fns.Unary(d, null, null, null, null);
    }

    private static Fns.Unary realSimd(java.util.function.DoubleUnaryOperator d, FloatSimd.Unary simd) {
        return new Fns.Unary(d, null, null, null, simd);
    }

    private static Fns.Unary cplx(java.util.function.DoubleUnaryOperator d, Fns.ComplexUnary c, FloatSimd.Unary simd) {
        return new Fns.Unary(d, null, null, c, simd);
    }

    private static Fns.Binary bin(
            java.util.function.DoubleBinaryOperator d,
            java.util.function.LongBinaryOperator l,
            Fns.ComplexBinary c,
            FloatSimd.Binary simd) {
        return new Fns.Binary(d, l, null, c, simd);
    }

    private static long checkedDivisor(long b) {
        if (b == 0) throw new TorchException("ZeroDivisionError");
        return b;
    }

    /**
     * log(e^a + e^b) as ATen's CPU kernel computes it: the larger argument plus log1p of the other's exponent, so that
     * neither exponent overflows; equal infinities give themselves (inf - inf would be NaN).
     */
    static double logaddexp(double a, double b) {
        if (Double.isInfinite(a) && a == b) return a;
        return Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
    }

    /**
     * Complex log(e^a + e^b), as ATen's CPU kernel: the operand with the larger real part is factored out; a NaN in
     * either operand gives NaN; equal infinite real parts are -inf (the smaller operand) or computed directly.
     */
    static void logaddexp(double ar, double ai, double br, double bi, double[] out) {
        boolean aNan = Double.isNaN(ar) || Double.isNaN(ai), bNan = Double.isNaN(br) || Double.isNaN(bi);
        if (aNan || bNan) {
            out[0] = Double.NaN;
            out[1] = Double.NaN;
            return;
        }
        boolean aSmaller = ar < br;
        double minR = aSmaller ? ar : br,
                minI = aSmaller ? ai : bi,
                maxR = aSmaller ? br : ar,
                maxI = aSmaller ? bi : ai;
        if (Double.isInfinite(minR) && minR == maxR) {
            if (minR < 0) {
                out[0] = minR;
                out[1] = minI;
                return;
            }
            double[] e = new double[2];
            ComplexMath.exp(minR, minI, e);
            double sr = e[0], si = e[1];
            ComplexMath.exp(maxR, maxI, e);
            ComplexMath.log(sr + e[0], si + e[1], out);
            return;
        }
        ComplexMath.exp(minR - maxR, minI - maxI, out);
        double wr = out[0], wi = out[1];
        // log1p(w) = log|1 + w| + i arg(1 + w), with |1 + w|^2 - 1 = 2 re w + |w|^2 kept exact for small w
        out[0] = 0.5 * Math.log1p(2 * wr + wr * wr + wi * wi) + maxR;
        out[1] = Math.atan2(wi, 1 + wr) + maxI;
    }

    private static final double INV_LN2 = 1 / Math.log(2);

    /** log2(2^a + 2^b), the base-2 form of {@link #logaddexp}. */
    static double logaddexp2(double a, double b) {
        if (Double.isInfinite(a) && a == b) return a;
        return Math.max(a, b) + Math.log1p(Math.pow(2, -Math.abs(a - b))) * INV_LN2;
    }

    /** Python's floor division for floats, as ATen's {@code div_floor_floating}. */
    static double floorDivide(double a, double b) {
        if (b == 0) return a / b;
        double mod = a % b;
        double div = (a - mod) / b;
        if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
        if (div == 0) return Math.copySign(0, a / b);
        double fl = Math.floor(div);
        if (div - fl > 0.5) fl += 1;
        return fl;
    }

    static long floorDivide(long a, long b) {
        checkedDivisor(b);
        return Math.floorDiv(a, b);
    }

    static double remainder(double a, double b) {
        double mod = a % b;
        if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
        return mod;
    }

    static long remainder(long a, long b) {
        return Math.floorMod(a, checkedDivisor(b));
    }

    /** C's {@code pow}: 1 to any power and -1 to ±inf are 1, where Java's {@code Math.pow} gives NaN. */
    static double pow(double base, double exp) {
        if (base == 1 || (base == -1 && Double.isInfinite(exp))) return 1;
        return Math.pow(base, exp);
    }

    /** ATen's {@code powi}: a negative exponent gives 1 or -1 for a base of 1 or -1 and 0 for any other base, 0 too. */
    static long intPow(long base, long exp) {
        if (exp < 0) {
            if (base == 1) return 1;
            if (base == -1) return (exp & 1) == 0 ? 1 : -1;
            return 0;
        }
        long r = 1;
        while (exp > 0) {
            if ((exp & 1) == 1) r *= base;
            base *= base;
            exp >>= 1;
        }
        return r;
    }

    /** Round half to even, as {@code std::nearbyint}. */
    static double roundHalfEven(double x) {
        return Math.rint(x);
    }

    static double roundDecimals(double x, long decimals) {
        boolean neg = decimals < 0;
        double ten = Math.pow(10, Math.abs(decimals));
        return neg ? Math.rint(x / ten) * ten : Math.rint(x * ten) / ten;
    }

    /**
     * {@link #roundDecimals} in float, ATen's op-math type for float32, float16 and bfloat16: x·10^d rounds in float
     * first.
     */
    static double roundDecimalsFloat(float x, long decimals) {
        boolean neg = decimals < 0;
        float ten = (float) Math.pow(10, Math.abs(decimals));
        return neg ? (float) Math.rint(x / ten) * ten : (float) Math.rint(x * ten) / ten;
    }

    private static final double SQRT_2 = Math.sqrt(2.0);
    private static final double LN2 = Math.log(2.0);
    private static final double LN10 = Math.log(10.0);

    /** 1 - x², the shared piece of asin, acos and atanh's derivatives. */
    private static Tensor oneMinusSquare(Tensor x) {
        return x.square().neg().add(1L);
    }

    private static final double SQRT_2_OVER_PI = Math.sqrt(2.0 / Math.PI);

    static double gelu(double x) {
        return 0.5 * x * (1 + Erf.erf(x / SQRT_2));
    }

    static double geluTanh(double x) {
        return 0.5 * x * (1 + Math.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)));
    }

    /**
     * d/dbase of base^e, ATen's {@code pow_backward_self}: {@code where(e == 0, 0, g · conj(e · base^(e-1)))}. The
     * where is around the product with {@code g}, so that where e == 0 an infinite or NaN incoming gradient is masked
     * too (second derivatives bring them: {@code g · log(base)} at a negative base).
     */
    static Tensor powBaseGrad(Tensor g, Tensor base, Object exponent) {
        // a bool exponent differentiates as the integer it stands for (true ** 1, false ** 0)
        Tensor e = Grads.asTensor(exponent instanceof Boolean bit ? (bit ? 1L : 0L) : exponent, base);
        Tensor d = g.mul(Grads.conj(e.mul(base.pow(e.sub(1L)))));
        return TernaryOps.where(e.eq(0L), 0L, d);
    }

    /**
     * d/de of base^e, ATen's {@code pow_backward_exponent}: {@code g · where(base == 0 and e >= 0, 0, conj(base^e ·
     * log(base)))} — 0 at a zero base for a non-negative real exponent (the limit, and what a constant exponent gives),
     * {@code -inf} at a zero base for a negative one.
     */
    static Tensor powExponentGrad(Tensor g, Tensor base, Tensor exponent, Tensor result) {
        Tensor nonNegative = exponent.isComplex()
                ? LOGICAL_AND.call1(
                        ComplexOps.imag(exponent).eq(0L),
                        ComplexOps.real(exponent).ge(0L))
                : exponent.ge(0L);
        Tensor limit = LOGICAL_AND.call1(base.eq(0L), nonNegative);
        return g.mul(TernaryOps.where(limit, 0L, Grads.conj(result.mul(base.log()))));
    }

    // ---- arithmetic ---------------------------------------------------------------------------------

    private static final Fns.Binary ADD_FN = bin(
            Double::sum,
            Long::sum,
            (ar, ai, br, bi, o) -> {
                o[0] = ar + br;
                o[1] = ai + bi;
            },
            FloatSimd.Binary.ADD);
    private static final Fns.Binary SUB_FN = bin(
            (a, b) -> a - b,
            (a, b) -> a - b,
            (ar, ai, br, bi, o) -> {
                o[0] = ar - br;
                o[1] = ai - bi;
            },
            FloatSimd.Binary.SUB);

    private static Fns.Binary addAlpha(Object[] args, boolean subtract) {
        Object alpha = args.length > 2 ? args[2] : null;
        DType common = TypePromotion.resultType(args[0], args[1]);
        if (common == DType.FLOAT16 || common == DType.BFLOAT16) return halfAddAlpha(common, alpha, subtract);
        if (alpha == null) return subtract ? SUB_FN : ADD_FN;
        Scalar s = Scalar.of(alpha);
        double ad = subtract ? -s.doubleValue() : s.doubleValue(), ai = subtract ? -s.imag() : s.imag();
        long al = subtract ? -s.longValue() : s.longValue();
        return bin(
                (a, b) -> a + ad * b,
                (a, b) -> a + al * b,
                (xr, xi, yr, yi, o) -> {
                    o[0] = xr + ad * yr - ai * yi;
                    o[1] = xi + ad * yi + ai * yr;
                },
                null);
    }

    /**
     * float16/bfloat16 add as ATen's CPU kernel computes it: the iterator casts both operands to the common dtype (so a
     * Java scalar or a 0-d tensor of another dtype is rounded to it first, 1.7 to 1.703125 in bfloat16), alpha is
     * converted to it too (sub negates it), and the vectorised loop computes {@code fma(other, alpha, self)} in float,
     * rounded once on the store. (The loop's scalar tail rounds {@code alpha * other} separately; with alpha 1 the two
     * agree.)
     */
    private static Fns.Binary halfAddAlpha(DType common, Object alpha, boolean subtract) {
        java.util.function.DoubleUnaryOperator round = roundingTo(common);
        float a =
                (float) round.applyAsDouble(alpha == null ? 1 : Scalar.of(alpha).doubleValue());
        float al = subtract ? -a : a;
        return bin(
                (x, y) -> Math.fma((float) round.applyAsDouble(y), al, (float) round.applyAsDouble(x)),
                null,
                null,
                null);
    }

    /**
     * pow.Tensor_Scalar's NumPy-compatible check: an integer (or bool) tensor to a negative integer scalar is refused
     * whatever its values, while a tensor exponent computes elementwise ({@link #intPow}).
     */
    private static void checkPowScalar(Object[] args) {
        DType base = ((Tensor) args[0]).dtype();
        if (args[1] instanceof Tensor || base.isFloatingPoint() || base.isComplex()) return;
        Scalar e = Scalar.of(args[1]);
        if (e.isIntegral() && e.longValue() < 0) {
            throw new TorchException("Integers to negative integer powers are not allowed.");
        }
    }

    /** A scalar exponent of 0 or 1 (false or true): the result is ones or a copy, with no power kernel. */
    private record UnitExponent(boolean one) {}

    /**
     * {@code pow} with ATen's {@code pow_Tensor_Scalar_out} shortcut: a scalar exponent equal to 0 or {@code false}
     * fills ones, 1 or {@code true} copies the base, in the promoted dtype; so {@code pow(bool tensor, true)} is
     * defined although no power kernel takes bool. The definition takes the place of {@code pow} in the registry.
     */
    private static OpDef withUnitExponents(OpDef pow) {
        OpDef.Meta meta = pow.meta();
        OpDef.Kernel kernel = pow.kernel();
        OpDef unit = OpDef.Unregistered.structured(
                pow.schema(),
                args -> {
                    if (args[1] instanceof Tensor || args[1] == null) return meta.infer(args);
                    Scalar e = Scalar.of(args[1]);
                    if (e.imag() != 0 || (e.doubleValue() != 0 && e.doubleValue() != 1)) return meta.infer(args);
                    checkPowScalar(args);
                    Tensor base = (Tensor) args[0];
                    DType out = new TypePromotion.State().add(base).add(e).result();
                    return Spec.of(base.shape(), out, base.device(), new UnitExponent(e.doubleValue() == 1));
                },
                (args, outs, spec) -> {
                    if (!(spec.plan() instanceof UnitExponent u)) {
                        kernel.run(args, outs, spec);
                    } else if (u.one()) {
                        CopyOps.convert((Tensor) args[0], outs[0]);
                    } else {
                        Creation.fillAll(outs[0], Scalar.of(1L));
                    }
                },
                pow.flags());
        OpRegistry.replace(pow, unit);
        return unit;
    }

    /** PyTorch's {@code alpha_check}, against the common dtype of (self, other). */
    private static void checkAlpha(Object[] args) {
        Object alpha = args.length > 2 ? args[2] : null;
        if (alpha == null) return;
        Scalar s = Scalar.of(alpha);
        DType r = TypePromotion.resultType(args[0], args[1]);
        if (s.kind() == Scalar.Kind.BOOL && r != DType.BOOL) {
            throw new TorchException("Boolean alpha only supported for Boolean results.");
        }
        if (!r.isFloatingPoint() && !r.isComplex() && !s.isIntegral()) {
            throw new TorchException("For integral input tensors, argument alpha must not be a floating point number.");
        }
        if (!r.isComplex() && s.isComplex()) {
            throw new TorchException("For non-complex input tensors, argument alpha must not be a complex number.");
        }
    }

    /**
     * PyTorch's {@code sub_check}: no operand may be bool (a Java scalar counts with its own kind), then the alpha
     * check.
     */
    private static void checkSub(Object[] args) {
        boolean a = ((Tensor) args[0]).dtype() == DType.BOOL;
        boolean b = args[1] instanceof Tensor t
                ? t.dtype() == DType.BOOL
                : Scalar.of(args[1]).kind() == Scalar.Kind.BOOL;
        if (a && b) {
            throw new TorchException("Subtraction, the `-` operator, with two bool tensors is not supported. "
                    + "Use the `^` or `logical_xor()` operator instead.");
        }
        if (a || b) {
            throw new TorchException("Subtraction, the `-` operator, with a bool tensor is not supported. "
                    + "If you are trying to invert a mask, "
                    + "use the `~` or `logical_not()` operator instead.");
        }
        checkAlpha(args);
    }

    public static final OpDef ADD = Pointwise.checked(
                    Pointwise.binary(
                            "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                            Promotion.DEFAULT,
                            ALL,
                            false,
                            args -> addAlpha(args, false)),
                    PointwiseOps::checkAlpha)
            .defineVjp(
                    OpDef.Save.NOTHING,
                    (a, o, g) ->
                            Grads.forTensorArgs(a, g[0], a.length > 2 && a[2] != null ? Grads.times(g[0], a[2]) : g[0]))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef SUB = Pointwise.checked(
                    Pointwise.binary(
                            "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                            Promotion.DEFAULT,
                            NUMBERS,
                            false,
                            args -> addAlpha(args, true)),
                    PointwiseOps::checkSub)
            .defineVjp(
                    OpDef.Save.NOTHING,
                    (a, o, g) -> Grads.forTensorArgs(
                            a, g[0], (a.length > 2 && a[2] != null ? Grads.times(g[0], a[2]) : g[0]).neg()))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef MUL = Pointwise.binary(
                    "mul.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    ALL,
                    bin((a, b) -> a * b, (a, b) -> a * b, ComplexMath::mul, FloatSimd.Binary.MUL))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.forTensorArgs(a, Grads.times(g[0], a[1]), Grads.times(g[0], a[0])))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef DIV = Pointwise.binary(
                    "div.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    bin((a, b) -> a / b, null, ComplexMath::div, FloatSimd.Binary.DIV))
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            g[0].div(Grads.conj(Grads.asTensor(a[1], (Tensor) a[0]))),
                            g[0].neg().mul(Grads.conj(o[0].div(Grads.asTensor(a[1], (Tensor) a[0]))))))
            .deriveJvp(Jvps::elementwise);
    /**
     * {@code div(self, other, rounding_mode="trunc"|"floor")}: the quotient rounded toward zero or down, in the
     * promoted dtype; its gradient is zero (PyTorch's {@code grad * 0}).
     */
    public static final OpDef DIV_ROUNDING = Pointwise.binary(
                    "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
                    Promotion.DEFAULT,
                    REAL,
                    false,
                    args -> roundingDivision((String) args[2]))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> Grads.zerosForTensorArgs(a, g[0]))
            .deriveJvp(Jvps::zero);

    /**
     * {@code floor_divide(self, other)}: {@code div(rounding_mode="floor")}'s values; as in PyTorch it has no
     * derivative, so a backward through it raises.
     */
    public static final OpDef DIV_FLOOR = Pointwise.binary(
                    "floor_divide(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    REAL,
                    false,
                    args -> roundingDivision("floor"))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> {
                throw new TorchException("derivative for aten::floor_divide is not implemented");
            })
            .defineJvp((a, o, t) -> {
                throw new TorchException("derivative for aten::floor_divide is not implemented");
            });

    /** The kernels of a rounding division: "trunc" rounds the quotient toward zero, "floor" down. */
    private static Fns.Binary roundingDivision(String mode) {
        if ("floor".equals(mode)) {
            return new Fns.Binary(
                    PointwiseOps::floorDivide,
                    PointwiseOps::floorDivide,
                    (a, b) -> Long.divideUnsigned(a, checkedDivisor(b)),
                    null,
                    null);
        }
        if (mode == null) {
            // true division promotes integers to float, which this op's promotion does not: div.Tensor is that op
            throw new TorchException(
                    "div.Tensor_mode: rounding_mode=None is true division; call div.Tensor (Torch.div)");
        }
        if (!"trunc".equals(mode)) {
            throw new TorchException(
                    "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
        }
        return new Fns.Binary(
                (a, b) -> {
                    double q = a / b;
                    return q < 0 ? Math.ceil(q) : Math.floor(q);
                },
                (a, b) -> a / checkedDivisor(b),
                (a, b) -> Long.divideUnsigned(a, checkedDivisor(b)),
                null,
                null);
    }

    public static final OpDef REMAINDER = Pointwise.binary(
                    "remainder.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    REAL,
                    false,
                    args -> new Fns.Binary(
                            PointwiseOps::remainder,
                            PointwiseOps::remainder,
                            (a, b) -> Long.remainderUnsigned(a, checkedDivisor(b)),
                            null,
                            null))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            g[0],
                            a[1] instanceof Tensor
                                    ? g[0].neg().mul(PointwiseOps.DIV_ROUNDING.call1(a[0], a[1], "floor"))
                                    : null))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef FMOD = Pointwise.binary(
                    "fmod.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    REAL,
                    false,
                    args -> new Fns.Binary(
                            (a, b) -> a % b,
                            (a, b) -> a % checkedDivisor(b),
                            (a, b) -> Long.remainderUnsigned(a, checkedDivisor(b)),
                            null,
                            null))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            g[0],
                            a[1] instanceof Tensor
                                    ? g[0].neg().mul(PointwiseOps.DIV_ROUNDING.call1(a[0], a[1], "trunc"))
                                    : null))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef POW = withUnitExponents(Pointwise.checked(
                    Pointwise.binary(
                            "pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
                            Promotion.DEFAULT,
                            NUMBERS,
                            bin(PointwiseOps::pow, PointwiseOps::intPow, ComplexMath::pow, null)),
                    PointwiseOps::checkPowScalar))
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            PointwiseOps.powBaseGrad(g[0], ((Tensor) a[0]), a[1]),
                            a[1] instanceof Tensor e
                                    ? PointwiseOps.powExponentGrad(g[0], ((Tensor) a[0]), e, o[0])
                                    : null))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ATAN2 = Pointwise.binary(
                    "atan2(Tensor self, Tensor other) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    REAL_FLOATS,
                    bin(Math::atan2, null, null, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor x = (Tensor) a[0], y = (Tensor) a[1];
                Tensor r = x.square().add(y.square()).reciprocal();
                return Grads.forTensorArgs(
                        a, g[0].mul(y).mul(r), g[0].mul(x.neg()).mul(r));
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef HYPOT = Pointwise.binary(
                    "hypot(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    bin(Math::hypot, null, null, null))
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            g[0].mul((Tensor) a[0]).div(o[0]),
                            g[0].mul((Tensor) a[1]).div(o[0])))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef LOGADDEXP = Pointwise.binary(
                    "logaddexp(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    FLOATS,
                    bin(PointwiseOps::logaddexp, null, PointwiseOps::logaddexp, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                // d/dx log(e^x + e^y) = 1 / (1 + e^(y - x)): ATen's formula, which never divides by the output
                Tensor x = (Tensor) a[0], y = (Tensor) a[1];
                return Grads.forTensorArgs(
                        a,
                        g[0].div(Grads.conj(y.sub(x).exp().add(1.0))),
                        g[0].div(Grads.conj(x.sub(y).exp().add(1.0))));
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef LOGADDEXP2 = Pointwise.binary(
                    "logaddexp2(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    bin(PointwiseOps::logaddexp2, null, null, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor x = (Tensor) a[0], y = (Tensor) a[1];
                return Grads.forTensorArgs(
                        a,
                        g[0].div(y.sub(x).exp2().add(1.0)),
                        g[0].div(x.sub(y).exp2().add(1.0)));
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef COPYSIGN = Pointwise.binary(
                    "copysign.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    REAL_FLOATS,
                    bin(Math::copySign, null, null, null))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> {
                // result / self is ±1; a zero self gets 0, as ATen's copysign_tensor_self_backward masks it
                Tensor self = (Tensor) a[0];
                Tensor ratio = Grads.zeroWhere(self.eq(0L), o[0].div(self));
                return Grads.forTensorArgs(a, g[0].mul(ratio), Grads.zeros(g[0]));
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef XLOGY = Pointwise.binary(
                    "xlogy.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    REAL_FLOATS,
                    bin((x, y) -> Double.isNaN(y) ? Double.NaN : x == 0 ? 0 : x * Math.log(y), null, null, null))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            xlogySelfGrad(g[0], (Tensor) a[0], a[1]),
                            a[1] instanceof Tensor y ? g[0].mul((Tensor) a[0]).div(y) : null))
            .deriveJvp(Jvps::elementwise);

    /**
     * d/dx of xlogy(x, y) is log(y), but 0 at x == 0 with y <= 0, where xlogy is 0 by definition and not differentiable
     * (PyTorch takes the derivative along x = 0, issue 80770).
     */
    private static Tensor xlogySelfGrad(Tensor g, Tensor self, Object other) {
        Tensor d = PointwiseOps.XLOGY.call1(g, other);
        if (other instanceof Tensor y) return Grads.zeroWhere(PointwiseOps.LOGICAL_AND.call1(self.eq(0L), y.le(0L)), d);
        return Scalar.of(other).doubleValue() > 0 ? d : Grads.zeroWhere(self.eq(0L), d);
    }

    /** Refuses complex operands with PyTorch's message; ordering them is a TypeError in 2.15. */
    private static Pointwise.Check noComplex(String message) {
        return args -> {
            for (Object a : args) {
                if (a instanceof Tensor t && t.isComplex()) throw new TorchTypeException(message);
            }
        };
    }

    /** maximum/minimum propagate NaN; fmax/fmin ignore it. */
    public static final OpDef MAXIMUM = Pointwise.checked(
                    Pointwise.binary(
                            "maximum(Tensor self, Tensor other) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            true,
                            args -> new Fns.Binary(
                                    (a, b) -> Double.isNaN(a) || Double.isNaN(b) ? Double.NaN : Math.max(a, b),
                                    Math::max,
                                    (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b,
                                    null,
                                    FloatSimd.Binary.MAX)),
                    noComplex("maximum not implemented for complex tensors."))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.selection(a, g[0], ((Tensor) a[0]).lt(a[1]), ((Tensor) a[0]).gt(a[1])))
            .deriveJvp(Jvps::elementwise);

    public static final OpDef MINIMUM = Pointwise.checked(
                    Pointwise.binary(
                            "minimum(Tensor self, Tensor other) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            true,
                            args -> new Fns.Binary(
                                    (a, b) -> Double.isNaN(a) || Double.isNaN(b) ? Double.NaN : Math.min(a, b),
                                    Math::min,
                                    (a, b) -> Long.compareUnsigned(a, b) <= 0 ? a : b,
                                    null,
                                    FloatSimd.Binary.MIN)),
                    noComplex("minimum not implemented for complex tensors."))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.selection(a, g[0], ((Tensor) a[0]).gt(a[1]), ((Tensor) a[0]).lt(a[1])))
            .deriveJvp(Jvps::elementwise);
    public static final OpDef FMAX = Pointwise.checked(
                    Pointwise.binary(
                            "fmax(Tensor self, Tensor other) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            true,
                            args -> new Fns.Binary(
                                    (a, b) -> Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b),
                                    Math::max,
                                    (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b,
                                    null,
                                    null)),
                    noComplex("fmax not implemented for complex tensors."))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                // 2.15: the gradient goes where the forward's value came from; a NaN other selects self
                Tensor self = (Tensor) a[0], otherNan = PointwiseOps.ISNAN.call1((Tensor) a[1]);
                return Grads.selection(
                        a,
                        g[0],
                        PointwiseOps.LOGICAL_OR.call1(self.ge(a[1]), otherNan).logicalNot(),
                        PointwiseOps.LOGICAL_OR.call1(self.gt(a[1]), otherNan));
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef FMIN = Pointwise.checked(
                    Pointwise.binary(
                            "fmin(Tensor self, Tensor other) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            true,
                            args -> new Fns.Binary(
                                    (a, b) -> Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b),
                                    Math::min,
                                    (a, b) -> Long.compareUnsigned(a, b) <= 0 ? a : b,
                                    null,
                                    null)),
                    noComplex("fmin not implemented for complex tensors."))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor self = (Tensor) a[0], otherNan = PointwiseOps.ISNAN.call1((Tensor) a[1]);
                return Grads.selection(
                        a,
                        g[0],
                        PointwiseOps.LOGICAL_OR.call1(self.le(a[1]), otherNan).logicalNot(),
                        PointwiseOps.LOGICAL_OR.call1(self.lt(a[1]), otherNan));
            })
            .deriveJvp(Jvps::elementwise);

    // ---- comparisons, logical, bitwise --------------------------------------------------------------

    private static Fns.Binary compare(
            java.util.function.DoubleBinaryOperator d,
            java.util.function.LongBinaryOperator l,
            java.util.function.LongBinaryOperator lu,
            Fns.ComplexBinary c) {
        return new Fns.Binary(d, l, lu, c, null);
    }

    private static double b(boolean v) {
        return v ? 1 : 0;
    }

    private static long l(boolean v) {
        return v ? 1 : 0;
    }

    public static final OpDef EQ = Pointwise.binary(
                    "eq.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    compare((a, c) -> b(a == c), (a, c) -> l(a == c), null, (ar, ai, br, bi, o) -> {
                        o[0] = b(ar == br && ai == bi);
                        o[1] = 0;
                    }))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef NE = Pointwise.binary(
                    "ne.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    compare((a, c) -> b(a != c), (a, c) -> l(a != c), null, (ar, ai, br, bi, o) -> {
                        o[0] = b(ar != br || ai != bi);
                        o[1] = 0;
                    }))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef LT = Pointwise.binary(
                    "lt.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    REAL,
                    true,
                    a -> compare(
                            (x, y) -> b(x < y), (x, y) -> l(x < y), (x, y) -> l(Long.compareUnsigned(x, y) < 0), null))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef LE = Pointwise.binary(
                    "le.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    REAL,
                    true,
                    a -> compare(
                            (x, y) -> b(x <= y),
                            (x, y) -> l(x <= y),
                            (x, y) -> l(Long.compareUnsigned(x, y) <= 0),
                            null))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef GT = Pointwise.binary(
                    "gt.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    REAL,
                    true,
                    a -> compare(
                            (x, y) -> b(x > y), (x, y) -> l(x > y), (x, y) -> l(Long.compareUnsigned(x, y) > 0), null))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef GE = Pointwise.binary(
                    "ge.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    REAL,
                    true,
                    a -> compare(
                            (x, y) -> b(x >= y),
                            (x, y) -> l(x >= y),
                            (x, y) -> l(Long.compareUnsigned(x, y) >= 0),
                            null))
            .derivativeNotImplemented(BOOL_RESULT);

    private static boolean truthy(double re, double im) {
        return re != 0 || im != 0;
    }

    public static final OpDef LOGICAL_AND = Pointwise.binary(
                    "logical_and(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    compare((x, y) -> b(x != 0 && y != 0), (x, y) -> l(x != 0 && y != 0), null, (ar, ai, br, bi, o) -> {
                        o[0] = b(truthy(ar, ai) && truthy(br, bi));
                        o[1] = 0;
                    }))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef LOGICAL_OR = Pointwise.binary(
                    "logical_or(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    compare((x, y) -> b(x != 0 || y != 0), (x, y) -> l(x != 0 || y != 0), null, (ar, ai, br, bi, o) -> {
                        o[0] = b(truthy(ar, ai) || truthy(br, bi));
                        o[1] = 0;
                    }))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef LOGICAL_XOR = Pointwise.binary(
                    "logical_xor(Tensor self, Tensor other) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    compare(
                            (x, y) -> b((x != 0) != (y != 0)),
                            (x, y) -> l((x != 0) != (y != 0)),
                            null,
                            (ar, ai, br, bi, o) -> {
                                o[0] = b(truthy(ar, ai) != truthy(br, bi));
                                o[1] = 0;
                            }))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef BITWISE_AND = Pointwise.binary(
                    "bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    INTS,
                    bin(null, (x, y) -> x & y, null, null))
            .derivativeNotImplemented(INTEGER_ONLY);
    public static final OpDef BITWISE_OR = Pointwise.binary(
                    "bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    INTS,
                    bin(null, (x, y) -> x | y, null, null))
            .derivativeNotImplemented(INTEGER_ONLY);
    public static final OpDef BITWISE_XOR = Pointwise.binary(
                    "bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    INTS,
                    bin(null, (x, y) -> x ^ y, null, null))
            .derivativeNotImplemented(INTEGER_ONLY);
    /** Shifts by at least the bit width give 0 (left) or the sign fill (right), as ATen defines them. */
    public static final OpDef SHIFT_LEFT = Pointwise.binary(
                    "bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    EnumSet.of(DType.Category.INTEGRAL),
                    bin(null, (x, y) -> y < 0 || y >= 64 ? 0 : x << y, null, null))
            .derivativeNotImplemented(INTEGER_ONLY);

    public static final OpDef SHIFT_RIGHT = Pointwise.binary(
                    "bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    EnumSet.of(DType.Category.INTEGRAL),
                    bin(null, (x, y) -> y < 0 || y >= 64 ? (x < 0 ? -1 : 0) : x >> y, null, null))
            .derivativeNotImplemented(INTEGER_ONLY);

    // ---- unary --------------------------------------------------------------------------------------

    /** A check refusing one dtype category with PyTorch's message, as the exception {@code error} makes it. */
    private static Pointwise.Check refuse(
            DType.Category category, java.util.function.Function<String, RuntimeException> error, String message) {
        return args -> {
            if (((Tensor) args[0]).dtype().category() == category) throw error.apply(message);
        };
    }

    public static final OpDef NEG = Pointwise.checked(
                    Pointwise.unary(
                            "neg(Tensor self) -> Tensor",
                            Promotion.DEFAULT,
                            NUMBERS,
                            new Fns.Unary(
                                    x -> -x,
                                    x -> -x,
                                    null,
                                    (re, im, o) -> {
                                        o[0] = -re;
                                        o[1] = -im;
                                    },
                                    FloatSimd.Unary.NEG)),
                    refuse(
                            DType.Category.BOOL,
                            TorchException::new,
                            "Negation, the `-` operator, on a bool tensor is not supported. "
                                    + "If you are trying to invert a mask, "
                                    + "use the `~` or `logical_not()` operator instead."))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].neg()})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ABS = Pointwise.unary(
                    "abs(Tensor self) -> Tensor",
                    Promotion.COMPLEX_TO_FLOAT,
                    NUMBERS,
                    new Fns.Unary(
                            Math::abs,
                            Math::abs,
                            x -> x,
                            (re, im, o) -> {
                                o[0] = Math.hypot(re, im);
                                o[1] = 0;
                            },
                            FloatSimd.Unary.ABS))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].mul(PointwiseOps.SGN.call1(((Tensor) a[0])))})
            // abs is not holomorphic: PyTorch's handle_r_to_c(conj(t) * sgn(x)), the real part taken on conforming
            .defineJvp((a, o, t) -> new Tensor[] {Grads.conj(t[0]).mul(PointwiseOps.SGN.call1((Tensor) a[0]))});
    /** (0 < x) - (x < 0) as ATen computes it: 0 for NaN and for both zeros. */
    private static double sign(double x) {
        return x > 0 ? 1 : x < 0 ? -1 : 0;
    }

    public static final OpDef SIGN = Pointwise.checked(
                    Pointwise.unary(
                            "sign(Tensor self) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            new Fns.Unary(PointwiseOps::sign, Long::signum, x -> x == 0 ? 0 : 1, null, null)),
                    refuse(
                            DType.Category.COMPLEX,
                            TorchException::new,
                            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please "
                                    + "use torch.sgn instead."))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0])})
            .deriveJvp(Jvps::zero);
    public static final OpDef SGN = Pointwise.unary(
                    "sgn(Tensor self) -> Tensor",
                    Promotion.DEFAULT,
                    ALL,
                    new Fns.Unary(
                            PointwiseOps::sign,
                            Long::signum,
                            x -> x == 0 ? 0 : 1,
                            (re, im, o) -> {
                                // z / (|z| + 0i) by complex division, as ATen divides: an infinite part gives NaNs
                                double m = Math.hypot(re, im);
                                if (m == 0) {
                                    o[0] = 0;
                                    o[1] = 0;
                                } else {
                                    ComplexMath.div(re, im, m, 0, o);
                                }
                            },
                            null))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {sgnGrad(g[0], (Tensor) a[0], o[0])})
            // sgn's Jacobian (as a real 2x2 map) is symmetric, so the VJP formula applied to t is the JVP
            .defineJvp((a, o, t) -> new Tensor[] {sgnGrad(t[0], (Tensor) a[0], o[0])});

    /**
     * ATen's {@code sgn_backward}: zero for real input; for complex z with s = z/|z| the map is not holomorphic (d s/dz
     * = 1/(2|z|), d s/dz̄ = -s²/(2|z|)), giving (g - s²·conj(g)) / (2|z|), 0 at z = 0.
     */
    private static Tensor sgnGrad(Tensor g, Tensor x, Tensor sgn) {
        if (!x.isComplex()) return Grads.zeros(g);
        Tensor abs = x.abs();
        return Grads.zeroWhere(
                abs.eq(0L), g.sub(sgn.square().mul(Grads.conj(g))).div(abs.mul(2L)));
    }

    public static final OpDef RECIPROCAL = Pointwise.unary(
                    "reciprocal(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(x -> 1 / x, ComplexMath::reciprocal, FloatSimd.Unary.RECIPROCAL))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(o[0].square())).neg()})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef SQUARE = Pointwise.unary(
                    "square(Tensor self) -> Tensor",
                    Promotion.BOOL_TO_INT64,
                    NUMBERS,
                    new Fns.Unary(
                            x -> x * x,
                            x -> x * x,
                            null,
                            (re, im, o) -> ComplexMath.mul(re, im, re, im, o),
                            FloatSimd.Unary.SQUARE))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(((Tensor) a[0]))).mul(2L)})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef EXP = Pointwise.unary(
                    "exp(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::exp, ComplexMath::exp, FloatSimd.Unary.EXP))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {g[0].mul(Grads.conj(o[0]))})
            .deriveJvp(Jvps::elementwise);
    /** {@code 2^x}; complex as ATen's {@code exp2_impl}: {@code exp(ln 2 · z)}. */
    public static final OpDef EXP2 = Pointwise.unary(
                    "exp2(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(x -> Math.pow(2, x), (re, im, o) -> ComplexMath.exp(LN2 * re, LN2 * im, o), null))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(o[0])).mul(LN2)})
            .deriveJvp(Jvps::elementwise);

    public static final OpDef EXPM1 = Pointwise.unary(
                    "expm1(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::expm1, ComplexMath::expm1, null))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {g[0].mul(Grads.conj(o[0].add(1L)))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef LOG = Pointwise.unary(
                    "log(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::log, ComplexMath::log, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].div(Grads.conj(((Tensor) a[0])))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef LOG2 = Pointwise.unary(
                    "log2(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(x -> Math.log(x) / Math.log(2), ComplexMath::log2, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].div(Grads.conj((Tensor) a[0]).mul(LN2))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef LOG10 = Pointwise.unary(
                    "log10(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::log10, ComplexMath::log10, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].div(Grads.conj((Tensor) a[0]).mul(LN10))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef LOG1P = Pointwise.unary(
                    "log1p(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::log1p, ComplexMath::log1p, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].div(Grads.conj(((Tensor) a[0]).add(1L)))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef SQRT = Pointwise.unary(
                    "sqrt(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::sqrt, ComplexMath::sqrt, FloatSimd.Unary.SQRT))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].div(Grads.conj(o[0]).mul(2L))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef RSQRT = Pointwise.unary(
                    "rsqrt(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(x -> 1 / Math.sqrt(x), ComplexMath::rsqrt, FloatSimd.Unary.RSQRT))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(o[0].pow(3L))).mul(-0.5)})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef SIN = Pointwise.unary(
                    "sin(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::sin, ComplexMath::sin, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].mul(Grads.conj(((Tensor) a[0]).cos()))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef COS = Pointwise.unary(
                    "cos(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::cos, ComplexMath::cos, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(((Tensor) a[0]).sin())).neg()})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef TAN = Pointwise.unary(
                    "tan(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::tan, ComplexMath::tan, null))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(o[0].square().add(1L)))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ASIN = Pointwise.unary(
                    "asin(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::asin, ComplexMath::asin, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                g[0].mul(Grads.conj(oneMinusSquare((Tensor) a[0]).rsqrt()))
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ACOS = Pointwise.unary(
                    "acos(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::acos, ComplexMath::acos, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                g[0].mul(Grads.conj(oneMinusSquare((Tensor) a[0]).rsqrt())).neg()
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ATAN = Pointwise.unary(
                    "atan(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::atan, ComplexMath::atan, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].div(Grads.conj(((Tensor) a[0]).square().add(1L)))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef SINH = Pointwise.unary(
                    "sinh(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::sinh, ComplexMath::sinh, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(PointwiseOps.COSH.call1((Tensor) a[0])))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef COSH = Pointwise.unary(
                    "cosh(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::cosh, ComplexMath::cosh, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(PointwiseOps.SINH.call1((Tensor) a[0])))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef TANH = Pointwise.unary(
                    "tanh(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(Math::tanh, ComplexMath::tanh, null))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(o[0].square().neg().add(1L)))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ASINH = Pointwise.unary(
                    "asinh(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(
                            x -> Double.isInfinite(x)
                                    ? x
                                    : Math.copySign(Math.log(Math.abs(x) + Math.sqrt(x * x + 1)), x),
                            ComplexMath::asinh,
                            null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                g[0].mul(Grads.conj(((Tensor) a[0]).square().add(1L).rsqrt()))
            })
            .deriveJvp(Jvps::elementwise);
    /**
     * Real acosh as fdlibm's {@code e_acosh.c} (glibc's, which PyTorch's CPU kernel calls): NaN below 1, log(x) + ln 2
     * from 2^28 on (the direct form overflows x² near 1e154 and cancels to log(0) = -inf for large negative x), and
     * log1p near 1, where x + sqrt(x² - 1) loses the digits that matter.
     */
    private static double acoshReal(double x) {
        if (!(x >= 1)) return Double.NaN;
        if (x >= 0x1p28) return Double.isInfinite(x) ? x : Math.log(x) + LN2;
        if (x > 2) return Math.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
        double t = x - 1;
        return Math.log1p(t + Math.sqrt(2 * t + t * t));
    }

    public static final OpDef ACOSH = Pointwise.unary(
                    "acosh(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(PointwiseOps::acoshReal, ComplexMath::acosh, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                // 1/sqrt(x² - 1); for complex x only the split 1/(sqrt(x + 1)·sqrt(x - 1)) is on acosh's branch
                Tensor x = (Tensor) a[0];
                Tensor d = x.isComplex()
                        ? x.add(1L).rsqrt().mul(x.sub(1L).rsqrt())
                        : x.square().sub(1L).rsqrt();
                return new Tensor[] {g[0].mul(Grads.conj(d))};
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ATANH = Pointwise.unary(
                    "atanh(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(x -> 0.5 * Math.log1p(2 * x / (1 - x)), ComplexMath::atanh, null))
            .defineVjp(
                    OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].div(Grads.conj(oneMinusSquare((Tensor) a[0])))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef SIGMOID = Pointwise.unary(
                    "sigmoid(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    cplx(x -> 1 / (1 + Math.exp(-x)), ComplexMath::sigmoid, FloatSimd.Unary.SIGMOID))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(Grads.conj(o[0].mul(o[0].neg().add(1L))))})
            .deriveJvp(Jvps::elementwise);
    /**
     * ATen computes logit in {@code scalar_t} (bfloat16 arithmetic for bfloat16): the bounds, {@code 1 - z} and the
     * ratio are rounded to the compute dtype before the log, which matters near x = 1/2 and at the bounds.
     */
    public static final OpDef LOGIT = Pointwise.unary(
                    "logit(Tensor self, float? eps=None) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    REAL_FLOATS,
                    false,
                    args -> {
                        DType in = ((Tensor) args[0]).dtype();
                        java.util.function.DoubleUnaryOperator r =
                                roundingTo(in.isFloatingPoint() ? in : DefaultDtype.get());
                        double eps = args.length > 1 && args[1] != null ? ((Number) args[1]).doubleValue() : -1;
                        double lo = r.applyAsDouble(eps), hi = r.applyAsDouble(1 - lo);
                        return real(x -> {
                            double z = eps < 0 ? x : x < lo ? lo : x > hi ? hi : x;
                            return Math.log(r.applyAsDouble(z / r.applyAsDouble(1 - z)));
                        });
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {logitGrad(g[0], (Tensor) a[0], a.length > 1 ? a[1] : null)})
            .deriveJvp(Jvps::elementwise);

    /**
     * ATen's {@code infinitely_differentiable_logit_backward}: 1/(x(1-x)) on [eps, 1-eps], 0 outside (the clamped
     * region); without eps, NaN outside [0, 1] where logit itself is NaN.
     */
    private static Tensor logitGrad(Tensor g, Tensor x, Object eps) {
        double lo = eps == null ? 0 : ((Number) eps).doubleValue();
        Tensor inside = PointwiseOps.LOGICAL_AND.call1(x.ge(lo), x.le(1 - lo));
        Tensor d = g.div(x.mul(x.neg().add(1L)));
        return TernaryOps.where(inside, d, eps == null ? Double.NaN : 0.0);
    }

    /** Rounds a double result of one arithmetic step as ATen's {@code scalar_t} arithmetic stores it. */
    static java.util.function.DoubleUnaryOperator roundingTo(DType d) {
        return switch (d) {
            case FLOAT64 -> x -> x;
            case FLOAT16 -> x -> LowPrecision.halfToFloat(LowPrecision.floatToHalf((float) x));
            case BFLOAT16 -> x -> LowPrecision.bfloat16ToFloat(LowPrecision.floatToBFloat16((float) x));
            default -> x -> (float) x;
        };
    }

    /** relu is clamp_min(x, 0) in ATen, hence clamp's message for complex input. */
    public static final OpDef RELU = Pointwise.checked(
                    Pointwise.unary(
                            "relu(Tensor self) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            true,
                            args -> new Fns.Unary(
                                    x -> x > 0 || Double.isNaN(x) ? x : 0,
                                    x -> Math.max(x, 0),
                                    x -> x,
                                    null,
                                    FloatSimd.Unary.RELU)),
                    args -> {
                        refuse(DType.Category.BOOL, TorchException::new, "Boolean inputs not supported for relu")
                                .check(args);
                        refuse(
                                        DType.Category.COMPLEX,
                                        TorchTypeException::new,
                                        "clamp is not supported for complex types")
                                .check(args);
                    })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {thresholdBackward(g[0], o[0], 0L)})
            .deriveJvp(Jvps::elementwise);

    /**
     * {@code threshold_backward(grad_output, self, threshold)}: {@code self <= threshold ? 0 : grad_output} in one
     * pass, ATen's backward of relu (with self = relu's output) and threshold. Linear in grad_output, so its own
     * gradient is itself for grad_output and zero for self (piecewise constant there), which gives every order.
     */
    public static final OpDef THRESHOLD_BACKWARD = Pointwise.binary(
                    "threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
                    Promotion.DEFAULT,
                    REAL,
                    false,
                    args -> {
                        double threshold = Scalar.of(args[2]).doubleValue();
                        return new Fns.Binary(
                                (g, x) -> x <= threshold ? 0 : g,
                                (g, x) -> x <= threshold ? 0 : g,
                                null,
                                null,
                                threshold == 0 ? FloatSimd.Binary.RELU_BACKWARD : null);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) ->
                    new Tensor[] {mask.needs(0) ? thresholdBackward(g[0], (Tensor) a[1], a[2]) : null, null})
            .deriveJvp(Jvps::elementwise);

    /** {@code threshold_backward(grad_output, self, threshold)}. */
    public static Tensor thresholdBackward(Tensor gradOutput, Tensor self, Object threshold) {
        return THRESHOLD_BACKWARD.call1(gradOutput, self, threshold);
    }

    /** Complex silu is computable but, as in PyTorch, not differentiable: recording it is refused up front. */
    public static final OpDef SILU = Pointwise.checked(
                    Pointwise.unary(
                            "silu(Tensor self) -> Tensor",
                            Promotion.DEFAULT,
                            FLOATS,
                            cplx(x -> x / (1 + Math.exp(-x)), ComplexMath::silu, FloatSimd.Unary.SILU)),
                    args -> {
                        Tensor x = (Tensor) args[0];
                        if (x.isComplex()
                                && x.requiresGrad()
                                && DispatchState.current().isGradEnabled()) {
                            throw new TorchException(
                                    "silu does not support automatic differentiation for outputs with complex dtype.");
                        }
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor x = (Tensor) a[0], s = x.sigmoid();
                return new Tensor[] {g[0].mul(s).mul(x.mul(s.neg().add(1L)).add(1L))};
            })
            .deriveJvp(Jvps::elementwise);

    public static final OpDef GELU = Pointwise.unary(
                    "gelu(Tensor self, *, str approximate='none') -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    false,
                    args -> tanh(args, 1)
                            ? realSimd(PointwiseOps::geluTanh, FloatSimd.Unary.GELU_TANH)
                            : realSimd(PointwiseOps::gelu, FloatSimd.Unary.GELU))
            .defineVjp(
                    OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {geluBackward(g[0], (Tensor) a[0], approximate(a, 1))})
            .deriveJvp(Jvps::elementwise);

    /**
     * {@code gelu_backward(grad_output, self, approximate)}: {@code grad_output · gelu'(self)} in one pass, as ATen's
     * op. Its own VJP is written with differentiable ops (gelu'' in closed form), so third derivatives exist too.
     */
    public static final OpDef GELU_BACKWARD = Pointwise.binary(
                    "gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    false,
                    args -> tanh(args, 2)
                            ? new Fns.Binary(
                                    (g, x) -> g * geluTanhGrad(x),
                                    null,
                                    null,
                                    null,
                                    FloatSimd.Binary.GELU_TANH_BACKWARD)
                            : new Fns.Binary(
                                    (g, x) -> g * geluGrad(x), null, null, null, FloatSimd.Binary.GELU_BACKWARD))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> {
                Tensor grad = (Tensor) a[0], x = (Tensor) a[1];
                String approximate = approximate(a, 2);
                Tensor dGrad = mask.needs(0) ? geluBackward(g[0], x, approximate) : null;
                Tensor dSelf = mask.needs(1)
                        ? g[0].mul(grad).mul("tanh".equals(approximate) ? geluTanhSecond(x) : geluSecond(x))
                        : null;
                return new Tensor[] {dGrad, dSelf};
            })
            .deriveJvp(Jvps::elementwise);

    /** {@code gelu_backward(grad, self, approximate)}. */
    public static Tensor geluBackward(Tensor grad, Tensor self, String approximate) {
        return GELU_BACKWARD.call1(grad, self, approximate);
    }

    private static boolean tanh(Object[] args, int i) {
        return "tanh".equals(approximate(args, i));
    }

    private static String approximate(Object[] args, int i) {
        return args.length > i && args[i] != null ? (String) args[i] : "none";
    }

    /** d/dx x·Φ(x) = Φ(x) + x·φ(x). */
    static double geluGrad(double x) {
        return 0.5 * (1 + Erf.erf(x / SQRT_2)) + x * Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
    }

    /** d/dx of 0.5·x·(1 + tanh(k(x + c·x³))), as ATen's GeluKernel backward spells it. */
    static double geluTanhGrad(double x) {
        double t = Math.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x));
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x);
    }

    /** d²/dx² x·Φ(x) = φ(x)·(2 - x²). */
    private static Tensor geluSecond(Tensor x) {
        Tensor pdf = x.square().mul(-0.5).exp().mul(1 / Math.sqrt(2 * Math.PI));
        return pdf.mul(x.square().neg().add(2L));
    }

    /** With t = tanh(u), u = k(x + c·x³), s = du/dx: d²/dx² = (1 - t²)·(s - x·t·s² + 3kc·x²). */
    private static Tensor geluTanhSecond(Tensor x) {
        Tensor t = x.pow(3L).mul(0.044715).add(x).mul(SQRT_2_OVER_PI).tanh();
        Tensor s = x.square().mul(3 * 0.044715).add(1L).mul(SQRT_2_OVER_PI);
        Tensor inner = s.sub(x.mul(t).mul(s.square())).add(x.square().mul(3 * 0.044715 * SQRT_2_OVER_PI));
        return t.square().neg().add(1L).mul(inner);
    }

    public static final OpDef SOFTPLUS = Pointwise.unary(
                    "softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    false,
                    args -> {
                        double beta = ((Number) args[1]).doubleValue(), threshold = ((Number) args[2]).doubleValue();
                        return real(x -> x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                // above the threshold softplus is the identity; below, its slope is sigmoid(beta·x)
                Tensor bx = ((Tensor) a[0]).mul(Scalar.of(a[1]).doubleValue());
                return new Tensor[] {
                    TernaryOps.where(bx.gt(Scalar.of(a[2]).doubleValue()), g[0], g[0].mul(bx.sigmoid()))
                };
            })
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ERF = Pointwise.unary(
                    "erf(Tensor self) -> Tensor", Promotion.INT_TO_FLOAT, REAL_FLOATS, real(Erf::erf))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].mul(gaussian((Tensor) a[0]))})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ERFC = Pointwise.unary(
                    "erfc(Tensor self) -> Tensor", Promotion.INT_TO_FLOAT, REAL_FLOATS, real(Erf::erfc))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(gaussian((Tensor) a[0])).neg()})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ERFINV = Pointwise.unary(
                    "erfinv(Tensor self) -> Tensor", Promotion.INT_TO_FLOAT, REAL_FLOATS, real(Erf::erfinv))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(o[0].square().exp()).mul(Math.sqrt(Math.PI) / 2)})
            .deriveJvp(Jvps::elementwise);

    /** erf'(x) = 2/√π · exp(-x²). */
    private static Tensor gaussian(Tensor x) {
        return x.square().neg().exp().mul(2 / Math.sqrt(Math.PI));
    }

    // ---- the log-gamma function and its derivatives -------------------------------------------------

    /**
     * Whether ATen computes an input of this dtype in float arithmetic: every floating dtype but float64, and integers
     * when they promote to a float32 default.
     */
    private static boolean inFloat(Tensor x) {
        return (x.isFloatingPoint() ? x.dtype() : DefaultDtype.get()) != DType.FLOAT64;
    }

    /** ATen's dispatch refusal of a complex argument at {@code self}, naming its kernel (NotImplementedError). */
    private static Pointwise.Check complexNotImplemented(String kernel, int self) {
        return args -> {
            DType d = ((Tensor) args[self]).dtype();
            if (d.isComplex()) {
                throw new UnsupportedOperationException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
            }
        };
    }

    /** log|Γ(x)|: +inf at the poles 0, -1, -2, …; its derivative is digamma. */
    public static final OpDef LGAMMA = Pointwise.checked(
                    Pointwise.unary(
                            "lgamma(Tensor self) -> Tensor", Promotion.INT_TO_FLOAT, REAL_FLOATS, real(Gamma::lgamma)),
                    complexNotImplemented("lgamma_vml_cpu", 0))
            .defineVjp(
                    OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].mul(PointwiseOps.DIGAMMA.call1((Tensor) a[0]))})
            .deriveJvp(Jvps::elementwise);
    /** ψ(x) = Γ'(x)/Γ(x), with ATen's values at the poles (∓inf at ±0, NaN at negative integers). */
    public static final OpDef DIGAMMA = Pointwise.checked(
                    Pointwise.unary(
                            "digamma(Tensor self) -> Tensor",
                            Promotion.INT_TO_FLOAT,
                            REAL_FLOATS,
                            false,
                            args -> real(inFloat((Tensor) args[0]) ? x -> Gamma.digamma((float) x) : Gamma::digamma)),
                    complexNotImplemented("digamma", 0))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(PointwiseOps.POLYGAMMA.call1(1, (Tensor) a[0]))})
            .deriveJvp(Jvps::elementwise);
    /** ψ⁽ⁿ⁾(x), the n-th derivative of digamma; the order comes first, as in PyTorch's schema. */
    public static final OpDef POLYGAMMA = Pointwise.checked(
                    Pointwise.unary(
                            "polygamma(int n, Tensor self) -> Tensor",
                            Promotion.INT_TO_FLOAT,
                            REAL_FLOATS,
                            false,
                            args -> {
                                long n = ((Number) args[0]).longValue();
                                if (inFloat((Tensor) args[1])) return real(x -> Gamma.polygamma(n, (float) x));
                                return real(x -> Gamma.polygamma(n, x));
                            }),
                    args -> {
                        long n = ((Number) args[0]).longValue();
                        if (n < 0) throw new TorchException("polygamma(n, x) does not support negative n.");
                        // orders 0 and 1 run ATen's digamma and trigamma kernels, which name themselves
                        complexNotImplemented(n == 0 ? "digamma" : n == 1 ? "trigamma" : "polygamma", 1)
                                .check(args);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                long n = ((Number) a[0]).longValue();
                return new Tensor[] {g[0].mul(PointwiseOps.POLYGAMMA.call1(n + 1, (Tensor) a[1]))};
            })
            .deriveJvp(Jvps::elementwise);
    /** Complex input is definable but not implemented: NotImplementedError in 2.15. */
    public static final OpDef DEG2RAD = Pointwise.checked(
                    Pointwise.unary(
                            "deg2rad(Tensor self) -> Tensor",
                            Promotion.INT_TO_FLOAT,
                            REAL_FLOATS,
                            real(x -> x * (Math.PI / 180))),
                    refuse(
                            DType.Category.COMPLEX,
                            UnsupportedOperationException::new,
                            "deg2rad is not supported for complex tensors."))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].mul(Math.PI / 180)})
            .deriveJvp(Jvps::elementwise);

    public static final OpDef RAD2DEG = Pointwise.checked(
                    Pointwise.unary(
                            "rad2deg(Tensor self) -> Tensor",
                            Promotion.INT_TO_FLOAT,
                            REAL_FLOATS,
                            real(x -> x * (180 / Math.PI))),
                    refuse(
                            DType.Category.COMPLEX,
                            UnsupportedOperationException::new,
                            "rad2deg is not supported for complex tensors."))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].mul(180 / Math.PI)})
            .deriveJvp(Jvps::elementwise);

    private static Fns.Unary rounding(java.util.function.DoubleUnaryOperator d) {
        return new Fns.Unary(d, x -> x, x -> x, null, null);
    }

    private static Pointwise.Check notComplex(String op) {
        return refuse(DType.Category.COMPLEX, TorchException::new, op + " is not supported for complex inputs");
    }

    /**
     * The rounding ops: no complex input, and no bool one (integers are returned as they are, but ATen's vectorised
     * kernel, named {@code <op>_vml_cpu}, has no bool instance).
     */
    private static Pointwise.Check roundingCheck(String op) {
        Pointwise.Check complex = notComplex(op);
        return args -> {
            complex.check(args);
            if (((Tensor) args[0]).dtype() == DType.BOOL) {
                throw new TorchException("\"" + op + "_vml_cpu\" not implemented for 'Bool'");
            }
        };
    }

    public static final OpDef FLOOR = Pointwise.checked(
                    Pointwise.unary("floor(Tensor self) -> Tensor", Promotion.DEFAULT, REAL, rounding(Math::floor)),
                    roundingCheck("floor"))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0])})
            .deriveJvp(Jvps::zero);
    public static final OpDef CEIL = Pointwise.checked(
                    Pointwise.unary("ceil(Tensor self) -> Tensor", Promotion.DEFAULT, REAL, rounding(Math::ceil)),
                    roundingCheck("ceil"))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0])})
            .deriveJvp(Jvps::zero);
    public static final OpDef TRUNC = Pointwise.checked(
                    Pointwise.unary(
                            "trunc(Tensor self) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            rounding(x -> x < 0 ? Math.ceil(x) : Math.floor(x))),
                    roundingCheck("trunc"))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0])})
            .deriveJvp(Jvps::zero);
    public static final OpDef FRAC = Pointwise.unary(
                    "frac(Tensor self) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    real(x -> x - (x < 0 ? Math.ceil(x) : Math.floor(x))))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0]})
            .deriveJvp(Jvps::elementwise);
    public static final OpDef ROUND = Pointwise.checked(
                    Pointwise.unary(
                            "round.decimals(Tensor self, *, int decimals=0) -> Tensor",
                            Promotion.DEFAULT,
                            REAL,
                            false,
                            args -> {
                                long decimals = roundDecimalsArg(args);
                                if (decimals == 0) return rounding(PointwiseOps::roundHalfEven);
                                if (((Tensor) args[0]).dtype() == DType.FLOAT64)
                                    return rounding(x -> roundDecimals(x, decimals));
                                return rounding(x -> roundDecimalsFloat((float) x, decimals));
                            }),
                    PointwiseOps::checkRound)
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0])})
            .deriveJvp(Jvps::zero);

    private static long roundDecimalsArg(Object[] args) {
        return args.length > 1 && args[1] != null ? ((Number) args[1]).longValue() : 0;
    }

    /**
     * round without decimals refuses bool as the other rounding ops do ({@link #roundingCheck}); with decimals ATen has
     * a floating-point kernel only, {@code round_cpu}.
     */
    private static void checkRound(Object[] args) {
        DType d = ((Tensor) args[0]).dtype();
        if (roundDecimalsArg(args) == 0) {
            if (d == DType.BOOL) throw new TorchException("\"round_vml_cpu\" not implemented for 'Bool'");
        } else if (!d.isFloatingPoint() && !d.isComplex()) {
            throw new TorchException("\"round_cpu\" not implemented for '" + d.cppName() + "'");
        }
    }

    public static final OpDef ISNAN = Pointwise.unary(
                    "isnan(Tensor self) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    new Fns.Unary(
                            x -> b(Double.isNaN(x)),
                            x -> 0,
                            null,
                            (re, im, o) -> {
                                o[0] = b(Double.isNaN(re) || Double.isNaN(im));
                                o[1] = 0;
                            },
                            null))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef ISINF = Pointwise.unary(
                    "isinf(Tensor self) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    new Fns.Unary(
                            x -> b(Double.isInfinite(x)),
                            x -> 0,
                            null,
                            (re, im, o) -> {
                                o[0] = b(Double.isInfinite(re) || Double.isInfinite(im));
                                o[1] = 0;
                            },
                            null))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef ISFINITE = Pointwise.unary(
                    "isfinite(Tensor self) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    new Fns.Unary(
                            x -> b(Double.isFinite(x)),
                            x -> 1,
                            null,
                            (re, im, o) -> {
                                o[0] = b(Double.isFinite(re) && Double.isFinite(im));
                                o[1] = 0;
                            },
                            null))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef ISPOSINF = Pointwise.checked(
                    Pointwise.unary(
                            "isposinf(Tensor self) -> Tensor",
                            Promotion.ALWAYS_BOOL,
                            REAL,
                            true,
                            a -> new Fns.Unary(x -> b(x == Double.POSITIVE_INFINITY), x -> 0, null, null, null)),
                    refuse(
                            DType.Category.COMPLEX,
                            TorchTypeException::new,
                            "isposinf does not support complex inputs."))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef ISNEGINF = Pointwise.checked(
                    Pointwise.unary(
                            "isneginf(Tensor self) -> Tensor",
                            Promotion.ALWAYS_BOOL,
                            REAL,
                            true,
                            a -> new Fns.Unary(x -> b(x == Double.NEGATIVE_INFINITY), x -> 0, null, null, null)),
                    refuse(
                            DType.Category.COMPLEX,
                            TorchTypeException::new,
                            "isneginf does not support complex inputs."))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef SIGNBIT = Pointwise.checked(
                    Pointwise.unary(
                            "signbit(Tensor self) -> Tensor",
                            Promotion.ALWAYS_BOOL,
                            REAL,
                            true,
                            a -> new Fns.Unary(
                                    x -> b(Double.doubleToRawLongBits(x) < 0), x -> l(x < 0), x -> 0, null, null)),
                    refuse(
                            DType.Category.COMPLEX,
                            TorchException::new,
                            "signbit is not implemented for complex tensors."))
            .derivativeNotImplemented(BOOL_RESULT);
    public static final OpDef LOGICAL_NOT = Pointwise.unary(
                    "logical_not(Tensor self) -> Tensor",
                    Promotion.ALWAYS_BOOL,
                    ALL,
                    new Fns.Unary(
                            x -> b(x == 0),
                            x -> l(x == 0),
                            null,
                            (re, im, o) -> {
                                o[0] = b(re == 0 && im == 0);
                                o[1] = 0;
                            },
                            null))
            .derivativeNotImplemented(BOOL_RESULT);
    /** On bool, logical negation; on integers, one's complement. */
    public static final OpDef BITWISE_NOT = Pointwise.unary(
                    "bitwise_not(Tensor self) -> Tensor",
                    Promotion.DEFAULT,
                    INTS,
                    false,
                    args -> ((Tensor) args[0]).dtype() == DType.BOOL
                            ? new Fns.Unary(null, x -> l(x == 0), null, null, null)
                            : new Fns.Unary(null, x -> ~x, null, null, null))
            .derivativeNotImplemented(INTEGER_ONLY);

    public static final OpDef NAN_TO_NUM = Pointwise.unary(
                    "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor",
                    Promotion.DEFAULT,
                    ALL,
                    false,
                    args -> {
                        Tensor self = (Tensor) args[0];
                        double max = maxFinite(self.dtype()),
                                nan = args[1] == null ? 0 : ((Number) args[1]).doubleValue();
                        double pos = args[2] == null ? max : ((Number) args[2]).doubleValue();
                        double neg = args[3] == null ? -max : ((Number) args[3]).doubleValue();
                        java.util.function.DoubleUnaryOperator f = x -> Double.isNaN(x)
                                ? nan
                                : x == Double.POSITIVE_INFINITY ? pos : x == Double.NEGATIVE_INFINITY ? neg : x;
                        return new Fns.Unary(
                                f,
                                x -> x,
                                x -> x,
                                (re, im, o) -> {
                                    o[0] = f.applyAsDouble(re);
                                    o[1] = f.applyAsDouble(im);
                                },
                                null);
                    })
            .defineVjp(
                    OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].mul(PointwiseOps.ISFINITE.call1((Tensor) a[0]))})
            .deriveJvp(Jvps::elementwise);

    static double maxFinite(DType d) {
        return switch (d.toReal()) {
            case FLOAT16 -> 65504.0;
            case BFLOAT16 -> 3.3895313892515355E38;
            case FLOAT32 -> Float.MAX_VALUE;
            case FLOAT8_E4M3FN -> 448.0;
            case FLOAT8_E5M2 -> 57344.0;
            case FLOAT8_E4M3FNUZ -> 240.0;
            case FLOAT8_E5M2FNUZ -> 57344.0;
            default -> Double.MAX_VALUE;
        };
    }

    // ---- complex views of values --------------------------------------------------------------------

    public static final OpDef ANGLE = Pointwise.unary(
                    "angle(Tensor self) -> Tensor",
                    Promotion.INT_AND_COMPLEX_TO_FLOAT,
                    FLOATS,
                    new Fns.Unary(
                            x -> Double.isNaN(x) ? x : x < 0 ? Math.PI : 0,
                            null,
                            null,
                            (re, im, o) -> {
                                o[0] = Math.atan2(im, re);
                                o[1] = 0;
                            },
                            null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {angleGrad(g[0], (Tensor) a[0])})
            .defineJvp((a, o, t) -> new Tensor[] {Grads.conj(angleGrad(Grads.conj(t[0]), (Tensor) a[0]))});

    /**
     * ATen's {@code angle_backward}: zero for real input (the angle is piecewise constant); for complex z = x + iy, d
     * atan2(y, x) = (-y dx + x dy)/|z|², i.e. the gradient g·i·z/|z|², 0 at z = 0.
     */
    private static Tensor angleGrad(Tensor g, Tensor x) {
        if (!x.isComplex()) return Grads.zeros(g);
        return Grads.zeroWhere(x.eq(0L), g.mul(x).div(x.abs().square()).mul(Grads.imaginaryUnit(x)));
    }
}
