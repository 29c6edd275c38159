package org.jtorch.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;
import org.junit.jupiter.api.Test;

/**
 * {@link ConvBatchNormFolding} on hand-built graphs: the folded conv, run with JTorch's conv2d, against the conv and
 * the batch norm formula computed in float64.
 */
class ConvBatchNormFoldingTest {
    private static final long C = 4;

    private static List<String> opTypes(OnnxGraph g) {
        return g.proto().getNodeList().stream().map(NodeProto::getOpType).toList();
    }

    private static void output(OnnxGraph g, String name) {
        g.proto().addOutput(ValueInfoProto.newBuilder().setName(name));
    }

    private static Tensor channels(Tensor v) {
        return v.reshape(1, C, 1, 1);
    }

    /** The folded conv (the graph's only node) applied to {@code x} with its own weight and bias. */
    private static Tensor runFolded(OnnxGraph g, Tensor x) {
        assertEquals(List.of("Conv"), opTypes(g));
        NodeProto conv = g.proto().getNode(0);
        var known = g.constants();
        return F.conv2d(x, known.get(conv.getInput(1)), known.get(conv.getInput(2)));
    }

    private static void assertClose(Tensor want, Tensor got) {
        double scale = Math.max(1, want.abs().max().item());
        double err = want.sub(got.to(DType.FLOAT64)).abs().max().item();
        assertTrue(err <= 1e-5 * scale, "max error " + err + " at scale " + scale);
    }

    @Test
    void theDecomposedBatchNormChainFoldsIntoTheConv() {
        Torch.manualSeed(7);
        Tensor w = Torch.randn(C, 3, 3, 3), b = Torch.randn(C);
        Tensor mean = Torch.randn(C), invStd = Torch.rand(C).add(0.5), gamma = Torch.randn(C), beta = Torch.randn(C);
        OnnxGraph g = new OnnxGraph("g");
        for (var e : java.util.Map.of("w", w, "b", b).entrySet()) g.initializer(g.reserve(e.getKey()), e.getValue());
        g.initializer(g.reserve("mean"), channels(mean));
        g.initializer(g.reserve("inv_std"), channels(invStd));
        g.initializer(g.reserve("gamma"), channels(gamma));
        g.initializer(g.reserve("beta"), channels(beta));
        String conv = g.node("Conv", List.of("x", "w", "b"));
        String y = g.node(
                "Add",
                List.of(
                        "beta",
                        g.node(
                                "Mul",
                                List.of(
                                        g.node("Mul", List.of(g.node("Sub", List.of(conv, "mean")), "inv_std")),
                                        "gamma"))));
        output(g, y);
        ConvBatchNormFolding.run(g);
        assertEquals(y, g.proto().getNode(0).getOutput(0));
        Tensor x = Torch.randn(2, 3, 8, 8);
        Tensor d = F.conv2d(x.to(DType.FLOAT64), w.to(DType.FLOAT64), b.to(DType.FLOAT64));
        Tensor want = d.sub(channels(mean).to(DType.FLOAT64))
                .mul(channels(invStd).to(DType.FLOAT64))
                .mul(channels(gamma).to(DType.FLOAT64))
                .add(channels(beta).to(DType.FLOAT64));
        assertClose(want, runFolded(g, x));
    }

    @Test
    void aBatchNormalizationNodeFoldsIntoAConvWithoutBias() {
        Torch.manualSeed(8);
        Tensor w = Torch.randn(C, 3, 3, 3);
        Tensor scale = Torch.randn(C),
                shift = Torch.randn(C),
                mean = Torch.randn(C),
                var = Torch.rand(C).add(0.1);
        OnnxGraph g = new OnnxGraph("g");
        g.initializer(g.reserve("w"), w);
        for (var e :
                java.util.Map.of("s", scale, "t", shift, "m", mean, "v", var).entrySet()) {
            g.initializer(g.reserve(e.getKey()), e.getValue());
        }
        String conv = g.node("Conv", List.of("x", "w"));
        String y = g.node("BatchNormalization", List.of(conv, "s", "t", "m", "v"), OnnxGraph.attr("epsilon", 1e-3f));
        output(g, y);
        ConvBatchNormFolding.run(g);
        Tensor x = Torch.randn(2, 3, 8, 8);
        Tensor d = F.conv2d(x.to(DType.FLOAT64), w.to(DType.FLOAT64));
        Tensor k = scale.to(DType.FLOAT64)
                .div(var.to(DType.FLOAT64).add((double) 1e-3f).sqrt());
        Tensor want = d.sub(channels(mean.to(DType.FLOAT64))).mul(channels(k)).add(channels(shift.to(DType.FLOAT64)));
        assertClose(want, runFolded(g, x));
    }

    @Test
    void aConvWhoseOutputIsReadElsewhereOrNotPerChannelStays() {
        OnnxGraph g = new OnnxGraph("g");
        g.initializer(g.reserve("w"), Torch.randn(C, 3, 3, 3));
        g.initializer(g.reserve("c"), channels(Torch.randn(C)));
        g.initializer(g.reserve("per_column"), Torch.randn(1, 1, 1, 6));
        // read twice: the conv output itself is needed by the Relu
        String shared = g.node("Conv", List.of("x", "w"));
        output(g, g.node("Add", List.of(shared, "c")));
        output(g, g.node("Relu", List.of(shared)));
        // constant minus the conv negates it: not a chain this pass folds
        output(g, g.node("Sub", List.of("c", g.node("Conv", List.of("x", "w")))));
        // a constant varying along the width is not per channel
        output(g, g.node("Mul", List.of(g.node("Conv", List.of("x", "w")), "per_column")));
        List<String> before = opTypes(g);
        ConvBatchNormFolding.run(g);
        assertEquals(before, opTypes(g));
    }
}
