package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * Removes the flattening around ops that ONNX defines on any number of leading dimensions, which the core ATen ops
 * spell with 2-d or 3-d operands between reshapes:
 *
 * <ul>
 *   <li><b>linear layers</b>: {@code Reshape(x, [-1, K])}, {@code Gemm} or {@code MatMul} by a constant weight,
 *       {@code Reshape} back to {@code x}'s leading sizes, is {@code MatMul(x, W)} (and {@code Add} of the bias):
 *       ONNX's MatMul broadcasts over leading dimensions, as PyTorch's exporter writes {@code linear}. A {@code transB}
 *       weight is stored transposed; only a weight no other node reads is rewritten, so no weight is stored twice;
 *   <li><b>batched matmuls</b>: {@code MatMul} of two reshapes that merge the same batch dimensions of both operands
 *       into one is the MatMul of the operands themselves, reshaped to the merged shape (which {@link ReshapeFusion}
 *       then merges with the reshape that usually follows, restoring the batch dimensions);
 *   <li><b>embeddings</b>: {@code Gather} along axis 0 of a flattened index, reshaped back to the index's sizes, is the
 *       Gather of the index itself.
 * </ul>
 *
 * Shapes are compared with the dynamic dimensions as symbols ({@link ShapeInference}), so a rewrite holds at every size
 * the model serves.
 */
final class FlatteningRemoval {
    private FlatteningRemoval() {}

    /** Rewrites {@code graph} in place; whether anything changed. */
    static boolean run(OnnxGraph graph, ShapeInference shapes) {
        Rewrite r = new Rewrite(graph, shapes);
        for (int i = 0; i < r.nodes.size(); i++) {
            NodeProto n = r.nodes.get(i);
            switch (n.getOpType()) {
                case "Gemm", "MatMul" -> {
                    if (!r.linear(i) && n.getOpType().equals("MatMul")) r.batched(i);
                }
                case "Gather" -> r.embedding(i);
                default -> {}
            }
        }
        if (r.changed) r.index.writeTo(graph.proto());
        return r.changed;
    }

    private static final class Rewrite {
        final OnnxGraph graph;
        final ShapeInference shapes;
        final GraphIndex index;
        final List<NodeProto> nodes;
        boolean changed;

        Rewrite(OnnxGraph graph, ShapeInference shapes) {
            this.graph = graph;
            this.shapes = shapes;
            this.index = new GraphIndex(graph.proto());
            this.nodes = index.nodes;
        }

        /** The node writing {@code value} when it is a {@code Reshape} and {@code reader} alone reads it, else null. */
        NodeProto reshapeReadOnlyBy(String value, NodeProto reader) {
            NodeProto p = index.onlyReadBy(value, reader);
            return p != null && p.getOpType().equals("Reshape") ? p : null;
        }

        /** The only reader of {@code n}'s output when it is a {@code Reshape}, else null. */
        NodeProto reshapeReading(NodeProto n) {
            if (index.outputs.contains(n.getOutput(0))) return null;
            List<NodeProto> r = index.readers.getOrDefault(n.getOutput(0), List.of());
            if (r.size() != 1 || !r.getFirst().getOpType().equals("Reshape")) return null;
            return r.getFirst().getInput(0).equals(n.getOutput(0)) ? r.getFirst() : null;
        }

        /** Replaces {@code old} (wherever it is) by {@code replacement} (nothing when empty). */
        void replace(NodeProto old, List<NodeProto> replacement) {
            int at = nodes.indexOf(old);
            nodes.remove(at);
            nodes.addAll(at, replacement);
            changed = true;
        }

        /** {@code Reshape(x, [-1, K])}, Gemm/MatMul by a constant, {@code Reshape} to {@code x}'s leading sizes. */
        boolean linear(int i) {
            NodeProto op = nodes.get(i);
            NodeProto flatten = reshapeReadOnlyBy(op.getInput(0), op);
            NodeProto restore = reshapeReading(op);
            if (flatten == null || restore == null) return false;
            List<SymInt> x = shapes.fullShape(flatten.getInput(0));
            List<SymInt> flat = shapes.fullShape(op.getInput(0));
            List<SymInt> y = shapes.fullShape(restore.getOutput(0));
            List<SymInt> w = shapes.fullShape(op.getInput(1));
            if (x == null || flat == null || y == null || w == null) return false;
            if (y.size() < 3 || flat.size() != 2 || w.size() != 2)
                return false; // a batched weight broadcasts otherwise
            // y's leading sizes must lead x too; x's other sizes (the heads of an attention, say) merge into K
            List<SymInt> leading = y.subList(0, y.size() - 1);
            if (x.size() < y.size() || !x.subList(0, leading.size()).equals(leading)) return false;
            boolean merges = x.size() > y.size();
            if (!flat.get(1).equals(SymbolicDims.product(x.subList(leading.size(), x.size())))) return false;
            long[] merged = null;
            if (merges) {
                List<SymInt> target = new ArrayList<>(leading);
                target.add(flat.get(1));
                merged = SymbolicDims.reshapeTarget(target);
                if (merged == null) return false;
            }
            String weight = op.getInput(1);
            String bias = op.getInputCount() > 2 ? op.getInput(2) : "";
            if (op.getOpType().equals("Gemm")) {
                if (Nodes.integer(op, "transA", 0) != 0 || Nodes.real(op, "alpha", 1f) != 1f) return false;
                if (!bias.isEmpty() && (Nodes.real(op, "beta", 1f) != 1f || !isRowBias(bias, y.getLast())))
                    return false;
                if (Nodes.integer(op, "transB", 0) != 0) {
                    Tensor t = shapes.constant(weight);
                    if (t == null
                            || index.readers.getOrDefault(weight, List.of()).size() != 1) return false;
                    weight = graph.fresh(weight + "_transposed");
                    graph.initializer(weight, t.t().contiguous());
                }
            }
            String out = restore.getOutput(0);
            List<NodeProto> replacement = new ArrayList<>();
            String input = flatten.getInput(0);
            if (merges) {
                input = graph.fresh(flatten.getOutput(0));
                replacement.add(flatten.toBuilder()
                        .setInput(1, graph.int64s(merged))
                        .setOutput(0, input)
                        .build());
            }
            String product = bias.isEmpty() ? out : graph.fresh(op.getOutput(0));
            replacement.add(op.toBuilder()
                    .setOpType("MatMul")
                    .clearAttribute()
                    .clearInput()
                    .addInput(input)
                    .addInput(weight)
                    .setOutput(0, product)
                    .build());
            if (!bias.isEmpty()) {
                replacement.add(Nodes.node("Add", graph.fresh("node_Add"), List.of(product, bias), out));
            }
            replace(op, replacement);
            replace(restore, List.of());
            return true;
        }

        /** A Gemm's C that adds the same row to every row: a scalar or a vector of {@code n} (or {@code [1, n]}). */
        boolean isRowBias(String bias, SymInt n) {
            List<SymInt> b = shapes.fullShape(bias);
            if (b == null || b.size() > 2) return false;
            if (b.size() == 2 && !SymbolicDims.is(b.getFirst(), 1)) return false;
            return b.isEmpty() || b.getLast().equals(n) || SymbolicDims.is(b.getLast(), 1);
        }

        /** {@code MatMul(Reshape(a), Reshape(b))} merging the same batch dimensions of {@code a} and {@code b}. */
        void batched(int i) {
            NodeProto op = nodes.get(i);
            NodeProto ra = reshapeReadOnlyBy(op.getInput(0), op), rb = reshapeReadOnlyBy(op.getInput(1), op);
            if (ra == null || rb == null) return;
            List<SymInt> a = shapes.fullShape(ra.getInput(0)), b = shapes.fullShape(rb.getInput(0));
            List<SymInt> fa = shapes.fullShape(ra.getOutput(0)), fb = shapes.fullShape(rb.getOutput(0));
            List<SymInt> merged = shapes.fullShape(op.getOutput(0));
            if (a == null || b == null || fa == null || fb == null || merged == null) return;
            if (a.size() != b.size() || a.size() < 3 || fa.size() != 3 || fb.size() != 3) return;
            List<SymInt> batch = a.subList(0, a.size() - 2);
            if (!batch.equals(b.subList(0, b.size() - 2))) return;
            SymInt count = SymbolicDims.product(batch);
            if (count == null || !count.equals(fa.getFirst()) || !count.equals(fb.getFirst())) return;
            if (!fa.subList(1, 3).equals(a.subList(a.size() - 2, a.size()))) return;
            if (!fb.subList(1, 3).equals(b.subList(b.size() - 2, b.size()))) return;
            long[] target = SymbolicDims.reshapeTarget(merged);
            if (target == null) return;
            String full = graph.fresh(op.getOutput(0));
            NodeProto matmul = op.toBuilder()
                    .setInput(0, ra.getInput(0))
                    .setInput(1, rb.getInput(0))
                    .setOutput(0, full)
                    .build();
            NodeProto reshape = Nodes.node(
                    "Reshape", graph.fresh("node_Reshape"), List.of(full, graph.int64s(target)), op.getOutput(0));
            replace(op, List.of(matmul, reshape));
        }

        /** {@code Gather(data, Reshape(index, [-1]), axis=0)} reshaped to the index's sizes and a row's. */
        void embedding(int i) {
            NodeProto op = nodes.get(i);
            if (Nodes.integer(op, "axis", 0) != 0) return;
            NodeProto flatten = reshapeReadOnlyBy(op.getInput(1), op);
            NodeProto restore = reshapeReading(op);
            if (flatten == null || restore == null) return;
            List<SymInt> index = shapes.fullShape(flatten.getInput(0));
            List<SymInt> data = shapes.fullShape(op.getInput(0));
            List<SymInt> y = shapes.fullShape(restore.getOutput(0));
            if (index == null || data == null || y == null) return;
            List<SymInt> expected = new ArrayList<>(index);
            expected.addAll(data.subList(1, data.size()));
            if (!expected.equals(y)) return;
            replace(
                    op,
                    List.of(op.toBuilder()
                            .setInput(1, flatten.getInput(0))
                            .setOutput(0, restore.getOutput(0))
                            .build()));
            replace(restore, List.of());
        }
    }
}
