package org.jtorch.autograd;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.utils.hooks.RemovableHandle;

/** The sink for a leaf tensor: adds the arriving gradient to {@code leaf.grad()}. */
public final class AccumulateGrad extends Node {
    final Tensor leaf;
    private final List<UnaryOperator<Tensor>> hooks = new CopyOnWriteArrayList<>();

    /** The accumulator of a leaf; obtain it through {@link Tensor#gradAccumulator()}, which caches it. */
    public static AccumulateGrad of(Tensor leaf) {
        return new AccumulateGrad(leaf);
    }

    /** A new accumulator for {@code leaf}'s current dtype and device, with the hooks of {@code old}. */
    static AccumulateGrad renewed(Tensor leaf, AccumulateGrad old) {
        AccumulateGrad fresh = new AccumulateGrad(leaf);
        fresh.hooks.addAll(old.hooks);
        fresh.postAccumulateHooks.addAll(old.postAccumulateHooks);
        return fresh;
    }

    private AccumulateGrad(Tensor leaf) {
        super(
                Long.MAX_VALUE, // PyTorch's UINT64_MAX: accumulated as soon as the gradient is complete
                new Edge[0],
                new long[0][],
                new DType[0],
                new long[][] {leaf.impl().shapeRef()},
                new DType[] {leaf.dtype()});
        this.leaf = leaf;
    }

    @Override
    public String name() {
        return "AccumulateGrad";
    }

    private final List<java.util.function.Consumer<Tensor>> postAccumulateHooks =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Adds a tensor hook of the leaf; the handle removes this registration (not an equal one). */
    RemovableHandle addHook(UnaryOperator<Tensor> hook) {
        UnaryOperator<Tensor> entry = hook::apply; // an object of its own, so that removal finds this registration
        hooks.add(entry);
        return new RemovableHandle(() -> hooks.remove(entry));
    }

    RemovableHandle addPostAccumulateHook(java.util.function.Consumer<Tensor> hook) {
        postAccumulateHooks.add(hook);
        return new RemovableHandle(() -> postAccumulateHooks.remove(hook));
    }

    Tensor runHooks(Tensor g) {
        for (UnaryOperator<Tensor> h : hooks) {
            Tensor r = h.apply(g);
            if (r != null) g = r;
        }
        return g;
    }

    @Override
    Tensor[] apply(Tensor[] gradOutputs) {
        Tensor g = runHooks(gradOutputs[0]);
        // PyTorch's gradient layout contract: a stored gradient has the leaf's strides when the leaf is
        // dense (else contiguous), so optimizer updates on (param, grad) pairs run the fast dense loops.
        if (!g.isContiguous()
                || !java.util.Arrays.equals(g.impl().strideRef(), leaf.impl().strideRef())) {
            if (leaf.isContiguous()) g = g.contiguous();
        }
        Tensor old = leaf.grad();
        // Out of place, so a gradient tensor handed out earlier (or shared with the graph) never changes under the
        // user.
        Tensor sum = old == null ? (GradMode.isEnabled() ? g : g.detach()) : old.add(g);
        leaf.setGrad(GradMode.isEnabled() ? sum : sum.detach());
        for (var h : postAccumulateHooks) h.accept(leaf);
        return new Tensor[0];
    }
}
