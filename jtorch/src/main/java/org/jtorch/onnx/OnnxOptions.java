package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The options of {@link Onnx#export}: the opset (default 20, as PyTorch 2.13's {@code torch.onnx.export(...,
 * dynamo=True)}; 18 at least), the dynamic axes of the inputs ({@code dynamic_axes} / {@code dynamic_shapes}), the
 * names of the graph's inputs and outputs, and when weights go to an external data file. Immutable: each
 * {@code with...} method returns a new instance.
 */
public final class OnnxOptions {
    /** The opset written when none is chosen: PyTorch 2.13's default. */
    public static final int DEFAULT_OPSET = 20;

    /** The lowest opset written: reductions take their axes as inputs from 18 on (below 20, GELU is composed). */
    public static final int MIN_OPSET = 18;

    /** The highest opset written: what this exporter's op choices have been checked against. */
    public static final int MAX_OPSET = 21;

    /** Protobuf's limit on one message: larger models must keep their weights outside the .onnx file. */
    public static final long PROTOBUF_LIMIT = 2L * 1024 * 1024 * 1024;

    /**
     * A dynamic dimension: dimension {@code dim} of user input {@code input} may have any size of at least 2 (sizes 0
     * and 1 are specialized, as PyTorch's exporter specializes them), named {@code name} in the model.
     *
     * @param input the index of the user input
     * @param dim the dimension
     * @param name the symbolic name written as the dimension's {@code dim_param} (e.g. "batch")
     */
    public record DynamicAxis(int input, int dim, String name) {
        /** Checks the indices and the name. */
        public DynamicAxis {
            if (input < 0 || dim < 0) throw new IllegalArgumentException("DynamicAxis: negative input or dimension");
            Objects.requireNonNull(name, "name");
        }
    }

    /** When the weights are written to a data file beside the model instead of inside it. */
    public enum ExternalData {
        /** Only when the model would exceed protobuf's 2 GB limit (PyTorch's behaviour). */
        WHEN_NEEDED,
        /** Always: {@code <model>.onnx.data} holds every weight. */
        ALWAYS,
        /** Never: a model over 2 GB is refused. */
        NEVER
    }

    private final int opset;
    private final List<DynamicAxis> dynamicAxes;
    private final List<String> inputNames;
    private final List<String> outputNames;
    private final ExternalData externalData;

    private OnnxOptions(
            int opset,
            List<DynamicAxis> dynamicAxes,
            List<String> inputNames,
            List<String> outputNames,
            ExternalData externalData) {
        this.opset = opset;
        this.dynamicAxes = List.copyOf(dynamicAxes);
        this.inputNames = List.copyOf(inputNames);
        this.outputNames = List.copyOf(outputNames);
        this.externalData = externalData;
    }

    /** Opset 20, static shapes, the graph's own names, external data only over 2 GB. */
    public static OnnxOptions defaults() {
        return new OnnxOptions(DEFAULT_OPSET, List.of(), List.of(), List.of(), ExternalData.WHEN_NEEDED);
    }

    /** The opset version of the default ("ai.onnx") domain: {@value #MIN_OPSET} to {@value #MAX_OPSET}. */
    public OnnxOptions withOpset(int opset) {
        if (opset < MIN_OPSET || opset > MAX_OPSET) {
            throw new IllegalArgumentException(
                    "onnx export: opset " + opset + " is outside [" + MIN_OPSET + ", " + MAX_OPSET + "]");
        }
        return new OnnxOptions(opset, dynamicAxes, inputNames, outputNames, externalData);
    }

    /** Adds a dynamic dimension: {@code dim} of user input {@code input}, named {@code name}. */
    public OnnxOptions withDynamicAxis(int input, int dim, String name) {
        List<DynamicAxis> axes = new ArrayList<>(dynamicAxes);
        axes.add(new DynamicAxis(input, dim, name));
        return new OnnxOptions(opset, axes, inputNames, outputNames, externalData);
    }

    /** The names of the graph's inputs ({@code input_names}), in order; by default the program's placeholder names. */
    public OnnxOptions withInputNames(String... names) {
        return new OnnxOptions(opset, dynamicAxes, List.of(names), outputNames, externalData);
    }

    /** The names of the graph's outputs ({@code output_names}); by default the program's output node names. */
    public OnnxOptions withOutputNames(String... names) {
        return new OnnxOptions(opset, dynamicAxes, inputNames, List.of(names), externalData);
    }

    /** Where the weights go (see {@link ExternalData}). */
    public OnnxOptions withExternalData(ExternalData mode) {
        return new OnnxOptions(opset, dynamicAxes, inputNames, outputNames, Objects.requireNonNull(mode));
    }

    /** The opset version. */
    public int opset() {
        return opset;
    }

    /** The dynamic dimensions, in the order added. */
    public List<DynamicAxis> dynamicAxes() {
        return dynamicAxes;
    }

    /** The input names chosen (empty: the program's). */
    public List<String> inputNames() {
        return inputNames;
    }

    /** The output names chosen (empty: the program's). */
    public List<String> outputNames() {
        return outputNames;
    }

    /** When weights go to external data. */
    public ExternalData externalData() {
        return externalData;
    }
}
