package org.jtorch.ops;

/**
 * Which tensor inputs of the op being differentiated need a gradient (PyTorch's {@code needs_input_grad} /
 * {@code grad_input_mask}), in argument order with {@code Tensor[]} arguments expanded. Autograd hands it to a
 * {@link OpDef.MaskedVjp}, so that expensive rules (matrix products, convolutions) can skip gradients nobody asked for;
 * a rule may still return one the mask does not ask for.
 */
public final class InputMask {
    private final boolean[] needs;

    private InputMask(boolean[] needs) {
        this.needs = needs;
    }

    /** A mask where input {@code i} needs a gradient iff {@code needs[i]}; inputs past the array's end do. */
    public static InputMask of(boolean... needs) {
        return new InputMask(needs.clone());
    }

    /** Whether tensor input {@code i} needs a gradient. */
    public boolean needs(int i) {
        return i >= needs.length || needs[i];
    }
}
