package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveMaxPool2d}: the maximum over adaptive windows of the last two dims, into a fixed size. */
public class AdaptiveMaxPool2d extends Module {
    private final AdaptiveSize outputSize;

    /** {@code AdaptiveMaxPool2d(output_size)}: one value (square) or two. */
    public AdaptiveMaxPool2d(long... outputSize) {
        this.outputSize = AdaptiveSize.of("AdaptiveMaxPool2d", 2, outputSize);
    }

    /** {@code AdaptiveMaxPool2d((h, w))} where a null size is PyTorch's {@code None}: that dim keeps the input's. */
    public AdaptiveMaxPool2d(Long outputH, Long outputW) {
        this.outputSize = new AdaptiveSize(new Long[] {outputH, outputW});
    }

    @Override
    public Tensor forward(Tensor input) {
        return forwardWithIndices(input).values();
    }

    /** {@code forward} with {@code return_indices=True}: the maxima and their flat positions in each input plane. */
    public ValuesIndices forwardWithIndices(Tensor input) {
        return F.adaptiveMaxPool2dWithIndices(input, outputSize.resolve(input));
    }

    @Override
    protected String extraRepr() {
        return "output_size=" + outputSize;
    }
}
