package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;

/**
 * Folds an eval BatchNorm into the {@code Conv} before it, as PyTorch's exporter does: when a conv's output is read
 * only by a chain of per-channel {@code Sub}/{@code Mul}/{@code Div}/{@code Add} by constants (the program's decomposed
 * batch norm, after {@link ConstantFolding}) or by a {@code BatchNormalization} with constant statistics, the chain is
 * {@code y = conv * scale + shift} per output channel, and the conv with weight {@code W * scale} and bias {@code bias
 * * scale + shift} computes it alone. Scale and shift are accumulated in float64 and rounded once.
 */
final class ConvBatchNormFolding {
    private ConvBatchNormFolding() {}

    /** Folds every such chain of {@code graph} in place. */
    static void run(OnnxGraph graph) {
        Map<String, Tensor> known = graph.constants();
        Set<String> outputs = new HashSet<>();
        for (ValueInfoProto v : graph.proto().getOutputList()) outputs.add(v.getName());
        List<NodeProto> nodes = new ArrayList<>(graph.proto().getNodeList());
        Map<String, List<Integer>> readers = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (String in : nodes.get(i).getInputList())
                readers.computeIfAbsent(in, k -> new ArrayList<>()).add(i);
        }
        Set<Integer> folded = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            NodeProto conv = nodes.get(i);
            if (!conv.getOpType().equals("Conv") || conv.getInputCount() < 2) continue;
            Tensor w = known.get(conv.getInput(1));
            boolean hasBias = conv.getInputCount() > 2 && !conv.getInput(2).isEmpty();
            Tensor bias = hasBias ? known.get(conv.getInput(2)) : null;
            if (w == null || !w.dtype().isFloatingPoint() || (hasBias && bias == null)) continue;
            long channels = w.size(0);
            ChannelAffine affine = ChannelAffine.identity(channels);
            String value = conv.getOutput(0);
            List<Integer> chain = new ArrayList<>();
            while (!outputs.contains(value)) {
                List<Integer> r = readers.getOrDefault(value, List.of());
                if (r.size() != 1) break; // the conv's own output is read elsewhere too: it must stay as it is
                NodeProto link = nodes.get(r.getFirst());
                ChannelAffine next = affine.then(link, value, known, channels, w.dim());
                if (next == null) break;
                affine = next;
                chain.add(r.getFirst());
                value = link.getOutput(0);
            }
            if (chain.isEmpty()) continue;
            nodes.set(i, foldedConv(graph, conv, w, bias, affine, value));
            folded.addAll(chain);
        }
        List<NodeProto> kept = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) if (!folded.contains(i)) kept.add(nodes.get(i));
        graph.proto().clearNode().addAllNode(kept);
    }

    /** The conv computing {@code affine} of its output itself, writing {@code output}. */
    private static NodeProto foldedConv(
            OnnxGraph graph, NodeProto conv, Tensor w, Tensor bias, ChannelAffine affine, String output) {
        long[] perChannel = new long[w.dim()];
        java.util.Arrays.fill(perChannel, 1);
        perChannel[0] = -1;
        Tensor weight =
                w.to(DType.FLOAT64).mul(affine.scale().reshape(perChannel)).to(w.dtype());
        Tensor b = bias == null
                ? affine.shift()
                : bias.to(DType.FLOAT64).mul(affine.scale()).add(affine.shift());
        String weightName = graph.fresh(conv.getInput(1) + "_folded");
        graph.initializer(weightName, weight);
        String biasName = graph.fresh(bias == null ? weightName + "_bias" : conv.getInput(2) + "_folded");
        graph.initializer(biasName, b.to(w.dtype()));
        NodeProto.Builder out = conv.toBuilder().setInput(1, weightName).setOutput(0, output);
        if (conv.getInputCount() > 2) out.setInput(2, biasName);
        else out.addInput(biasName);
        return out.build();
    }
}
