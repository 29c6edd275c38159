package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.autograd.Function;
import org.jtorch.autograd.GradMode;

/**
 * The one autograd function of an {@link AotFunction} call, as PyTorch's {@code CompiledFunction}: its forward runs the
 * forward graph and saves the values it returns beyond the outputs; its node, {@code CompiledFunctionBackward}, runs
 * the backward graph on them and the incoming gradients.
 */
final class CompiledFunction extends Function {
    /** The inputs that get gradients: a second backward through this node must reach them, and fail there. */
    private static final String DIFFERENTIABLE_INPUTS = "differentiableInputs";

    private final GraphCompiler.CompiledGraph forward;
    private final GraphCompiler.CompiledGraph backward;
    private final int outputCount;
    private final boolean[] outputsWithTangent;

    CompiledFunction(
            GraphCompiler.CompiledGraph forward,
            GraphCompiler.CompiledGraph backward,
            int outputCount,
            boolean[] outputsWithTangent) {
        this.forward = forward;
        this.backward = backward;
        this.outputCount = outputCount;
        this.outputsWithTangent = outputsWithTangent;
    }

    @Override
    protected Tensor[] forward(Ctx ctx, Object... args) {
        Tensor[] inputs = new Tensor[args.length];
        List<Tensor> differentiable = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            inputs[i] = (Tensor) args[i];
            if (ctx.needsInputGrad(i)) differentiable.add(inputs[i]);
        }
        ctx.put(DIFFERENTIABLE_INPUTS, differentiable);
        Tensor[] results = forward.call(inputs);
        Tensor[] outputs = Arrays.copyOf(results, outputCount);
        Tensor[] saved = Arrays.copyOfRange(results, outputCount, results.length);
        ctx.saveForBackward(saved);
        int nonDifferentiable = 0;
        for (boolean t : outputsWithTangent) if (!t) nonDifferentiable++;
        Tensor[] without = new Tensor[nonDifferentiable];
        for (int i = 0, k = 0; i < outputCount; i++) if (!outputsWithTangent[i]) without[k++] = outputs[i];
        ctx.markNonDifferentiable(without);
        return outputs;
    }

    @Override
    protected Tensor[] backward(Ctx ctx, Tensor... grads) {
        Tensor[] saved = ctx.savedTensors();
        int tangentCount = 0;
        for (boolean t : outputsWithTangent) if (t) tangentCount++;
        Tensor[] inputs = Arrays.copyOf(saved, saved.length + tangentCount);
        for (int i = 0, k = saved.length; i < outputCount; i++) if (outputsWithTangent[i]) inputs[k++] = grads[i];
        if (!GradMode.isEnabled()) return backward.call(inputs);
        // create_graph: the graph's ops are not recorded; the gradients get a node that refuses a second backward,
        // connected to the function's inputs and to whatever else of the backward's inputs requires grad.
        Tensor[] gradients;
        try (var _ = GradMode.set(false)) {
            gradients = backward.call(inputs);
        }
        List<Tensor> sources = new ArrayList<>(ctx.<List<Tensor>>get(DIFFERENTIABLE_INPUTS));
        sources.addAll(Arrays.asList(inputs));
        return CompiledFunctionBackward.guard(sources, gradients);
    }
}
