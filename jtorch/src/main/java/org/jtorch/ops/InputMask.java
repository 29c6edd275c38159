package org.jtorch.ops;

import java.util.function.Supplier;

/**
 * Which tensor inputs of the op being differentiated need a gradient (PyTorch's
 * {@code needs_input_grad} / {@code grad_input_mask}). Autograd sets it around each backward rule, so
 * expensive rules (matrix products) can skip gradients nobody asked for; a rule may ignore it.
 */
public final class InputMask {
    private InputMask() {}

    private static final ThreadLocal<boolean[]> MASK = new ThreadLocal<>();

    /** Whether tensor input {@code i} (argument order, {@code Tensor[]} expanded) needs a gradient; true when unknown. */
    public static boolean needs(int i) {
        boolean[] m = MASK.get();
        return m == null || i >= m.length || m[i];
    }

    /** Runs {@code rule} with {@code mask} visible to {@link #needs}. */
    public static <T> T with(boolean[] mask, Supplier<T> rule) {
        boolean[] before = MASK.get();
        MASK.set(mask);
        try {
            return rule.get();
        } finally {
            MASK.set(before);
        }
    }
}
