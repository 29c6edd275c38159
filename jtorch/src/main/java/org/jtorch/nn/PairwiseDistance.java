package org.jtorch.nn;

import java.util.function.BiFunction;
import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.PairwiseDistance}: {@code ‖x1 − x2 + eps‖_p} along the last dim. A {@link BiFunction}, so it serves
 * as the distance of {@link TripletMarginWithDistanceLoss}.
 */
public final class PairwiseDistance extends Module implements BiFunction<Tensor, Tensor, Tensor> {
    private final double p;
    private final double eps;
    private final boolean keepdim;

    /** {@code PairwiseDistance()}: p 2, eps 1e-6, no keepdim. */
    public PairwiseDistance() {
        this(2.0, 1e-6, false);
    }

    /** {@code PairwiseDistance(p, eps, keepdim)}. */
    public PairwiseDistance(double p, double eps, boolean keepdim) {
        this.p = p;
        this.eps = eps;
        this.keepdim = keepdim;
    }

    /** {@code forward(x1, x2)}. */
    public Tensor forward(Tensor x1, Tensor x2) {
        return F.pairwiseDistance(x1, x2, p, eps, keepdim);
    }

    /** The same as {@link #forward}. */
    @Override
    public Tensor apply(Tensor x1, Tensor x2) {
        return forward(x1, x2);
    }
}
