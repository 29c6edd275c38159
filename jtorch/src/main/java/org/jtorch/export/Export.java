package org.jtorch.export;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jtorch.DataDependentOutputException;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.compile.Compile;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputSpec;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;
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
     * How a module with several tensor inputs, or several outputs, is called: {@code torch.export.export(module, args)}
     * calls {@code module(*args)}, and a Java module's forward of several tensors is a method of its own, so the export
     * is given the call, {@code inputs -> new Tensor[] {transformer.forward(inputs[0], inputs[1])}}. It must read the
     * module's parameters and buffers through the module it is exported with (the export substitutes them).
     */
    @FunctionalInterface
    public interface Forward {
        /** The forward's outputs for {@code inputs}, one tensor each. */
        Tensor[] apply(Tensor[] inputs);
    }

    /**
     * {@code torch.export.export(module, args)}: the module's {@code call} on {@code exampleInputs} (one tensor, as
     * {@link Module#call(Tensor)} takes) as an exported program, specialized to the inputs' shapes.
     */
    public static ExportedProgram export(Module module, Tensor... exampleInputs) {
        return export(module, ExportOptions.defaults(), exampleInputs);
    }

    /**
     * {@code torch.export.export(module, args, dynamic_shapes=..., strict=...)}: as {@link #export(Module, Tensor...)},
     * the dimensions {@code options} marks dynamic left symbolic: the program serves every size in their {@link Dim}'s
     * range ({@link ExportedProgram#rangeConstraints()}), and its module checks each call's sizes.
     */
    public static ExportedProgram export(Module module, ExportOptions options, Tensor... exampleInputs) {
        if (exampleInputs == null || exampleInputs.length != 1 || exampleInputs[0] == null) {
            throw new TorchException("export: Module.call takes one tensor; got "
                    + (exampleInputs == null ? "null" : exampleInputs.length + " example inputs")
                    + "; export a forward of several inputs with export(module, forward, options, inputs...)");
        }
        List<String> names = List.of("input");
        return export(module, inputs -> new Tensor[] {module.call(inputs[0])}, names, options, exampleInputs);
    }

    /**
     * {@code torch.export.export(module, (x1, ..., xn), dynamic_shapes=..., strict=...)}: {@code forward} (which calls
     * {@code module}) on several inputs, with one or several outputs, as an exported program. The user inputs are named
     * {@code args_0}, {@code args_1}, ... as PyTorch names a forward's {@code *args}; {@link ExportOptions#dynamicDim}
     * indexes them in order, and one {@link Dim} given to dimensions of several inputs makes them one symbol.
     * {@link ExportedModule#run} runs the program with all its inputs and outputs.
     */
    public static ExportedProgram export(
            Module module, Forward forward, ExportOptions options, Tensor... exampleInputs) {
        if (module == null || forward == null || options == null) {
            throw new TorchException("export: the module, the forward and the options must not be null");
        }
        if (exampleInputs == null || exampleInputs.length == 0) {
            throw new TorchException("export: give at least one example input");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < exampleInputs.length; i++) {
            if (exampleInputs[i] == null) throw new TorchException("export: example input " + i + " is null");
            names.add("args_" + i);
        }
        return export(module, forward, names, options, exampleInputs);
    }

    private static ExportedProgram export(
            Module module, Forward forward, List<String> inputNames, ExportOptions options, Tensor[] exampleInputs) {
        List<Tensor> inputs = List.of(exampleInputs);
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
        for (String name : inputNames) specs.add(new InputSpec(InputKind.USER_INPUT, name, null, false));
        List<Tensor> tensors = new ArrayList<>(state.values());
        DynamicPlan plan = DynamicPlan.of(options, inputs);
        Function<long[], ProgramGraph.Built> build = values -> {
            List<TensorMeta> metas = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) metas.add(plan.inputAt(i, inputs.get(i), values));
            return ProgramGraph.build(Fx.functionalize(trace(module, forward, names, tensors, metas)), specs);
        };
        ProgramGraph.Built built = build.apply(plan.base());
        if (options.strict()) requireRepeatable(built, build.apply(plan.base()));
        GraphModule graph = built.graph();
        if (plan.symbols() > 0) {
            graph = SymbolicPrograms.generalize(plan.base(), plan.staticSizes(inputs), plan.names(), values -> {
                ProgramGraph.Built at = build.apply(values);
                requireSameConstants(built, at, plan.names());
                return at.graph();
            });
        }
        ExportGraphSignature signature = withOutputNames(built.signature(), graph);
        return new ExportedProgram(
                graph, signature, stateDict(state, built), built.constants(), plan.rangeConstraints());
    }

    /**
     * {@code torch.export.save(ep, path)}: writes the program as PyTorch 2.13's {@code torch.export.save} does, a
     * {@code .pt2} archive that PyTorch's {@code torch.export.load} reads (see {@link #load}).
     */
    public static void save(ExportedProgram program, Path path) {
        Pt2Archive.save(program, path);
    }

    /**
     * {@code torch.export.load(path)}: the program of a {@code .pt2} archive written by {@code torch.export.save}
     * (PyTorch 2.8 and later, and the layout before 2.8) or by {@link #save}. No class of the original model is needed,
     * none is instantiated from the file, and every size and offset in it is checked; an archive JTorch cannot run (an
     * op it lacks, a non-polynomial symbolic size) is refused with a {@link TorchException} naming what.
     */
    public static ExportedProgram load(Path path) {
        return Pt2Archive.load(path);
    }

    /** The signature with its outputs renamed to the graph's output values, in order (a re-built graph's names). */
    private static ExportGraphSignature withOutputNames(ExportGraphSignature signature, GraphModule graph) {
        List<Object> results = graph.graph().nodes().getLast().args();
        List<OutputSpec> outputs = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            OutputSpec o = signature.outputSpecs().get(i);
            outputs.add(new OutputSpec(o.kind(), ((Node) results.get(i)).name(), o.target()));
        }
        return new ExportGraphSignature(signature.inputSpecs(), outputs);
    }

    /** {@code strict=True}: a second trace must give the same program, or the forward depends on Java state. */
    private static void requireRepeatable(ProgramGraph.Built first, ProgramGraph.Built second) {
        String[] a = first.graph().printReadable().split("\n");
        String[] b = second.graph().printReadable().split("\n");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i].strip() : "<end of graph>";
            String y = i < b.length ? b[i].strip() : "<end of graph>";
            if (!x.equals(y)) {
                throw new TorchException("export(strict=True): two traces of the forward differ: '" + x + "' then '"
                        + y + "'. The forward depends on Java state that changes between calls (a counter, a clock, a"
                        + " random draw in Java), which a graph cannot hold");
            }
        }
        requireSameConstants(first, second, List.of());
    }

    /** The constant tensors the forward builds must not change with the sizes or between traces. */
    private static void requireSameConstants(ProgramGraph.Built base, ProgramGraph.Built other, List<String> dims) {
        for (var e : base.constants().entrySet()) {
            Tensor mine = e.getValue();
            Tensor theirs = other.constants().get(e.getKey());
            if (theirs == null
                    || !Arrays.equals(mine.shape(), theirs.shape())
                    || mine.dtype() != theirs.dtype()
                    || !Arrays.equals(mine.toDoubleArray(), theirs.toDoubleArray())) {
                throw new TorchException("export: the constant tensor " + e.getKey() + " the forward builds from Java "
                        + "data changes" + (dims.isEmpty() ? " between traces" : " with the sizes of " + dims));
            }
        }
    }

    private static Map<String, Tensor> stateDict(Map<String, Tensor> state, ProgramGraph.Built built) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (InputSpec s : built.signature().inputSpecs()) {
            if (s.kind() == InputKind.PARAMETER || s.kind() == InputKind.BUFFER)
                out.put(s.target(), state.get(s.target()));
        }
        return out;
    }

    private static GraphModule trace(
            Module module, Forward forward, List<String> names, List<Tensor> tensors, List<TensorMeta> inputs) {
        try (FakeTensorMode fake = FakeTensorMode.open()) {
            Tensor[] fakes = new Tensor[tensors.size() + inputs.size()];
            for (int i = 0; i < tensors.size(); i++) fakes[i] = fake.fromTensor(tensors.get(i));
            for (int i = 0; i < inputs.size(); i++) fakes[tensors.size() + i] = fake.fromMeta(inputs.get(i));
            return Fx.makeFx(
                    args -> {
                        Map<String, Tensor> substitutes = new HashMap<>();
                        for (int i = 0; i < names.size(); i++) substitutes.put(names.get(i), args[i]);
                        try (AutoCloseable _ = module.substituteTensors(substitutes)) {
                            return outputs(forward.apply(Arrays.copyOfRange(args, names.size(), args.length)));
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
                            + " at " + Compile.userCallSite(e) + ", which a graph cannot hold. Java stack:"
                            + userStack(e),
                    e);
        }
    }

    /** The forward's outputs, checked: at least one, none null. */
    private static Tensor[] outputs(Tensor[] out) {
        if (out == null || out.length == 0) throw new TorchException("export: the forward returned no tensor");
        for (int i = 0; i < out.length; i++) {
            if (out[i] == null) throw new TorchException("export: the forward's output " + i + " is null");
        }
        return out.clone();
    }

    /**
     * The frames of the failure from the user's call site outwards, one per line, as PyTorch shows the user's stack.
     */
    private static String userStack(Throwable e) {
        String site = Compile.userCallSite(e);
        StringBuilder sb = new StringBuilder();
        boolean inUserCode = false;
        int shown = 0;
        for (StackTraceElement f : e.getStackTrace()) {
            inUserCode |= f.toString().equals(site);
            if (!inUserCode) continue;
            if (f.getClassName().equals(Export.class.getName()) || shown == 12) break;
            sb.append("\n    at ").append(f);
            shown++;
        }
        return sb.toString();
    }
}
