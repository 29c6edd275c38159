package org.jtorch.nn;

import org.jtorch.Tensor;

/** {@code torch.nn.Flatten}: flattens dims start_dim..end_dim into one. */
public class Flatten extends Module {
    private final int startDim;
    private final int endDim;

    /** {@code Flatten()}: start_dim = 1, end_dim = -1 (keeps the batch dim). */
    public Flatten() {
        this(1, -1);
    }

    /** {@code Flatten(start_dim, end_dim)}. */
    public Flatten(int startDim, int endDim) {
        this.startDim = startDim;
        this.endDim = endDim;
    }

    @Override
    public Tensor forward(Tensor input) {
        return input.flatten(startDim, endDim);
    }

    @Override
    protected String extraRepr() {
        return "start_dim=" + startDim + ", end_dim=" + endDim;
    }
}
