package org.jtorch.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.TensorProto.DataType;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;
import org.junit.jupiter.api.Test;

/** {@link ConstantFolding} on hand-built graphs, each folded value checked against ONNX's definition of the op. */
class ConstantFoldingTest {
    private static List<String> opTypes(OnnxGraph g) {
        return g.proto().getNodeList().stream().map(NodeProto::getOpType).toList();
    }

    private static void output(OnnxGraph g, String name) {
        g.proto().addOutput(ValueInfoProto.newBuilder().setName(name));
    }

    @Test
    void batchNormStatisticsBecomeOneInitializer() {
        OnnxGraph g = new OnnxGraph("g");
        double[] var = {0.5, 1.25, 2.0, 0.75};
        g.initializer(g.reserve("running_var"), Torch.tensor(var).to(DType.FLOAT32));
        String shaped = g.node("Reshape", List.of("running_var", g.int64s(1, 4, 1, 1)));
        String plusEps = g.node("Add", List.of(shaped, g.scalar(DType.FLOAT32, 1e-5)));
        String invStd = g.node("Reciprocal", List.of(g.node("Sqrt", List.of(plusEps))));
        String y = g.node("Mul", List.of("x", invStd));
        output(g, y);
        ConstantFolding.run(g);
        assertEquals(List.of("Mul"), opTypes(g));
        Tensor folded = g.constants().get(g.proto().getNode(0).getInput(1));
        assertArrayEquals(new long[] {1, 4, 1, 1}, folded.shape());
        double[] got = folded.toDoubleArray();
        for (int c = 0; c < var.length; c++) {
            double want = 1 / Math.sqrt((float) var[c] + (float) 1e-5);
            assertEquals(want, got[c], 1e-7 * want, "channel " + c);
        }
    }

    @Test
    void reshapeReadsZeroAsKeepAndMinusOneAsTheRest() {
        OnnxGraph g = new OnnxGraph("g");
        g.initializer(g.reserve("t"), Torch.arange(24).reshape(2, 3, 4).to(DType.FLOAT32));
        String r = g.node("Reshape", List.of("t", g.int64s(0, -1)));
        String y = g.node("Relu", List.of("x", r));
        output(g, y);
        ConstantFolding.run(g);
        Tensor folded = g.constants().get(r);
        assertArrayEquals(new long[] {2, 12}, folded.shape());
        assertEquals(13.0, folded.toDoubleArray()[13]);
    }

    @Test
    void transposeUnsqueezeAndCastFollowOnnx() {
        OnnxGraph g = new OnnxGraph("g");
        g.initializer(g.reserve("m"), Torch.tensor(new double[] {1.7, -1.7, 2.5, 0, 3, -4}, DType.FLOAT32, 2, 3));
        // Transpose without perm reverses the dimensions
        String t = g.node("Transpose", List.of("m"));
        // Unsqueeze's axes are positions in the output, -1 its last
        String u = g.node("Unsqueeze", List.of(t, g.int64s(-1, 0)));
        // Cast from float to int64 truncates toward zero
        String c = g.node("Cast", List.of(u), OnnxGraph.attr("to", (long) DataType.INT64.getNumber()));
        output(g, g.node("Add", List.of("x", c)));
        ConstantFolding.run(g);
        assertEquals(List.of("Add"), opTypes(g));
        Tensor folded = g.constants().get(c);
        assertEquals(DType.INT64, folded.dtype());
        assertArrayEquals(new long[] {1, 3, 2, 1}, folded.shape());
        assertArrayEquals(new long[] {1, 0, -1, 3, 2, -4}, folded.toLongArray());
    }

    @Test
    void nodesThatMustStayAreKept() {
        OnnxGraph g = new OnnxGraph("g");
        g.initializer(g.reserve("row"), Torch.ones(3));
        g.initializer(g.reserve("column"), Torch.ones(3, 1));
        g.initializer(g.reserve("seven"), Torch.tensor(new long[] {7}));
        g.initializer(g.reserve("two"), Torch.tensor(new long[] {2}));
        // reads a graph input
        String fromInput = g.node("Neg", List.of("x"));
        // a broadcast of two constants into a larger one would enlarge the file
        String outer = g.node("Add", List.of("row", "column"));
        // ONNX's integer Div truncates, torch.div does not
        String quotient = g.node("Div", List.of("seven", "two"));
        // a graph output is written by a node
        String direct = g.node("Sqrt", List.of("row"));
        for (String v : List.of(fromInput, outer, quotient, direct)) output(g, v);
        ConstantFolding.run(g);
        assertEquals(List.of("Neg", "Add", "Div", "Sqrt"), opTypes(g));
    }
}
