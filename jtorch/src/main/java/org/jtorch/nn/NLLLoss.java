package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.CrossEntropyOptions;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.NLLLoss}: the negative log-likelihood of class indices; the class {@code weight} is a buffer. */
public final class NLLLoss extends Loss {
    private final long ignoreIndex;

    /** {@code NLLLoss()}: no weight, ignore_index -100, mean. */
    public NLLLoss() {
        this(null, -100, Reduction.MEAN);
    }

    /** {@code NLLLoss(weight, ignore_index=ignore_index, reduction=reduction)}. */
    public NLLLoss(Tensor weight, long ignoreIndex, Reduction reduction) {
        super(reduction);
        this.ignoreIndex = ignoreIndex;
        registerBuffer("weight", weight);
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.nllLoss(
                input,
                target,
                CrossEntropyOptions.defaults()
                        .weight(getBuffer("weight"))
                        .ignoreIndex(ignoreIndex)
                        .reduction(reduction()));
    }
}
