package org.jtorch.nn.utils.prune;

import org.jtorch.Tensor;

/** {@code torch.nn.utils.prune.L1Unstructured}: prunes the {@code amount} elements of smallest absolute value. */
public final class L1Unstructured extends BasePruningMethod {
    private final Number amount;

    /** {@code L1Unstructured(amount)}: a count ({@code Long}/{@code Integer}) or a fraction in [0, 1]. */
    public L1Unstructured(Number amount) {
        checkAmount(amount);
        this.amount = amount;
    }

    @Override
    public PruningType pruningType() {
        return PruningType.UNSTRUCTURED;
    }

    @Override
    public Tensor computeMask(Tensor t, Tensor defaultMask) {
        long k = toPrune(amount, t.numel());
        Tensor mask = defaultMask.clone();
        if (k != 0)
            mask.view(-1).indexFill_(0, t.abs().view(-1).topk(k, 0, false).indices(), 0.0);
        return mask;
    }
}
