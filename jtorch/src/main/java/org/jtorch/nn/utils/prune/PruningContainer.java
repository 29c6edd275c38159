package org.jtorch.nn.utils.prune;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code torch.nn.utils.prune.PruningContainer}: the methods applied one after another to one tensor. Its mask is the
 * last method's, computed on what the earlier ones left: the unpruned elements (unstructured), the channels not
 * entirely pruned (structured), or everything (global), as PyTorch's {@code _combine_masks}.
 */
public final class PruningContainer extends BasePruningMethod {
    private final List<BasePruningMethod> methods = new ArrayList<>();

    /** {@code PruningContainer(method)}: takes {@code method}'s tensor name. */
    public PruningContainer(BasePruningMethod first) {
        this.tensorName = first.tensorName;
        addPruningMethod(first);
    }

    /** An empty container for a tensor name (global pruning's {@code "temp"}). */
    PruningContainer(String tensorName) {
        this.tensorName = tensorName;
    }

    /** {@code add_pruning_method(method)}: only methods on this container's tensor. */
    public void addPruningMethod(BasePruningMethod method) {
        if (tensorName != null && !tensorName.equals(method.tensorName)) {
            throw new TorchException("Can only add pruning methods acting on the parameter named '" + tensorName
                    + "' to PruningContainer " + this + ". Found '" + method.tensorName + "'");
        }
        methods.add(method);
    }

    /** The methods, in the order applied. */
    public List<BasePruningMethod> methods() {
        return Collections.unmodifiableList(methods);
    }

    @Override
    public PruningType pruningType() {
        return methods.getLast().pruningType();
    }

    @Override
    public Tensor computeMask(Tensor t, Tensor defaultMask) {
        BasePruningMethod method = methods.getLast();
        Tensor mask = defaultMask.to(t.dtype()).clone();
        switch (method.pruningType()) {
            case UNSTRUCTURED -> {
                Tensor keep = defaultMask.eq(1.0);
                Tensor partial = method.computeMask(t.maskedSelect(keep), defaultMask.maskedSelect(keep));
                mask.maskedScatter_(keep, partial.to(mask.dtype()));
            }
            case STRUCTURED -> {
                int nd = t.dim(), dim = method.dim() < 0 ? method.dim() + nd : method.dim();
                if (dim < 0) throw new TorchException("Index is out of bounds for tensor with dimensions " + nd);
                long[] others = new long[nd - 1];
                for (int i = 0, j = 0; i < nd; i++) if (i != dim) others[j++] = i;
                Tensor channels =
                        defaultMask.sum(others, false).ne(0.0).nonzero().view(-1);
                Tensor partial =
                        method.computeMask(t.indexSelect(dim, channels), defaultMask.indexSelect(dim, channels));
                mask.indexCopy_(dim, channels, partial.to(mask.dtype()));
            }
            case GLOBAL -> mask = method.computeMask(t, defaultMask).to(mask.dtype());
        }
        return mask;
    }
}
