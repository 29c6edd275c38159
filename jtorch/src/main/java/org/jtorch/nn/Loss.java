package org.jtorch.nn;

/**
 * {@code torch.nn.modules.loss._Loss}: a loss module holding its {@code reduction}. Each loss declares its own
 * {@code forward} taking the input, the target and, for some, further tensors, and computes it with the matching
 * {@code F} function; it prints as PyTorch's do, with no settings ({@code MSELoss()}).
 */
public abstract class Loss extends Module {
    private final Reduction reduction;

    Loss(Reduction reduction) {
        if (reduction == null) throw new IllegalArgumentException("None is not a valid value for reduction");
        this.reduction = reduction;
    }

    /** {@code reduction}: how the per-element losses are combined. */
    public Reduction reduction() {
        return reduction;
    }
}
