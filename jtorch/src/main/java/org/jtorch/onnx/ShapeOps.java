package org.jtorch.onnx;

import static org.jtorch.onnx.Lowering.dtype;
import static org.jtorch.onnx.Lowering.shape;
import static org.jtorch.onnx.Lowering.unsupported;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;

/** ATen's view and movement ops: reshape, transpose, slice, gather, concatenate, split. */
final class ShapeOps {
    private ShapeOps() {}

    static void register(Map<String, OpLowering> table) {
        for (String op : List.of("view.default", "_unsafe_view.default", "reshape.default")) {
            table.put("aten." + op, ShapeOps::reshape);
        }
        table.put("aten.expand.default", ShapeOps::expand);
        table.put("aten.permute.default", (n, cx) -> {
            long[] dims = cx.ints(n, 1);
            int rank = shape(cx.tensorArg(n, 0)).length;
            for (int i = 0; i < dims.length; i++) dims[i] = normalize(dims[i], rank);
            cx.define(n, cx.node("Transpose", List.of(cx.input(n, 0)), OnnxGraph.attr("perm", dims)));
        });
        table.put("aten.transpose.int", ShapeOps::transpose);
        table.put("aten.t.default", ShapeOps::transpose);
        table.put("aten.unsqueeze.default", (n, cx) -> {
            int rank = shape(n).length;
            long dim = normalize(cx.integer(n, 1, 0), rank);
            cx.define(n, cx.node("Unsqueeze", List.of(cx.input(n, 0), cx.graph().int64s(dim))));
        });
        table.put("aten.squeeze.dim", ShapeOps::squeeze);
        table.put("aten.squeeze.dims", ShapeOps::squeeze);
        table.put("aten.squeeze.default", ShapeOps::squeeze);
        table.put("aten.slice.Tensor", ShapeOps::slice);
        table.put("aten.select.int", (n, cx) -> {
            int rank = shape(cx.tensorArg(n, 0)).length;
            String index =
                    cx.node("Squeeze", List.of(cx.intValue(n, 2), cx.graph().int64s(0)));
            cx.define(
                    n,
                    cx.node(
                            "Gather",
                            List.of(cx.input(n, 0), index),
                            OnnxGraph.attr("axis", normalize(cx.integer(n, 1, 0), rank))));
        });
        table.put("aten.index_select.default", (n, cx) -> {
            int rank = shape(cx.tensorArg(n, 0)).length;
            cx.define(
                    n,
                    cx.node(
                            "Gather",
                            List.of(cx.input(n, 0), cx.input(n, 2)),
                            OnnxGraph.attr("axis", normalize(cx.integer(n, 1, 0), rank))));
        });
        table.put(
                "aten.embedding.default",
                (n, cx) -> cx.define(
                        n, cx.node("Gather", List.of(cx.input(n, 0), cx.input(n, 1)), OnnxGraph.attr("axis", 0L))));
        table.put("aten.cat.default", ShapeOps::cat);
        table.put("aten.split.Tensor", ShapeOps::split);
        table.put("aten.split_with_sizes.default", ShapeOps::split);
    }

    static long normalize(long dim, int rank) {
        int r = Math.max(rank, 1);
        return dim < 0 ? dim + r : dim;
    }

    private static void reshape(Node n, Lowering cx) {
        boolean zero =
                !cx.isSymbolic(n, 1) && java.util.Arrays.stream(cx.ints(n, 1)).anyMatch(d -> d == 0);
        // ONNX reads a 0 in the target shape as "keep this dimension" unless allowzero is set
        cx.define(
                n,
                zero
                        ? cx.node(
                                "Reshape", List.of(cx.input(n, 0), cx.intsValue(n, 1)), OnnxGraph.attr("allowzero", 1L))
                        : cx.node("Reshape", List.of(cx.input(n, 0), reshapeTarget(n, cx))));
    }

    /**
     * The target shape of a reshape. With one dynamic size and every other size static and positive, the dynamic one is
     * the only size the element count leaves open, so ONNX's -1 says it without computing it from the inputs.
     */
    private static String reshapeTarget(Node n, Lowering cx) {
        List<Object> elements = cx.elements(n, 1);
        int dynamic = 0;
        boolean othersPositive = true;
        for (Object e : elements) {
            if (e instanceof SymInt s && !s.isConstant()) dynamic++;
            else othersPositive &= (e instanceof SymInt s ? s.constantValue() : ((Number) e).longValue()) > 0;
        }
        if (dynamic != 1 || !othersPositive) return cx.intsValue(elements);
        List<Object> inferred = new ArrayList<>();
        for (Object e : elements) inferred.add(e instanceof SymInt s && !s.isConstant() ? (Object) (-1L) : e);
        return cx.intsValue(inferred);
    }

    /** PyTorch's -1 (keep the size) is ONNX's 1 under Expand's two-way broadcasting. */
    private static void expand(Node n, Lowering cx) {
        if (!cx.isSymbolic(n, 1) && java.util.Arrays.equals(cx.ints(n, 1), shape(cx.tensorArg(n, 0)))) {
            cx.define(n, cx.input(n, 0)); // expanding to its own (static) shape
            return;
        }
        List<Object> sizes = new ArrayList<>();
        for (Object e : cx.elements(n, 1)) {
            boolean keep = e instanceof Number v && v.longValue() == -1
                    || e instanceof SymInt s && s.isConstant() && s.constantValue() == -1;
            sizes.add(keep ? 1L : e);
        }
        cx.define(n, cx.node("Expand", List.of(cx.input(n, 0), cx.intsValue(sizes))));
    }

    private static void transpose(Node n, Lowering cx) {
        int rank = shape(cx.tensorArg(n, 0)).length;
        long[] perm = new long[rank];
        for (int i = 0; i < rank; i++) perm[i] = i;
        if (rank >= 2) {
            long a = n.target().equals("aten.t.default") ? 0 : normalize(cx.integer(n, 1, 0), rank);
            long b = n.target().equals("aten.t.default") ? 1 : normalize(cx.integer(n, 2, 1), rank);
            perm[(int) a] = b;
            perm[(int) b] = a;
        }
        cx.define(n, cx.node("Transpose", List.of(cx.input(n, 0)), OnnxGraph.attr("perm", perm)));
    }

    private static void squeeze(Node n, Lowering cx) {
        long[] in = shape(cx.tensorArg(n, 0));
        List<Long> axes = new ArrayList<>();
        if (n.target().equals("aten.squeeze.default")) {
            for (int i = 0; i < in.length; i++) if (in[i] == 1) axes.add((long) i);
        } else {
            long[] dims = cx.ints(n, 1);
            for (long d : dims) {
                long a = normalize(d, in.length);
                if (in.length == 0 || in[(int) a] == 1) axes.add(a);
            }
        }
        if (axes.isEmpty() || in.length == 0) {
            cx.define(n, cx.node("Identity", List.of(cx.input(n, 0))));
            return;
        }
        long[] a = axes.stream().mapToLong(Long::longValue).toArray();
        cx.define(n, cx.node("Squeeze", List.of(cx.input(n, 0), cx.graph().int64s(a))));
    }

    private static void slice(Node n, Lowering cx) {
        int rank = shape(cx.tensorArg(n, 0)).length;
        long dim = normalize(cx.integer(n, 1, 0), rank);
        String start = cx.has(n, 2) ? cx.intValue(n, 2) : cx.graph().int64s(0);
        String end = cx.has(n, 3) ? cx.intValue(n, 3) : cx.graph().int64s(Long.MAX_VALUE);
        long step = cx.integer(n, 4, 1);
        cx.define(
                n,
                cx.node(
                        "Slice",
                        List.of(
                                cx.input(n, 0),
                                start,
                                end,
                                cx.graph().int64s(dim),
                                cx.graph().int64s(step))));
    }

    @SuppressWarnings("unchecked")
    private static void cat(Node n, Lowering cx) {
        if (!(cx.arg(n, 0) instanceof List<?> tensors)) throw unsupported(n, "argument 0 is not a list of tensors");
        DType out = dtype(n);
        List<String> inputs = new ArrayList<>();
        for (Object t : (List<Object>) tensors) {
            Node node = (Node) t;
            // PyTorch skips legacy empty 1-D operands [0]; ONNX would refuse their rank
            if (shape(node).length == 1 && shape(node)[0] == 0 && shape(n).length != 1) continue;
            inputs.add(cx.operand(node, out, n));
        }
        long axis = normalize(cx.integer(n, 1, 0), shape(n).length);
        cx.define(n, cx.node("Concat", inputs, OnnxGraph.attr("axis", axis)));
    }

    private static void split(Node n, Lowering cx) {
        long[] in = shape(cx.tensorArg(n, 0));
        long dim = normalize(cx.integer(n, 2, 0), in.length);
        long[] sizes;
        if (n.target().equals("aten.split.Tensor")) {
            long size = cx.integer(n, 1, 1), total = in[(int) dim];
            int parts = (int) Math.max(1, (total + size - 1) / size);
            sizes = new long[parts];
            for (int i = 0; i < parts; i++) sizes[i] = Math.min(size, total - i * size);
        } else {
            sizes = cx.ints(n, 1);
        }
        cx.defineTuple(
                n,
                cx.graph()
                        .nodeN(
                                "Split",
                                List.of(cx.input(n, 0), cx.graph().int64s(sizes)),
                                sizes.length,
                                OnnxGraph.attr("axis", dim)));
    }
}
