package org.jtorch.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;

/**
 * An optimizer's compiled step ({@link Optimizer#compileStep()}): per parameter group one compiled function of the
 * group's {@link StepGraph}, which {@code torch.compile}'s machinery captures, guards and recompiles like any other
 * (see {@link Compile}). The traced update reads the step graph being run, set for the duration of the call.
 */
final class CompiledStep {
    private final CompileOptions options;
    private final String name;
    private final List<Function<Tensor[], Tensor[]>> byGroup = new ArrayList<>();
    /** The step graph of the call in progress: what a capture traces and a guard check reads. */
    private StepGraph current;

    CompiledStep(CompileOptions options, String name) {
        this.options = options;
        this.name = name;
    }

    /** Runs group {@code index}'s step compiled; false (nothing done) when {@code graph} is null or declines. */
    boolean step(int index, StepGraph graph) {
        if (graph == null) return false;
        Tensor[] inputs = graph.prepare();
        if (inputs == null) return false;
        while (byGroup.size() <= index) {
            byGroup.add(Compile.compileTensors(
                    in -> {
                        current.update(in);
                        return new Tensor[0];
                    },
                    options,
                    () -> current.guards(),
                    name));
        }
        current = graph;
        try {
            byGroup.get(index).apply(inputs);
        } finally {
            current = null;
        }
        return true;
    }
}
