package org.jtorch.onnx;

import java.util.List;
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
        GraphIndex index = new GraphIndex(graph.proto());
        List<NodeProto> nodes = index.nodes;
        boolean changed = false;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto after = nodes.get(i);
            if (!after.getOpType().equals("Where") || after.getInputCount() != 3) continue;
            NodeProto softmax = index.onlyReadBy(after.getInput(2), after);
            if (softmax == null || !softmax.getOpType().equals("Softmax")) continue;
            NodeProto before = index.onlyReadBy(softmax.getInput(0), softmax);
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
        if (changed) index.writeTo(graph.proto());
        return changed;
    }

    /** Whether a condition of shape {@code c}, broadcast to rank {@code rank}, has size 1 along {@code axis}. */
    private static boolean constantAlong(List<SymInt> c, long axis, int rank) {
        if (c == null || c.size() > rank) return false;
        int a = (int) (axis < 0 ? axis + rank : axis);
        int at = a - (rank - c.size()); // the condition's own dimension there, if it has one
        return at < 0 || SymbolicDims.is(c.get(at), 1);
    }
}
