package org.jtorch.nn.utils.prune;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;

/**
 * {@code torch.nn.utils.prune.LnStructured}: prunes the {@code amount} slices along {@code dim} of smallest L{@code n}
 * norm (taken over the other dims); the kept ones are {@code topk} of the norms, as in PyTorch.
 */
public final class LnStructured extends BasePruningMethod {
    private final Number amount;
    private final double n;
    private final int dim;

    /** {@code LnStructured(amount, n, dim)}: {@code n} a norm order ({@code Double.POSITIVE_INFINITY} allowed). */
    public LnStructured(Number amount, double n, int dim) {
        checkAmount(amount);
        this.amount = amount;
        this.n = n;
        this.dim = dim;
    }

    /** {@code LnStructured(amount, n)}: along the last dim. */
    public LnStructured(Number amount, double n) {
        this(amount, n, -1);
    }

    @Override
    public PruningType pruningType() {
        return PruningType.STRUCTURED;
    }

    @Override
    public int dim() {
        return dim;
    }

    @Override
    public Tensor computeMask(Tensor t, Tensor defaultMask) {
        int nd = t.dim();
        if (nd <= 1) {
            throw new TorchException("Structured pruning can only be applied to multidimensional tensors. Found tensor"
                    + " of shape " + t.size() + " with " + nd + " dims");
        }
        if (dim >= nd || dim < -nd)
            throw new TorchException("Invalid index " + dim + " for tensor of size " + t.size());
        int d = dim < 0 ? dim + nd : dim;
        long size = t.size(d);
        long prune = toPrune(amount, size);
        if (prune == 0) return defaultMask;
        long[] others = new long[nd - 1];
        for (int i = 0, j = 0; i < nd; i++) if (i != d) others[j++] = i;
        Tensor norm = Torch.vectorNorm(t, n, others, false);
        Tensor keep = norm.topk(size - prune, 0, true).indices();
        Tensor mask = Torch.zerosLike(t).indexFill_(d, keep, 1.0);
        return mask.mul_(defaultMask.to(mask.dtype()));
    }
}
