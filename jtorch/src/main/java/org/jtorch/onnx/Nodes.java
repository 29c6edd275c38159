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
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;

/** What the graph passes read off ONNX nodes: attributes, the readers of each value, the graph's outputs. */
final class Nodes {
    private Nodes() {}

    /** An INTS attribute, or null when absent. */
    static long[] ints(NodeProto n, String name) {
        for (AttributeProto a : n.getAttributeList()) {
            if (a.getName().equals(name))
                return a.getIntsList().stream().mapToLong(Long::longValue).toArray();
        }
        return null;
    }

    /** An INT attribute, or {@code fallback} when absent. */
    static long integer(NodeProto n, String name, long fallback) {
        for (AttributeProto a : n.getAttributeList()) if (a.getName().equals(name)) return a.getI();
        return fallback;
    }

    /** A FLOAT attribute, or {@code fallback} when absent. */
    static float real(NodeProto n, String name, float fallback) {
        for (AttributeProto a : n.getAttributeList()) if (a.getName().equals(name)) return a.getF();
        return fallback;
    }

    /** The nodes reading each value, by the value's name. */
    static Map<String, List<NodeProto>> readers(List<NodeProto> nodes) {
        Map<String, List<NodeProto>> r = new HashMap<>();
        for (NodeProto n : nodes) {
            for (String in : new HashSet<>(n.getInputList()))
                r.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
        }
        return r;
    }

    /** The node writing each value, by the value's name. */
    static Map<String, NodeProto> producers(List<NodeProto> nodes) {
        Map<String, NodeProto> p = new HashMap<>();
        for (NodeProto n : nodes) for (String out : n.getOutputList()) p.put(out, n);
        return p;
    }

    /** The names of the graph's outputs. */
    static Set<String> outputs(GraphProto.Builder graph) {
        Set<String> s = new HashSet<>();
        for (ValueInfoProto v : graph.getOutputList()) s.add(v.getName());
        return s;
    }

    /**
     * A node that copies {@code input} to {@code n}'s output: how a pass removes a node that computes nothing new;
     * {@link GraphCleanup} then drops the copy (or keeps it where ONNX needs it: an output that is an input).
     */
    static NodeProto copy(NodeProto n, String input) {
        return NodeProto.newBuilder()
                .setOpType("Identity")
                .setName(n.getName())
                .addInput(input)
                .addOutput(n.getOutput(0))
                .build();
    }

    /** {@code n} with its attribute {@code name} set to {@code values} (added when absent). */
    static NodeProto withInts(NodeProto n, String name, long[] values) {
        NodeProto.Builder b = n.toBuilder();
        for (int i = 0; i < b.getAttributeCount(); i++) {
            if (b.getAttribute(i).getName().equals(name)) {
                b.setAttribute(i, OnnxGraph.attr(name, values));
                return b.build();
            }
        }
        return b.addAttribute(OnnxGraph.attr(name, values)).build();
    }

    /** A node of {@code opType} named {@code name}, reading {@code inputs} and writing {@code output}. */
    static NodeProto node(String opType, String name, List<String> inputs, String output) {
        return NodeProto.newBuilder()
                .setOpType(opType)
                .setName(name)
                .addAllInput(inputs)
                .addOutput(output)
                .build();
    }
}
