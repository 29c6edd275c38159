package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.onnx.proto.OnnxProto.AttributeProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;

/**
 * Evaluates at export time, with JTorch's own ops, the nodes that read only initializers: an eval BatchNorm's
 * {@code Reshape}s of its statistics and {@code Add}/{@code Sqrt}/{@code Reciprocal} of its variance, a weight's
 * {@code Transpose} or {@code Cast}. Each such node becomes one initializer under the node's output name, so its
 * readers need no change; what the node read and nothing else reads is dropped later by {@link GraphCleanup}.
 *
 * <p>A node stays when its value is a graph output (ONNX writes an output with a node), and when its result would hold
 * more elements than its largest input (a broadcast of two small constants would only enlarge the file).
 */
final class ConstantFolding {
    private ConstantFolding() {}

    /** Folds the foldable nodes of {@code graph} in place, first to last, so that chains of them fold at once. */
    static void run(OnnxGraph graph) {
        Map<String, Tensor> known = graph.constants();
        Set<String> outputs = new HashSet<>();
        for (ValueInfoProto v : graph.proto().getOutputList()) outputs.add(v.getName());
        List<NodeProto> kept = new ArrayList<>();
        for (NodeProto n : graph.proto().getNodeList()) {
            Tensor value = outputs.contains(n.getOutput(0)) ? null : evaluate(n, known);
            if (value == null) {
                kept.add(n);
                continue;
            }
            known.put(n.getOutput(0), value);
            graph.initializer(n.getOutput(0), value);
        }
        graph.proto().clearNode().addAllNode(kept);
    }

    /** The node's value when it is foldable and all its inputs are known, else null. */
    static Tensor evaluate(NodeProto n, Map<String, Tensor> known) {
        if (n.getOutputCount() != 1) return null;
        List<Tensor> in = new ArrayList<>();
        long largest = 0;
        for (String name : n.getInputList()) {
            Tensor t = known.get(name);
            if (t == null) return null; // a computed value, or an omitted optional input ("")
            in.add(t);
            largest = Math.max(largest, t.numel());
        }
        if (in.isEmpty()) return null;
        Tensor value = compute(n, in);
        return value == null || value.numel() > largest ? null : value;
    }

    private static Tensor compute(NodeProto n, List<Tensor> in) {
        Tensor x = in.getFirst();
        return switch (n.getOpType()) {
            case "Add" -> in.size() == 2 ? x.add(in.get(1)) : null;
            case "Sub" -> in.size() == 2 ? x.sub(in.get(1)) : null;
            case "Mul" -> in.size() == 2 ? x.mul(in.get(1)) : null;
            // ONNX's integer Div truncates where torch.div divides exactly: only floating division is folded
            case "Div" -> in.size() == 2 && x.dtype().isFloatingPoint() ? x.div(in.get(1)) : null;
            case "Sqrt" -> x.dtype().isFloatingPoint() ? x.sqrt() : null;
            case "Reciprocal" -> x.dtype().isFloatingPoint() ? x.reciprocal() : null;
            case "Neg" -> x.neg();
            case "Reshape" -> in.size() == 2 ? reshape(x, in.get(1), attribute(n, "allowzero", 0) != 0) : null;
            case "Transpose" -> transpose(x, n);
            case "Unsqueeze" -> in.size() == 2 ? unsqueeze(x, in.get(1)) : null;
            case "Cast" -> cast(x, n);
            case "Slice" -> slice(x, in);
            default -> null;
        };
    }

    /** ONNX Reshape: a 0 copies the input's size there (unless {@code allowzero}), one -1 takes the rest. */
    private static Tensor reshape(Tensor x, Tensor shape, boolean allowZero) {
        long[] sizes = shape.toLongArray();
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] == 0 && !allowZero) {
                if (i >= x.dim()) return null;
                sizes[i] = x.size(i);
            }
        }
        return x.reshape(sizes);
    }

    /** ONNX Transpose: {@code perm}, or the dimensions reversed when it is absent. */
    private static Tensor transpose(Tensor x, NodeProto n) {
        int rank = x.dim();
        int[] perm = new int[rank];
        List<Long> given = null;
        for (AttributeProto a : n.getAttributeList()) if (a.getName().equals("perm")) given = a.getIntsList();
        if (given != null && given.size() != rank) return null;
        for (int i = 0; i < rank; i++)
            perm[i] = given == null ? rank - 1 - i : given.get(i).intValue();
        return x.permute(perm).contiguous();
    }

    /** ONNX Unsqueeze (opset 13+): the axes are positions in the output, negative ones counted from its end. */
    private static Tensor unsqueeze(Tensor x, Tensor axesValue) {
        long[] axes = axesValue.toLongArray();
        int rank = x.dim() + axes.length;
        for (int i = 0; i < axes.length; i++) axes[i] = axes[i] < 0 ? axes[i] + rank : axes[i];
        Arrays.sort(axes);
        Tensor out = x;
        for (long axis : axes) out = out.unsqueeze((int) axis);
        return out;
    }

    /**
     * ONNX Slice with positive steps (negative ones, which walk backwards, are left to the runtime): per axis, the
     * bounds counted from the end when negative, then clamped to the size.
     */
    private static Tensor slice(Tensor x, List<Tensor> in) {
        if (in.size() < 3) return null;
        long[] starts = in.get(1).toLongArray(), ends = in.get(2).toLongArray();
        long[] axes = in.size() > 3 ? in.get(3).toLongArray() : null;
        long[] steps = in.size() > 4 ? in.get(4).toLongArray() : null;
        if (ends.length != starts.length
                || (axes != null && axes.length != starts.length)
                || (steps != null && steps.length != starts.length)) return null;
        Tensor out = x;
        for (int i = 0; i < starts.length; i++) {
            long axis = axes == null ? i : axes[i] < 0 ? axes[i] + x.dim() : axes[i];
            long step = steps == null ? 1 : steps[i];
            if (axis < 0 || axis >= x.dim() || step <= 0) return null;
            long size = x.size((int) axis);
            long start = Math.clamp(starts[i] < 0 ? starts[i] + size : starts[i], 0, size);
            long end = Math.clamp(ends[i] < 0 ? ends[i] + size : ends[i], 0, size);
            out = out.slice((int) axis, start, Math.max(start, end), step);
        }
        return out.contiguous();
    }

    private static Tensor cast(Tensor x, NodeProto n) {
        DType to = TensorProtos.dtypeOf((int) attribute(n, "to", -1));
        return to == null ? null : x.to(to);
    }

    private static long attribute(NodeProto n, String name, long fallback) {
        for (AttributeProto a : n.getAttributeList()) if (a.getName().equals(name)) return a.getI();
        return fallback;
    }
}
