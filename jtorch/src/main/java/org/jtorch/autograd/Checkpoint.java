package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.ops.OpDef;

/**
 * {@code torch.utils.checkpoint.checkpoint(fn, *inputs, use_reentrant=False)}: activation checkpointing.
 *
 * <p>The forward runs {@code fn} under no_grad, so none of its intermediate results is kept, and gives the output a
 * single node. When backward reaches that node, {@code fn} runs again with grad enabled (on the same RNG state) and the
 * incoming gradient is propagated through the recomputed graph to the inputs and to every tensor requiring grad that
 * {@code fn} reads from elsewhere (parameters captured by the lambda): the forward watches the ops {@code fn} runs to
 * find them. Gradients equal those of the plain computation; with {@code createGraph} the recomputed graph stays
 * connected to the inputs, so double backward works. Only the non-reentrant variant exists, so there is no
 * {@code use_reentrant}.
 */
public final class Checkpoint {
    private Checkpoint() {}

    /** {@code checkpoint(fn, *inputs, use_reentrant=False)}. */
    public static Tensor checkpoint(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        return checkpoint(fn, CheckpointOptions.defaults(), inputs);
    }

    /**
     * {@code checkpoint(fn, *inputs, use_reentrant=False, context_fn=..., preserve_rng_state=...,
     * determinism_check=...)}.
     */
    public static Tensor checkpoint(Function<List<Tensor>, Tensor> fn, CheckpointOptions options, Tensor... inputs) {
        List<Tensor> args = List.of(inputs);
        if (!GradMode.isEnabled()) return fn.apply(args);
        byte[] rng = options.preserveRngState() ? Generator.defaultGenerator().getStateBytes() : null;
        SelectiveCache cache = options.policy() == null ? null : new SelectiveCache(options);
        Watcher watcher = new Watcher(inputs, cache);
        Tensor out;
        try (GradMode.Scope _ = GradMode.set(false)) {
            out = withMode(watcher::process, () -> fn.apply(args));
        }
        if (out == null) throw new TorchException("checkpoint: the function returned null");
        boolean any = !watcher.external.isEmpty();
        for (Tensor x : inputs) any |= x.requiresGrad();
        if (!any || !(out.isFloatingPoint() || out.isComplex())) return out;
        Tensor result = out.detach(); // never give history to a tensor fn returned as is (an input, a parameter)
        result.setGradFn(new CheckpointNode(fn, options, inputs, watcher.external, rng, cache, result), 0);
        return result;
    }

    /** Runs {@code body} with {@code mode} entered on this thread's dispatch state. */
    static <T> T withMode(Dispatcher.Mode mode, Supplier<T> body) {
        try (var _ = DispatchState.enter(DispatchState.Kind.MODE, mode)) {
            return body.get();
        }
    }

    /**
     * The forward's mode: notes the tensors requiring grad that ops read besides the inputs (under no_grad nothing
     * computed inside the region requires grad, so these come from outside), and feeds the selective cache.
     */
    private static final class Watcher {
        private final Set<Tensor> inputs = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Tensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        final List<Tensor> external = new ArrayList<>();
        private final SelectiveCache cache;

        Watcher(Tensor[] inputs, SelectiveCache cache) {
            this.inputs.addAll(List.of(inputs));
            this.cache = cache;
        }

        Object process(Operator operator, Object[] args, Dispatcher.Next next) {

            OpDef op = (OpDef) operator;
            for (Object a : args) {
                if (a instanceof Tensor t) note(t);
                else if (a instanceof Tensor[] ts) for (Tensor t : ts) note(t);
            }
            return cache == null ? next.call(op, args) : cache.forward(op, args, next);
        }

        private void note(Tensor t) {
            if (t != null && t.requiresGrad() && !inputs.contains(t) && seen.add(t)) external.add(t);
        }
    }
}
