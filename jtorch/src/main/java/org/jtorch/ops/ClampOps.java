package org.jtorch.ops;

import java.util.function.DoubleUnaryOperator;
import java.util.function.LongUnaryOperator;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.PointwiseLoops;
import org.jtorch.ops.ScalarConversion.IntRange;

/**
 * {@code clamp}, {@code clamp_min}, {@code clamp_max} (Scalar and Tensor bounds) and {@code hardtanh}.
 *
 * <p><b>Result dtype.</b> Scalar bounds are weak operands: a floating tensor keeps its dtype, an integral one is
 * promoted with the bounds ({@code clamp(int64, 0.5)} is float32, {@code clamp(int8, 5L)} int8). Tensor bounds promote
 * as any pointwise operand. {@code hardtanh} never promotes: integral tensors take the bounds truncated toward zero, as
 * ATen's {@code min_val.toLong()}.
 *
 * <p><b>Out-of-range integer Scalar bounds (2.15, PR #193169).</b> For an integral result dtype with range [lo, hi] a
 * bound that cannot matter is dropped ({@code min < lo}, {@code max > hi}), and a bound that would fill the tensor with
 * an unrepresentable value is an error ({@code min > hi}, {@code max < lo}, with c10's "value cannot be converted to
 * type int8_t without overflow"). On a floating result a finite bound beyond the dtype's largest value raises that
 * message too ({@code max=185208} on float16 names {@code at::Half}).
 *
 * <p><b>NaN.</b> A NaN element stays NaN. A NaN bound makes every element NaN, for Scalar bounds as for Tensor bounds
 * (the rule of {@code torch._refs.clamp} and of ATen's two-bound kernels; ATen's one-Scalar-bound CPU kernels ignore a
 * NaN bound, which JTorch treats as an inconsistency). <b>{@code min > max}</b> gives {@code max} everywhere, as
 * documented for {@code torch.clamp}. <b>Ties</b> return the element on the Scalar and two-bound paths and the bound on
 * the one-Tensor-bound path ({@code maximum}/{@code minimum}); this only shows in the sign of a zero, as on AVX2 CPUs.
 *
 * <p><b>Gradients (2.14, BC-breaking).</b> A Scalar bound is a fixed parameter: the input gets the gradient strictly
 * between the bounds and 0 at a bound, the minimum-norm subgradient (as relu). A Tensor bound is an input: at a tie the
 * gradient is split evenly between the value and the bound.
 *
 * <p>Complex tensors and complex bounds raise {@link TorchTypeException} (2.15: ordering is undefined for complex
 * numbers). uint16/uint32/uint64 are supported and compared as unsigned.
 */
public final class ClampOps {
    private ClampOps() {}

    private static final String COMPLEX_MESSAGE = "clamp is not supported for complex types";

    // ---- Scalar bounds --------------------------------------------------------------------------------

    /**
     * The bounds of a Scalar clamp in the result's domain, decided by the meta rule. An absent or dropped bound has its
     * {@code has} flag cleared; {@code nan} means a NaN bound fills the result with NaN.
     */
    record Bounds(
            DType result,
            boolean hasMin,
            boolean hasMax,
            long minBits,
            long maxBits,
            double min,
            double max,
            boolean nan) {}

    /**
     * Meta of the Scalar forms. {@code promote} is false for hardtanh (result = self's dtype, integral bounds
     * truncated); {@code kernel} names ATen's kernel in "not implemented" errors.
     */
    private static Spec scalarMeta(String kernel, Tensor self, Scalar min, Scalar max, boolean promote) {
        if (self.isComplex() || (min != null && min.isComplex()) || (max != null && max.isComplex())) {
            throw new TorchTypeException(COMPLEX_MESSAGE);
        }
        DType result = self.dtype();
        if (promote && !result.isFloatingPoint()) {
            TypePromotion.State st = new TypePromotion.State().add(self);
            if (min != null) st.add(min);
            if (max != null) st.add(max);
            result = st.result();
        }
        if (result == DType.BOOL || result.isFloat8()) {
            throw new TorchException("\"" + kernel + "\" not implemented for '" + result.cppName() + "'");
        }
        return Spec.of(self.impl().shapeRef(), result, self.device(), resolve(result, min, max));
    }

    /** Applies the 2.15 bound rules (see the class comment) for a result of dtype {@code result}. */
    private static Bounds resolve(DType result, Scalar min, Scalar max) {
        if (result.isFloatingPoint()) {
            if (min != null) ScalarConversion.check(min, result);
            if (max != null) ScalarConversion.check(max, result);
            double lo = min == null ? Double.NaN : min.doubleValue(), hi = max == null ? Double.NaN : max.doubleValue();
            boolean nan = (min != null && Double.isNaN(lo)) || (max != null && Double.isNaN(hi));
            return new Bounds(result, min != null, max != null, 0, 0, lo, hi, nan);
        }
        IntRange range = IntRange.of(result);
        Position pmin = min == null ? null : position(min, range, result);
        Position pmax = max == null ? null : position(max, range, result);
        if (pmin == Position.ABOVE || pmax == Position.BELOW) throw ScalarConversion.overflow(result);
        boolean hasMin = pmin == Position.INSIDE, hasMax = pmax == Position.INSIDE;
        long lo = hasMin ? ScalarConversion.toBits(min) : 0, hi = hasMax ? ScalarConversion.toBits(max) : 0;
        return new Bounds(result, hasMin, hasMax, lo, hi, 0, 0, false);
    }

    private enum Position {
        BELOW,
        INSIDE,
        ABOVE
    }

    /** Where an integral (or, for hardtanh, truncated floating) bound lies relative to the range of {@code dtype}. */
    private static Position position(Scalar s, IntRange range, DType dtype) {
        return switch (s.kind()) {
            case BOOL -> Position.INSIDE;
            case INT ->
                range.isBelow(s.longValue())
                        ? Position.BELOW
                        : range.isAbove(s.longValue()) ? Position.ABOVE : Position.INSIDE;
            case UINT -> range.isAboveUnsigned(s.longValue()) ? Position.ABOVE : Position.INSIDE;
            case FLOAT, COMPLEX -> {
                double t = truncate(s.doubleValue());
                if (Double.isNaN(t)) throw ScalarConversion.overflow(dtype); // no integer holds NaN
                yield t < range.lowAsDouble()
                        ? Position.BELOW
                        : t > range.highAsDouble() ? Position.ABOVE : Position.INSIDE;
            }
        };
    }

    private static double truncate(double v) {
        return v < 0 ? Math.ceil(v) : Math.floor(v);
    }

    private static Fns.Unary scalarFn(Bounds b) {
        if (b.nan()) return new Fns.Unary(x -> Double.NaN, null, null, null, null);
        double lo = b.min(), hi = b.max();
        long llo = b.minBits(), lhi = b.maxBits();
        DoubleUnaryOperator d;
        LongUnaryOperator l, lu;
        if (b.hasMin() && b.hasMax()) {
            d = x -> clamp(x, lo, hi);
            l = x -> Math.min(Math.max(x, llo), lhi);
            lu = x -> minUnsigned(maxUnsigned(x, llo), lhi);
        } else if (b.hasMin()) {
            d = x -> lo > x ? lo : x;
            l = x -> Math.max(x, llo);
            lu = x -> maxUnsigned(x, llo);
        } else if (b.hasMax()) {
            d = x -> hi < x ? hi : x;
            l = x -> Math.min(x, lhi);
            lu = x -> minUnsigned(x, lhi);
        } else { // every bound was dropped: a copy
            d = x -> x;
            l = x -> x;
            lu = x -> x;
        }
        return new Fns.Unary(d, l, lu, null, null);
    }

    /** {@code min(max(x, lo), hi)} with ATen's comparison order: NaN x stays NaN, {@code lo > hi} gives hi. */
    private static double clamp(double x, double lo, double hi) {
        double y = lo > x ? lo : x;
        return hi < y ? hi : y;
    }

    private static long maxUnsigned(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static long minUnsigned(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    private static final OpDef.Kernel SCALAR_KERNEL = (args, outs, spec) -> {
        Bounds b = (Bounds) spec.plan();
        PointwiseLoops.unary(scalarFn(b), b.result(), outs[0].impl(), ((Tensor) args[0]).impl());
    };

    private static String scalarKernelName(Scalar min, Scalar max) {
        return min != null && max != null
                ? "clamp_scalar_cpu"
                : min != null ? "clamp_min_scalar_cpu" : "clamp_max_scalar_cpu";
    }

    /** {@code clamp(self, min, max)} with Scalar bounds; a null bound is absent. */
    public static final OpDef CLAMP = OpDef.structured(
                    "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
                    args -> {
                        Scalar min = (Scalar) args[1], max = (Scalar) args[2];
                        if (min == null && max == null) {
                            throw new TorchException("torch.clamp: At least one of 'min' or 'max' must not be None");
                        }
                        return scalarMeta(scalarKernelName(min, max), (Tensor) args[0], min, max, true);
                    },
                    SCALAR_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {scalarBoundsGrad(g[0], a)})
            .deriveJvp(Jvps::elementwise);

    public static final OpDef CLAMP_MIN = OpDef.structured(
                    "clamp_min(Tensor self, Scalar min) -> Tensor",
                    args -> scalarMeta("clamp_min_scalar_cpu", (Tensor) args[0], (Scalar) args[1], null, true),
                    SCALAR_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {scalarBoundsGrad(g[0], new Object[] {a[0], a[1], null})})
            .deriveJvp(Jvps::elementwise);

    public static final OpDef CLAMP_MAX = OpDef.structured(
                    "clamp_max(Tensor self, Scalar max) -> Tensor",
                    args -> scalarMeta("clamp_max_scalar_cpu", (Tensor) args[0], null, (Scalar) args[1], true),
                    SCALAR_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {scalarBoundsGrad(g[0], new Object[] {a[0], null, a[1]})})
            .deriveJvp(Jvps::elementwise);

    /**
     * The gradient of clamping {@code args[0]} between the Scalar bounds {@code args[1]} and {@code args[2]} (either
     * may be null): {@code g} strictly inside, 0 at and beyond a bound. A Scalar bound is a fixed parameter, so at
     * equality the minimum-norm subgradient 0 applies (2.14, as relu; before 2.14 it was g).
     */
    private static Tensor scalarBoundsGrad(Tensor g, Object[] args) {
        Tensor x = (Tensor) args[0];
        Tensor inside = null;
        if (args[1] != null) inside = x.gt(args[1]);
        if (args[2] != null)
            inside = inside == null ? x.lt(args[2]) : PointwiseOps.LOGICAL_AND.call1(inside, x.lt(args[2]));
        return TernaryOps.where(inside, g, 0L);
    }

    /**
     * {@code hardtanh(self, min_val, max_val)}: clamp without promotion. Integral tensors take the bounds truncated
     * toward zero and follow the 2.15 out-of-range rule (so uint8 accepts negative bounds).
     */
    public static final OpDef HARDTANH = OpDef.structured(
                    "hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        if (self.dtype() == DType.BOOL)
                            throw new TorchException("Bool inputs not supported for hardtanh");
                        return scalarMeta("clamp_scalar_cpu", self, (Scalar) args[1], (Scalar) args[2], false);
                    },
                    SCALAR_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {scalarBoundsGrad(g[0], a)})
            .deriveJvp(Jvps::elementwise);

    // ---- Tensor bounds ----------------------------------------------------------------------------------

    /** Meta of the Tensor forms: promotion over self and the present bounds, broadcasting, one device. */
    private static Spec tensorMeta(String op, Tensor self, Tensor min, Tensor max) {
        if (self.isComplex() || (min != null && min.isComplex()) || (max != null && max.isComplex())) {
            throw new TorchTypeException(COMPLEX_MESSAGE);
        }
        TypePromotion.State st = new TypePromotion.State().add(self);
        long[] shape = self.impl().shapeRef();
        for (Tensor b : new Tensor[] {min, max}) {
            if (b == null) continue;
            st.add(b);
            shape = Shapes.broadcast(shape, b.impl().shapeRef());
        }
        DType result = st.result();
        // The two-bound kernel has no bool version; maximum/minimum (one bound) do.
        if (result.isFloat8() || (result == DType.BOOL && min != null && max != null)) {
            String kernel = min != null && max != null ? "clamp_cpu" : min != null ? "clamp_min_cpu" : "clamp_max_cpu";
            throw new TorchException("\"" + kernel + "\" not implemented for '" + result.cppName() + "'");
        }
        return Spec.of(shape, result, Devices.common(op, self, min, max), null);
    }

    /** {@code maximum}/{@code minimum} semantics for one Tensor bound: NaN in either operand gives NaN. */
    private static Fns.Binary oneBoundFn(boolean isMin) {
        if (isMin) {
            return new Fns.Binary(
                    (x, lo) -> x != x || lo != lo ? Double.NaN : x > lo ? x : lo,
                    Math::max,
                    ClampOps::maxUnsigned,
                    null,
                    null);
        }
        return new Fns.Binary(
                (x, hi) -> x != x || hi != hi ? Double.NaN : x < hi ? x : hi,
                Math::min,
                ClampOps::minUnsigned,
                null,
                null);
    }

    /** Two Tensor bounds: a NaN bound gives NaN; uint64 compares unsigned (the ternary loop has one integer slot). */
    private static Fns.Ternary twoBoundFn(DType compute) {
        Fns.LongTernary l = compute == DType.UINT64
                ? (x, lo, hi) -> minUnsigned(maxUnsigned(x, lo), hi)
                : (x, lo, hi) -> Math.min(Math.max(x, lo), hi);
        return new Fns.Ternary((x, lo, hi) -> lo != lo || hi != hi ? Double.NaN : clamp(x, lo, hi), l, null);
    }

    private static void tensorKernel(Tensor out, Tensor self, Tensor min, Tensor max) {
        DType compute = out.dtype();
        if (min != null && max != null)
            PointwiseLoops.ternary(twoBoundFn(compute), compute, out.impl(), self.impl(), min.impl(), max.impl());
        else if (min != null) PointwiseLoops.binary(oneBoundFn(true), compute, out.impl(), self.impl(), min.impl());
        else PointwiseLoops.binary(oneBoundFn(false), compute, out.impl(), self.impl(), max.impl());
    }

    /** {@code clamp(self, min, max)} with Tensor bounds; a null bound is absent. */
    public static final OpDef CLAMP_TENSOR = OpDef.structured(
                    "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
                    args -> {
                        if (args[1] == null && args[2] == null) {
                            throw new TorchException("torch.clamp: At least one of 'min' or 'max' must not be None");
                        }
                        return tensorMeta("clamp", (Tensor) args[0], (Tensor) args[1], (Tensor) args[2]);
                    },
                    (args, outs, spec) -> tensorKernel(outs[0], (Tensor) args[0], (Tensor) args[1], (Tensor) args[2]))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> tensorBoundsGrads(g[0], a))
            .deriveJvp(Jvps::elementwise);

    /** clamp_min with a Tensor bound is maximum: ties split evenly between the value and the bound (2.14). */
    public static final OpDef CLAMP_MIN_TENSOR = OpDef.structured(
                    "clamp_min.Tensor(Tensor self, Tensor min) -> Tensor",
                    args -> tensorMeta("clamp_min", (Tensor) args[0], (Tensor) args[1], null),
                    (args, outs, spec) -> tensorKernel(outs[0], (Tensor) args[0], (Tensor) args[1], null))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.selection(a, g[0], ((Tensor) a[0]).lt(a[1]), ((Tensor) a[0]).gt(a[1])))
            .deriveJvp(Jvps::elementwise);

    /** clamp_max with a Tensor bound is minimum. */
    public static final OpDef CLAMP_MAX_TENSOR = OpDef.structured(
                    "clamp_max.Tensor(Tensor self, Tensor max) -> Tensor",
                    args -> tensorMeta("clamp_max", (Tensor) args[0], null, (Tensor) args[1]),
                    (args, outs, spec) -> tensorKernel(outs[0], (Tensor) args[0], null, (Tensor) args[1]))
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.selection(a, g[0], ((Tensor) a[0]).gt(a[1]), ((Tensor) a[0]).lt(a[1])))
            .deriveJvp(Jvps::elementwise);

    /**
     * Gradients of (self, min, max) for clamp with Tensor bounds, as ATen's {@code clamp_backward} and
     * {@code clamp_backward_min_max} (2.14, PR 191142). With one bound it is maximum/minimum. With both: strictly
     * inside, self gets g; below min, min gets g; above max, max gets g; an ordinary tie ({@code min < max}) splits g
     * between self and that bound. Equal bounds give a tie to self alone (the forward keeps self there), and reversed
     * bounds ({@code min > max}, where the forward returns max) give everything to max.
     */
    private static Tensor[] tensorBoundsGrads(Tensor g, Object[] args) {
        Tensor x = (Tensor) args[0], min = (Tensor) args[1], max = (Tensor) args[2];
        if (max == null) return Grads.selection(new Object[] {x, min}, g, x.lt(min), x.gt(min));
        if (min == null) return Grads.selection(new Object[] {x, max}, g, x.gt(max), x.lt(max));
        Tensor ordered = min.lt(max), equal = min.eq(max);
        Tensor tie = PointwiseOps.LOGICAL_AND.call1(PointwiseOps.LOGICAL_OR.call1(x.eq(min), x.eq(max)), ordered);
        Tensor gx = Grads.zeroWhere(
                PointwiseOps.LOGICAL_OR.call1(x.lt(min), x.gt(max)), TernaryOps.where(tie, g.div(2L), g));
        Tensor minActive = PointwiseOps.LOGICAL_OR.call1(
                PointwiseOps.LOGICAL_AND.call1(ordered, x.le(min)), PointwiseOps.LOGICAL_AND.call1(equal, x.lt(min)));
        Tensor gMin = Grads.zeroWhere(minActive.logicalNot(), TernaryOps.where(x.eq(min), g.div(2L), g));
        Tensor maxActive = PointwiseOps.LOGICAL_OR.call1(
                PointwiseOps.LOGICAL_OR.call1(max.lt(min), PointwiseOps.LOGICAL_AND.call1(ordered, x.ge(max))),
                PointwiseOps.LOGICAL_AND.call1(equal, x.gt(max)));
        Tensor gMax = Grads.zeroWhere(
                maxActive.logicalNot(),
                TernaryOps.where(PointwiseOps.LOGICAL_AND.call1(x.eq(max), ordered), g.div(2L), g));
        return new Tensor[] {gx, gMin, gMax};
    }

    // ---- entry points -------------------------------------------------------------------------------------

    private static Scalar scalar(Object o) {
        return o == null ? null : Scalar.of(o);
    }

    private static Tensor inPlace(Tensor self, OpDef op, Object... args) {
        Dispatcher.callOut(op, new Tensor[] {self}, args);
        return self;
    }

    /**
     * {@code torch.clamp(x, min, max)} with float bounds; null = no bound. An integral tensor gives the default float
     * dtype.
     */
    public static Tensor clamp(Tensor x, Double min, Double max) {
        return CLAMP.call1(x, scalar(min), scalar(max));
    }

    /**
     * {@code torch.clamp(x, min, max)} with integer bounds; null = no bound. Out-of-range bounds follow the 2.15 rule.
     */
    public static Tensor clamp(Tensor x, Long min, Long max) {
        return CLAMP.call1(x, scalar(min), scalar(max));
    }

    /**
     * {@code torch.clamp(x, min, max)} with any Scalar bounds (e.g. {@link Scalar#ofUnsigned} for uint64); null = no
     * bound.
     */
    public static Tensor clamp(Tensor x, Scalar min, Scalar max) {
        return CLAMP.call1(x, min, max);
    }

    /** {@code torch.clamp(x, min, max)} with Tensor bounds, broadcast and promoted; null = no bound. */
    public static Tensor clamp(Tensor x, Tensor min, Tensor max) {
        return CLAMP_TENSOR.call1(x, min, max);
    }

    /** {@code torch.clamp_min(x, min)}. */
    public static Tensor clampMin(Tensor x, double min) {
        return CLAMP_MIN.call1(x, Scalar.of(min));
    }

    public static Tensor clampMin(Tensor x, long min) {
        return CLAMP_MIN.call1(x, Scalar.of(min));
    }

    public static Tensor clampMin(Tensor x, Scalar min) {
        return CLAMP_MIN.call1(x, min);
    }

    public static Tensor clampMin(Tensor x, Tensor min) {
        return CLAMP_MIN_TENSOR.call1(x, min);
    }

    /** {@code torch.clamp_max(x, max)}. */
    public static Tensor clampMax(Tensor x, double max) {
        return CLAMP_MAX.call1(x, Scalar.of(max));
    }

    public static Tensor clampMax(Tensor x, long max) {
        return CLAMP_MAX.call1(x, Scalar.of(max));
    }

    public static Tensor clampMax(Tensor x, Scalar max) {
        return CLAMP_MAX.call1(x, max);
    }

    public static Tensor clampMax(Tensor x, Tensor max) {
        return CLAMP_MAX_TENSOR.call1(x, max);
    }

    /** {@code F.hardtanh(x)}: clamp to [-1, 1] without promotion. */
    public static Tensor hardtanh(Tensor x) {
        return hardtanh(x, -1.0, 1.0);
    }

    /** {@code F.hardtanh(x, min_val, max_val)}. */
    public static Tensor hardtanh(Tensor x, double minVal, double maxVal) {
        return HARDTANH.call1(x, Scalar.of(minVal), Scalar.of(maxVal));
    }

    /** {@code x.clamp_(min, max)}: in place; the promoted result must be castable to x's dtype. */
    public static Tensor clamp_(Tensor x, Double min, Double max) {
        return inPlace(x, CLAMP, x, scalar(min), scalar(max));
    }

    public static Tensor clamp_(Tensor x, Long min, Long max) {
        return inPlace(x, CLAMP, x, scalar(min), scalar(max));
    }

    public static Tensor clamp_(Tensor x, Tensor min, Tensor max) {
        return inPlace(x, CLAMP_TENSOR, x, min, max);
    }

    /** {@code x.clamp_min_(min)}. */
    public static Tensor clampMin_(Tensor x, double min) {
        return inPlace(x, CLAMP_MIN, x, Scalar.of(min));
    }

    public static Tensor clampMin_(Tensor x, Tensor min) {
        return inPlace(x, CLAMP_MIN_TENSOR, x, min);
    }

    /** {@code x.clamp_max_(max)}. */
    public static Tensor clampMax_(Tensor x, double max) {
        return inPlace(x, CLAMP_MAX, x, Scalar.of(max));
    }

    public static Tensor clampMax_(Tensor x, Tensor max) {
        return inPlace(x, CLAMP_MAX_TENSOR, x, max);
    }

    /** {@code F.hardtanh(x, min_val, max_val, inplace=True)}. */
    public static Tensor hardtanh_(Tensor x, double minVal, double maxVal) {
        return inPlace(x, HARDTANH, x, Scalar.of(minVal), Scalar.of(maxVal));
    }
}
