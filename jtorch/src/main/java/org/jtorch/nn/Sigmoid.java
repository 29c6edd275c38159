package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.nn.Sigmoid}: the logistic function elementwise. */
public class Sigmoid extends Module {
    /** {@code Sigmoid()}. */
    public Sigmoid() {}

    @Override
    public Tensor forward(Tensor input) {
        return Torch.sigmoid(input);
    }
}
