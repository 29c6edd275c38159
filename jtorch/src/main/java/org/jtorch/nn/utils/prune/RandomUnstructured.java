package org.jtorch.nn.utils.prune;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.nn.utils.prune.RandomUnstructured}: prunes {@code amount} elements chosen at random, as PyTorch: the
 * largest of {@code rand_like(t)} on the default generator.
 */
public final class RandomUnstructured extends BasePruningMethod {
    private final Number amount;

    /** {@code RandomUnstructured(amount)}: a count or a fraction in [0, 1]. */
    public RandomUnstructured(Number amount) {
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
            mask.view(-1).indexFill_(0, Torch.randLike(t).view(-1).topk(k).indices(), 0.0);
        return mask;
    }
}
