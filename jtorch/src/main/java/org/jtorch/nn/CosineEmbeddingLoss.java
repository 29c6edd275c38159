package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.CosineEmbeddingLoss}: {@code 1 - cos(x1, x2)} for target 1, {@code max(0, cos(x1, x2) - margin)} for
 * -1.
 */
public class CosineEmbeddingLoss extends Loss {
    private final double margin;

    /** {@code CosineEmbeddingLoss()}: margin 0, mean. */
    public CosineEmbeddingLoss() {
        this(0.0, Reduction.MEAN);
    }

    /** {@code CosineEmbeddingLoss(margin, reduction)}. */
    public CosineEmbeddingLoss(double margin, Reduction reduction) {
        super(reduction);
        this.margin = margin;
    }

    /** {@code forward(input1, input2, target)}. */
    public Tensor forward(Tensor input1, Tensor input2, Tensor target) {
        return F.cosineEmbeddingLoss(input1, input2, target, margin, reduction());
    }
}
