package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveMaxPool1d}: the maximum over adaptive windows of the last dim, into a fixed length. */
public class AdaptiveMaxPool1d extends Module {
    private final long outputSize;

    /** {@code AdaptiveMaxPool1d(output_size)}. */
    public AdaptiveMaxPool1d(long outputSize) {
        this.outputSize = outputSize;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.adaptiveMaxPool1d(input, outputSize);
    }

    /** {@code forward} with {@code return_indices=True}: the maxima and their positions along the last dim. */
    public ValuesIndices forwardWithIndices(Tensor input) {
        return F.adaptiveMaxPool1dWithIndices(input, outputSize);
    }

    @Override
    protected String extraRepr() {
        return "output_size=" + outputSize;
    }
}
