package org.jtorch.nn;

import java.util.function.BiFunction;
import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.TripletMarginWithDistanceLoss}: {@code max(0, margin + d(a, p) - d(a, n))} with any distance. The
 * default distance is a {@link PairwiseDistance}; a distance that is a {@link Module} is registered as the submodule
 * {@code distance_function}, as attribute assignment does in PyTorch.
 */
public final class TripletMarginWithDistanceLoss extends Loss {
    private final BiFunction<Tensor, Tensor, Tensor> distanceFunction;
    private final double margin;
    private final boolean swap;

    /** {@code TripletMarginWithDistanceLoss()}: pairwise distance, margin 1, no swap, mean. */
    public TripletMarginWithDistanceLoss() {
        this(null, 1.0, false, Reduction.MEAN);
    }

    /**
     * {@code TripletMarginWithDistanceLoss(distance_function=.., margin=.., swap=.., reduction=..)}; a null distance is
     * {@code PairwiseDistance()}, margin must be positive.
     */
    public TripletMarginWithDistanceLoss(
            BiFunction<Tensor, Tensor, Tensor> distanceFunction, double margin, boolean swap, Reduction reduction) {
        super(reduction);
        if (!(margin > 0)) {
            throw new IllegalArgumentException(
                    "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got " + margin + " instead");
        }
        this.distanceFunction = distanceFunction != null ? distanceFunction : new PairwiseDistance();
        if (this.distanceFunction instanceof Module m) register("distance_function", m);
        this.margin = margin;
        this.swap = swap;
    }

    /** {@code forward(anchor, positive, negative)}. */
    public Tensor forward(Tensor anchor, Tensor positive, Tensor negative) {
        return F.tripletMarginWithDistanceLoss(anchor, positive, negative, distanceFunction, margin, swap, reduction());
    }
}
