package org.jtorch.nn.utils.prune;

import org.jtorch.Tensor;

/** {@code torch.nn.utils.prune.CustomFromMask}: a given mask (global pruning applies its masks with it). */
public final class CustomFromMask extends BasePruningMethod {
    private final Tensor mask;

    /** {@code CustomFromMask(mask)}. */
    public CustomFromMask(Tensor mask) {
        this.mask = mask;
    }

    @Override
    public PruningType pruningType() {
        return PruningType.GLOBAL;
    }

    @Override
    public Tensor computeMask(Tensor t, Tensor defaultMask) {
        if (!defaultMask.size().equals(mask.size())) {
            throw new org.jtorch.TorchException(
                    "the mask has shape " + mask.size() + " but the tensor's mask has shape " + defaultMask.size());
        }
        return defaultMask.mul(mask.to(defaultMask.dtype()));
    }
}
