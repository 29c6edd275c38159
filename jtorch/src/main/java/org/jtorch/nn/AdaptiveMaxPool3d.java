package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveMaxPool3d}: the maximum over adaptive windows of the last three dims, into a fixed size. */
public class AdaptiveMaxPool3d extends Module {
    private final AdaptiveSize outputSize;

    /** {@code AdaptiveMaxPool3d(output_size)}: one value (every dim) or three. */
    public AdaptiveMaxPool3d(long... outputSize) {
        this.outputSize = AdaptiveSize.of("AdaptiveMaxPool3d", 3, outputSize);
    }

    /** {@code AdaptiveMaxPool3d((d, h, w))} where a null size is PyTorch's {@code None}: that dim keeps the input's. */
    public AdaptiveMaxPool3d(Long outputD, Long outputH, Long outputW) {
        this.outputSize = new AdaptiveSize(new Long[] {outputD, outputH, outputW});
    }

    @Override
    public Tensor forward(Tensor input) {
        return forwardWithIndices(input).values();
    }

    /** {@code forward} with {@code return_indices=True}: the maxima and their flat positions in each input volume. */
    public ValuesIndices forwardWithIndices(Tensor input) {
        return F.adaptiveMaxPool3dWithIndices(input, outputSize.resolve(input));
    }

    @Override
    protected String extraRepr() {
        return "output_size=" + outputSize;
    }
}
