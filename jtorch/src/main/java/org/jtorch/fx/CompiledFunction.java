package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.autograd.Function;
import org.jtorch.autograd.GradMode;
import org.jtorch.storage.ArrayPool;

/**
 * The one autograd function of an {@link AotFunction} call, as PyTorch's {@code CompiledFunction}: its forward runs the
 * forward graph and saves the values it returns beyond the outputs; its node, {@code CompiledFunctionBackward}, runs
 * the backward graph on them and the incoming gradients.
 */
final class CompiledFunction extends Function {
    /** The inputs that get gradients: a second backward through this node must reach them, and fail there. */
    private static final String DIFFERENTIABLE_INPUTS = "differentiableInputs";
    /** The saved values whose memory goes back to the pool when the graph frees them. */
    private static final String OWN_SAVED = "ownSaved";

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
        Tensor[] results;
        SavedActivations own;
        try (ArrayPool.Epoch epoch = ArrayPool.open()) {
            results = forward.call(inputs);
            own = SavedActivations.of(
                    epoch,
                    Arrays.copyOfRange(results, outputCount, results.length),
                    Arrays.copyOf(results, outputCount));
        }
        for (int q = outputCount; q < results.length; q++) {
            Tensor t = results[q];
            int hit = -1;
            for (int r = 0; r < inputs.length; r++)
                if (inputs[r].impl().storage().root() == t.impl().storage().root()) hit = r;
        }
        Tensor[] outputs = Arrays.copyOf(results, outputCount);
        Tensor[] saved = Arrays.copyOfRange(results, outputCount, results.length);
        ctx.saveForBackward(saved);
        if (own != null) {
            ctx.put(OWN_SAVED, own);
            ctx.onRelease(own::recycle);
        }
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
        boolean createGraph = GradMode.isEnabled();
        Tensor[] gradients;
        try (var _ = GradMode.set(false)) {
            gradients = backward.call(inputs);
        }
        SavedActivations own = ctx.get(OWN_SAVED);
        if (own != null) own.exclude(gradients);
        if (!createGraph) return gradients;
        // create_graph: the graph's ops are not recorded; the gradients get a node that refuses a second backward,
        // connected to the function's inputs and to whatever else of the backward's inputs requires grad.
        List<Tensor> sources = new ArrayList<>(ctx.<List<Tensor>>get(DIFFERENTIABLE_INPUTS));
        sources.addAll(Arrays.asList(inputs));
        return CompiledFunctionBackward.guard(sources, gradients);
    }
}
