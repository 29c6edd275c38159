package org.jtorch.dispatch;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jtorch.autograd.graph.Node;
import org.jtorch.utils.hooks.RemovableHandle;

/**
 * What {@code Tensor} needs of autograd, as PyTorch's {@code VariableHooksInterface} is what ATen's {@code Tensor}
 * needs: {@code Tensor} lies below {@code org.jtorch.autograd}, which implements this interface and is found with
 * {@link java.util.ServiceLoader} the first time a tensor needs it. The interface is generic in the tensor type so that
 * this package, below {@code Tensor}, need not name it: {@code T} is always {@code org.jtorch.Tensor}.
 *
 * @param <T> the tensor type, {@code org.jtorch.Tensor}
 */
public interface VariableHooks<T> {
    /** A new node accumulating {@code leaf}'s gradient; the leaf keeps it, so there is one per leaf. */
    Node<T> newGradAccumulator(T leaf);

    /**
     * The accumulator of {@code leaf} after {@code Variable::set_data} changed its dtype or device: a new one for the
     * new metadata, carrying the hooks registered on {@code old} (which PyTorch keeps on the tensor itself).
     */
    Node<T> renewGradAccumulator(T leaf, Node<T> old);

    /** {@code self.register_hook(fn)}: {@code fn} sees (and may replace) the gradient of {@code self}. */
    RemovableHandle registerHook(T self, UnaryOperator<T> fn);

    /** {@code retain_grad()} of a non-leaf: the gradient reaching {@code self} is stored in its {@code grad}. */
    void retainGrad(T self);

    /** {@code self.register_post_accumulate_grad_hook(fn)}: {@code fn(self)} runs after the leaf's grad was updated. */
    RemovableHandle registerPostAccumulateGradHook(T self, Consumer<T> fn);

    /**
     * {@code torch.autograd.backward(tensors, grad_tensors, retain_graph, create_graph, inputs)}: a null
     * {@code gradTensors} (or entry) means ones for a one-element tensor, a null {@code retainGraph} means
     * {@code createGraph}, a null {@code inputs} all leaves.
     */
    void backward(List<T> tensors, List<T> gradTensors, Boolean retainGraph, boolean createGraph, List<T> inputs);
}
