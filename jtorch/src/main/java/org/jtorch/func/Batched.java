package org.jtorch.func;

import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * The payload of a batched tensor (functorch's {@code BatchedTensorImpl}): the physical tensor, the position of the
 * batch dimension in it ({@code -1}: not batched, a value lifted into the level so that a grad transform inside the
 * vmap can record on it) and the vmap level it belongs to. The wrapper's own shape is the logical one: the physical
 * shape without the batch dimension.
 */
final class Batched implements Tensor.TransformPayload {
    final Tensor value;
    final int bdim;
    final int level;

    private Batched(Tensor value, int bdim, int level) {
        this.value = value;
        this.bdim = bdim;
        this.level = level;
    }

    /** A wrapper of {@code value} at {@code level}, batched along {@code bdim} (or -1). */
    static Tensor wrap(Tensor value, int bdim, int level) {
        long[] ps = value.impl().shapeRef();
        long[] logical;
        if (bdim < 0) logical = ps;
        else {
            logical = new long[ps.length - 1];
            for (int i = 0, j = 0; i < ps.length; i++) if (i != bdim) logical[j++] = ps[i];
        }
        return Tensor.transformWrapper(logical, value.dtype(), value.device(), new Batched(value, bdim, level));
    }

    /** The payload of {@code o} if it is a wrapper of {@code level}, else null. */
    static Batched at(Object o, int level) {
        if (o instanceof Tensor t && t.transformPayload() instanceof Batched b && b.level == level) return b;
        return null;
    }

    boolean batched() {
        return bdim >= 0;
    }

    @Override
    public Tensor.TransformPayload detached() {
        return new Batched(value.detach(), bdim, level);
    }

    @Override
    public TorchException dataAccess(String op) {
        if (op.equals("item")) {
            return new TorchException(
                    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
                            + "calling .item() on a Tensor, please try to rewrite what you're doing with "
                            + "other operations. If error "
                            + "is occurring somewhere inside PyTorch internals, please file a bug report.");
        }
        return new TorchException(
                "vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
                        + "flow. We don't support that yet, please shout over at "
                        + "https://github.com/pytorch/functorch/issues/257 .");
    }
}
