package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.onnx.proto.OnnxProto.AttributeProto;
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

    /** {@code y = x * scale + shift}, per channel (float64 vectors of the conv's output channels). */
    private record Affine(Tensor scale, Tensor shift) {
        Affine times(Tensor c) {
            return new Affine(scale.mul(c), shift.mul(c));
        }

        Affine plus(Tensor c) {
            return new Affine(scale, shift.add(c));
        }
    }

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
            Affine affine = new Affine(
                    Torch.ones(channels).to(DType.FLOAT64),
                    Torch.zeros(channels).to(DType.FLOAT64));
            String value = conv.getOutput(0);
            List<Integer> chain = new ArrayList<>();
            while (!outputs.contains(value)) {
                List<Integer> r = readers.getOrDefault(value, List.of());
                if (r.size() != 1) break; // the conv's own output is read elsewhere too: it must stay as it is
                NodeProto link = nodes.get(r.getFirst());
                Affine next = then(affine, link, value, known, channels, w.dim());
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
            OnnxGraph graph, NodeProto conv, Tensor w, Tensor bias, Affine affine, String output) {
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

    /** {@code affine} followed by {@code link} reading {@code value}, or null when the link is not per-channel. */
    private static Affine then(
            Affine affine, NodeProto link, String value, Map<String, Tensor> known, long channels, int rank) {
        List<String> in = link.getInputList();
        if (link.getOutputCount() != 1) return null;
        if (link.getOpType().equals("BatchNormalization")) return batchNorm(affine, link, value, known, channels);
        if (in.size() != 2) return null;
        boolean valueFirst = in.get(0).equals(value);
        Tensor c = perChannel(known.get(in.get(valueFirst ? 1 : 0)), channels, rank);
        if (c == null) return null;
        return switch (link.getOpType()) {
            case "Add" -> affine.plus(c);
            case "Mul" -> affine.times(c);
            case "Sub" -> valueFirst ? affine.plus(c.neg()) : null;
            case "Div" -> valueFirst ? affine.times(c.reciprocal()) : null;
            default -> null;
        };
    }

    /** ONNX BatchNormalization (inference): {@code (x - mean) / sqrt(var + epsilon) * scale + bias}. */
    private static Affine batchNorm(
            Affine affine, NodeProto bn, String value, Map<String, Tensor> known, long channels) {
        if (bn.getInputCount() != 5 || !bn.getInput(0).equals(value)) return null;
        Tensor[] p = new Tensor[4];
        for (int k = 0; k < 4; k++) {
            Tensor t = known.get(bn.getInput(k + 1));
            if (t == null || t.dim() != 1 || t.size(0) != channels) return null;
            p[k] = t.to(DType.FLOAT64);
        }
        double epsilon = 1e-5;
        for (AttributeProto a : bn.getAttributeList()) {
            if (a.getName().equals("training_mode") && a.getI() != 0) return null;
            if (a.getName().equals("epsilon")) epsilon = a.getF();
        }
        Tensor k = p[0].div(p[3].add(epsilon).sqrt());
        return affine.plus(p[2].neg()).times(k).plus(p[1]);
    }

    /**
     * A constant as a float64 vector of {@code channels} when it broadcasts along the channel dimension (1) of a
     * rank-{@code rank} conv output only, else null.
     */
    private static Tensor perChannel(Tensor c, long channels, int rank) {
        if (c == null || c.dim() > rank || !c.dtype().isFloatingPoint()) return null;
        long[] shape = c.shape();
        for (int j = 0; j < shape.length; j++) {
            int dim = rank - shape.length + j; // aligned to the output's trailing dimensions
            boolean ok = shape[j] == 1 || (dim == 1 && shape[j] == channels);
            if (!ok) return null;
        }
        return Torch.ones(channels).to(DType.FLOAT64).mul(c.to(DType.FLOAT64).reshape(-1));
    }
}
