package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * An eval batch norm that no conv takes in ({@link ConvBatchNormFolding}) as one {@code BatchNormalization} node, as
 * PyTorch's exporter writes it: the program's decomposed batch norm is, after {@link ConstantFolding}, a chain of
 * per-channel {@code Sub}/{@code Mul}/{@code Add} by constants ({@code (x - mean) * invstd * weight + bias}). Any chain
 * of two or more such links on a value whose channel count (dimension 1) is known is {@code y = x * a + b} per channel
 * ({@link ChannelAffine}, accumulated in float64 and rounded once), which {@code BatchNormalization} computes with
 * {@code scale = a}, {@code B = b}, {@code mean = 0}, {@code var = 1} and {@code epsilon = 0}: one pass over the tensor
 * instead of one per link.
 */
final class BatchNormFusion {
    private BatchNormFusion() {}

    /** Rewrites {@code graph} in place; whether anything changed. */
    static boolean run(OnnxGraph graph, ShapeInference shapes) {
        List<NodeProto> nodes = new ArrayList<>(graph.proto().getNodeList());
        Map<String, List<NodeProto>> readers = Nodes.readers(nodes);
        Set<String> outputs = Nodes.outputs(graph.proto());
        Map<String, Tensor> known = graph.constants();
        Set<NodeProto> removed = new HashSet<>();
        boolean changed = false;
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto start = nodes.get(i);
            if (removed.contains(start) || start.getOpType().equals("BatchNormalization")) continue;
            String x = channelInput(start, shapes, known);
            if (x == null) continue;
            List<SymInt> shape = shapes.shape(x);
            long channels = shape.get(1).constantValue();
            ChannelAffine affine = ChannelAffine.identity(channels);
            List<NodeProto> chain = new ArrayList<>();
            String value = x;
            NodeProto link = start;
            DType dtype = null;
            while (true) {
                ChannelAffine next = affine.then(link, value, known, channels, shape.size());
                if (next == null) break;
                affine = next;
                chain.add(link);
                if (dtype == null) dtype = constantOf(link, value, known).dtype();
                value = link.getOutput(0);
                List<NodeProto> r = readers.getOrDefault(value, List.of());
                if (outputs.contains(value) || r.size() != 1) break;
                link = r.getFirst();
            }
            if (chain.size() < 2) continue;
            String scale = graph.fresh(x + "_bn_scale"), shift = graph.fresh(x + "_bn_bias");
            String mean = graph.fresh(x + "_bn_mean"), variance = graph.fresh(x + "_bn_var");
            graph.initializer(scale, affine.scale().to(dtype));
            graph.initializer(shift, affine.shift().to(dtype));
            graph.initializer(mean, Torch.zeros(channels).to(dtype));
            graph.initializer(variance, Torch.ones(channels).to(dtype));
            NodeProto bn = NodeProto.newBuilder(Nodes.node(
                            "BatchNormalization",
                            graph.fresh("node_BatchNormalization"),
                            List.of(x, scale, shift, mean, variance),
                            value))
                    .addAttribute(OnnxGraph.attr("epsilon", 0f))
                    .build();
            nodes.set(nodes.indexOf(chain.getFirst()), bn);
            removed.addAll(chain.subList(1, chain.size()));
            changed = true;
        }
        if (changed) {
            nodes.removeAll(removed);
            graph.proto().clearNode().addAllNode(nodes);
        }
        return changed;
    }

    /** The value {@code n} reads as the chain's input when it is a tensor of static channel count, else null. */
    private static String channelInput(NodeProto n, ShapeInference shapes, Map<String, Tensor> known) {
        if (n.getInputCount() != 2) return null;
        for (String in : n.getInputList()) {
            if (known.containsKey(in)) continue;
            List<SymInt> s = shapes.shape(in);
            return s != null && s.size() >= 2 && SymbolicDims.isStatic(s.get(1)) ? in : null;
        }
        return null;
    }

    /** The constant operand of a binary link reading {@code value}. */
    private static Tensor constantOf(NodeProto link, String value, Map<String, Tensor> known) {
        return known.get(link.getInput(link.getInput(0).equals(value) ? 1 : 0));
    }
}
