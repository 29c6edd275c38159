package org.jtorch.onnx;

import static org.jtorch.onnx.Lowering.dtype;
import static org.jtorch.onnx.Lowering.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.fx.Node;

/** ATen's reductions: sum, mean, max/min, all/any, argmax, cumsum. */
final class ReductionOps {
    private ReductionOps() {}

    static void register(Map<String, OpLowering> table) {
        table.put("aten.sum.dim_IntList", (n, cx) -> reduce("ReduceSum", n, cx, 1, 2));
        table.put("aten.sum.default", (n, cx) -> reduce("ReduceSum", n, cx, -1, -1));
        table.put("aten.mean.dim", (n, cx) -> reduce("ReduceMean", n, cx, 1, 2));
        table.put("aten.mean.default", (n, cx) -> reduce("ReduceMean", n, cx, -1, -1));
        table.put("aten.amax.default", (n, cx) -> reduce("ReduceMax", n, cx, 1, 2));
        table.put("aten.amin.default", (n, cx) -> reduce("ReduceMin", n, cx, 1, 2));
        table.put("aten.prod.dim_int", (n, cx) -> reduce("ReduceProd", n, cx, 1, 2));
        table.put("aten.all.dims", (n, cx) -> logical("ReduceMin", n, cx, 1, 2));
        table.put("aten.all.dim", (n, cx) -> logical("ReduceMin", n, cx, 1, 2));
        table.put("aten.all.default", (n, cx) -> logical("ReduceMin", n, cx, -1, -1));
        table.put("aten.any.dims", (n, cx) -> logical("ReduceMax", n, cx, 1, 2));
        table.put("aten.any.dim", (n, cx) -> logical("ReduceMax", n, cx, 1, 2));
        table.put("aten.any.default", (n, cx) -> logical("ReduceMax", n, cx, -1, -1));
        table.put("aten.argmax.default", (n, cx) -> arg("ArgMax", n, cx));
        table.put("aten.argmin.default", (n, cx) -> arg("ArgMin", n, cx));
        table.put("aten.cumsum.default", (n, cx) -> {
            long dim = ShapeOps.normalize(cx.integer(n, 1, 0), shape(n).length);
            String x = cx.operand(cx.arg(n, 0), dtype(n), n);
            cx.define(n, cx.node("CumSum", List.of(x, cx.graph().int64s(dim))));
        });
    }

    /** The reduced axes ({@code dimsArg} < 0 or None or empty: all) as an ONNX input list. */
    private static List<String> inputs(String x, Node n, Lowering cx, int dimsArg) {
        List<String> inputs = new ArrayList<>(List.of(x));
        if (dimsArg >= 0 && cx.has(n, dimsArg)) {
            long[] dims = cx.ints(n, dimsArg);
            int rank = shape(cx.tensorArg(n, 0)).length;
            for (int i = 0; i < dims.length; i++) dims[i] = ShapeOps.normalize(dims[i], rank);
            if (dims.length > 0) inputs.add(cx.graph().int64s(dims));
        }
        return inputs;
    }

    private static void reduce(String onnx, Node n, Lowering cx, int dimsArg, int keepArg) {
        // sum/mean accumulate in the output dtype (PyTorch's dtype= and integer-to-int64 promotion)
        String x = cx.operand(cx.arg(n, 0), dtype(n), n);
        long keep = keepArg >= 0 && cx.bool(n, keepArg, false) ? 1 : 0;
        cx.define(n, cx.node(onnx, inputs(x, n, cx, dimsArg), OnnxGraph.attr("keepdims", keep)));
    }

    /** all/any: ONNX has no boolean reduction; min/max over the mask as int32, back to bool. */
    private static void logical(String onnx, Node n, Lowering cx, int dimsArg, int keepArg) {
        String mask = ElementwiseOps.asBool(n, 0, cx);
        String ints = cx.cast(mask, DType.BOOL, DType.INT32);
        long keep = keepArg >= 0 && cx.bool(n, keepArg, false) ? 1 : 0;
        String reduced = cx.node(onnx, inputs(ints, n, cx, dimsArg), OnnxGraph.attr("keepdims", keep));
        cx.define(n, cx.cast(reduced, DType.INT32, dtype(n)));
    }

    /** argmax/argmin(x, dim=None, keepdim=False): over the flattened tensor when dim is None. */
    private static void arg(String onnx, Node n, Lowering cx) {
        String x = cx.input(n, 0);
        long keep = cx.bool(n, 2, false) ? 1 : 0;
        if (!cx.has(n, 1)) {
            String flat = cx.node("Reshape", List.of(x, cx.graph().int64s(-1)));
            cx.define(n, cx.node(onnx, List.of(flat), OnnxGraph.attr("axis", 0L), OnnxGraph.attr("keepdims", 0L)));
            return;
        }
        long dim = ShapeOps.normalize(cx.integer(n, 1, 0), shape(cx.tensorArg(n, 0)).length);
        cx.define(n, cx.node(onnx, List.of(x), OnnxGraph.attr("axis", dim), OnnxGraph.attr("keepdims", keep)));
    }
}
