package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * Slices of one value along one axis that together cover it exactly, each piece once (a fused QKV projection cut into
 * query, key and value), as one {@code Split}, as PyTorch's exporter writes {@code split}: one node reading the value
 * once instead of one per piece. Only unit-step slices with constant bounds on a dimension of static size qualify.
 */
final class SliceToSplit {
    private SliceToSplit() {}

    /** One slice: {@code [start, end)} of the axis, writing {@code node}'s output. */
    private record Piece(NodeProto node, long start, long end) {}

    /** Rewrites {@code graph} in place; whether anything changed. */
    static boolean run(OnnxGraph graph, ShapeInference shapes) {
        List<NodeProto> nodes = new ArrayList<>(graph.proto().getNodeList());
        Map<String, List<Piece>> byInputAndAxis = new LinkedHashMap<>();
        for (NodeProto n : nodes) {
            if (!n.getOpType().equals("Slice")) continue;
            List<SymInt> x = shapes.shape(n.getInput(0));
            if (x == null) continue;
            long[] bounds = bounds(n, shapes, x);
            if (bounds == null) continue;
            byInputAndAxis
                    .computeIfAbsent(n.getInput(0) + "\u0000" + bounds[0], k -> new ArrayList<>())
                    .add(new Piece(n, bounds[1], bounds[2]));
        }
        boolean changed = false;
        for (var group : byInputAndAxis.entrySet()) {
            List<Piece> pieces = new ArrayList<>(group.getValue());
            if (pieces.size() < 2) continue;
            pieces.sort(Comparator.comparingLong(Piece::start));
            String input = pieces.getFirst().node().getInput(0);
            long axis = Long.parseLong(group.getKey().substring(group.getKey().indexOf('\u0000') + 1));
            long size = shapes.shape(input).get((int) axis).constantValue();
            if (!tiles(pieces, size)) continue;
            long[] sizes = pieces.stream().mapToLong(p -> p.end() - p.start()).toArray();
            NodeProto.Builder split = NodeProto.newBuilder()
                    .setOpType("Split")
                    .setName(graph.fresh("node_Split"))
                    .addInput(input)
                    .addInput(graph.int64s(sizes))
                    .addAttribute(OnnxGraph.attr("axis", axis));
            for (Piece p : pieces) split.addOutput(p.node().getOutput(0));
            int first =
                    pieces.stream().mapToInt(p -> nodes.indexOf(p.node())).min().orElseThrow();
            for (Piece p : pieces) nodes.remove(p.node());
            nodes.add(first, split.build());
            changed = true;
        }
        if (changed) graph.proto().clearNode().addAllNode(nodes);
        return changed;
    }

    /** {@code {axis, start, end}} of a unit-step slice along one static axis, bounds clamped; else null. */
    private static long[] bounds(NodeProto n, ShapeInference shapes, List<SymInt> x) {
        if (n.getInputCount() < 3 || n.getInputCount() > 5) return null;
        List<SymInt> starts = shapes.vector(n.getInput(1)), ends = shapes.vector(n.getInput(2));
        List<SymInt> axes = n.getInputCount() > 3 ? shapes.vector(n.getInput(3)) : List.of(SymbolicDims.of(0));
        List<SymInt> steps = n.getInputCount() > 4 ? shapes.vector(n.getInput(4)) : List.of(SymbolicDims.of(1));
        if (starts == null || ends == null || axes == null || steps == null) return null;
        if (starts.size() != 1 || ends.size() != 1 || axes.size() != 1 || steps.size() != 1) return null;
        if (!SymbolicDims.is(steps.getFirst(), 1) || !SymbolicDims.isStatic(axes.getFirst())) return null;
        if (!SymbolicDims.isStatic(starts.getFirst()) || !SymbolicDims.isStatic(ends.getFirst())) return null;
        long axis = axes.getFirst().constantValue();
        if (axis < 0) axis += x.size();
        if (axis < 0 || axis >= x.size() || !SymbolicDims.isStatic(x.get((int) axis))) return null;
        long size = x.get((int) axis).constantValue();
        long start = clamp(starts.getFirst().constantValue(), size),
                end = clamp(ends.getFirst().constantValue(), size);
        return end > start ? new long[] {axis, start, end} : null;
    }

    private static long clamp(long i, long size) {
        return Math.clamp(i < 0 ? i + size : i, 0, size);
    }

    /** Whether the pieces, sorted by start, cover {@code [0, size)} end to end. */
    private static boolean tiles(List<Piece> pieces, long size) {
        long at = 0;
        for (Piece p : pieces) {
            if (p.start() != at) return false;
            at = p.end();
        }
        return at == size;
    }
}
