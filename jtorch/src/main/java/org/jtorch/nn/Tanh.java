package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.nn.Tanh}: tanh elementwise. */
public class Tanh extends Module {
    /** {@code Tanh()}. */
    public Tanh() {}

    @Override
    public Tensor forward(Tensor input) {
        return Torch.tanh(input);
    }
}
