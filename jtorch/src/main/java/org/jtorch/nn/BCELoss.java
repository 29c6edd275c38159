package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.BCELoss}: binary cross entropy of probabilities; the element {@code weight} is a buffer. */
public final class BCELoss extends Loss {
    /** {@code BCELoss()}: no weight, mean. */
    public BCELoss() {
        this(null, Reduction.MEAN);
    }

    /** {@code BCELoss(weight, reduction=reduction)}. */
    public BCELoss(Tensor weight, Reduction reduction) {
        super(reduction);
        registerBuffer("weight", weight);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.binaryCrossEntropy(input, target, getBuffer("weight"), reduction());
    }
}
