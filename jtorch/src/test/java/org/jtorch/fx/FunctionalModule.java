package org.jtorch.fx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.func.Func;
import org.jtorch.nn.Module;

/**
 * A module's training step as a function of tensors, for AOT autograd: the inputs are the batch tensors followed by the
 * module's parameters (in {@code namedParameters()} order), which {@code Func.functionalCall} puts in place of the
 * module's own for the call; the output is the loss.
 */
record FunctionalModule(Module module, List<String> names, int batchInputs, BiFunction<Tensor, Tensor[], Tensor> loss) {
    /** {@code loss.apply(moduleOutput, batch)} is the step's loss; the module is called on {@code batch[0]}. */
    static FunctionalModule of(Module module, int batchInputs, BiFunction<Tensor, Tensor[], Tensor> loss) {
        return new FunctionalModule(module, List.copyOf(module.namedParameters().keySet()), batchInputs, loss);
    }

    Function<Tensor[], Tensor[]> step() {
        return args -> {
            Map<String, Tensor> params = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) params.put(names.get(i), args[batchInputs + i]);
            Tensor[] batch = java.util.Arrays.copyOf(args, batchInputs);
            return new Tensor[] {loss.apply(Func.functionalCall(module, params, batch[0]), batch)};
        };
    }

    /** Fresh leaves holding copies of the module's parameters, requiring grad. */
    List<Tensor> clonedParameters() {
        List<Tensor> out = new ArrayList<>();
        for (Tensor p : module.parameters()) out.add(p.detach().clone().requiresGrad(true));
        return out;
    }

    /** The batch followed by the parameters, as {@link #step()} takes them. */
    static Tensor[] inputs(Tensor[] batch, List<Tensor> parameters) {
        List<Tensor> all = new ArrayList<>(List.of(batch));
        all.addAll(parameters);
        return all.toArray(Tensor[]::new);
    }
}
