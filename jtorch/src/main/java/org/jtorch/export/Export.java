package org.jtorch.export;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DataDependentOutputException;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.compile.Compile;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.nn.Module;

/**
 * {@code torch.export}: a module's forward captured ahead of time as one functional graph with its signature, state
 * dict and constants ({@link ExportedProgram}), TorchScript's successor.
 *
 * <p>The forward runs once on fake tensors under the tracer with the module's parameters and buffers replaced by the
 * graph's inputs; the trace is then functionalized, so the program is pure dataflow and a buffer the forward writes (a
 * BatchNorm's running statistics in training mode) becomes an output that {@link ExportedProgram#module()} writes back.
 * Java code in the forward runs at export time only; a read of a tensor's data into Java ({@code item()}) or an op
 * whose output shape depends on data cannot be exported, and is refused naming the read and the Java call site.
 *
 * <p>The program is functional from the start: PyTorch 2.13's {@code export} returns its "training IR", which keeps
 * in-place ops such as {@code add_} on {@code num_batches_tracked}, and its {@code run_decompositions()} functionalizes
 * it into this form (buffer mutations as outputs). Names follow PyTorch's: {@code p_0_weight},
 * {@code b_1_running_mean}, {@code input} for the argument of {@code forward(input)}.
 */
public final class Export {
    private Export() {}

    /**
     * {@code torch.export.export(module, args)}: the module's {@code call} on {@code exampleInputs} (one tensor, as
     * {@link Module#call(Tensor)} takes) as an exported program, specialized to the inputs' shapes.
     */
    public static ExportedProgram export(Module module, Tensor... exampleInputs) {
        if (exampleInputs == null || exampleInputs.length != 1 || exampleInputs[0] == null) {
            throw new TorchException("export: Module.call takes one tensor; got "
                    + (exampleInputs == null ? "null" : exampleInputs.length + " example inputs"));
        }
        LinkedHashMap<String, Tensor> state = new LinkedHashMap<>(module.namedParameters());
        int parameters = state.size();
        state.putAll(module.namedBuffers());
        Set<String> persistent = module.stateDict().keySet();
        List<String> names = new ArrayList<>(state.keySet());
        List<InputSpec> specs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String fqn = names.get(i);
            boolean parameter = i < parameters;
            specs.add(new InputSpec(
                    parameter ? InputKind.PARAMETER : InputKind.BUFFER,
                    (parameter ? "p_" : "b_") + fqn.replace('.', '_'),
                    fqn,
                    parameter || persistent.contains(fqn)));
        }
        specs.add(new InputSpec(InputKind.USER_INPUT, "input", null, false));
        GraphModule traced = trace(module, names, new ArrayList<>(state.values()), exampleInputs[0]);
        ProgramGraph.Built built = ProgramGraph.build(Fx.functionalize(traced), specs);
        return new ExportedProgram(
                built.graph(), built.signature(), stateDict(state, persistent, built), built.constants());
    }

    private static Map<String, Tensor> stateDict(
            Map<String, Tensor> state, Set<String> persistent, ProgramGraph.Built built) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (InputSpec s : built.signature().inputSpecs()) {
            if (s.kind() == InputKind.PARAMETER || s.kind() == InputKind.BUFFER)
                out.put(s.target(), state.get(s.target()));
        }
        return out;
    }

    private static GraphModule trace(Module module, List<String> names, List<Tensor> tensors, Tensor input) {
        try (FakeTensorMode fake = FakeTensorMode.open()) {
            Tensor[] fakes = new Tensor[tensors.size() + 1];
            for (int i = 0; i < tensors.size(); i++) fakes[i] = fake.fromTensor(tensors.get(i));
            fakes[tensors.size()] = fake.fromTensor(input);
            return Fx.makeFx(
                    args -> {
                        Map<String, Tensor> substitutes = new HashMap<>();
                        for (int i = 0; i < names.size(); i++) substitutes.put(names.get(i), args[i]);
                        try (AutoCloseable _ = module.substituteTensors(substitutes)) {
                            return new Tensor[] {module.call(args[names.size()])};
                        } catch (RuntimeException e) {
                            throw e;
                        } catch (Exception e) {
                            throw new TorchException("export: restoring the module's tensors failed", e);
                        }
                    },
                    fakes);
        } catch (DataDependentOutputException | DynamicOutputShapeException e) {
            throw new TorchException(
                    "export: the forward "
                            + (e instanceof DataDependentOutputException
                                    ? "reads a tensor's data into Java (" + ((DataDependentOutputException) e).op()
                                            + ")"
                                    : "calls " + ((DynamicOutputShapeException) e).op()
                                            + ", whose output shape depends on data")
                            + " at " + Compile.userCallSite(e) + ", which a graph cannot hold",
                    e);
        }
    }
}
