package org.jtorch.export;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.nn.Module;

/**
 * What {@link ExportedProgram#module()} returns ({@code ep.module()}, a {@code GraphModule} in PyTorch): a module
 * holding the program's parameters and buffers under their dotted names (in submodules named after the path), whose
 * forward runs the program. {@link #call(Tensor)} serves a program of one input and one output; {@link #run} any.
 */
public final class ExportedModule extends Module {
    private final ExportedProgram program;

    ExportedModule(ExportedProgram program) {
        this.program = program;
        Map<String, Tensor> state = program.stateDict();
        for (InputSpec s : program.graphSignature().inputSpecs()) {
            if (s.kind() != InputKind.PARAMETER && s.kind() != InputKind.BUFFER) continue;
            String fqn = s.target();
            Module owner = this;
            String[] path = fqn.split("\\.");
            for (int i = 0; i < path.length - 1; i++) {
                Module child = owner.registeredModules().get(path[i]);
                owner = child != null ? child : owner.register(path[i], new Path());
            }
            String leaf = path[path.length - 1];
            if (s.kind() == InputKind.PARAMETER) owner.registerParameter(leaf, state.get(fqn));
            else owner.registerBuffer(leaf, state.get(fqn), s.persistent());
        }
    }

    /** The program on its one input, giving its one output (use {@link #run} for several). */
    @Override
    public Tensor forward(Tensor input) {
        Tensor[] out = run(input);
        if (out.length != 1) {
            throw new TorchException("exported program returns " + out.length + " outputs; call run(inputs...)");
        }
        return out[0];
    }

    /**
     * {@code ep.module()(*args)}: the program on its user inputs, in order, giving its user outputs in order; the
     * buffers it mutates are written back into this module's.
     */
    public Tensor[] run(Tensor... inputs) {
        if (inputs == null) throw new TorchException("exported program: the inputs are null");
        return program.run(inputs.clone(), fqn -> {
            Tensor t = getParameterOrNull(fqn);
            return t != null ? t : getBuffer(fqn);
        });
    }

    private Tensor getParameterOrNull(String fqn) {
        return namedParameters().get(fqn);
    }

    @Override
    protected String name() {
        return "GraphModule";
    }

    /** A level of the dotted names: holds the parameters and buffers below it. */
    private static final class Path extends Module {
        @Override
        protected String name() {
            return "Module";
        }
    }
}
