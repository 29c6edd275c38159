package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveAvgPool1d}: averages the last dim into a fixed output size whatever the input size. */
public class AdaptiveAvgPool1d extends Module {
    private final long outputSize;

    /** {@code AdaptiveAvgPool1d(output_size)}. */
    public AdaptiveAvgPool1d(long outputSize) {
        this.outputSize = outputSize;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.adaptiveAvgPool1d(input, outputSize);
    }

    @Override
    protected String extraRepr() {
        return "output_size=" + outputSize;
    }
}
