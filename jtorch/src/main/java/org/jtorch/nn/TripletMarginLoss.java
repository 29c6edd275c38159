package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.TripletMarginLoss}: {@code max(0, margin + d(a, p) - d(a, n))} with the pairwise p-norm distance. */
public class TripletMarginLoss extends Loss {
    private final double margin;
    private final double p;
    private final double eps;
    private final boolean swap;

    /** {@code TripletMarginLoss()}: margin 1, p 2, eps 1e-6, no swap, mean. */
    public TripletMarginLoss() {
        this(1.0, 2.0, 1e-6, false, Reduction.MEAN);
    }

    /** {@code TripletMarginLoss(margin, p, eps, swap, reduction)}. */
    public TripletMarginLoss(double margin, double p, double eps, boolean swap, Reduction reduction) {
        super(reduction);
        this.margin = margin;
        this.p = p;
        this.eps = eps;
        this.swap = swap;
    }

    /** {@code forward(anchor, positive, negative)}. */
    public Tensor forward(Tensor anchor, Tensor positive, Tensor negative) {
        return F.tripletMarginLoss(anchor, positive, negative, margin, p, eps, swap, reduction());
    }
}
