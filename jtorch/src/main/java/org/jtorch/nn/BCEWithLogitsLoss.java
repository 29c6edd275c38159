package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.BCEWithLogitsLoss}: binary cross entropy of logits; {@code weight} and {@code pos_weight} are
 * buffers.
 */
public final class BCEWithLogitsLoss extends Loss {
    /** {@code BCEWithLogitsLoss()}: no weights, mean. */
    public BCEWithLogitsLoss() {
        this(null, Reduction.MEAN, null);
    }

    /** {@code BCEWithLogitsLoss(weight, reduction=reduction, pos_weight=pos_weight)}. */
    public BCEWithLogitsLoss(Tensor weight, Reduction reduction, Tensor posWeight) {
        super(reduction);
        registerBuffer("weight", weight);
        registerBuffer("pos_weight", posWeight);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.binaryCrossEntropyWithLogits(input, target, getBuffer("weight"), getBuffer("pos_weight"), reduction());
    }
}
