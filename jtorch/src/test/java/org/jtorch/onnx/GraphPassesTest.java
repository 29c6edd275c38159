package org.jtorch.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OrtException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.TensorProto;
import org.jtorch.onnx.proto.OnnxProto.TensorShapeProto;
import org.jtorch.onnx.proto.OnnxProto.TypeProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph passes, each on the smallest graph that has its pattern (with a dynamic batch dimension): the op list after
 * {@link GraphSimplification}, and the rewritten model's outputs in ONNX Runtime at batch 1, 3 and 8 against a closed
 * form computed with JTorch's eager ops. Patterns a pass must leave alone are checked the same way.
 */
class GraphPassesTest {
    @TempDir
    Path dir;

    /** A graph of one float input {@code x} of shape {@code [batch, rest...]}. */
    private static OnnxGraph graph(long... rest) {
        return graphWithInput("x", TensorProto.DataType.FLOAT, rest);
    }

    private static OnnxGraph graphWithInput(String name, TensorProto.DataType type, long... rest) {
        OnnxGraph g = new OnnxGraph("test");
        g.reserve(name);
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("batch"));
        for (long d : rest) shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        g.proto().addInput(valueInfo(name, type, shape));
        return g;
    }

    private static ValueInfoProto valueInfo(String name, TensorProto.DataType type, TensorShapeProto.Builder shape) {
        TypeProto.Tensor.Builder t = TypeProto.Tensor.newBuilder().setElemType(type.getNumber());
        if (shape != null) t.setShape(shape);
        return ValueInfoProto.newBuilder()
                .setName(name)
                .setType(TypeProto.newBuilder().setTensorType(t))
                .build();
    }

    /** Makes {@code value} the graph's float output {@code y}, simplifies the graph, returns its op types. */
    private static List<String> simplify(OnnxGraph g, String value) {
        g.reserve("y");
        g.proto().addNode(Nodes.node("Identity", "out", List.of(value), "y"));
        g.proto().addOutput(valueInfo("y", TensorProto.DataType.FLOAT, null));
        GraphCleanup.run(g.proto(), g.weights());
        ConstantFolding.run(g);
        GraphCleanup.run(g.proto(), g.weights());
        GraphSimplification.run(g);
        return g.proto().getNodeList().stream().map(NodeProto::getOpType).toList();
    }

    /** Runs the graph in ONNX Runtime at batch 1, 3 and 8 against {@code expected} of the same input. */
    private void assertRunsAs(OnnxGraph g, Function<Tensor, Tensor> expected, long... rest) throws OrtException {
        Path path = dir.resolve("model.onnx");
        ModelFile.write(ProgramLowering.model(g.proto(), 20), g.weights(), path, OnnxOptions.ExternalData.NEVER);
        for (long b : new long[] {1, 3, 8}) {
            long[] shape = new long[rest.length + 1];
            shape[0] = b;
            System.arraycopy(rest, 0, shape, 1, rest.length);
            Tensor x = Torch.randn(shape);
            double err = OnnxRuntimeCheck.maxRelativeError(path, new Tensor[] {x}, new Tensor[] {expected.apply(x)});
            assertTrue(err <= 1e-6, "batch " + b + ": max relative error " + err);
        }
    }

    private static long[] perm(long... p) {
        return p;
    }

    @Test
    void aTransposeOfATransposeIsOneTransposeAndNoneWhenTheyCancel() throws OrtException {
        OnnxGraph g = graph(2, 3, 4);
        String t1 = g.node("Transpose", List.of("x"), OnnxGraph.attr("perm", perm(0, 2, 1, 3)));
        String t2 = g.node("Transpose", List.of(t1), OnnxGraph.attr("perm", perm(0, 1, 3, 2)));
        assertEquals(List.of("Transpose"), simplify(g, t2));
        assertArrayEquals(perm(0, 2, 3, 1), Nodes.ints(g.proto().getNode(0), "perm"), "x[b, i, j, k] -> y[b, j, k, i]");
        assertRunsAs(g, x -> x.permute(0, 2, 3, 1), 2, 3, 4);

        OnnxGraph cancel = graph(2, 3);
        String a = cancel.node("Transpose", List.of("x"), OnnxGraph.attr("perm", perm(0, 2, 1)));
        String back = cancel.node("Transpose", List.of(a), OnnxGraph.attr("perm", perm(0, 2, 1)));
        assertEquals(List.of("Relu"), simplify(cancel, cancel.node("Relu", List.of(back))));
        assertRunsAs(cancel, x -> x.relu(), 2, 3);
    }

    @Test
    void aSplitBetweenTwoTransposesMovesBeforeThemAndTheTransposesMerge() throws OrtException {
        // a sequence-first attention's head split: [B, T, C] -> [T, B, C] -> [T, B, H, D] -> [B, H, T, D]
        OnnxGraph g = graph(10, 32);
        String seqFirst = g.node("Transpose", List.of("x"), OnnxGraph.attr("perm", perm(1, 0, 2)));
        String split = g.node("Reshape", List.of(seqFirst, g.int64s(10, -1, 4, 8)));
        String heads = g.node("Transpose", List.of(split), OnnxGraph.attr("perm", perm(1, 2, 0, 3)));
        assertEquals(List.of("Reshape", "Transpose"), simplify(g, heads));
        assertRunsAs(g, x -> x.reshape(x.size(0), 10, 4, 8).permute(0, 2, 1, 3), 10, 32);
    }

    @Test
    void aReshapeThatMergesDimensionsBetweenTransposesStays() throws OrtException {
        OnnxGraph g = graph(4, 6);
        String t = g.node("Transpose", List.of("x"), OnnxGraph.attr("perm", perm(0, 2, 1)));
        String merged = g.node("Reshape", List.of(t, g.int64s(-1, 3, 8)));
        String back = g.node("Transpose", List.of(merged), OnnxGraph.attr("perm", perm(0, 2, 1)));
        assertEquals(List.of("Transpose", "Reshape", "Transpose"), simplify(g, back));
        assertRunsAs(g, x -> x.permute(0, 2, 1).reshape(x.size(0), 3, 8).permute(0, 2, 1), 4, 6);
    }

    @Test
    void reshapesInARowAreOneAndAReshapeOrExpandToTheSameShapeGoes() throws OrtException {
        OnnxGraph g = graph(6);
        String r1 = g.node("Reshape", List.of("x", g.int64s(-1, 2, 3)));
        String r2 = g.node("Reshape", List.of(r1, g.int64s(-1, 3, 2)));
        String r3 = g.node("Reshape", List.of(r2, g.int64s(-1, 6)));
        String batch = g.node("Shape", List.of("x"), OnnxGraph.attr("start", 0L), OnnxGraph.attr("end", 1L));
        String shape = g.node("Concat", List.of(batch, g.int64s(6)), OnnxGraph.attr("axis", 0L));
        String expanded = g.node("Expand", List.of(r3, shape));
        assertEquals(List.of("Relu"), simplify(g, g.node("Relu", List.of(expanded))));
        assertRunsAs(g, Tensor::relu, 6);
    }

    @Test
    void aReshapeWhoseZeroCopiesTheSizeItReadsIsNotMerged() throws OrtException {
        // [b, 6] -> [2b, 3] -> [0, 3, 1]: the 0 copies 2b, so reading x directly would ask for [b, 3, 1]
        OnnxGraph g = graph(6);
        String r1 = g.node("Reshape", List.of("x", g.int64s(-1, 3)));
        String r2 = g.node("Reshape", List.of(r1, g.int64s(0, 3, 1)));
        assertEquals(List.of("Reshape", "Reshape"), simplify(g, r2));
        assertRunsAs(g, x -> x.reshape(-1, 3, 1), 6);
    }

    @Test
    void anExpandThatBroadcastsStays() throws OrtException {
        OnnxGraph g = graph(1, 4);
        String batch = g.node("Shape", List.of("x"), OnnxGraph.attr("start", 0L), OnnxGraph.attr("end", 1L));
        String shape = g.node("Concat", List.of(batch, g.int64s(3, 4)), OnnxGraph.attr("axis", 0L));
        assertEquals(List.of("Shape", "Concat", "Expand"), simplify(g, g.node("Expand", List.of("x", shape))));
        assertRunsAs(g, x -> x.expand(x.size(0), 3, 4).contiguous(), 1, 4);
    }

    @Test
    void aLinearLayerOnThreeDimensionsIsAMatMulAndAnAdd() throws OrtException {
        Torch.manualSeed(7);
        Tensor w = Torch.randn(3, 4), bias = Torch.randn(3);
        OnnxGraph g = graph(5, 4);
        g.initializer("w", w);
        g.initializer("b", bias);
        String flat = g.node("Reshape", List.of("x", g.int64s(-1, 4)));
        String gemm = g.node("Gemm", List.of(flat, "w", "b"), OnnxGraph.attr("transB", 1L));
        String y = g.node("Reshape", List.of(gemm, g.int64s(-1, 5, 3)));
        assertEquals(List.of("MatMul", "Add"), simplify(g, y));
        assertRunsAs(g, x -> x.matmul(w.t()).add(bias), 5, 4);
    }

    @Test
    void aLinearLayerOnMergedHeadsKeepsOneReshape() throws OrtException {
        Torch.manualSeed(8);
        Tensor w = Torch.randn(4, 3);
        OnnxGraph g = graph(5, 2, 2);
        g.initializer("w", w);
        String flat = g.node("Reshape", List.of("x", g.int64s(-1, 4)));
        String mm = g.node("MatMul", List.of(flat, "w"));
        String y = g.node("Reshape", List.of(mm, g.int64s(-1, 5, 3)));
        assertEquals(List.of("Reshape", "MatMul"), simplify(g, y));
        assertRunsAs(g, x -> x.reshape(x.size(0), 5, 4).matmul(w), 5, 2, 2);
    }

    @Test
    void aGemmThatScalesOrAddsAFullMatrixKeepsItsReshapes() throws OrtException {
        Torch.manualSeed(9);
        Tensor w = Torch.randn(4, 3);
        OnnxGraph g = graph(5, 4);
        g.initializer("w", w);
        String flat = g.node("Reshape", List.of("x", g.int64s(-1, 4)));
        String gemm = g.node("Gemm", List.of(flat, "w"), OnnxGraph.attr("alpha", 2f));
        String y = g.node("Reshape", List.of(gemm, g.int64s(-1, 5, 3)));
        assertEquals(List.of("Reshape", "Gemm", "Reshape"), simplify(g, y));
        assertRunsAs(g, x -> x.matmul(w).mul(2), 5, 4);
    }

    @Test
    void aBatchedMatMulBetweenFlatteningsIsTheMatMulOfTheOperands() throws OrtException {
        Torch.manualSeed(10);
        Tensor k = Torch.randn(2, 4, 5);
        OnnxGraph g = graph(2, 3, 4);
        g.initializer("k", k);
        String batch = g.node("Shape", List.of("x"), OnnxGraph.attr("start", 0L), OnnxGraph.attr("end", 1L));
        String kShape = g.node("Concat", List.of(batch, g.int64s(2, 4, 5)), OnnxGraph.attr("axis", 0L));
        String kb = g.node("Expand", List.of("k", kShape)); // k broadcast over the batch, as bmm's operands are
        String a = g.node("Reshape", List.of("x", g.int64s(-1, 3, 4)));
        String b = g.node("Reshape", List.of(kb, g.int64s(-1, 4, 5)));
        String mm = g.node("MatMul", List.of(a, b));
        String y = g.node("Reshape", List.of(mm, g.int64s(-1, 2, 3, 5)));
        assertEquals(List.of("Shape", "Concat", "Expand", "MatMul"), simplify(g, y));
        assertRunsAs(g, x -> x.matmul(k), 2, 3, 4);
    }

    @Test
    void anEmbeddingOfAFlattenedIndexGathersTheIndexItself() throws OrtException {
        Torch.manualSeed(11);
        Tensor table = Torch.randn(7, 4);
        OnnxGraph g = graphWithInput("x", TensorProto.DataType.INT64, 3);
        g.initializer("table", table);
        String flat = g.node("Reshape", List.of("x", g.int64s(-1)));
        String rows = g.node("Gather", List.of("table", flat), OnnxGraph.attr("axis", 0L));
        String y = g.node("Reshape", List.of(rows, g.int64s(-1, 3, 4)));
        assertEquals(List.of("Gather"), simplify(g, y));
        Path path = dir.resolve("embedding.onnx");
        ModelFile.write(ProgramLowering.model(g.proto(), 20), g.weights(), path, OnnxOptions.ExternalData.NEVER);
        Tensor index = Torch.tensor(new long[][] {{0, 6, 2}, {3, 3, 1}});
        Tensor expected = table.indexSelect(0, index.reshape(-1)).reshape(2, 3, 4);
        assertTrue(OnnxRuntimeCheck.maxRelativeError(path, new Tensor[] {index}, new Tensor[] {expected}) <= 1e-7);
    }

    @Test
    void aPerChannelChainIsOneBatchNormalization() throws OrtException {
        Torch.manualSeed(12);
        Tensor mean = Torch.randn(3, 1, 1), invstd = Torch.rand(3, 1, 1).add(0.5);
        Tensor weight = Torch.randn(3, 1, 1), bias = Torch.randn(3, 1, 1);
        OnnxGraph g = graph(3, 2, 2);
        g.initializer("mean", mean);
        g.initializer("invstd", invstd);
        g.initializer("weight", weight);
        g.initializer("bias", bias);
        String centered = g.node("Sub", List.of("x", "mean"));
        String normalized = g.node("Mul", List.of(centered, "invstd"));
        String scaled = g.node("Mul", List.of(normalized, "weight"));
        String y = g.node("Add", List.of(scaled, "bias"));
        assertEquals(List.of("BatchNormalization"), simplify(g, y));
        assertRunsAs(g, x -> x.sub(mean).mul(invstd).mul(weight).add(bias), 3, 2, 2);
    }

    @Test
    void aConstantThatBroadcastsAlongAnotherDimensionIsNoBatchNorm() throws OrtException {
        Tensor rowwise = Torch.arange(2, DType.FLOAT32).reshape(2, 1).add(1);
        OnnxGraph g = graph(3, 2, 2);
        g.initializer("r", rowwise);
        String y = g.node("Add", List.of(g.node("Mul", List.of("x", "r")), "r"));
        assertEquals(List.of("Mul", "Add"), simplify(g, y));
        assertRunsAs(g, x -> x.mul(rowwise).add(rowwise), 3, 2, 2);
    }

    @Test
    void aSliceOfAConstantIsFoldedWithOnnxsBounds() throws OrtException {
        // rows 1 and 3 (start 1, an end past the size, step 2), columns -4 to -1 of a 4x5 arange: 6 7 8 / 16 17 18
        OnnxGraph g = graph(2, 3);
        g.initializer("c", Torch.arange(20, DType.FLOAT32).reshape(4, 5));
        String slice =
                g.node("Slice", List.of("c", g.int64s(1, -4), g.int64s(100, -1), g.int64s(0, 1), g.int64s(2, 1)));
        assertEquals(List.of("Add"), simplify(g, g.node("Add", List.of("x", slice))));
        Tensor expected = Torch.tensor(new float[][] {{6, 7, 8}, {16, 17, 18}});
        assertRunsAs(g, x -> x.add(expected), 2, 3);
    }

    /** {@code _safe_softmax(x + mask)} as the program lowers it: a guard before the softmax and one after. */
    private static String safeSoftmax(OnnxGraph g, String scores, boolean perRow) {
        String masked = g.node("Equal", List.of(scores, g.scalar(DType.FLOAT32, Double.NEGATIVE_INFINITY)));
        String condition = masked;
        if (perRow) {
            String counts = g.node("Cast", List.of(masked), OnnxGraph.attr("to", 6L));
            String all = g.node("ReduceMin", List.of(counts, g.int64s(2)), OnnxGraph.attr("keepdims", 1L));
            condition = g.node("Cast", List.of(all), OnnxGraph.attr("to", 9L));
        }
        String guarded = g.node("Where", List.of(condition, g.scalar(DType.FLOAT32, 0), scores));
        String softmax = g.node("Softmax", List.of(guarded), OnnxGraph.attr("axis", 2L));
        return g.node("Where", List.of(condition, g.scalar(DType.FLOAT32, 0), softmax));
    }

    private static final float NEG_INF = Float.NEGATIVE_INFINITY;

    @Test
    void theSafeSoftmaxKeepsOnlyTheGuardAfterTheSoftmax() throws OrtException {
        // the second row is masked whole: its weights are zeros, the other rows a softmax over their unmasked scores
        Tensor mask = Torch.tensor(new float[][] {{0, NEG_INF, 0}, {NEG_INF, NEG_INF, NEG_INF}});
        OnnxGraph g = graph(2, 3);
        g.initializer("mask", mask);
        String y = safeSoftmax(g, g.node("Add", List.of("x", "mask")), true);
        assertEquals(List.of("Add", "Equal", "Cast", "ReduceMin", "Cast", "Softmax", "Where"), simplify(g, y));
        Tensor rowMasked = mask.eq(Double.NEGATIVE_INFINITY).all(new long[] {-1}, true);
        assertRunsAs(g, x -> x.add(mask).softmax(-1).maskedFill(rowMasked.expand(x.size(0), 2, 3), 0.0), 2, 3);
    }

    @Test
    void aGuardThatVariesAlongTheSoftmaxAxisStays() throws OrtException {
        Tensor mask = Torch.tensor(new float[][] {{0, NEG_INF, 0}, {NEG_INF, 0, 0}});
        OnnxGraph g = graph(2, 3);
        g.initializer("mask", mask);
        String y = safeSoftmax(g, g.node("Add", List.of("x", "mask")), false);
        assertEquals(List.of("Add", "Equal", "Where", "Softmax", "Where"), simplify(g, y));
        assertRunsAs(
                g,
                x -> {
                    Tensor s = x.add(mask);
                    Tensor eq = s.eq(Double.NEGATIVE_INFINITY);
                    return s.maskedFill(eq, 0.0).softmax(-1).maskedFill(eq, 0.0);
                },
                2,
                3);
    }

    private static String slice(OnnxGraph g, String x, long start, long end) {
        return g.node("Slice", List.of(x, g.int64s(start), g.int64s(end), g.int64s(2), g.int64s(1)));
    }

    @Test
    void slicesThatCoverTheirInputEndToEndAreOneSplit() throws OrtException {
        OnnxGraph g = graph(2, 9);
        String q = slice(g, "x", 0, 3), k = slice(g, "x", 3, 5), v = slice(g, "x", 5, 100);
        String y = g.node("Concat", List.of(k, q, v), OnnxGraph.attr("axis", 2L));
        assertEquals(List.of("Split", "Concat"), simplify(g, y));
        assertRunsAs(g, x -> Torch.cat(List.of(x.slice(2, 3, 5), x.slice(2, 0, 3), x.slice(2, 5, 9)), 2), 2, 9);
    }

    @Test
    void slicesThatOverlapOrLeaveAGapStaySlices() throws OrtException {
        OnnxGraph g = graph(2, 9);
        String a = slice(g, "x", 0, 4), b = slice(g, "x", 3, 9), c = slice(g, "x", 0, 2), d = slice(g, "x", 5, 9);
        String y = g.node("Concat", List.of(a, b, c, d), OnnxGraph.attr("axis", 2L));
        assertEquals(List.of("Slice", "Slice", "Slice", "Slice", "Concat"), simplify(g, y));
        assertRunsAs(
                g,
                x -> Torch.cat(List.of(x.slice(2, 0, 4), x.slice(2, 3, 9), x.slice(2, 0, 2), x.slice(2, 5, 9)), 2),
                2,
                9);
    }
}
