package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.onnx.proto.OnnxProto.GraphProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * A graph's nodes as a pass rewrites them, with the node writing each value, the nodes reading it and the graph's
 * outputs as they were when the pass began. Every rewrite keeps the values it replaces, so an entry that a rewrite made
 * stale still names a node computing that value.
 */
final class GraphIndex {
    final List<NodeProto> nodes;
    final Map<String, NodeProto> producers;
    final Map<String, List<NodeProto>> readers;
    final Set<String> outputs;

    GraphIndex(GraphProto.Builder graph) {
        nodes = new ArrayList<>(graph.getNodeList());
        producers = Nodes.producers(nodes);
        readers = Nodes.readers(nodes);
        outputs = Nodes.outputs(graph);
    }

    /**
     * The node writing {@code value} when it has that one output, {@code reader} alone reads it and it is no graph
     * output (so the pass may fold it into the reader), else null.
     */
    NodeProto onlyReadBy(String value, NodeProto reader) {
        NodeProto p = producers.get(value);
        if (p == null || p.getOutputCount() != 1 || outputs.contains(value)) return null;
        List<NodeProto> r = readers.getOrDefault(value, List.of());
        return r.size() == 1 && r.getFirst().equals(reader) ? p : null;
    }

    /** Writes the rewritten nodes back into {@code graph}. */
    void writeTo(GraphProto.Builder graph) {
        graph.clearNode().addAllNode(nodes);
    }
}
