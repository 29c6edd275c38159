package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Mish}: x · tanh(softplus(x)). */
public class Mish extends Module {
    /** A Mish activation; it has no parameters. */
    public Mish() {}

    @Override
    public Tensor forward(Tensor input) {
        return F.mish(input);
    }
}
