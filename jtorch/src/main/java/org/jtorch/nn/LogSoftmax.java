package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.LogSoftmax}: log(softmax(x)) along dim. */
public class LogSoftmax extends Module {
    private final long dim;

    /** {@code LogSoftmax(dim)}. */
    public LogSoftmax(long dim) {
        this.dim = dim;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.logSoftmax(input, dim);
    }

    @Override
    protected String extraRepr() {
        return "dim=" + dim;
    }
}
