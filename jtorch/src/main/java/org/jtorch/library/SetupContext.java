package org.jtorch.library;

/**
 * {@code setup_context(ctx, inputs, output)} of {@code torch.library.register_autograd}: saves on {@code ctx} what the
 * backward needs from the call's inputs (every argument, in schema order) and its output (a {@link org.jtorch.Tensor},
 * a {@code Tensor[]} for several returns).
 */
@FunctionalInterface
public interface SetupContext {
    /** Saves on {@code ctx} what backward needs from {@code inputs} and {@code output}. */
    void setup(AutogradContext ctx, Object[] inputs, Object output);
}
