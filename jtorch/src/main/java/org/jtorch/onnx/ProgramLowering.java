package org.jtorch.onnx;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportGraphSignature.OutputSpec;
import org.jtorch.export.ExportedProgram;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.onnx.proto.OnnxProto.GraphProto;
import org.jtorch.onnx.proto.OnnxProto.ModelProto;
import org.jtorch.onnx.proto.OnnxProto.OperatorSetIdProto;
import org.jtorch.onnx.proto.OnnxProto.TensorShapeProto;
import org.jtorch.onnx.proto.OnnxProto.TypeProto;
import org.jtorch.onnx.proto.OnnxProto.ValueInfoProto;

/**
 * An exported program as an ONNX model: parameters, buffers and lifted constants become initializers named by their
 * state-dict names, the user inputs become the graph's inputs, each core-ATen node becomes the ONNX nodes of its
 * {@link OpLowering}, and the user outputs become the graph's outputs. Buffer mutations are not outputs of an inference
 * model and are left out. The lowered graph is then optimized as PyTorch's exporter optimizes its own:
 * {@link ConstantFolding}, {@link ConvBatchNormFolding}, {@link GraphCleanup}, and the shape-aware passes of
 * {@link GraphSimplification}.
 */
final class ProgramLowering {
    /** ONNX IR version 10 (ONNX 1.16+), which opsets 18-21 belong to. */
    static final long IR_VERSION = 10;

    private static final Map<String, OpLowering> TABLE = table();

    private ProgramLowering() {}

    private static Map<String, OpLowering> table() {
        Map<String, OpLowering> t = new HashMap<>();
        ElementwiseOps.register(t);
        ShapeOps.register(t);
        NnOps.register(t);
        ReductionOps.register(t);
        CreationOps.register(t);
        return Map.copyOf(t);
    }

    /** The ops this exporter writes, by their graph target ({@code aten.addmm.default}). */
    static SortedSet<String> supportedOps() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(TABLE.keySet()));
    }

    /**
     * The program as a model whose weights' data is still to be filled in ({@link OnnxGraph#weights()}).
     *
     * @param shapes the integers of the program that follow dynamic dimensions, and the symbolic output sizes
     */
    static OnnxGraph lower(ExportedProgram program, SymbolicShapes shapes, OnnxOptions options) {
        OnnxGraph g = new OnnxGraph("main_graph");
        List<Node> nodes = program.graphModule().graph().nodes();
        List<Node> placeholders =
                nodes.stream().filter(n -> n.op().equals("placeholder")).toList();
        List<InputSpec> specs = program.graphSignature().inputSpecs();
        if (placeholders.size() != specs.size()) {
            throw new TorchException(
                    "onnx export: " + placeholders.size() + " placeholders but " + specs.size() + " input specs");
        }
        Map<Integer, String> inputNames = new HashMap<>();
        int user = 0;
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != InputKind.USER_INPUT) continue;
            String name = user < options.inputNames().size()
                    ? options.inputNames().get(user)
                    : placeholders.get(i).name();
            inputNames.put(i, g.reserve(name));
            user++;
        }
        // the outputs' names are taken before any node is named, so no intermediate value can take one
        List<String> outputNames = reserveOutputNames(program, nodes.getLast(), g, options);
        List<Lowering.SymbolSource> symbols = shapes.symbols().stream()
                .map(s -> new Lowering.SymbolSource(inputNames.get(s.placeholder()), s.dim()))
                .toList();
        Lowering cx = new Lowering(g, options.opset(), shapes.args(), symbols);
        user = 0;
        for (int i = 0; i < specs.size(); i++) {
            Node p = placeholders.get(i);
            InputSpec spec = specs.get(i);
            switch (spec.kind()) {
                case USER_INPUT -> {
                    String name = inputNames.get(i);
                    g.proto().addInput(valueInfo(name, p, shapes.inputShape(i, Lowering.shape(p)), shapes));
                    cx.define(p, name);
                    user++;
                }
                case PARAMETER, BUFFER, CONSTANT_TENSOR -> {
                    if (p.users().isEmpty()) continue; // PyTorch's exporter drops unread state too
                    Tensor t = spec.kind() == InputKind.CONSTANT_TENSOR
                            ? program.constants().get(spec.target())
                            : program.stateDict().get(spec.target());
                    if (t == null) throw new TorchException("onnx export: no tensor for " + spec.target());
                    g.initializer(g.reserve(spec.target()), t);
                    cx.define(p, spec.target());
                }
            }
        }
        for (Node n : nodes) {
            switch (n.op()) {
                case "placeholder", "output" -> {}
                case "call_function" -> lowerCall(n, cx);
                default -> throw Lowering.unsupported(n, "graph node kind " + n.op());
            }
        }
        writeOutputs(program, nodes.getLast(), outputNames, cx, shapes);
        // the cleanup first turns a linear layer's weight transpose into a Gemm flag, which keeps the weight as it is
        // in the state dict rather than folded into a transposed copy; constants then fold, so that a batch norm's
        // statistics are single initializers when it folds into its conv, and a second cleanup drops what they read
        GraphCleanup.run(g.proto(), g.weights());
        ConstantFolding.run(g);
        ConvBatchNormFolding.run(g);
        GraphCleanup.run(g.proto(), g.weights());
        GraphSimplification.run(g);
        return g;
    }

    private static void lowerCall(Node n, Lowering cx) {
        if (n.target().equals(Node.GETITEM)) {
            Node tuple = (Node) n.args().get(0);
            int index = ((Number) n.args().get(1)).intValue();
            String v = cx.tuple(tuple).get(index);
            if (v == null) throw Lowering.unsupported(tuple, "its output " + index + " is read, which is not exported");
            cx.define(n, v);
            return;
        }
        OpLowering lowering = TABLE.get(n.target());
        if (lowering == null) {
            throw new TorchException("onnx export: no ONNX translation for " + n.target() + " (node " + n.name()
                    + "); Onnx.supportedOps() lists the " + TABLE.size() + " ops the exporter covers");
        }
        lowering.lower(n, cx);
    }

    private static List<String> reserveOutputNames(
            ExportedProgram program, Node output, OnnxGraph g, OnnxOptions options) {
        List<OutputSpec> specs = program.graphSignature().outputSpecs();
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != OutputKind.USER_OUTPUT) continue;
            if (!(output.args().get(i) instanceof Node r)) {
                throw new TorchException("onnx export: output " + i + " is not a tensor");
            }
            int user = names.size();
            // a chosen name is the user's contract; a default one (the fx node's) yields to an input of that name
            names.add(
                    user < options.outputNames().size()
                            ? g.reserve(options.outputNames().get(user))
                            : g.fresh(r.name()));
        }
        return names;
    }

    private static void writeOutputs(
            ExportedProgram program, Node output, List<String> names, Lowering cx, SymbolicShapes shapes) {
        List<OutputSpec> specs = program.graphSignature().outputSpecs();
        int user = 0;
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != OutputKind.USER_OUTPUT) continue;
            Node r = (Node) output.args().get(i);
            String graphName = names.get(user);
            cx.graph()
                    .proto()
                    .addNode(org.jtorch.onnx.proto.OnnxProto.NodeProto.newBuilder()
                            .setOpType("Identity")
                            .setName(cx.graph().fresh("node_output_" + user))
                            .addInput(cx.value(r))
                            .addOutput(graphName));
            cx.graph().proto().addOutput(valueInfo(graphName, r, shapes.outputShape(user, Lowering.shape(r)), shapes));
            user++;
        }
    }

    /** An input's or output's type: element type and sizes, a dynamic size as its symbol's name. */
    private static ValueInfoProto valueInfo(String name, Node n, List<Object> sizes, SymbolicShapes shapes) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (Object d : sizes) {
            TensorShapeProto.Dimension.Builder dim = TensorShapeProto.Dimension.newBuilder();
            if (d instanceof SymInt s && !s.isConstant()) {
                String symbol = shapes.nameOf(s);
                if (symbol != null) dim.setDimParam(symbol);
            } else {
                dim.setDimValue(d instanceof SymInt s ? s.constantValue() : ((Number) d).longValue());
            }
            shape.addDim(dim);
        }
        TypeProto.Tensor.Builder tensor = TypeProto.Tensor.newBuilder()
                .setElemType(TensorProtos.dataType(Lowering.dtype(n)).getNumber())
                .setShape(shape);
        return ValueInfoProto.newBuilder()
                .setName(name)
                .setType(TypeProto.newBuilder().setTensorType(tensor))
                .build();
    }

    /** The model around a lowered graph. */
    static ModelProto.Builder model(GraphProto.Builder graph, int opset) {
        return ModelProto.newBuilder()
                .setIrVersion(IR_VERSION)
                .setProducerName("jtorch")
                .setProducerVersion(
                        Onnx.class.getPackage().getImplementationVersion() == null
                                ? "0.1.0"
                                : Onnx.class.getPackage().getImplementationVersion())
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset))
                .setGraph(graph);
    }
}
