package org.jtorch.compile.inductor;

import static org.jtorch.compile.inductor.Lowering.binary;
import static org.jtorch.compile.inductor.Lowering.cast;
import static org.jtorch.compile.inductor.Lowering.compare;
import static org.jtorch.compile.inductor.Lowering.unary;

import java.util.List;
import java.util.Set;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.Expr.BinaryOp;
import org.jtorch.compile.inductor.ir.Expr.CompareOp;
import org.jtorch.compile.inductor.ir.Expr.UnaryOp;
import org.jtorch.compile.inductor.ir.ScalarKind;
import org.jtorch.fx.Node;
import org.jtorch.kernels.cpu.ElementIO;

/**
 * The lowering of each op the compiler computes itself, by graph target: pointwise ops (with PyTorch's type promotion:
 * the node's dtype is the result's, computed in float for 16-bit floats), views, gathers, factory ops. Reductions and
 * row ops are in {@link RowLowerings}. An op missing here runs as an extern call.
 */
final class Lowerings {
    private Lowerings() {}

    private static final Set<String> VIEWS = Set.of(
            "aten.view.default",
            "aten._unsafe_view.default",
            "aten.reshape.default",
            "aten.transpose.int",
            "aten.t.default",
            "aten.permute.default",
            "aten.expand.default",
            "aten.slice.Tensor",
            "aten.select.int",
            "aten.unsqueeze.default",
            "aten.squeeze.dim",
            "aten.squeeze.dims",
            "aten.squeeze.default",
            "aten.alias.default");

    /** Whether {@code target} is a view op (lowered as an index change, realized as the view op itself). */
    static boolean isView(String target) {
        return VIEWS.contains(target);
    }

    private static final double SQRT1_2 = 0.70710678118654752440;
    private static final double SQRT_2_OVER_PI = 0.79788456080286535588;
    private static final double INV_SQRT_2PI = 0.39894228040143267794;

    /** The value of {@code n}, or null when the op has no lowering (it then runs as an extern call). */
    static Value lower(Lowering l, Node n) {
        Value rows = RowLowerings.lower(l, n);
        if (rows != null) return rows;
        if (l.meta(n) == null) return null; // a tuple of an op lowered only as an extern call
        if (isView(n.target())) return view(l, n);
        List<Object> a = n.args();
        long[] shape = l.shape(n);
        Elem out = l.elem(n);
        ScalarKind k = out.kind();
        Expr body =
                switch (n.target()) {
                    case "aten.add.Tensor", "aten.add.Scalar" -> addSub(l, a, shape, k, BinaryOp.ADD);
                    case "aten.sub.Tensor", "aten.sub.Scalar" -> addSub(l, a, shape, k, BinaryOp.SUB);
                    case "aten.rsub.Scalar", "aten.rsub.Tensor" -> {
                        Expr x = l.operand(a.get(0), shape, k), y = l.operand(a.get(1), shape, k);
                        yield binary(BinaryOp.SUB, y, alpha(l, a, 2, x, k));
                    }
                    case "aten.mul.Tensor", "aten.mul.Scalar" -> bin(l, a, shape, k, BinaryOp.MUL);
                    case "aten.div.Tensor", "aten.div.Scalar" -> bin(l, a, shape, k, BinaryOp.DIV);
                    case "aten.div.Tensor_mode", "aten.div.Scalar_mode" -> divMode(l, a, shape, k);
                    case "aten.maximum.default" -> bin(l, a, shape, k, BinaryOp.MAX);
                    case "aten.minimum.default" -> bin(l, a, shape, k, BinaryOp.MIN);
                    case "aten.pow.Tensor_Scalar" -> pow(l, a, shape, k);
                    case "aten.pow.Tensor_Tensor" -> bin(l, a, shape, k, BinaryOp.POW);
                    case "aten.remainder.Tensor", "aten.remainder.Scalar" -> bin(l, a, shape, k, BinaryOp.REMAINDER);
                    case "aten.bitwise_and.Tensor", "aten.logical_and.default" -> logical(l, n, shape, k, BinaryOp.AND);
                    case "aten.bitwise_or.Tensor", "aten.logical_or.default" -> logical(l, n, shape, k, BinaryOp.OR);
                    case "aten.bitwise_xor.Tensor", "aten.logical_xor.default" -> logical(l, n, shape, k, BinaryOp.XOR);
                    case "aten.logical_not.default" ->
                        cast(unary(UnaryOp.NOT, l.operand(a.get(0), shape, ScalarKind.BOOL)), k);
                    case "aten.bitwise_not.default" ->
                        k == ScalarKind.BOOL ? unary(UnaryOp.NOT, l.operand(a.get(0), shape, k)) : null;
                    case "aten.neg.default" -> unary(UnaryOp.NEG, l.operand(a.get(0), shape, k));
                    case "aten.abs.default" -> unary(UnaryOp.ABS, l.operand(a.get(0), shape, k));
                    case "aten.relu.default" -> unary(UnaryOp.RELU, l.operand(a.get(0), shape, k));
                    case "aten.sign.default" ->
                        k == ScalarKind.BOOL ? null : unary(UnaryOp.SIGN, l.operand(a.get(0), shape, k));
                    case "aten.floor.default" -> unary(UnaryOp.FLOOR, l.operand(a.get(0), shape, k));
                    case "aten.ceil.default" -> unary(UnaryOp.CEIL, l.operand(a.get(0), shape, k));
                    case "aten.trunc.default" -> unary(UnaryOp.TRUNC, l.operand(a.get(0), shape, k));
                    case "aten.round.default" -> unary(UnaryOp.ROUND, l.operand(a.get(0), shape, k));
                    case "aten.exp.default" -> floatUnary(l, a, shape, k, UnaryOp.EXP);
                    case "aten.log.default" -> floatUnary(l, a, shape, k, UnaryOp.LOG);
                    case "aten.log1p.default" -> floatUnary(l, a, shape, k, UnaryOp.LOG1P);
                    case "aten.expm1.default" -> floatUnary(l, a, shape, k, UnaryOp.EXPM1);
                    case "aten.sqrt.default" -> floatUnary(l, a, shape, k, UnaryOp.SQRT);
                    case "aten.rsqrt.default" -> floatUnary(l, a, shape, k, UnaryOp.RSQRT);
                    case "aten.tanh.default" -> floatUnary(l, a, shape, k, UnaryOp.TANH);
                    case "aten.sigmoid.default" -> floatUnary(l, a, shape, k, UnaryOp.SIGMOID);
                    case "aten.sin.default" -> floatUnary(l, a, shape, k, UnaryOp.SIN);
                    case "aten.cos.default" -> floatUnary(l, a, shape, k, UnaryOp.COS);
                    case "aten.erf.default" -> k == ScalarKind.FLOAT ? floatUnary(l, a, shape, k, UnaryOp.ERF) : null;
                    case "aten.reciprocal.default" -> floatUnary(l, a, shape, k, UnaryOp.RECIPROCAL);
                    case "aten.gelu.default" ->
                        k == ScalarKind.FLOAT ? gelu(l.operand(a.get(0), shape, k), approximate(a, 1)) : null;
                    case "aten.gelu_backward.default" ->
                        k == ScalarKind.FLOAT
                                ? geluBackward(
                                        l.operand(a.get(0), shape, k), l.operand(a.get(1), shape, k), approximate(a, 2))
                                : null;
                    case "aten.threshold_backward.default" -> {
                        if (k == ScalarKind.BOOL) yield null;
                        Expr g = l.operand(a.get(0), shape, k), x = l.operand(a.get(1), shape, k);
                        yield new Expr.Where(compare(CompareOp.LE, x, Lowering.constant(a.get(2), k)), zero(k), g);
                    }
                    case "aten.sigmoid_backward.default" -> {
                        Expr g = l.operand(a.get(0), shape, k), y = l.operand(a.get(1), shape, k);
                        yield binary(BinaryOp.MUL, binary(BinaryOp.MUL, g, binary(BinaryOp.SUB, one(k), y)), y);
                    }
                    case "aten.tanh_backward.default" -> {
                        Expr g = l.operand(a.get(0), shape, k), y = l.operand(a.get(1), shape, k);
                        yield binary(BinaryOp.MUL, g, binary(BinaryOp.SUB, one(k), binary(BinaryOp.MUL, y, y)));
                    }
                    case "aten.lerp.Scalar" -> k.isFloating() ? lerpScalar(l, a, shape, k) : null;
                    case "aten.lerp.Tensor" -> k.isFloating() ? lerpTensor(l, a, shape, k) : null;
                    case "aten.addcmul.default" -> addcmul(l, a, shape, k);
                    case "aten.addcdiv.default" -> k.isFloating() ? addcdiv(l, a, shape, k) : null;
                    case "aten.clamp.default" -> clamp(l, a, shape, k);
                    case "aten.clamp_min.default" ->
                        binary(BinaryOp.MAX, l.operand(a.get(0), shape, k), Lowering.constant(a.get(1), k));
                    case "aten.clamp_max.default" ->
                        binary(BinaryOp.MIN, l.operand(a.get(0), shape, k), Lowering.constant(a.get(1), k));
                    case "aten.where.self" ->
                        new Expr.Where(
                                l.operand(a.get(0), shape, ScalarKind.BOOL),
                                l.operand(a.get(1), shape, k),
                                l.operand(a.get(2), shape, k));
                    case "aten.masked_fill.Scalar", "aten.masked_fill.Tensor" ->
                        new Expr.Where(
                                l.operand(a.get(1), shape, ScalarKind.BOOL),
                                l.operand(a.get(2), shape, k),
                                l.operand(a.get(0), shape, k));
                    case "aten.eq.Tensor", "aten.eq.Scalar" -> cmp(l, a, shape, CompareOp.EQ);
                    case "aten.ne.Tensor", "aten.ne.Scalar" -> cmp(l, a, shape, CompareOp.NE);
                    case "aten.lt.Tensor", "aten.lt.Scalar" -> cmp(l, a, shape, CompareOp.LT);
                    case "aten.le.Tensor", "aten.le.Scalar" -> cmp(l, a, shape, CompareOp.LE);
                    case "aten.gt.Tensor", "aten.gt.Scalar" -> cmp(l, a, shape, CompareOp.GT);
                    case "aten.ge.Tensor", "aten.ge.Scalar" -> cmp(l, a, shape, CompareOp.GE);
                    case "aten._to_copy.default" -> toCopy(l, (Node) a.get(0), shape, out);
                    case "aten.clone.default", "aten.lift_fresh_copy.default" -> l.operand(a.get(0), shape, k);
                    case "aten.copy.default" -> l.operand(a.get(1), shape, k);
                    case "aten.full.default", "aten.full_like.default" -> filled(a.get(1), out, k);
                    case "aten.fill.Scalar" -> filled(a.get(1), out, k);
                    case "aten.zeros_like.default", "aten.zeros.default", "aten.new_zeros.default" -> zero(k);
                    case "aten.ones_like.default", "aten.ones.default", "aten.new_ones.default" -> one(k);
                    case "aten.scalar_tensor.default" -> filled(a.get(0), out, k);
                    case "aten.arange.start_step" ->
                        k == ScalarKind.BOOL ? null : arange(l, a.get(0), a.size() > 2 ? a.get(2) : 1L, k);
                    case "aten.arange.start" -> k == ScalarKind.BOOL ? null : arange(l, a.get(0), 1L, k);
                    case "aten.arange.default" -> k == ScalarKind.BOOL ? null : arange(l, 0L, 1L, k);
                    case "aten.slice_backward.default" -> sliceBackward(l, n, shape, k);
                    case "aten.index_select.default" -> indexSelect(l, n, shape);
                    case "aten.embedding.default" -> embedding(l, n, shape);
                    default -> null;
                };
        if (body == null) return null;
        body = cast(body, k);
        // integers narrower than long wrap around at each op, as eager stores them
        if (k == ScalarKind.LONG && out != Elem.INT64 && !(body instanceof Expr.Round))
            body = new Expr.Round(body, out);
        return new Value.Virtual(shape, out, body);
    }

    private static Expr zero(ScalarKind k) {
        return new Expr.Constant(0, k);
    }

    private static Expr one(ScalarKind k) {
        return new Expr.Constant(1, k);
    }

    private static Expr bin(Lowering l, List<Object> a, long[] shape, ScalarKind k, BinaryOp op) {
        ScalarKind c = l.promoted(a.subList(0, 2));
        if (op == BinaryOp.DIV && !c.isFloating()) c = k; // true division of integers computes in the float result
        if (c.ordinal() < k.ordinal()) c = k;
        return cast(binary(op, l.operand(a.get(0), shape, c), l.operand(a.get(1), shape, c)), k);
    }

    private static Expr addSub(Lowering l, List<Object> a, long[] shape, ScalarKind k, BinaryOp op) {
        Expr x = l.operand(a.get(0), shape, k), y = l.operand(a.get(1), shape, k);
        return binary(op, x, alpha(l, a, 2, y, k));
    }

    /** {@code y · alpha} when an alpha other than one is given. */
    private static Expr alpha(Lowering l, List<Object> a, int at, Expr y, ScalarKind k) {
        if (a.size() <= at || a.get(at) == null) return y;
        Expr alpha = Lowering.constant(a.get(at), k);
        if (alpha instanceof Expr.Constant c && c.value() == 1) return y;
        return binary(BinaryOp.MUL, y, alpha);
    }

    /**
     * ATen's two-sided lerp with a number weight, evaluated as its kernels do: {@code fma(w, end - start, start)} for
     * {@code |w| < 0.5}, else {@code fma(w - 1, end - start, end)}, the weight rounded to the compute type first.
     */
    private static Expr lerpScalar(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        Expr s = l.operand(a.get(0), shape, k), e = l.operand(a.get(1), shape, k);
        double w = ((Expr.Constant) Lowering.constant(a.get(2), ScalarKind.DOUBLE)).value();
        boolean low;
        double c;
        if (k == ScalarKind.FLOAT) {
            float fw = (float) w;
            low = Math.abs(fw) < 0.5f;
            c = low ? fw : fw - 1f;
        } else {
            low = Math.abs(w) < 0.5;
            c = low ? w : w - 1;
        }
        return new Expr.Fma(new Expr.Constant(c, k), binary(BinaryOp.SUB, e, s), low ? s : e);
    }

    /** {@link #lerpScalar} with a tensor weight: the side is chosen per element. */
    private static Expr lerpTensor(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        Expr s = l.operand(a.get(0), shape, k), e = l.operand(a.get(1), shape, k), w = l.operand(a.get(2), shape, k);
        Expr diff = binary(BinaryOp.SUB, e, s);
        return new Expr.Where(
                compare(CompareOp.LT, unary(UnaryOp.ABS, w), new Expr.Constant(0.5, k)),
                new Expr.Fma(w, diff, s),
                new Expr.Fma(binary(BinaryOp.SUB, w, one(k)), diff, e));
    }

    /** {@code self + value * t1 * t2}: {@code fma(value * t1, t2, self)} for floats, as ATen's kernel computes it. */
    private static Expr addcmul(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        if (k == ScalarKind.BOOL) return null;
        Expr self = l.operand(a.get(0), shape, k), t1 = l.operand(a.get(1), shape, k);
        Expr t2 = l.operand(a.get(2), shape, k);
        Expr scaled = addcValue(a, t1, k);
        if (!k.isFloating()) return binary(BinaryOp.ADD, self, binary(BinaryOp.MUL, scaled, t2));
        return new Expr.Fma(scaled, t2, self);
    }

    /** {@code self + value * t1 / t2}, left to right as ATen evaluates it. */
    private static Expr addcdiv(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        Expr self = l.operand(a.get(0), shape, k), t1 = l.operand(a.get(1), shape, k);
        Expr t2 = l.operand(a.get(2), shape, k);
        return binary(BinaryOp.ADD, self, binary(BinaryOp.DIV, addcValue(a, t1, k), t2));
    }

    /** {@code value * t1}: the product ATen forms first (exact, so left out, for the default value 1). */
    private static Expr addcValue(List<Object> a, Expr t1, ScalarKind k) {
        Object value = a.size() > 3 && a.get(3) != null ? a.get(3) : 1L;
        Expr v = Lowering.constant(value, k);
        if (v instanceof Expr.Constant c && c.value() == 1) return t1;
        return binary(BinaryOp.MUL, v, t1);
    }

    private static Expr divMode(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        Object mode = a.size() > 2 ? a.get(2) : null;
        if (mode == null) return bin(l, a, shape, k, BinaryOp.DIV);
        Expr x = l.operand(a.get(0), shape, k), y = l.operand(a.get(1), shape, k);
        return switch (mode.toString()) {
            case "floor" -> binary(BinaryOp.FLOOR_DIV, x, y);
            case "trunc" ->
                k.isFloating() ? unary(UnaryOp.TRUNC, binary(BinaryOp.DIV, x, y)) : binary(BinaryOp.DIV, x, y);
            default -> null;
        };
    }

    private static Expr pow(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        Expr x = l.operand(a.get(0), shape, k);
        Object e = a.get(1);
        if (!Lowering.isNumber(e)) return null;
        double v = ((Expr.Constant) Lowering.constant(e, ScalarKind.DOUBLE)).value();
        if (v == 1) return x;
        if (v == 2) return binary(BinaryOp.MUL, x, x);
        if (v == 3) return binary(BinaryOp.MUL, binary(BinaryOp.MUL, x, x), x);
        if (!k.isFloating())
            return v >= 0 && v == Math.rint(v) ? binary(BinaryOp.POW, x, Lowering.constant(e, k)) : null;
        if (v == 0.5) return unary(UnaryOp.SQRT, x);
        if (v == -0.5) return unary(UnaryOp.RSQRT, x);
        if (v == -1) return unary(UnaryOp.RECIPROCAL, x);
        return binary(BinaryOp.POW, x, new Expr.Constant(v, k));
    }

    private static Expr logical(Lowering l, Node n, long[] shape, ScalarKind k, BinaryOp op) {
        boolean logical = n.target().startsWith("aten.logical_");
        ScalarKind c = logical ? ScalarKind.BOOL : k;
        if (c == ScalarKind.FLOAT || c == ScalarKind.DOUBLE) return null;
        return cast(
                binary(
                        op,
                        l.operand(n.args().get(0), shape, c),
                        l.operand(n.args().get(1), shape, c)),
                k);
    }

    private static Expr floatUnary(Lowering l, List<Object> a, long[] shape, ScalarKind k, UnaryOp op) {
        if (!k.isFloating()) return null;
        return unary(op, l.operand(a.get(0), shape, k));
    }

    private static Expr cmp(Lowering l, List<Object> a, long[] shape, CompareOp op) {
        ScalarKind c = l.promoted(a.subList(0, 2));
        return compare(op, l.operand(a.get(0), shape, c), l.operand(a.get(1), shape, c));
    }

    private static Expr clamp(Lowering l, List<Object> a, long[] shape, ScalarKind k) {
        Expr x = l.operand(a.get(0), shape, k);
        if (a.size() > 1 && a.get(1) != null) x = binary(BinaryOp.MAX, x, Lowering.constant(a.get(1), k));
        if (a.size() > 2 && a.get(2) != null) x = binary(BinaryOp.MIN, x, Lowering.constant(a.get(2), k));
        return x;
    }

    private static String approximate(List<Object> a, int at) {
        return a.size() > at && a.get(at) != null ? a.get(at).toString() : "none";
    }

    private static Expr c(double v, ScalarKind k) {
        return new Expr.Constant(v, k);
    }

    /** GELU as ATen's kernel spells it: {@code x·Φ(x)} with erf, or the tanh approximation. */
    static Expr gelu(Expr x, String approximate) {
        ScalarKind k = x.kind();
        if (approximate.equals("tanh")) {
            Expr cube = binary(BinaryOp.MUL, binary(BinaryOp.MUL, x, x), x);
            Expr inner = binary(
                    BinaryOp.MUL,
                    c(SQRT_2_OVER_PI, k),
                    binary(BinaryOp.ADD, x, binary(BinaryOp.MUL, c(0.044715, k), cube)));
            return binary(
                    BinaryOp.MUL,
                    binary(BinaryOp.MUL, c(0.5, k), x),
                    binary(BinaryOp.ADD, one(k), unary(UnaryOp.TANH, inner)));
        }
        Expr cdf = binary(BinaryOp.ADD, one(k), unary(UnaryOp.ERF, binary(BinaryOp.MUL, x, c(SQRT1_2, k))));
        return binary(BinaryOp.MUL, binary(BinaryOp.MUL, x, c(0.5, k)), cdf);
    }

    /** GELU's derivative times {@code g}, as ATen's {@code GeluBackwardKernel}. */
    static Expr geluBackward(Expr g, Expr x, String approximate) {
        ScalarKind k = x.kind();
        if (approximate.equals("tanh")) {
            Expr xSq = binary(BinaryOp.MUL, x, x);
            Expr inner = binary(
                    BinaryOp.MUL,
                    c(SQRT_2_OVER_PI, k),
                    binary(BinaryOp.ADD, x, binary(BinaryOp.MUL, c(0.044715, k), binary(BinaryOp.MUL, xSq, x))));
            Expr t = unary(UnaryOp.TANH, inner);
            Expr left = binary(BinaryOp.MUL, c(0.5, k), x);
            Expr leftDerivative = binary(BinaryOp.MUL, c(0.5, k), binary(BinaryOp.ADD, one(k), t));
            Expr innerDerivative = binary(
                    BinaryOp.MUL,
                    c(SQRT_2_OVER_PI, k),
                    binary(BinaryOp.ADD, one(k), binary(BinaryOp.MUL, c(3 * 0.044715, k), xSq)));
            Expr rightDerivative = binary(
                    BinaryOp.MUL,
                    binary(BinaryOp.MUL, left, binary(BinaryOp.SUB, one(k), binary(BinaryOp.MUL, t, t))),
                    innerDerivative);
            return binary(BinaryOp.MUL, g, binary(BinaryOp.ADD, leftDerivative, rightDerivative));
        }
        Expr cdf = binary(
                BinaryOp.MUL,
                c(0.5, k),
                binary(BinaryOp.ADD, one(k), unary(UnaryOp.ERF, binary(BinaryOp.MUL, x, c(SQRT1_2, k)))));
        Expr pdf = binary(
                BinaryOp.MUL,
                c(INV_SQRT_2PI, k),
                unary(UnaryOp.EXP, binary(BinaryOp.MUL, c(-0.5, k), binary(BinaryOp.MUL, x, x))));
        return binary(BinaryOp.MUL, g, binary(BinaryOp.ADD, cdf, binary(BinaryOp.MUL, x, pdf)));
    }

    private static Expr toCopy(Lowering l, Node x, long[] shape, Elem out) {
        Expr v = l.operand(x, shape, l.elem(x).kind());
        Expr converted = floatToInteger(v, out) ? x86Integer(v, out) : cast(v, out.kind());
        boolean narrows = out == Elem.FLOAT16
                || out == Elem.BFLOAT16
                || (out == Elem.FLOAT32 && v.kind() == ScalarKind.DOUBLE)
                || out == Elem.INT32
                || out == Elem.INT16
                || out == Elem.INT8
                || out == Elem.UINT8;
        return narrows && l.elem(x) != out ? new Expr.Round(converted, out) : converted;
    }

    /**
     * The constant a fill stores: a floating number into an integer element converted as eager converts it (x86's
     * conversion through int32, or int64 for int64, so NaN and out-of-range values are the integer's minimum).
     */
    private static Expr filled(Object arg, Elem out, ScalarKind k) {
        boolean floating = arg instanceof Double
                || arg instanceof Float
                || (arg instanceof org.jtorch.Scalar s && s.isFloatingPoint());
        if (k != ScalarKind.LONG || !floating) return Lowering.constant(arg, k);
        double v = ((Number) (arg instanceof org.jtorch.Scalar s ? s.doubleValue() : arg)).doubleValue();
        long stored = out == Elem.INT64 ? ElementIO.doubleToLongC(v) : ElementIO.doubleToIntC(v);
        return new Expr.Constant(stored, ScalarKind.LONG);
    }

    private static boolean floatToInteger(Expr v, Elem out) {
        boolean floating = v.kind() == ScalarKind.DOUBLE || v.kind() == ScalarKind.FLOAT;
        return floating && out.kind() == ScalarKind.LONG;
    }

    /**
     * A float converted to an integer element as eager (and PyTorch on x86) converts it: through int32 for 32 bits and
     * narrower, through int64 for int64, with NaN, infinities and out-of-range values becoming that integer's minimum
     * (which narrows to 0 below 32 bits).
     */
    private static Expr x86Integer(Expr v, Elem out) {
        boolean wide = out == Elem.INT64;
        double lo = wide ? -0x1p63 : -0x1p31, hi = wide ? 0x1p63 : 0x1p31;
        Expr inRange = new Expr.Binary(
                Expr.BinaryOp.AND,
                new Expr.Compare(Expr.CompareOp.GE, v, new Expr.Constant(lo, v.kind())),
                new Expr.Compare(Expr.CompareOp.LT, v, new Expr.Constant(hi, v.kind())));
        return new Expr.Where(inRange, cast(v, ScalarKind.LONG), new Expr.Constant(lo, ScalarKind.LONG));
    }

    /** {@code start + step · i} along the one dimension, computed in double as ATen's arange does for floats. */
    private static Expr arange(Lowering l, Object start, Object step, ScalarKind k) {
        Expr i = new Expr.Index(new Access(0, new long[] {1}));
        if (k == ScalarKind.LONG) {
            return binary(
                    BinaryOp.ADD, Lowering.constant(start, k), binary(BinaryOp.MUL, i, Lowering.constant(step, k)));
        }
        Expr d = binary(
                BinaryOp.ADD,
                Lowering.constant(start, ScalarKind.DOUBLE),
                binary(BinaryOp.MUL, cast(i, ScalarKind.DOUBLE), Lowering.constant(step, ScalarKind.DOUBLE)));
        return cast(d, k);
    }

    /** The gradient of a slice: the incoming gradient inside the slice, zero elsewhere (unit steps). */
    private static Expr sliceBackward(Lowering l, Node n, long[] shape, ScalarKind k) {
        List<Object> a = n.args();
        Node grad = (Node) a.get(0);
        int dim = (int) normDim(l.concrete(a.get(2)), shape.length);
        long size = shape[dim];
        long start = clampIndex(l.concrete(a.get(3)), size);
        long end = Math.max(start, clampIndex(l.concrete(a.get(4)), size));
        long step = l.concrete(a.get(5));
        if (step != 1) return null;
        long[] unit = new long[shape.length];
        unit[dim] = 1;
        Expr at = new Expr.Index(new Access(0, unit));
        Expr inside = binary(
                BinaryOp.AND,
                compare(CompareOp.GE, at, new Expr.Constant(start, ScalarKind.LONG)),
                compare(CompareOp.LT, at, new Expr.Constant(end, ScalarKind.LONG)));
        // the gradient's dimension dim is shifted by start: read it at i - start
        long[] gradShape = l.shape(grad);
        Expr g = Views.remap(cast(l.expr(grad), k), acc -> {
            long[] s = acc.strides();
            return new Access(acc.offset() - start * s[dim], s);
        });
        if (gradShape[dim] != end - start) return null;
        return new Expr.Masked(inside, g, zero(k));
    }

    private static Expr indexSelect(Lowering l, Node n, long[] shape) {
        Node self = (Node) n.args().get(0);
        Node index = (Node) n.args().get(2);
        int dim = (int) normDim(l.concrete(n.args().get(1)), shape.length);
        if (l.shape(index).length != 1 || shape.length == 0) return null;
        l.realize(self);
        Access base = layoutAccess(l, self);
        long[] s = base.strides();
        long stride = s[dim];
        s[dim] = 0;
        Expr idx = Views.remap(cast(l.expr(index), ScalarKind.LONG), acc -> {
            long[] t = new long[shape.length];
            t[dim] = acc.stride(0);
            return new Access(acc.offset(), t);
        });
        return new Expr.IndirectLoad(
                l.slot(self), new Access(base.offset(), s), l.elem(self), idx, stride, l.shape(self)[dim]);
    }

    private static Expr embedding(Lowering l, Node n, long[] shape) {
        Node weight = (Node) n.args().get(0);
        Node indices = (Node) n.args().get(1);
        if (l.shape(weight).length != 2) return null;
        l.realize(weight);
        Access w = layoutAccess(l, weight);
        int r = shape.length;
        long[] s = new long[r];
        s[r - 1] = w.stride(1);
        Expr idx = Views.remap(cast(l.expr(indices), ScalarKind.LONG), acc -> {
            long[] t = new long[r];
            System.arraycopy(acc.strides(), 0, t, 0, r - 1);
            return new Access(acc.offset(), t);
        });
        return new Expr.IndirectLoad(
                l.slot(weight), new Access(w.offset(), s), l.elem(weight), idx, w.stride(0), l.shape(weight)[0]);
    }

    /** The access of a realized node's own tensor over its own dimensions. */
    private static Access layoutAccess(Lowering l, Node n) {
        return ((Expr.Load) l.expr(n)).access();
    }

    // ---------------------------------------------------------------- views

    private static Value view(Lowering l, Node n) {
        List<Object> a = n.args();
        Node x = (Node) a.get(0);
        long[] from = l.shape(x);
        long[] to = l.shape(n);
        if (from.length == 0 && !n.target().equals("aten.unsqueeze.default")) {
            // a 0-d tensor's views (transposes and squeezes of dimension 0 or -1) are the value itself, or reshapes
            return new Value.Virtual(
                    to, l.elem(n), Views.remap(l.expr(x), acc -> new Access(acc.offset(), new long[to.length])));
        }
        java.util.function.UnaryOperator<Access> f =
                switch (n.target()) {
                    case "aten.view.default", "aten._unsafe_view.default", "aten.reshape.default" ->
                        Views.reshape(from, to);
                    case "aten.transpose.int" -> {
                        int d0 = (int) normDim(l.concrete(a.get(1)), from.length);
                        int d1 = (int) normDim(l.concrete(a.get(2)), from.length);
                        int[] perm = identityPerm(from.length);
                        perm[d0] = d1;
                        perm[d1] = d0;
                        yield Views.permute(perm);
                    }
                    case "aten.t.default" -> from.length < 2 ? acc -> acc : Views.permute(new int[] {1, 0});
                    case "aten.permute.default" -> {
                        long[] dims = l.concreteList(a.get(1));
                        int[] perm = new int[dims.length];
                        for (int i = 0; i < perm.length; i++) perm[i] = (int) normDim(dims[i], from.length);
                        yield Views.permute(perm);
                    }
                    case "aten.expand.default" -> Views.expand(from, to);
                    case "aten.slice.Tensor" -> {
                        int dim = (int) normDim(l.concrete(a.get(1)), from.length);
                        long start = a.size() > 2 && a.get(2) != null ? clampIndex(l.concrete(a.get(2)), from[dim]) : 0;
                        long step = a.size() > 4 && a.get(4) != null ? l.concrete(a.get(4)) : 1;
                        yield Views.slice(dim, start, step);
                    }
                    case "aten.select.int" -> {
                        int dim = (int) normDim(l.concrete(a.get(1)), from.length);
                        long index = l.concrete(a.get(2));
                        yield Views.select(dim, index < 0 ? index + from[dim] : index);
                    }
                    case "aten.unsqueeze.default" ->
                        Views.unsqueeze((int) normDim(l.concrete(a.get(1)), from.length + 1));
                    case "aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default" -> {
                        boolean[] drop = new boolean[from.length];
                        long[] listed = n.target().equals("aten.squeeze.dims") ? l.concreteList(a.get(1)) : null;
                        if (n.target().equals("aten.squeeze.default")
                                || (listed == null && n.target().endsWith("dims"))) {
                            for (int d = 0; d < from.length; d++) drop[d] = from[d] == 1;
                        } else {
                            long[] dims = listed != null ? listed : new long[] {l.concrete(a.get(1))};
                            for (long d : dims) {
                                int dd = (int) normDim(d, from.length);
                                drop[dd] = from[dd] == 1;
                            }
                        }
                        yield Views.squeeze(drop);
                    }
                    case "aten.alias.default" -> acc -> acc;
                    default -> null;
                };
        if (f == null) return null;
        Expr body = Views.remap(l.expr(x), f);
        if (body == null) {
            // not expressible over the input's expression: store the input, then view its tensor
            l.realize(x);
            body = Views.remap(l.expr(x), f);
            if (body == null) return null;
        }
        return new Value.Virtual(to, l.elem(n), body);
    }

    static int[] identityPerm(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        return p;
    }

    static long normDim(long d, long rank) {
        return d < 0 ? d + Math.max(rank, 1) : d;
    }

    private static long clampIndex(long i, long size) {
        long v = i < 0 ? i + size : i;
        return Math.max(0, Math.min(v, size));
    }
}
