package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveAvgPool2d}: averages into a fixed output size whatever the input size. */
public class AdaptiveAvgPool2d extends Module {
    private final long[] outputSize;

    /** {@code AdaptiveAvgPool2d(output_size)}: one value (square) or two. */
    public AdaptiveAvgPool2d(long... outputSize) {
        if (outputSize.length != 1 && outputSize.length != 2) {
            throw new IllegalArgumentException("AdaptiveAvgPool2d: output_size must be one or two integers");
        }
        this.outputSize = outputSize.clone();
    }

    @Override
    public Tensor forward(Tensor input) { return F.adaptiveAvgPool2d(input, outputSize); }

    @Override
    protected String extraRepr() { return "output_size=" + PoolRepr.of(outputSize); }
}
