package org.jtorch.nn;

import org.jtorch.Tensor;

/** {@code torch.nn.Unflatten}: expands dim into the given sizes. */
public class Unflatten extends Module {
    private final int dim;
    private final long[] unflattenedSize;

    /** {@code Unflatten(dim, unflattened_size)}. */
    public Unflatten(int dim, long... unflattenedSize) {
        this.dim = dim;
        this.unflattenedSize = unflattenedSize.clone();
    }

    @Override
    public Tensor forward(Tensor input) {
        return input.unflatten(dim, unflattenedSize);
    }

    @Override
    protected String extraRepr() {
        return "dim=" + dim + ", unflattened_size=" + PyRepr.tuple(unflattenedSize);
    }
}
