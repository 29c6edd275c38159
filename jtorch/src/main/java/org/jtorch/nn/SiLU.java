package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.nn.SiLU}: x · sigmoid(x) elementwise. */
public class SiLU extends Module {
    /** {@code SiLU()}. */
    public SiLU() {}

    @Override
    public Tensor forward(Tensor input) {
        return Torch.silu(input);
    }
}
