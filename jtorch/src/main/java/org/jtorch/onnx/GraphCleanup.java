package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.onnx.proto.OnnxProto.AttributeProto;
import org.jtorch.onnx.proto.OnnxProto.GraphProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.TensorProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;

/**
 * The last pass over a lowered graph, which the op-by-op lowering cannot do alone because it sees one node at a time:
 *
 * <ul>
 *   <li>a 2-d {@code Transpose} read only by a {@code Gemm} becomes that Gemm's {@code transA}/{@code transB} (a linear
 *       layer's {@code t(W)} then {@code addmm});
 *   <li>{@code Identity} nodes go: a consumer reads the Identity's input instead, and a graph output is written by the
 *       node that computes it (the output keeps its name), unless that value is a graph input, an initializer or
 *       another output, where ONNX needs the copy;
 *   <li>nodes none of whose outputs is read (a tuple element never used, the transposes folded above) go, and so do
 *       initializers no node reads.
 * </ul>
 *
 * Each step keeps the graph's values: only copies and unused work are removed, so the model computes the same bits.
 */
final class GraphCleanup {
    private GraphCleanup() {}

    /** Cleans {@code graph} in place and drops the removed initializers from {@code weights}. */
    static void run(GraphProto.Builder graph, Map<String, ?> weights) {
        Set<String> outputs = names(graph.getOutputList());
        Set<String> external = names(graph.getInputList());
        for (TensorProto t : graph.getInitializerList()) external.add(t.getName());
        List<NodeProto> nodes = foldGemmTransposes(new ArrayList<>(graph.getNodeList()), outputs);
        nodes = removeIdentities(nodes, outputs, external);
        nodes = removeUnread(nodes, outputs);
        graph.clearNode().addAllNode(nodes);
        Set<String> read = new HashSet<>(outputs);
        for (NodeProto n : nodes) read.addAll(n.getInputList());
        List<TensorProto> kept = new ArrayList<>();
        for (TensorProto t : graph.getInitializerList()) {
            if (read.contains(t.getName())) kept.add(t);
            else weights.remove(t.getName());
        }
        graph.clearInitializer().addAllInitializer(kept);
    }

    private static Set<String> names(List<ValueInfoProto> values) {
        Set<String> s = new HashSet<>();
        for (ValueInfoProto v : values) s.add(v.getName());
        return s;
    }

    /** How many node inputs read each value. */
    private static Map<String, Integer> readers(List<NodeProto> nodes) {
        Map<String, Integer> count = new HashMap<>();
        for (NodeProto n : nodes) for (String in : n.getInputList()) count.merge(in, 1, Integer::sum);
        return count;
    }

    private static List<NodeProto> foldGemmTransposes(List<NodeProto> nodes, Set<String> outputs) {
        Map<String, NodeProto> transposes = new HashMap<>();
        for (NodeProto n : nodes) {
            if (n.getOpType().equals("Transpose") && swapsTwoDims(n)) transposes.put(n.getOutput(0), n);
        }
        Map<String, Integer> readers = readers(nodes);
        List<NodeProto> out = new ArrayList<>(nodes.size());
        for (NodeProto n : nodes) {
            if (!n.getOpType().equals("Gemm")) {
                out.add(n);
                continue;
            }
            NodeProto.Builder gemm = n.toBuilder();
            for (int operand = 0; operand < 2; operand++) {
                NodeProto t = transposes.get(n.getInput(operand));
                if (t == null || readers.get(t.getOutput(0)) != 1 || outputs.contains(t.getOutput(0))) continue;
                gemm.setInput(operand, t.getInput(0));
                flip(gemm, operand == 0 ? "transA" : "transB");
            }
            out.add(gemm.build());
        }
        return out;
    }

    /** A Transpose with {@code perm = [1, 0]}: the only one a Gemm flag can replace. */
    private static boolean swapsTwoDims(NodeProto n) {
        for (AttributeProto a : n.getAttributeList()) {
            if (a.getName().equals("perm")) return a.getIntsList().equals(List.of(1L, 0L));
        }
        return false;
    }

    private static void flip(NodeProto.Builder gemm, String flag) {
        for (int i = 0; i < gemm.getAttributeCount(); i++) {
            AttributeProto a = gemm.getAttribute(i);
            if (a.getName().equals(flag)) {
                gemm.setAttribute(i, a.toBuilder().setI(1 - a.getI()));
                return;
            }
        }
        gemm.addAttribute(OnnxGraph.attr(flag, 1L));
    }

    private static List<NodeProto> removeIdentities(List<NodeProto> nodes, Set<String> outputs, Set<String> external) {
        List<NodeProto> out = new ArrayList<>(nodes);
        for (int i = 0; i < out.size(); i++) {
            NodeProto n = out.get(i);
            if (!n.getOpType().equals("Identity")) continue;
            String in = n.getInput(0), copy = n.getOutput(0);
            if (!outputs.contains(copy)) {
                out.remove(i--);
                rename(out, copy, in); // readers of the copy read the original
            } else if (!external.contains(in) && !outputs.contains(in)) {
                out.remove(i--);
                rename(out, in, copy); // the producer writes the output under its name, and its readers follow
            }
        }
        return out;
    }

    /** Replaces the value name {@code from} by {@code to} in every node's inputs and outputs. */
    private static void rename(List<NodeProto> nodes, String from, String to) {
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto n = nodes.get(i);
            if (!n.getInputList().contains(from) && !n.getOutputList().contains(from)) continue;
            NodeProto.Builder b = n.toBuilder();
            for (int k = 0; k < b.getInputCount(); k++) if (b.getInput(k).equals(from)) b.setInput(k, to);
            for (int k = 0; k < b.getOutputCount(); k++) if (b.getOutput(k).equals(from)) b.setOutput(k, to);
            nodes.set(i, b.build());
        }
    }

    /** Drops nodes whose outputs nobody reads, last to first, so that a chain of unread nodes goes at once. */
    private static List<NodeProto> removeUnread(List<NodeProto> nodes, Set<String> outputs) {
        Map<String, Integer> readers = readers(nodes);
        List<NodeProto> kept = new ArrayList<>();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            NodeProto n = nodes.get(i);
            boolean read = false;
            for (String o : n.getOutputList()) read |= outputs.contains(o) || readers.getOrDefault(o, 0) > 0;
            if (read) {
                kept.add(n);
                continue;
            }
            for (String in : n.getInputList()) readers.merge(in, -1, Integer::sum);
        }
        return kept.reversed();
    }
}
