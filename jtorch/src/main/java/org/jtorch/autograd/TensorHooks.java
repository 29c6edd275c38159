package org.jtorch.autograd;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.VariableHooks;
import org.jtorch.utils.hooks.RemovableHandle;

/**
 * Autograd's side of {@link Tensor} ({@link VariableHooks}): tensor hooks, which on a leaf run before accumulation and
 * on a non-leaf when its gradient is complete, {@code retain_grad}, the leaves' accumulators and {@code backward}.
 * {@code Tensor} finds it through the {@code META-INF/services} entry for {@link VariableHooks} (the module's
 * {@code provides} clause on the module path); nothing else needs to create one.
 *
 * <p>A service provider must be public; the interface it implements is the dispatcher's and not exported, so it is no
 * API.
 */
@SuppressWarnings("exports")
public final class TensorHooks implements VariableHooks<Tensor> {
    /** For {@link java.util.ServiceLoader}. */
    public TensorHooks() {}

    @Override
    public org.jtorch.autograd.graph.Node<Tensor> newGradAccumulator(Tensor leaf) {
        return AccumulateGrad.of(leaf);
    }

    @Override
    public org.jtorch.autograd.graph.Node<Tensor> renewGradAccumulator(
            Tensor leaf, org.jtorch.autograd.graph.Node<Tensor> old) {
        return AccumulateGrad.renewed(leaf, (AccumulateGrad) old);
    }

    @Override
    public RemovableHandle registerHook(Tensor t, UnaryOperator<Tensor> fn) {
        if (!t.requiresGrad())
            throw new TorchException("cannot register a hook on a tensor that doesn't require gradient");
        if (t.gradFn() == null) return Node.accumulatorOf(t).addHook(fn);
        return Node.gradFnOf(t).addPreHook(t.outputNr(), fn);
    }

    /** Makes a non-leaf store the gradient that reaches it, as {@code retain_grad()}. */
    @Override
    public void retainGrad(Tensor t) {
        Node.gradFnOf(t).addRetainGradHook(t.outputNr(), g -> {
            Tensor add = GradMode.isEnabled() ? g : g.detach();
            t.setGrad(t.grad() == null ? add : t.grad().add(add));
            return g;
        });
    }

    /**
     * {@code register_post_accumulate_grad_hook(fn)}: {@code fn(leaf)} runs after the leaf's {@code .grad} was updated.
     */
    @Override
    public RemovableHandle registerPostAccumulateGradHook(Tensor t, Consumer<Tensor> fn) {
        if (!t.requiresGrad())
            throw new TorchException("cannot register a hook on a tensor that doesn't require gradient");
        if (t.gradFn() != null)
            throw new TorchException("post accumulate grad hooks cannot be registered on non-leaf tensors");
        return Node.accumulatorOf(t).addPostAccumulateHook(fn);
    }

    @Override
    public void backward(
            List<Tensor> tensors,
            List<Tensor> gradTensors,
            Boolean retainGraph,
            boolean createGraph,
            List<Tensor> inputs) {
        Autograd.backward(tensors, gradTensors, retainGraph, createGraph, inputs);
    }
}
