package org.jtorch.export;

import java.util.List;

/**
 * {@code torch.export.ExportGraphSignature}: what each placeholder and each output of an exported graph is. The
 * placeholders come in PyTorch's order: parameters, buffers, lifted constant tensors, then the user's inputs; the
 * outputs: mutated buffers (and user inputs) first, then the user's outputs.
 *
 * @param inputSpecs one per placeholder, in order
 * @param outputSpecs one per output, in order
 */
public record ExportGraphSignature(List<InputSpec> inputSpecs, List<OutputSpec> outputSpecs) {
    /** Copies the lists, so the record stays immutable. */
    public ExportGraphSignature {
        inputSpecs = List.copyOf(inputSpecs);
        outputSpecs = List.copyOf(outputSpecs);
    }

    /** {@code torch.export.graph_signature.InputKind}. */
    public enum InputKind {
        /** An argument of the call. */
        USER_INPUT,
        /** A parameter of the module, by its state-dict name. */
        PARAMETER,
        /** A buffer of the module, by its state-dict name. */
        BUFFER,
        /** A tensor the forward made from Java data, kept in {@link ExportedProgram#constants()}. */
        CONSTANT_TENSOR
    }

    /** {@code torch.export.graph_signature.OutputKind}. */
    public enum OutputKind {
        /** A value the call returns. */
        USER_OUTPUT,
        /** The new value of a buffer the forward wrote (a BatchNorm's running statistics). */
        BUFFER_MUTATION,
        /** The new value of a parameter the forward wrote. */
        PARAMETER_MUTATION,
        /** The new value of an argument the forward wrote. */
        USER_INPUT_MUTATION
    }

    /**
     * {@code InputSpec}: a placeholder's kind, its name in the graph, and for a parameter, buffer or constant the name
     * it has in the state dict or the constants ({@code target}, else null); {@code persistent} for a buffer in the
     * state dict.
     */
    public record InputSpec(InputKind kind, String name, String target, boolean persistent) {}

    /**
     * {@code OutputSpec}: an output's kind, the name of the graph value it returns, and for a mutation the state-dict
     * name or placeholder name of what it writes ({@code target}, else null).
     */
    public record OutputSpec(OutputKind kind, String name, String target) {}

    /** The user's inputs' placeholder names, in order. */
    public List<String> userInputs() {
        return inputSpecs.stream()
                .filter(s -> s.kind() == InputKind.USER_INPUT)
                .map(InputSpec::name)
                .toList();
    }

    /** The state-dict names of the buffers the graph writes, in output order. */
    public List<String> buffersToMutate() {
        return outputSpecs.stream()
                .filter(s -> s.kind() == OutputKind.BUFFER_MUTATION)
                .map(OutputSpec::target)
                .toList();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("# inputs\n");
        for (InputSpec s : inputSpecs) {
            sb.append(s.name()).append(": ").append(s.kind());
            if (s.target() != null) sb.append(" target='").append(s.target()).append('\'');
            if (s.kind() == InputKind.BUFFER) sb.append(" persistent=").append(s.persistent() ? "True" : "False");
            sb.append('\n');
        }
        sb.append("\n# outputs\n");
        for (OutputSpec s : outputSpecs) {
            sb.append(s.name()).append(": ").append(s.kind());
            if (s.target() != null) sb.append(" target='").append(s.target()).append('\'');
            sb.append('\n');
        }
        return sb.toString();
    }
}
