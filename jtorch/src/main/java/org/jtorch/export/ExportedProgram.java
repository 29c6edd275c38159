package org.jtorch.export;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputSpec;
import org.jtorch.fx.Decompositions;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;

/**
 * {@code torch.export.ExportedProgram}: a functional graph whose inputs are the module's parameters, buffers and lifted
 * constants followed by the user's inputs ({@link #graphSignature()}), with the tensors it reads ({@link #stateDict()},
 * {@link #constants()}). {@link #module()} runs it with the module's calling convention.
 */
public final class ExportedProgram {
    private final GraphModule graphModule;
    private final ExportGraphSignature signature;
    private final Map<String, Tensor> stateDict;
    private final Map<String, Tensor> constants;
    private final Map<String, ValueRange> rangeConstraints;

    ExportedProgram(
            GraphModule graphModule,
            ExportGraphSignature signature,
            Map<String, Tensor> stateDict,
            Map<String, Tensor> constants,
            Map<String, ValueRange> rangeConstraints) {
        this.graphModule = graphModule;
        this.signature = signature;
        this.stateDict = Collections.unmodifiableMap(new LinkedHashMap<>(stateDict));
        this.constants = Collections.unmodifiableMap(new LinkedHashMap<>(constants));
        this.rangeConstraints = Collections.unmodifiableMap(new LinkedHashMap<>(rangeConstraints));
    }

    /** {@code ep.graph_module}: the program's graph. */
    public GraphModule graphModule() {
        return graphModule;
    }

    /** {@code ep.graph_signature}. */
    public ExportGraphSignature graphSignature() {
        return signature;
    }

    /** {@code ep.state_dict}: the parameters and buffers by state-dict name (the module's own tensors). */
    public Map<String, Tensor> stateDict() {
        return stateDict;
    }

    /** {@code ep.constants}: the lifted constant tensors by placeholder name. */
    public Map<String, Tensor> constants() {
        return constants;
    }

    /**
     * {@code ep.range_constraints}: the range of each symbolic size, by the symbol's name in the graph ({@code s0}),
     * empty when the program is specialized to its example's sizes.
     */
    public Map<String, ValueRange> rangeConstraints() {
        return rangeConstraints;
    }

    /**
     * {@code ep.module()}: a module whose {@code call(x)} runs the program with its parameters and buffers (held as the
     * exported module's, under their dotted names) and writes back the buffers the program mutates;
     * {@link ExportedModule#run} takes several inputs and gives several outputs.
     */
    public ExportedModule module() {
        return new ExportedModule(this);
    }

    /**
     * {@code ep.run_decompositions()}: the program with every op outside the core op set rewritten as the core ops it
     * decomposes into ({@link Decompositions#coreAtenDecompositions()}); signature and state are kept.
     */
    public ExportedProgram runDecompositions() {
        List<InputSpec> specs = new ArrayList<>();
        for (InputSpec s : signature.inputSpecs()) {
            if (s.kind() != InputKind.CONSTANT_TENSOR) specs.add(s);
        }
        // the re-trace reads the lifted constants as constants again: the builder lifts them back, first of their kind;
        // the first trace is at the program's own sizes, whose signature and constants the result keeps
        List<ProgramGraph.Built> first = new ArrayList<>();
        GraphModule decomposed = SymbolicPrograms.retrace(graphModule, (gm, fakes) -> {
            ProgramGraph.Built built = ProgramGraph.build(
                    Decompositions.decompose(gm, Decompositions.coreAtenDecompositions(), fakes.toArray(Tensor[]::new)),
                    specs);
            if (first.isEmpty()) first.add(built);
            return built.graph();
        });
        ProgramGraph.Built built = first.getFirst();
        List<Object> results = decomposed.graph().nodes().getLast().args();
        List<OutputSpec> outputs = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            OutputSpec original = signature.outputSpecs().get(i);
            outputs.add(new OutputSpec(original.kind(), ((Node) results.get(i)).name(), original.target()));
        }
        return new ExportedProgram(
                decomposed,
                new ExportGraphSignature(built.signature().inputSpecs(), outputs),
                stateDict,
                constants,
                rangeConstraints);
    }

    /**
     * Runs the program on the user's inputs, reading parameters and buffers through {@code state} (by state-dict name);
     * writes the mutated buffers back into the tensors {@code state} gives; returns the user's outputs.
     */
    Tensor[] run(Tensor[] userInputs, Function<String, Tensor> state) {
        List<InputSpec> specs = signature.inputSpecs();
        Tensor[] args = new Tensor[specs.size()];
        int next = 0;
        for (int i = 0; i < args.length; i++) {
            InputSpec s = specs.get(i);
            args[i] = switch (s.kind()) {
                case PARAMETER, BUFFER -> state.apply(s.target());
                case CONSTANT_TENSOR -> constants.get(s.target());
                case USER_INPUT -> {
                    if (next >= userInputs.length) throw new TorchException("exported program: too few inputs");
                    yield userInputs[next++];
                }
            };
        }
        if (next != userInputs.length) {
            throw new TorchException("exported program takes " + next + " inputs, got " + userInputs.length);
        }
        InputGuards.check(graphModule.graph(), specs, args, rangeConstraints);
        Tensor[] results;
        try {
            results = graphModule.call(args);
        } catch (TorchException e) {
            throw e;
        } catch (RuntimeException e) {
            // an op refusing its arguments in its own words (an index out of range): said as the program's failure
            throw new TorchException("exported program: " + e, e);
        }
        List<Tensor> user = new ArrayList<>();
        List<OutputSpec> outputs = signature.outputSpecs();
        for (int i = 0; i < outputs.size(); i++) {
            OutputSpec o = outputs.get(i);
            switch (o.kind()) {
                case USER_OUTPUT -> user.add(results[i]);
                case BUFFER_MUTATION, PARAMETER_MUTATION -> {
                    try (var _ = GradMode.set(false)) {
                        state.apply(o.target()).copy_(results[i]);
                    }
                }
                case USER_INPUT_MUTATION -> {
                    int input = signature.userInputs().indexOf(o.target());
                    userInputs[input].copy_(results[i]);
                }
            }
        }
        return user.toArray(Tensor[]::new);
    }

    /** As PyTorch prints an exported program: the graph, then its signature. */
    @Override
    public String toString() {
        StringBuilder ranges = new StringBuilder();
        for (var e : rangeConstraints.entrySet()) {
            if (!ranges.isEmpty()) ranges.append(", ");
            ranges.append(e.getKey()).append(": ").append(e.getValue());
        }
        return "ExportedProgram:\n" + graphModule.printReadable() + "\nGraph signature:\n" + signature
                + "\nRange constraints: {" + ranges + "}\n";
    }
}
