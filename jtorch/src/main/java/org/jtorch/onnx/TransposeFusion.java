package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * Fewer {@code Transpose} nodes for the same values:
 *
 * <ul>
 *   <li>a transpose of a transpose is one transpose, of the composed permutation, and none when that is the identity
 *       (attention's {@code k.transpose(-2, -1)} after splitting the heads);
 *   <li>a transpose, then a reshape that only splits dimensions, then a transpose, is the reshape applied first (the
 *       split dimensions written in the input's order) and one transpose: splitting a dimension commutes with moving it
 *       (a sequence-first attention's {@code transpose(0, 1)}, head split, {@code permute}).
 * </ul>
 */
final class TransposeFusion {
    private TransposeFusion() {}

    /** Rewrites {@code graph} in place; whether anything changed. */
    static boolean run(OnnxGraph graph, ShapeInference shapes) {
        GraphIndex index = new GraphIndex(graph.proto());
        List<NodeProto> nodes = index.nodes;
        boolean changed = false;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto n = nodes.get(i);
            long[] perm = n.getOpType().equals("Transpose") ? Nodes.ints(n, "perm") : null;
            if (perm == null) continue;
            if (isIdentity(perm)) {
                nodes.set(i, Nodes.copy(n, n.getInput(0)));
                changed = true;
                continue;
            }
            NodeProto inner = index.producers.get(n.getInput(0));
            long[] innerPerm =
                    inner != null && inner.getOpType().equals("Transpose") ? Nodes.ints(inner, "perm") : null;
            if (innerPerm != null && innerPerm.length == perm.length) {
                long[] composed = compose(innerPerm, perm);
                NodeProto fused = Nodes.withInts(
                        n.toBuilder().setInput(0, inner.getInput(0)).build(), "perm", composed);
                nodes.set(i, isIdentity(composed) ? Nodes.copy(n, inner.getInput(0)) : fused);
                changed = true;
                continue;
            }
            List<NodeProto> around = splitBetweenTransposes(n, index, shapes, graph);
            if (around == null) continue;
            // the reshape, then the transpose: both write where the old transpose wrote, in the old one's place
            NodeProto reshape = around.get(0), transpose = around.get(1);
            nodes.set(i, transpose);
            nodes.add(i, reshape);
            i++;
            changed = true;
        }
        if (changed) index.writeTo(graph.proto());
        return changed;
    }

    /** {@code Transpose(Transpose(x, first), then)} is {@code Transpose(x, c)}, {@code c[i] = first[then[i]]}. */
    static long[] compose(long[] first, long[] then) {
        long[] c = new long[then.length];
        for (int i = 0; i < then.length; i++) c[i] = first[(int) then[i]];
        return c;
    }

    private static boolean isIdentity(long[] perm) {
        for (int i = 0; i < perm.length; i++) if (perm[i] != i) return false;
        return true;
    }

    /**
     * For {@code outer = Transpose(Reshape(Transpose(x, p1), r), p2)} where the reshape only splits dimensions and
     * nothing else reads the two inner values: {@code Reshape(x, r')} and the single {@code Transpose} after it that
     * give {@code outer}'s value; else null.
     */
    private static List<NodeProto> splitBetweenTransposes(
            NodeProto outer, GraphIndex index, ShapeInference shapes, OnnxGraph graph) {
        NodeProto reshape = index.onlyReadBy(outer.getInput(0), outer);
        if (reshape == null || !reshape.getOpType().equals("Reshape")) return null;
        NodeProto first = index.onlyReadBy(reshape.getInput(0), reshape);
        long[] p1 = first != null && first.getOpType().equals("Transpose") ? Nodes.ints(first, "perm") : null;
        if (p1 == null) return null;
        List<SymInt> x = shapes.fullShape(first.getInput(0));
        List<SymInt> t = shapes.fullShape(first.getOutput(0));
        List<SymInt> r = shapes.fullShape(reshape.getOutput(0));
        if (x == null || t == null || r == null) return null;
        int[][] groups = splitGroups(t, r);
        if (groups == null) return null;
        // the split sizes in x's order: x's dimension j is t's dimension i with p1[i] = j
        int[] tOf = new int[p1.length];
        for (int i = 0; i < p1.length; i++) tOf[(int) p1[i]] = i;
        List<SymInt> split = new ArrayList<>();
        int[] position = new int[r.size()]; // where each dimension of r lands in the reshape of x
        for (int j = 0; j < x.size(); j++) {
            for (int k : groups[tOf[j]]) {
                position[k] = split.size();
                split.add(r.get(k));
            }
        }
        long[] shape = SymbolicDims.reshapeTarget(split);
        if (shape == null) return null;
        long[] p2 = Nodes.ints(outer, "perm");
        long[] perm = new long[p2.length];
        for (int m = 0; m < p2.length; m++) perm[m] = position[(int) p2[m]];
        String splitValue = graph.fresh(reshape.getOutput(0));
        NodeProto newReshape = reshape.toBuilder()
                .setInput(0, first.getInput(0))
                .setInput(1, graph.int64s(shape))
                .setOutput(0, splitValue)
                .build();
        NodeProto transpose =
                Nodes.withInts(outer.toBuilder().setInput(0, splitValue).build(), "perm", perm);
        return List.of(newReshape, transpose);
    }

    /**
     * For a reshape from {@code t} to {@code r} that only splits dimensions: for each dimension of {@code t} the
     * dimensions of {@code r} it becomes (consecutive, their product its size); else null.
     */
    static int[][] splitGroups(List<SymInt> t, List<SymInt> r) {
        int[][] groups = new int[t.size()][];
        int k = 0;
        for (int i = 0; i < t.size(); i++) {
            List<Integer> group = new ArrayList<>();
            SymInt product = SymbolicDims.of(1);
            while (!product.equals(t.get(i))) {
                if (k >= r.size()) return null;
                product = SymbolicDims.times(product, r.get(k));
                if (product == null) return null;
                group.add(k++);
            }
            groups[i] = group.stream().mapToInt(Integer::intValue).toArray();
        }
        return k == r.size() ? groups : null;
    }
}
