package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.HingeEmbeddingLoss}: x for target 1, {@code max(0, margin - x)} for target -1. */
public class HingeEmbeddingLoss extends Loss {
    private final double margin;

    /** {@code HingeEmbeddingLoss()}: margin 1, mean. */
    public HingeEmbeddingLoss() {
        this(1.0, Reduction.MEAN);
    }

    /** {@code HingeEmbeddingLoss(margin, reduction)}. */
    public HingeEmbeddingLoss(double margin, Reduction reduction) {
        super(reduction);
        this.margin = margin;
    }

    /** {@code forward(input, target)}. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.hingeEmbeddingLoss(input, target, margin, reduction());
    }
}
