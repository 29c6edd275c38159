package org.jtorch.onnx;

/**
 * The shape-aware passes over a lowered graph, run until none finds anything more to rewrite (one pass's rewrite often
 * makes another's pattern: a flattening removed leaves two reshapes in a row, a reshape removed leaves two transposes
 * in a row): {@link FlatteningRemoval}, {@link ReshapeFusion}, {@link TransposeFusion}, {@link BatchNormFusion},
 * {@link SoftmaxGuardFusion}, {@link SliceToSplit}, each followed by {@link GraphCleanup}. The shapes are inferred
 * afresh for each pass, the dynamic dimensions as symbols.
 */
final class GraphSimplification {
    /** A bound on the rounds, far above what a graph needs: a round that rewrites nothing ends the loop. */
    private static final int MAX_ROUNDS = 64;

    private GraphSimplification() {}

    static void run(OnnxGraph graph) {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean changed = false;
            changed |= step(graph, FlatteningRemoval::run);
            changed |= step(graph, ReshapeFusion::run);
            changed |= step(graph, TransposeFusion::run);
            changed |= step(graph, BatchNormFusion::run);
            changed |= step(graph, SoftmaxGuardFusion::run);
            changed |= step(graph, SliceToSplit::run);
            if (!changed) return;
        }
    }

    private interface Pass {
        boolean run(OnnxGraph graph, ShapeInference shapes);
    }

    private static boolean step(OnnxGraph graph, Pass pass) {
        boolean changed = pass.run(graph, ShapeInference.of(graph.proto(), graph.constants()));
        if (changed) GraphCleanup.run(graph.proto(), graph.weights());
        return changed;
    }
}
