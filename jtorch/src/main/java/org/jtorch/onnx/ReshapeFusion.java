package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * Fewer {@code Reshape} and {@code Expand} nodes for the same values:
 *
 * <ul>
 *   <li>a reshape of a reshape reads the first one's input (only the last target shape counts), unless the last target
 *       has a 0, which copies a size of the value it reads;
 *   <li>a reshape or an expand whose output has its input's shape at every size of the dynamic dimensions
 *       ({@link ShapeInference}) is a copy, and goes (the core ops' {@code expand} before a batched matmul, a
 *       {@code view} to the shape a value already has).
 * </ul>
 */
final class ReshapeFusion {
    private ReshapeFusion() {}

    /** Rewrites {@code graph} in place; whether anything changed. */
    static boolean run(OnnxGraph graph, ShapeInference shapes) {
        List<NodeProto> nodes = new ArrayList<>(graph.proto().getNodeList());
        Map<String, NodeProto> producers = Nodes.producers(nodes);
        boolean changed = false;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto n = nodes.get(i);
            String op = n.getOpType();
            if (!op.equals("Reshape") && !op.equals("Expand")) continue;
            List<SymInt> in = shapes.fullShape(n.getInput(0));
            if (in != null && in.equals(shapes.fullShape(n.getOutput(0)))) {
                nodes.set(i, Nodes.copy(n, n.getInput(0)));
                changed = true;
                continue;
            }
            NodeProto inner = producers.get(n.getInput(0));
            if (op.equals("Reshape")
                    && inner != null
                    && inner.getOpType().equals("Reshape")
                    && readsNoSize(n, shapes)) {
                nodes.set(i, n.toBuilder().setInput(0, inner.getInput(0)).build());
                changed = true;
            }
        }
        if (changed) graph.proto().clearNode().addAllNode(nodes);
        return changed;
    }

    /** Whether a reshape's target is known and takes no size from its input (no 0, or {@code allowzero}). */
    private static boolean readsNoSize(NodeProto reshape, ShapeInference shapes) {
        if (Nodes.integer(reshape, "allowzero", 0) != 0) return true;
        List<SymInt> target = shapes.vector(reshape.getInput(1));
        return target != null && target.stream().noneMatch(d -> d == null || !d.isConstant() || d.constantValue() == 0);
    }
}
