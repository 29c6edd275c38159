package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.MultiMarginLoss}: the multi-class hinge loss {@code sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p
 * / C} per sample; {@code weight} a buffer.
 */
public final class MultiMarginLoss extends Loss {
    private final int p;
    private final double margin;

    /** {@code MultiMarginLoss()}: p 1, margin 1, no weight, mean. */
    public MultiMarginLoss() {
        this(1, 1.0, null, Reduction.MEAN);
    }

    /** {@code MultiMarginLoss(p, margin, weight, reduction=reduction)}; p is 1 or 2, weight 1-D or null. */
    public MultiMarginLoss(int p, double margin, Tensor weight, Reduction reduction) {
        super(reduction);
        if (p != 1 && p != 2) throw new IllegalArgumentException("only p == 1 and p == 2 supported");
        if (weight != null && weight.dim() != 1) {
            throw new IllegalArgumentException(
                    "MultiMarginLoss: expected weight to be None or 1D tensor, got " + weight.dim() + "D instead");
        }
        this.p = p;
        this.margin = margin;
        registerBuffer("weight", weight);
    }

    /** {@code forward(input, target)}: input (C) or (N, C), int64 class indices. */
    public Tensor forward(Tensor input, Tensor target) {
        return F.multiMarginLoss(input, target, p, margin, getBuffer("weight"), reduction());
    }
}
