package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * Drops the first of the two guards of a safe softmax. Attention with an explicit mask computes {@code _safe_softmax}:
 * rows whose scores are all {@code -inf} give zeros rather than NaN, written as {@code Where(allMasked, 0, x)} before
 * the {@code Softmax} and {@code Where(allMasked, 0, softmax)} after it. When the condition is the same value in both,
 * constant along the softmax axis (size 1 there), the softmax is computed row by row, so a row the first guard changes
 * is one the second overwrites: without the first guard every row keeps its bits. The first guard goes when nothing
 * else reads its result or the softmax's.
 */
final class SoftmaxGuardFusion {
    private SoftmaxGuardFusion() {}

    /** Rewrites {@code graph} in place; whether anything changed. */
    static boolean run(OnnxGraph graph, ShapeInference shapes) {
        List<NodeProto> nodes = new ArrayList<>(graph.proto().getNodeList());
        Map<String, NodeProto> producers = Nodes.producers(nodes);
        Map<String, List<NodeProto>> readers = Nodes.readers(nodes);
        Set<String> outputs = Nodes.outputs(graph.proto());
        boolean changed = false;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto after = nodes.get(i);
            if (!after.getOpType().equals("Where") || after.getInputCount() != 3) continue;
            NodeProto softmax = onlyReadBy(producers.get(after.getInput(2)), after, readers, outputs);
            if (softmax == null || !softmax.getOpType().equals("Softmax")) continue;
            NodeProto before = onlyReadBy(producers.get(softmax.getInput(0)), softmax, readers, outputs);
            if (before == null || !before.getOpType().equals("Where") || before.getInputCount() != 3) continue;
            String condition = after.getInput(0);
            if (!before.getInput(0).equals(condition)) continue;
            String x = before.getInput(2);
            List<SymInt> scores = shapes.shape(x);
            if (scores == null || !scores.equals(shapes.shape(before.getOutput(0)))) continue;
            if (!constantAlong(shapes.shape(condition), Nodes.integer(softmax, "axis", -1), scores.size())) continue;
            nodes.set(nodes.indexOf(softmax), softmax.toBuilder().setInput(0, x).build());
            changed = true;
        }
        if (changed) graph.proto().clearNode().addAllNode(nodes);
        return changed;
    }

    /** {@code producer} when {@code reader} alone reads its one output and it is no graph output, else null. */
    private static NodeProto onlyReadBy(
            NodeProto producer, NodeProto reader, Map<String, List<NodeProto>> readers, Set<String> outputs) {
        if (producer == null || producer.getOutputCount() != 1 || outputs.contains(producer.getOutput(0))) return null;
        List<NodeProto> r = readers.getOrDefault(producer.getOutput(0), List.of());
        return r.size() == 1 && r.getFirst().equals(reader) ? producer : null;
    }

    /** Whether a condition of shape {@code c}, broadcast to rank {@code rank}, has size 1 along {@code axis}. */
    private static boolean constantAlong(List<SymInt> c, long axis, int rank) {
        if (c == null || c.size() > rank) return false;
        int a = (int) (axis < 0 ? axis + rank : axis);
        int at = a - (rank - c.size()); // the condition's own dimension there, if it has one
        return at < 0 || SymbolicDims.is(c.get(at), 1);
    }
}
