package org.jtorch.nn;

import org.jtorch.Tensor;

/** {@code torch.nn.Identity}: returns its input. */
public class Identity extends Module {
    /** {@code Identity()}. */
    public Identity() {}

    @Override
    public Tensor forward(Tensor input) {
        return input;
    }
}
