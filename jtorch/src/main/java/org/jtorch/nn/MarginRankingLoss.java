package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.MarginRankingLoss}: {@code max(0, -y·(x1 - x2) + margin)}. */
public class MarginRankingLoss extends Loss {
    private final double margin;

    /** {@code MarginRankingLoss()}: margin 0, mean. */
    public MarginRankingLoss() {
        this(0.0, Reduction.MEAN);
    }

    /** {@code MarginRankingLoss(margin, reduction)}. */
    public MarginRankingLoss(double margin, Reduction reduction) {
        super(reduction);
        this.margin = margin;
    }

    /** {@code forward(input1, input2, target)}. */
    public Tensor forward(Tensor input1, Tensor input2, Tensor target) {
        return F.marginRankingLoss(input1, input2, target, margin, reduction());
    }
}
