package org.jtorch.autograd.graph;

import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import org.jtorch.utils.hooks.RemovableHandle;

/**
 * {@code torch.autograd.graph.Node}: the public view of a function in the backward graph ({@code grad_fn}), which takes
 * the gradients of its forward outputs and returns the gradients of its forward tensor inputs. Every node is made by
 * the autograd engine ({@code org.jtorch.autograd.Node} implements this interface); a program reads the graph and
 * registers hooks through it.
 *
 * <p>It is generic in the tensor type {@code T} only so that it can be declared below {@code Tensor}, which holds its
 * {@code grad_fn} with this type: {@code T} is always {@code org.jtorch.Tensor}, as in {@code Tensor.gradFn()}'s
 * {@code Node<Tensor>}.
 *
 * @param <T> the tensor type, {@code org.jtorch.Tensor}
 */
public interface Node<T> {
    /** PyTorch's node name, e.g. {@code MulBackward0}. */
    String name();

    /**
     * The edges to the next nodes ({@code grad_fn.next_functions}): one per forward tensor input, null where that input
     * needs no gradient.
     */
    List<Edge<T>> nextFunctions();

    /**
     * {@code Node.register_hook(fn)}: {@code fn(gradInputs, gradOutputs)} runs after the node and may return
     * replacement input gradients (null keeps them), one per forward tensor input.
     */
    RemovableHandle registerHook(BinaryOperator<T[]> fn);

    /**
     * {@code Node.register_prehook(fn)}: {@code fn(gradOutputs)} runs before the node (after the tensor hooks of its
     * outputs) and may return replacement output gradients (null keeps them). Entries may be null.
     */
    RemovableHandle registerPrehook(UnaryOperator<T[]> fn);
}
