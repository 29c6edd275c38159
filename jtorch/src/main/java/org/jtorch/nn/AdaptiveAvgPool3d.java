package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveAvgPool3d}: averages the last three dims into a fixed output size whatever the input's. */
public class AdaptiveAvgPool3d extends Module {
    private final AdaptiveSize outputSize;

    /** {@code AdaptiveAvgPool3d(output_size)}: one value (every dim) or three. */
    public AdaptiveAvgPool3d(long... outputSize) {
        this.outputSize = AdaptiveSize.of("AdaptiveAvgPool3d", 3, outputSize);
    }

    /** {@code AdaptiveAvgPool3d((d, h, w))} where a null size is PyTorch's {@code None}: that dim keeps the input's. */
    public AdaptiveAvgPool3d(Long outputD, Long outputH, Long outputW) {
        this.outputSize = new AdaptiveSize(new Long[] {outputD, outputH, outputW});
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.adaptiveAvgPool3d(input, outputSize.resolve(input));
    }

    @Override
    protected String extraRepr() {
        return "output_size=" + outputSize;
    }
}
