package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.CrossEntropyOptions;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.CrossEntropyLoss}: log-softmax and negative log-likelihood of class indices or class probabilities.
 * The class {@code weight} is a buffer (in the state dict when given).
 */
public final class CrossEntropyLoss extends Loss {
    private final long ignoreIndex;
    private final double labelSmoothing;

    /** {@code CrossEntropyLoss()}: no weight, ignore_index -100, mean, no label smoothing. */
    public CrossEntropyLoss() {
        this(null, -100, Reduction.MEAN, 0.0);
    }

    /** {@code CrossEntropyLoss(weight, ignore_index=ignore_index, reduction=reduction, label_smoothing=...)}. */
    public CrossEntropyLoss(Tensor weight, long ignoreIndex, Reduction reduction, double labelSmoothing) {
        super(reduction);
        this.ignoreIndex = ignoreIndex;
        this.labelSmoothing = labelSmoothing;
        registerBuffer("weight", weight);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.crossEntropy(
                input,
                target,
                CrossEntropyOptions.defaults()
                        .weight(getBuffer("weight"))
                        .ignoreIndex(ignoreIndex)
                        .reduction(reduction())
                        .labelSmoothing(labelSmoothing));
    }
}
