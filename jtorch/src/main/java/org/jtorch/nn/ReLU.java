package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.nn.ReLU}: max(0, x) elementwise. */
public class ReLU extends Module {
    /** {@code ReLU()}. */
    public ReLU() {}

    @Override
    public Tensor forward(Tensor input) {
        return Torch.relu(input);
    }
}
