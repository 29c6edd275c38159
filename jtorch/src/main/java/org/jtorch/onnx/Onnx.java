package org.jtorch.onnx;

import java.nio.file.Path;
import java.util.Objects;
import java.util.SortedSet;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.export.Export;
import org.jtorch.export.ExportedProgram;
import org.jtorch.nn.Module;

/**
 * {@code torch.onnx.export}: a module or an {@linkplain ExportedProgram exported program} written as an ONNX model.
 *
 * <p>As PyTorch 2.13's exporter ({@code dynamo=True}) does, the module is first captured with {@link Export#export};
 * each core-ATen node of the program then becomes ONNX nodes of the default domain at opset 20 (by default):
 * {@code addmm} a {@code Gemm}, {@code native_layer_norm} a {@code LayerNormalization}, {@code convolution} a
 * {@code Conv}, {@code view} a {@code Reshape}... The weights become initializers named by their state-dict names. An
 * op without a translation is refused naming the op and the node.
 *
 * <p>Dynamic axes ({@link OnnxOptions#withDynamicAxis}) let the model take any size along those dimensions (a batch of
 * 1, 7 or 64): the module is exported at a few sizes, and every size in the graph that follows them is computed in the
 * model from the input's shape. A graph that changes with the size in a way ONNX cannot express is refused.
 */
public final class Onnx {
    private Onnx() {}

    /** {@code torch.onnx.export(module, args, f)}: opset 20, static shapes. */
    public static void export(Module module, Tensor[] exampleInputs, Path out) {
        export(module, exampleInputs, out, OnnxOptions.defaults());
    }

    /** {@code torch.onnx.export(module, args, f, ...)} with the options given. */
    public static void export(Module module, Tensor[] exampleInputs, Path out, OnnxOptions options) {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(out, "out");
        checkExamples(exampleInputs);
        if (options.dynamicAxes().isEmpty()) {
            write(Export.export(module, exampleInputs), SymbolicShapes.none(), out, options);
        } else {
            DimensionFitter.Fitted fitted = DimensionFitter.fit(module, exampleInputs, options.dynamicAxes());
            write(fitted.program(), fitted.shapes(), out, options);
        }
    }

    /**
     * An exported program as an ONNX model. Its sizes are the program's: static ones as they are, and the symbolic
     * dimensions of a program exported with dynamic dimensions as the model's dynamic axes. The examples are not run;
     * they must match the program's user inputs in number.
     */
    public static void export(ExportedProgram program, Tensor[] exampleInputs, Path out, OnnxOptions options) {
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(out, "out");
        checkExamples(exampleInputs);
        int users = program.graphSignature().userInputs().size();
        if (exampleInputs.length != users) {
            throw new IllegalArgumentException(
                    "onnx export: the program takes " + users + " inputs, got " + exampleInputs.length + " examples");
        }
        boolean symbolic = !program.graphModule().graph().symbols().isEmpty();
        if (!options.dynamicAxes().isEmpty() && !symbolic) {
            throw new TorchException("onnx export: the program is specialized to its example's sizes, so it has no"
                    + " dynamic axes to give; export the Module with OnnxOptions.withDynamicAxis instead");
        }
        write(program, symbolic ? SymbolicShapes.ofProgram(program) : SymbolicShapes.none(), out, options);
    }

    /** The ATen op overloads the exporter translates, by graph target ({@code aten.addmm.default}), sorted. */
    public static SortedSet<String> supportedOps() {
        return ProgramLowering.supportedOps();
    }

    private static void checkExamples(Tensor[] exampleInputs) {
        if (exampleInputs == null || exampleInputs.length == 0) {
            throw new IllegalArgumentException("onnx export: give at least one example input");
        }
        for (int i = 0; i < exampleInputs.length; i++) {
            if (exampleInputs[i] == null)
                throw new IllegalArgumentException("onnx export: example input " + i + " is null");
        }
    }

    private static void write(ExportedProgram program, SymbolicShapes shapes, Path out, OnnxOptions options) {
        OnnxGraph graph = ProgramLowering.lower(program, shapes, options);
        ModelFile.write(
                ProgramLowering.model(graph.proto(), options.opset()), graph.weights(), out, options.externalData());
    }
}
