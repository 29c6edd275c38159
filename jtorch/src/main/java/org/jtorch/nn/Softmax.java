package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Softmax}: exp(x) / sum(exp(x)) along dim. */
public class Softmax extends Module {
    private final long dim;

    /** {@code Softmax(dim)}. */
    public Softmax(long dim) {
        this.dim = dim;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.softmax(input, dim);
    }

    @Override
    protected String extraRepr() {
        return "dim=" + dim;
    }
}
