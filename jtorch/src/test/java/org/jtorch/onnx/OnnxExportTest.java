package org.jtorch.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OrtException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.export.Export;
import org.jtorch.export.ExportedProgram;
import org.jtorch.export.MultiInputModels;
import org.jtorch.nn.AdaptiveAvgPool2d;
import org.jtorch.nn.BatchNorm2d;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.Dropout;
import org.jtorch.nn.Flatten;
import org.jtorch.nn.GELU;
import org.jtorch.nn.Linear;
import org.jtorch.nn.MaxPool2d;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.TransformerEncoderLayer;
import org.jtorch.onnx.proto.OnnxProto.ModelProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ONNX export checked in ONNX Runtime for Java: an MLP, a CNN (conv, batch norm, pooling) and a transformer encoder
 * layer run there with JTorch's outputs, at batch sizes 1, 7 and 64 from one model with a dynamic batch axis.
 * TrainGpt's GPT is checked the same way in the examples module.
 */
class OnnxExportTest {
    @TempDir
    Path dir;

    private static final OnnxOptions DYNAMIC_BATCH = OnnxOptions.defaults().withDynamicAxis(0, 0, "batch");

    static Module mlp() {
        Torch.manualSeed(1);
        return new Sequential(new Linear(16, 32), new GELU(), new Linear(32, 8));
    }

    static Module cnn() {
        Torch.manualSeed(2);
        Module m = new Sequential(
                new Conv2d(3, 8, new long[] {3}, ConvOptions.defaults().padding(1)),
                new BatchNorm2d(8),
                new ReLU(),
                new MaxPool2d(2),
                new Conv2d(8, 16, 3),
                new AdaptiveAvgPool2d(1),
                new Flatten(),
                new Linear(16, 10));
        // running statistics away from (0, 1), so the exported normalization is really tested
        try (var _ = Torch.noGrad()) {
            m.getBuffer("1.running_mean").copy_(Torch.randn(8).mul(0.5));
            m.getBuffer("1.running_var").copy_(Torch.rand(8).add(0.5));
        }
        m.eval();
        return m;
    }

    static Module encoder() {
        Torch.manualSeed(3);
        Module m = new TransformerEncoderLayer(32, 4, 64, 0.1, "gelu", 1e-5, true, false, true);
        m.eval();
        return m;
    }

    private static Tensor[] batches(long... rest) {
        Torch.manualSeed(4);
        return java.util.stream.LongStream.of(1, 7, 64)
                .mapToObj(b -> {
                    long[] shape = new long[rest.length + 1];
                    shape[0] = b;
                    System.arraycopy(rest, 0, shape, 1, rest.length);
                    return Torch.randn(shape);
                })
                .toArray(Tensor[]::new);
    }

    private double exportAndRun(Module m, Tensor example, Tensor[] inputs, OnnxOptions options) throws OrtException {
        Path path = dir.resolve("model.onnx");
        Onnx.export(m, new Tensor[] {example}, path, options);
        return OnnxRuntimeCheck.maxRelativeError(path, m, inputs);
    }

    @Test
    void mlpServesBatches1And7And64FromOneModel() throws OrtException {
        Module m = mlp();
        double err = exportAndRun(m, Torch.randn(4, 16), batches(16), DYNAMIC_BATCH);
        assertTrue(err <= OnnxRuntimeCheck.TOLERANCE, "max relative error " + err);
    }

    @Test
    void cnnWithConvBatchNormAndPoolingRunsInOnnxRuntime() throws OrtException {
        Module m = cnn();
        double err = exportAndRun(m, Torch.randn(2, 3, 16, 16), batches(3, 16, 16), DYNAMIC_BATCH);
        assertTrue(err <= OnnxRuntimeCheck.TOLERANCE, "max relative error " + err);
    }

    @Test
    void cnnFoldsItsBatchNormIntoTheConvAsPyTorchsExporterDoes() throws IOException, OrtException {
        Module m = cnn();
        Path path = dir.resolve("cnn.onnx");
        Onnx.export(m, new Tensor[] {Torch.randn(2, 3, 16, 16)}, path, DYNAMIC_BATCH);
        ModelProto model = read(path);
        // PyTorch 2.13's exporter writes these 7 nodes too
        assertEquals(List.of("Conv", "Relu", "MaxPool", "Conv", "ReduceMean", "Reshape", "Gemm"), opTypes(model));
        Set<String> initializers = model.getGraph().getInitializerList().stream()
                .map(t -> t.getName())
                .collect(Collectors.toSet());
        assertFalse(initializers.contains("1.running_mean"), initializers.toString());
        assertFalse(initializers.contains("0.weight"), "the first conv reads its folded weight: " + initializers);
        assertTrue(initializers.contains("4.weight") && initializers.contains("7.weight"), initializers.toString());
        double err = OnnxRuntimeCheck.maxRelativeError(path, m, batches(3, 16, 16));
        assertTrue(err <= OnnxRuntimeCheck.TOLERANCE, "max relative error " + err);
    }

    @Test
    void aBatchNormAfterABiaslessConvOrAfterASharedConvRunsTheSame() throws IOException, OrtException {
        Torch.manualSeed(5);
        ConvOptions noBias = ConvOptions.defaults().padding(1).bias(false);
        Module biasless = new Sequential(new Conv2d(3, 4, new long[] {3}, noBias), new BatchNorm2d(4));
        Module unfoldable = new Sequential(new Conv2d(3, 4, 3), new ReLU(), new BatchNorm2d(4));
        for (Module m : List.of(biasless, unfoldable)) {
            try (var _ = Torch.noGrad()) {
                m.getBuffer(m == biasless ? "1.running_mean" : "2.running_mean").copy_(Torch.randn(4));
                m.getBuffer(m == biasless ? "1.running_var" : "2.running_var")
                        .copy_(Torch.rand(4).add(0.5));
            }
            m.eval();
        }
        Path p1 = dir.resolve("biasless.onnx");
        Onnx.export(biasless, new Tensor[] {Torch.randn(2, 3, 8, 8)}, p1, DYNAMIC_BATCH);
        assertEquals(List.of("Conv"), opTypes(read(p1)));
        assertTrue(OnnxRuntimeCheck.maxRelativeError(p1, biasless, batches(3, 8, 8)) <= OnnxRuntimeCheck.TOLERANCE);
        // a ReLU between conv and batch norm: the statistics still fold to one scale and one shift
        Path p2 = dir.resolve("relu-between.onnx");
        Onnx.export(unfoldable, new Tensor[] {Torch.randn(2, 3, 8, 8)}, p2, DYNAMIC_BATCH);
        assertEquals(List.of("Conv", "Relu", "BatchNormalization"), opTypes(read(p2)));
        assertTrue(OnnxRuntimeCheck.maxRelativeError(p2, unfoldable, batches(3, 8, 8)) <= OnnxRuntimeCheck.TOLERANCE);
    }

    @Test
    void transformerEncoderLayerRunsInOnnxRuntime() throws OrtException {
        Module m = encoder();
        double err = exportAndRun(m, Torch.randn(2, 10, 32), batches(10, 32), DYNAMIC_BATCH);
        assertTrue(err <= OnnxRuntimeCheck.TOLERANCE, "max relative error " + err);
    }

    @Test
    void encoderLayerExportsItsLinearsAsMatMulsAndItsAttentionWithoutFlattening() throws IOException, OrtException {
        Module m = encoder();
        Path path = dir.resolve("encoder.onnx");
        Onnx.export(m, new Tensor[] {Torch.randn(2, 10, 32)}, path, DYNAMIC_BATCH);
        // 26 nodes where PyTorch 2.13's exporter writes 47: the QKV projection split once, each head split one
        // reshape and one transpose (the key's transposed for the scores in the same node), 4-d MatMuls
        assertEquals(
                List.of(
                        "MatMul",
                        "Add",
                        "Split",
                        "Reshape",
                        "Transpose",
                        "Reshape",
                        "Transpose",
                        "MatMul",
                        "Mul",
                        "Softmax",
                        "Reshape",
                        "Transpose",
                        "MatMul",
                        "Transpose",
                        "Reshape",
                        "MatMul",
                        "Add",
                        "Add",
                        "LayerNormalization",
                        "MatMul",
                        "Add",
                        "Gelu",
                        "MatMul",
                        "Add",
                        "Add",
                        "LayerNormalization"),
                opTypes(read(path)));
        assertTrue(OnnxRuntimeCheck.maxRelativeError(path, m, batches(10, 32)) <= OnnxRuntimeCheck.TOLERANCE);
    }

    @Test
    void theCleanupKeepsTheCopiesOnnxNeedsAndRemovesTheOthers() throws IOException, OrtException {
        // eval dropout lowers to Identity: after a Linear it goes (the Gemm writes the output); straight from the graph
        // input it must stay, since an ONNX graph output cannot be the input itself
        Module afterLinear = new Sequential(new Linear(5, 3), new Dropout(0.5));
        afterLinear.eval();
        Path p1 = dir.resolve("linear-dropout.onnx");
        Onnx.export(afterLinear, new Tensor[] {Torch.randn(2, 5)}, p1);
        assertEquals(List.of("Gemm"), opTypes(read(p1)));
        assertTrue(OnnxRuntimeCheck.maxRelativeError(p1, afterLinear, Torch.randn(2, 5)) <= OnnxRuntimeCheck.TOLERANCE);
        Module alone = new Sequential(new Dropout(0.5));
        alone.eval();
        Path p2 = dir.resolve("dropout.onnx");
        Onnx.export(alone, new Tensor[] {Torch.randn(2, 5)}, p2);
        ModelProto model = read(p2);
        assertEquals(List.of("Identity"), opTypes(model));
        assertEquals(
                model.getGraph().getInput(0).getName(),
                model.getGraph().getNode(0).getInput(0));
        assertTrue(OnnxRuntimeCheck.maxRelativeError(p2, alone, Torch.randn(2, 5)) <= OnnxRuntimeCheck.TOLERANCE);
    }

    @Test
    void staticExportIsOpset20WithStateDictInitializersAndFixedSizes() throws IOException, OrtException {
        Module m = mlp();
        Path path = dir.resolve("mlp.onnx");
        Onnx.export(m, new Tensor[] {Torch.randn(4, 16)}, path);
        ModelProto model = read(path);
        assertEquals(20, model.getOpsetImport(0).getVersion());
        assertEquals("", model.getOpsetImport(0).getDomain());
        assertEquals(10, model.getIrVersion());
        assertEquals(
                Set.of("0.weight", "0.bias", "2.weight", "2.bias"),
                model.getGraph().getInitializerList().stream()
                        .filter(t -> t.getName().contains("."))
                        .map(t -> t.getName())
                        .collect(Collectors.toSet()));
        // each linear layer is one Gemm reading its weight transposed, and the last one writes the output itself
        assertEquals(List.of("Gemm", "Gelu", "Gemm"), opTypes(model));
        var dims = model.getGraph()
                .getInput(0)
                .getType()
                .getTensorType()
                .getShape()
                .getDimList();
        assertEquals(4, dims.get(0).getDimValue());
        assertTrue(OnnxRuntimeCheck.maxRelativeError(path, m, Torch.randn(4, 16)) <= OnnxRuntimeCheck.TOLERANCE);
    }

    @Test
    void dynamicAxisIsNamedInTheInputAndOutputTypes() throws IOException {
        Path path = dir.resolve("cnn.onnx");
        Onnx.export(cnn(), new Tensor[] {Torch.randn(2, 3, 16, 16)}, path, DYNAMIC_BATCH);
        ModelProto model = read(path);
        assertEquals(
                "batch",
                model.getGraph()
                        .getInput(0)
                        .getType()
                        .getTensorType()
                        .getShape()
                        .getDim(0)
                        .getDimParam());
        assertEquals(
                "batch",
                model.getGraph()
                        .getOutput(0)
                        .getType()
                        .getTensorType()
                        .getShape()
                        .getDim(0)
                        .getDimParam());
        assertEquals(
                10,
                model.getGraph()
                        .getOutput(0)
                        .getType()
                        .getTensorType()
                        .getShape()
                        .getDim(1)
                        .getDimValue());
    }

    @Test
    void opset18ComposesGeluAndRunsTheSame() throws IOException, OrtException {
        Module m = mlp();
        Path path = dir.resolve("mlp18.onnx");
        Onnx.export(m, new Tensor[] {Torch.randn(4, 16)}, path, DYNAMIC_BATCH.withOpset(18));
        ModelProto model = read(path);
        assertEquals(18, model.getOpsetImport(0).getVersion());
        assertFalse(opTypes(model).contains("Gelu"));
        assertTrue(opTypes(model).contains("Erf"));
        assertTrue(OnnxRuntimeCheck.maxRelativeError(path, m, batches(16)) <= OnnxRuntimeCheck.TOLERANCE);
    }

    @Test
    void externalDataHoldsTheWeightsBesideTheModel() throws IOException, OrtException {
        Module m = encoder();
        Path path = dir.resolve("enc.onnx");
        Onnx.export(
                m,
                new Tensor[] {Torch.randn(2, 10, 32)},
                path,
                DYNAMIC_BATCH.withExternalData(OnnxOptions.ExternalData.ALWAYS));
        Path data = dir.resolve("enc.onnx.data");
        assertTrue(Files.exists(data));
        long weights =
                m.stateDict().values().stream().mapToLong(t -> t.numel() * 4).sum();
        assertEquals(weights, Files.size(data));
        assertTrue(Files.size(path) < weights, "the model file holds no weight data");
        assertTrue(OnnxRuntimeCheck.maxRelativeError(path, m, batches(10, 32)) <= OnnxRuntimeCheck.TOLERANCE);
    }

    @Test
    void weightsPastProtobufsLimitGoToExternalData() {
        long limit = OnnxOptions.PROTOBUF_LIMIT;
        assertFalse(ModelFile.external(1L << 20, OnnxOptions.ExternalData.WHEN_NEEDED));
        assertTrue(ModelFile.external(limit, OnnxOptions.ExternalData.WHEN_NEEDED));
        assertTrue(ModelFile.external(1, OnnxOptions.ExternalData.ALWAYS));
        TorchException e =
                assertThrows(TorchException.class, () -> ModelFile.external(limit, OnnxOptions.ExternalData.NEVER));
        assertTrue(e.getMessage().contains("2 GB"), e.getMessage());
    }

    @Test
    void anExportedProgramExportsAsItIs() throws OrtException {
        Module m = encoder();
        Tensor x = Torch.randn(3, 10, 32);
        ExportedProgram ep = Export.export(m, x);
        Path path = dir.resolve("ep.onnx");
        Onnx.export(ep, new Tensor[] {x}, path, OnnxOptions.defaults());
        assertTrue(OnnxRuntimeCheck.maxRelativeError(path, ep.module(), Torch.randn(3, 10, 32))
                <= OnnxRuntimeCheck.TOLERANCE);
        TorchException e = assertThrows(
                TorchException.class, () -> Onnx.export(ep, new Tensor[] {x}, dir.resolve("d.onnx"), DYNAMIC_BATCH));
        assertTrue(e.getMessage().contains("specialized"), e.getMessage());
    }

    @Test
    void programsOfSeveralInputsAndOutputsRunInOnnxRuntimeAtEveryBatchFromOneModel() throws OrtException {
        for (String name : MultiInputModels.NAMES) {
            MultiInputModels.Model m = MultiInputModels.model(name);
            Tensor[] example = MultiInputModels.inputs(name, 3, 1);
            Path path = dir.resolve(name + ".onnx");
            Onnx.export(m.exportWithDynamicBatch(example), example, path, OnnxOptions.defaults());
            for (long batch : new long[] {1, 7, 64}) {
                Tensor[] x = MultiInputModels.inputs(name, batch, batch);
                double err = OnnxRuntimeCheck.maxRelativeError(path, x, m.eager(x));
                assertTrue(err <= OnnxRuntimeCheck.TOLERANCE, name + " batch " + batch + ": " + err);
            }
        }
    }

    @Test
    void anOpWithoutTranslationIsNamed() {
        Module flips = new Module() {
            @Override
            public Tensor forward(Tensor x) {
                return x.flip(0).mul(2);
            }
        };
        TorchException e = assertThrows(
                TorchException.class, () -> Onnx.export(flips, new Tensor[] {Torch.randn(3)}, dir.resolve("f.onnx")));
        assertTrue(e.getMessage().contains("aten.flip.default"), e.getMessage());
        assertTrue(e.getMessage().contains("Onnx.supportedOps()"), e.getMessage());
        assertFalse(Onnx.supportedOps().contains("aten.flip.default"));
        assertTrue(Onnx.supportedOps().contains("aten.native_layer_norm.default"));
        assertFalse(Files.exists(dir.resolve("f.onnx")), "no partial model is left");
    }

    @Test
    void aGraphThatChangesWithTheBatchSizeIsRefusedForADynamicAxis() {
        Module branches = new Module() {
            @Override
            public Tensor forward(Tensor x) {
                return x.size(0) > 2 ? x.mul(2) : x.exp();
            }
        };
        TorchException e = assertThrows(
                TorchException.class,
                () -> Onnx.export(branches, new Tensor[] {Torch.randn(2, 3)}, dir.resolve("b.onnx"), DYNAMIC_BATCH));
        assertTrue(e.getMessage().contains("changes with a dynamic size"), e.getMessage());
    }

    @Test
    void aDynamicAxisNeedsAnExampleOfSizeTwoOrMore() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Onnx.export(mlp(), new Tensor[] {Torch.randn(1, 16)}, dir.resolve("m.onnx"), DYNAMIC_BATCH));
        assertTrue(e.getMessage().contains("size 2 or more"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class, () -> OnnxOptions.defaults().withOpset(17));
    }

    private static ModelProto read(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return ModelProto.parseFrom(in);
        }
    }

    private static List<String> opTypes(ModelProto model) {
        return model.getGraph().getNodeList().stream().map(NodeProto::getOpType).toList();
    }
}
