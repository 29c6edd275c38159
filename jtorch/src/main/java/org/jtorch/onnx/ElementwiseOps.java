package org.jtorch.onnx;

import static org.jtorch.onnx.Lowering.dtype;
import static org.jtorch.onnx.Lowering.unsupported;

import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Torch;
import org.jtorch.fx.Node;

/** Pointwise ATen ops: arithmetic, comparisons, activations, casts and selects. */
final class ElementwiseOps {
    private ElementwiseOps() {}

    static void register(Map<String, OpLowering> table) {
        for (String op : List.of("add.Tensor", "add.Scalar")) table.put("aten." + op, ElementwiseOps::add);
        for (String op : List.of("sub.Tensor", "sub.Scalar")) table.put("aten." + op, ElementwiseOps::sub);
        table.put("aten.rsub.Scalar", ElementwiseOps::rsub);
        table.put("aten.rsub.Tensor", ElementwiseOps::rsub);
        binary(table, "Mul", "mul.Tensor", "mul.Scalar");
        binary(table, "Div", "div.Tensor", "div.Scalar");
        binary(table, "Pow", "pow.Tensor_Scalar", "pow.Tensor_Tensor", "pow.Scalar");
        binary(table, "Max", "maximum.default");
        binary(table, "Min", "minimum.default");
        table.put("aten.div.Tensor_mode", ElementwiseOps::divMode);
        compare(table, "Equal", "eq.Tensor", "eq.Scalar");
        compare(table, "Less", "lt.Tensor", "lt.Scalar");
        compare(table, "LessOrEqual", "le.Tensor", "le.Scalar");
        compare(table, "Greater", "gt.Tensor", "gt.Scalar");
        compare(table, "GreaterOrEqual", "ge.Tensor", "ge.Scalar");
        for (String op : List.of("ne.Tensor", "ne.Scalar")) {
            table.put("aten." + op, (n, cx) -> cx.define(n, cx.node("Not", List.of(comparison("Equal", n, cx)))));
        }
        logical(table, "And", "logical_and.default", "bitwise_and.Tensor");
        logical(table, "Or", "logical_or.default", "bitwise_or.Tensor");
        logical(table, "Xor", "logical_xor.default", "bitwise_xor.Tensor");
        table.put("aten.logical_not.default", (n, cx) -> cx.define(n, cx.node("Not", List.of(asBool(n, 0, cx)))));
        table.put("aten.bitwise_not.default", ElementwiseOps::bitwiseNot);
        unary(table, "Neg", "neg.default");
        unary(table, "Exp", "exp.default");
        unary(table, "Log", "log.default");
        unary(table, "Sqrt", "sqrt.default");
        unary(table, "Reciprocal", "reciprocal.default");
        unary(table, "Tanh", "tanh.default");
        unary(table, "Sigmoid", "sigmoid.default");
        unary(table, "Relu", "relu.default");
        unary(table, "Abs", "abs.default");
        unary(table, "Erf", "erf.default");
        unary(table, "Sin", "sin.default");
        unary(table, "Cos", "cos.default");
        unary(table, "Floor", "floor.default");
        unary(table, "Ceil", "ceil.default");
        unary(table, "Sign", "sign.default");
        unary(table, "Round", "round.default"); // both round half to even
        table.put("aten.square.default", (n, cx) -> {
            String x = floating(n, cx);
            cx.define(n, cx.node("Mul", List.of(x, x)));
        });
        table.put(
                "aten.log1p.default",
                (n, cx) -> cx.define(
                        n,
                        cx.node(
                                "Log",
                                List.of(cx.node(
                                        "Add",
                                        List.of(floating(n, cx), cx.graph().scalar(dtype(n), 1)))))));
        table.put(
                "aten.expm1.default",
                (n, cx) -> cx.define(
                        n,
                        cx.node(
                                "Sub",
                                List.of(
                                        cx.node("Exp", List.of(floating(n, cx))),
                                        cx.graph().scalar(dtype(n), 1)))));
        table.put("aten.trunc.default", (n, cx) -> {
            String x = floating(n, cx);
            cx.define(
                    n,
                    cx.node(
                            "Where",
                            List.of(
                                    cx.node("Less", List.of(x, cx.graph().scalar(dtype(n), 0))),
                                    cx.node("Ceil", List.of(x)),
                                    cx.node("Floor", List.of(x)))));
        });
        // copies and aliases compute nothing in a graph of values
        for (String op : List.of("clone.default", "alias.default", "detach.default", "lift_fresh_copy.default")) {
            table.put("aten." + op, (n, cx) -> cx.define(n, cx.input(n, 0)));
        }
        table.put(
                "aten.rsqrt.default",
                (n, cx) -> cx.define(n, cx.node("Reciprocal", List.of(cx.node("Sqrt", List.of(floating(n, cx)))))));
        table.put("aten.silu.default", (n, cx) -> {
            String x = floating(n, cx);
            cx.define(n, cx.node("Mul", List.of(x, cx.node("Sigmoid", List.of(x)))));
        });
        table.put("aten.gelu.default", ElementwiseOps::gelu);
        table.put(
                "aten.leaky_relu.default",
                (n, cx) -> cx.define(n, cx.node("LeakyRelu", List.of(floating(n, cx)), OnnxGraph.attr("alpha", (float)
                        cx.number(n, 1, 0.01)))));
        table.put("aten.clamp.default", ElementwiseOps::clamp);
        table.put("aten.hardtanh.default", ElementwiseOps::clamp);
        table.put(
                "aten.clamp_min.default",
                (n, cx) -> cx.define(
                        n,
                        cx.node(
                                "Max",
                                List.of(
                                        cx.operand(cx.arg(n, 0), dtype(n), n),
                                        cx.operand(cx.arg(n, 1), dtype(n), n)))));
        table.put(
                "aten.clamp_max.default",
                (n, cx) -> cx.define(
                        n,
                        cx.node(
                                "Min",
                                List.of(
                                        cx.operand(cx.arg(n, 0), dtype(n), n),
                                        cx.operand(cx.arg(n, 1), dtype(n), n)))));
        table.put(
                "aten.where.self",
                (n, cx) -> cx.define(
                        n,
                        cx.node(
                                "Where",
                                List.of(
                                        asBool(n, 0, cx),
                                        cx.operand(cx.arg(n, 1), dtype(n), n),
                                        cx.operand(cx.arg(n, 2), dtype(n), n)))));
        for (String op : List.of("masked_fill.Scalar", "masked_fill.Tensor")) {
            table.put(
                    "aten." + op,
                    (n, cx) -> cx.define(
                            n,
                            cx.node(
                                    "Where",
                                    List.of(
                                            asBool(n, 1, cx),
                                            cx.operand(cx.arg(n, 2), dtype(n), n),
                                            cx.operand(cx.arg(n, 0), dtype(n), n)))));
        }
        table.put("aten._to_copy.default", (n, cx) -> {
            Node x = cx.tensorArg(n, 0);
            cx.define(n, cx.cast(cx.value(x), dtype(x), dtype(n)));
        });
    }

    private static void binary(Map<String, OpLowering> table, String onnx, String... ops) {
        for (String op : ops) {
            table.put(
                    "aten." + op,
                    (n, cx) -> cx.define(
                            n,
                            cx.node(
                                    onnx,
                                    List.of(
                                            cx.operand(cx.arg(n, 0), dtype(n), n),
                                            cx.operand(cx.arg(n, 1), dtype(n), n)))));
        }
    }

    private static void unary(Map<String, OpLowering> table, String onnx, String... ops) {
        for (String op : ops) table.put("aten." + op, (n, cx) -> cx.define(n, cx.node(onnx, List.of(cx.input(n, 0)))));
    }

    private static void logical(Map<String, OpLowering> table, String onnx, String... ops) {
        for (String op : ops) {
            table.put("aten." + op, (n, cx) -> {
                if (op.startsWith("bitwise") && dtype(n) != DType.BOOL)
                    throw unsupported(n, "bitwise ops are exported for bool tensors only");
                cx.define(n, cx.cast(cx.node(onnx, List.of(asBool(n, 0, cx), asBool(n, 1, cx))), DType.BOOL, dtype(n)));
            });
        }
    }

    private static void compare(Map<String, OpLowering> table, String onnx, String... ops) {
        for (String op : ops) table.put("aten." + op, (n, cx) -> cx.define(n, comparison(onnx, n, cx)));
    }

    /** The two operands promoted as PyTorch promotes them, compared. */
    private static String comparison(String onnx, Node n, Lowering cx) {
        DType common = commonType(n, cx.arg(n, 0), cx.arg(n, 1));
        return cx.node(onnx, List.of(cx.operand(cx.arg(n, 0), common, n), cx.operand(cx.arg(n, 1), common, n)));
    }

    /** PyTorch's result type of two operands, each a tensor node or a Python number. */
    private static DType commonType(Node n, Object a, Object b) {
        if (a instanceof Node x && b instanceof Node y) return Torch.promoteTypes(dtype(x), dtype(y));
        Node t = a instanceof Node x ? x : b instanceof Node y ? y : null;
        Object scalar = t == a ? b : a;
        if (t == null) throw unsupported(n, "neither operand is a tensor");
        DType d = dtype(t);
        if (scalar instanceof Double && !d.isFloatingPoint()) return DType.FLOAT32;
        if (scalar instanceof Long && d == DType.BOOL) return DType.INT64;
        return d;
    }

    private static void add(Node n, Lowering cx) {
        DType out = dtype(n);
        String b = scaled(cx.operand(cx.arg(n, 1), out, n), cx.number(n, 2, 1), out, cx);
        cx.define(n, cx.node("Add", List.of(cx.operand(cx.arg(n, 0), out, n), b)));
    }

    private static void sub(Node n, Lowering cx) {
        DType out = dtype(n);
        String b = scaled(cx.operand(cx.arg(n, 1), out, n), cx.number(n, 2, 1), out, cx);
        cx.define(n, cx.node("Sub", List.of(cx.operand(cx.arg(n, 0), out, n), b)));
    }

    /** {@code rsub(self, other, alpha)} = other - alpha * self. */
    private static void rsub(Node n, Lowering cx) {
        DType out = dtype(n);
        String a = scaled(cx.operand(cx.arg(n, 0), out, n), cx.number(n, 2, 1), out, cx);
        cx.define(n, cx.node("Sub", List.of(cx.operand(cx.arg(n, 1), out, n), a)));
    }

    private static String scaled(String value, double alpha, DType dtype, Lowering cx) {
        return alpha == 1 ? value : cx.node("Mul", List.of(value, cx.graph().scalar(dtype, alpha)));
    }

    private static void divMode(Node n, Lowering cx) {
        String mode = cx.string(n, 2, null);
        DType out = dtype(n);
        if (mode == null) {
            cx.define(n, cx.node("Div", List.of(cx.operand(cx.arg(n, 0), out, n), cx.operand(cx.arg(n, 1), out, n))));
            return;
        }
        // round the true quotient: ONNX's integer Div truncates, so compute in float64 and cast back
        DType work = out.isFloatingPoint() ? out : DType.FLOAT64;
        String q = cx.node("Div", List.of(cx.operand(cx.arg(n, 0), work, n), cx.operand(cx.arg(n, 1), work, n)));
        String rounded =
                switch (mode) {
                    case "floor" -> cx.node("Floor", List.of(q));
                    case "trunc" ->
                        cx.node(
                                "Where",
                                List.of(
                                        cx.node("Less", List.of(q, cx.graph().scalar(work, 0))),
                                        cx.node("Ceil", List.of(q)),
                                        cx.node("Floor", List.of(q))));
                    default -> throw unsupported(n, "rounding_mode '" + mode + "'");
                };
        cx.define(n, cx.cast(rounded, work, out));
    }

    private static void clamp(Node n, Lowering cx) {
        DType out = dtype(n);
        boolean hardtanh = n.target().equals("aten.hardtanh.default");
        Object lo = hardtanh ? (cx.has(n, 1) ? cx.arg(n, 1) : -1.0) : cx.arg(n, 1);
        Object hi = hardtanh ? (cx.has(n, 2) ? cx.arg(n, 2) : 1.0) : cx.arg(n, 2);
        String x = cx.input(n, 0);
        if (lo != null) x = cx.node("Max", List.of(x, cx.operand(lo, out, n)));
        if (hi != null) x = cx.node("Min", List.of(x, cx.operand(hi, out, n)));
        cx.define(n, lo == null && hi == null ? cx.node("Identity", List.of(x)) : x);
    }

    /** ONNX's Gelu from opset 20; composed of Erf (or Tanh) below it. */
    private static void gelu(Node n, Lowering cx) {
        String approximate = cx.string(n, 1, "none");
        String x = floating(n, cx);
        if (cx.opset() >= 20) {
            cx.define(n, cx.node("Gelu", List.of(x), OnnxGraph.attr("approximate", approximate)));
            return;
        }
        DType dt = dtype(n);
        OnnxGraph g = cx.graph();
        String inner;
        if (approximate.equals("tanh")) {
            // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            String cube = cx.node("Mul", List.of(x, cx.node("Mul", List.of(x, x))));
            String poly = cx.node("Add", List.of(x, cx.node("Mul", List.of(cube, g.scalar(dt, 0.044715)))));
            inner = cx.node("Tanh", List.of(cx.node("Mul", List.of(poly, g.scalar(dt, Math.sqrt(2 / Math.PI))))));
        } else {
            inner = cx.node("Erf", List.of(cx.node("Mul", List.of(x, g.scalar(dt, Math.sqrt(0.5))))));
        }
        String onePlus = cx.node("Add", List.of(inner, g.scalar(dt, 1)));
        cx.define(n, cx.node("Mul", List.of(cx.node("Mul", List.of(x, onePlus)), g.scalar(dt, 0.5))));
    }

    private static void bitwiseNot(Node n, Lowering cx) {
        if (dtype(n) != DType.BOOL) cx.define(n, cx.node("BitwiseNot", List.of(cx.input(n, 0))));
        else cx.define(n, cx.node("Not", List.of(cx.input(n, 0))));
    }

    /** Tensor argument {@code i} as bool (nonzero), as a mask or a logical operand. */
    static String asBool(Node n, int i, Lowering cx) {
        Object a = cx.arg(n, i);
        if (!(a instanceof Node t)) return cx.operand(a, DType.BOOL, n);
        return cx.cast(cx.value(t), dtype(t), DType.BOOL);
    }

    /** The first argument in the node's output dtype (floating for the transcendental ops). */
    private static String floating(Node n, Lowering cx) {
        return cx.operand(cx.arg(n, 0), dtype(n), n);
    }
}
