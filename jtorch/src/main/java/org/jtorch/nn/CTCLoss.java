package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.CTCLoss}: the connectionist temporal classification loss of (T, N, C) log-probabilities (or unbatched
 * (T, C)) against padded or concatenated targets; see {@link F#ctcLoss}.
 */
public class CTCLoss extends Loss {
    private final long blank;
    private final boolean zeroInfinity;

    /** {@code CTCLoss()}: blank 0, mean, infinite losses kept. */
    public CTCLoss() {
        this(0, Reduction.MEAN, false);
    }

    /** {@code CTCLoss(blank, reduction, zero_infinity)}. */
    public CTCLoss(long blank, Reduction reduction, boolean zeroInfinity) {
        super(reduction);
        this.blank = blank;
        this.zeroInfinity = zeroInfinity;
    }

    /** {@code forward(log_probs, targets, input_lengths, target_lengths)} with the lengths as lists. */
    public Tensor forward(Tensor logProbs, Tensor targets, long[] inputLengths, long[] targetLengths) {
        return F.ctcLoss(logProbs, targets, inputLengths, targetLengths, blank, reduction(), zeroInfinity);
    }

    /** {@code forward(log_probs, targets, input_lengths, target_lengths)} with the lengths as integer tensors. */
    public Tensor forward(Tensor logProbs, Tensor targets, Tensor inputLengths, Tensor targetLengths) {
        return F.ctcLoss(logProbs, targets, inputLengths, targetLengths, blank, reduction(), zeroInfinity);
    }
}
