package org.jtorch.onnx;

import static org.jtorch.onnx.Lowering.dtype;
import static org.jtorch.onnx.Lowering.shape;

import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Torch;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;

/** Tensors a graph makes from numbers: arange, full, zeros/ones (and their {@code _like} forms), scalar_tensor. */
final class CreationOps {
    private CreationOps() {}

    static void register(Map<String, OpLowering> table) {
        table.put("aten.arange.start_step", (n, cx) -> arange(n, cx, 0, 1, 2));
        table.put("aten.arange.start", (n, cx) -> arange(n, cx, 0, 1, -1));
        table.put("aten.arange.default", (n, cx) -> arange(n, cx, -1, 0, -1));
        table.put("aten.full.default", (n, cx) -> filled(n, cx, cx.number(n, 1, 0)));
        table.put("aten.zeros.default", (n, cx) -> filled(n, cx, 0));
        table.put("aten.ones.default", (n, cx) -> filled(n, cx, 1));
        table.put(
                "aten.scalar_tensor.default", (n, cx) -> cx.define(n, cx.graph().scalar(dtype(n), cx.number(n, 0, 0))));
        table.put("aten.full_like.default", (n, cx) -> like(n, cx, cx.number(n, 1, 0)));
        table.put("aten.zeros_like.default", (n, cx) -> like(n, cx, 0));
        table.put("aten.ones_like.default", (n, cx) -> like(n, cx, 1));
    }

    /** A range with static bounds is a constant; one that follows a dynamic size is ONNX's Range. */
    private static void arange(Node n, Lowering cx, int startArg, int endArg, int stepArg) {
        DType dt = dtype(n);
        boolean symbolic = false;
        for (int i : new int[] {startArg, endArg, stepArg}) {
            if (i >= 0 && cx.arg(n, i) instanceof SymInt s && !s.isConstant()) symbolic = true;
        }
        if (!symbolic) {
            Object start = startArg < 0 ? (Object) 0L : cx.arg(n, startArg);
            Object end = cx.arg(n, endArg);
            Object step = stepArg < 0 || !cx.has(n, stepArg) ? (Object) 1L : cx.arg(n, stepArg);
            boolean integral = start instanceof Long && end instanceof Long && step instanceof Long;
            cx.define(
                    n,
                    cx.graph()
                            .constant(
                                    integral
                                            ? Torch.arange((Long) start, (Long) end, (Long) step, dt)
                                            : Torch.arange(
                                                    ((Number) start).doubleValue(),
                                                    ((Number) end).doubleValue(),
                                                    ((Number) step).doubleValue(),
                                                    dt)));
            return;
        }
        String[] bounds = new String[3];
        int[] args = {startArg, endArg, stepArg};
        long[] defaults = {0, 0, 1};
        for (int k = 0; k < 3; k++) {
            String v = args[k] < 0 ? cx.graph().int64s(defaults[k]) : cx.intValue(n, args[k]);
            bounds[k] = cx.cast(cx.node("Squeeze", List.of(v, cx.graph().int64s(0))), DType.INT64, dt);
        }
        cx.define(n, cx.node("Range", List.of(bounds)));
    }

    private static void filled(Node n, Lowering cx, double value) {
        DType dt = dtype(n);
        if (!cx.isSymbolic(n, 0)) {
            cx.define(n, cx.graph().constant(Torch.full(shape(n), value).to(dt)));
            return;
        }
        cx.define(
                n,
                cx.node(
                        "ConstantOfShape",
                        List.of(cx.intsValue(n, 0)),
                        OnnxGraph.attr(
                                "value",
                                TensorProtos.of(
                                        "value",
                                        Torch.full(new long[] {1}, value).to(dt)))));
    }

    private static void like(Node n, Lowering cx, double value) {
        DType dt = dtype(n);
        String shapeOf = cx.node("Shape", List.of(cx.input(n, 0)));
        cx.define(
                n,
                cx.node(
                        "ConstantOfShape",
                        List.of(shapeOf),
                        OnnxGraph.attr(
                                "value",
                                TensorProtos.of(
                                        "value",
                                        Torch.full(new long[] {1}, value).to(dt)))));
    }
}
