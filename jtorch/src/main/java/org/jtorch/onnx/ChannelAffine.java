package org.jtorch.onnx;

import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.onnx.proto.OnnxProto.AttributeProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;

/**
 * {@code y = x * scale + shift} per channel (dimension 1) of a value, as float64 vectors: what a chain of per-channel
 * {@code Sub}/{@code Mul}/{@code Div}/{@code Add} by constants, or an inference {@code BatchNormalization}, computes.
 * The batch-norm passes fold such a chain into a conv's weights ({@link ConvBatchNormFolding}) or write it as one
 * {@code BatchNormalization} ({@link BatchNormFusion}).
 */
record ChannelAffine(Tensor scale, Tensor shift) {
    /** The identity on {@code channels} channels. */
    static ChannelAffine identity(long channels) {
        return new ChannelAffine(
                Torch.ones(channels).to(DType.FLOAT64), Torch.zeros(channels).to(DType.FLOAT64));
    }

    ChannelAffine times(Tensor c) {
        return new ChannelAffine(scale.mul(c), shift.mul(c));
    }

    ChannelAffine plus(Tensor c) {
        return new ChannelAffine(scale, shift.add(c));
    }

    /**
     * This affine map followed by {@code link} reading {@code value} (of rank {@code rank}), or null when the link is
     * not per-channel.
     */
    ChannelAffine then(NodeProto link, String value, Map<String, Tensor> known, long channels, int rank) {
        List<String> in = link.getInputList();
        if (link.getOutputCount() != 1) return null;
        if (link.getOpType().equals("BatchNormalization")) return batchNorm(link, value, known, channels);
        if (in.size() != 2) return null;
        boolean valueFirst = in.get(0).equals(value);
        Tensor c = perChannel(known.get(in.get(valueFirst ? 1 : 0)), channels, rank);
        if (c == null) return null;
        return switch (link.getOpType()) {
            case "Add" -> plus(c);
            case "Mul" -> times(c);
            case "Sub" -> valueFirst ? plus(c.neg()) : null;
            case "Div" -> valueFirst ? times(c.reciprocal()) : null;
            default -> null;
        };
    }

    /** ONNX BatchNormalization (inference): {@code (x - mean) / sqrt(var + epsilon) * scale + bias}. */
    private ChannelAffine batchNorm(NodeProto bn, String value, Map<String, Tensor> known, long channels) {
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
        return plus(p[2].neg()).times(k).plus(p[1]);
    }

    /**
     * A constant as a float64 vector of {@code channels} when it broadcasts along the channel dimension (1) of a
     * rank-{@code rank} value only, else null.
     */
    static Tensor perChannel(Tensor c, long channels, int rank) {
        if (c == null || c.dim() > rank || !c.dtype().isFloatingPoint()) return null;
        long[] shape = c.shape();
        for (int j = 0; j < shape.length; j++) {
            int dim = rank - shape.length + j; // aligned to the value's trailing dimensions
            boolean ok = shape[j] == 1 || (dim == 1 && shape[j] == channels);
            if (!ok) return null;
        }
        return Torch.ones(channels).to(DType.FLOAT64).mul(c.to(DType.FLOAT64).reshape(-1));
    }
}
