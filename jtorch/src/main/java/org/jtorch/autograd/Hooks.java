package org.jtorch.autograd;

import java.util.function.UnaryOperator;
import org.jtorch.Tensor;

/** Tensor hooks: on a leaf they run before accumulation, on a non-leaf when its gradient is complete. */
public final class Hooks {
    private Hooks() {}

    public static void register(Tensor t, UnaryOperator<Tensor> fn) {
        if (!t.requiresGrad())
            throw new org.jtorch.TorchException("cannot register a hook on a tensor that doesn't require gradient");
        if (t.gradFn() == null) t.gradAccumulator().addHook(fn);
        else t.gradFn().addPreHook(t.outputNr(), fn);
    }

    /** Makes a non-leaf store the gradient that reaches it, as {@code retain_grad()}. */
    public static void retainGrad(Tensor t) {
        t.gradFn().addRetainGradHook(t.outputNr(), g -> {
            Tensor add = GradMode.isEnabled() ? g : g.detach();
            t.setGrad(t.grad() == null ? add : t.grad().add(add));
            return g;
        });
    }

    /**
     * {@code register_post_accumulate_grad_hook(fn)}: {@code fn(leaf)} runs after the leaf's {@code .grad} was updated.
     */
    public static RemovableHandle registerPostAccumulateGrad(Tensor t, java.util.function.Consumer<Tensor> fn) {
        if (!t.requiresGrad())
            throw new org.jtorch.TorchException("cannot register a hook on a tensor that doesn't require gradient");
        if (t.gradFn() != null)
            throw new org.jtorch.TorchException("post accumulate grad hooks cannot be registered on non-leaf tensors");
        return t.gradAccumulator().addPostAccumulateHook(fn);
    }
}
