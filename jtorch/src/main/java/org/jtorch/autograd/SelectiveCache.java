package org.jtorch.autograd;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.ops.OpDef;

/**
 * Selective activation checkpointing: the outputs of the ops the policy saves are cached during the forward and handed
 * back, instead of running the op again, during the recompute. Entries are kept per op in call order and consumed once,
 * as PyTorch's {@code _CachingTorchDispatchMode} and {@code _CachedTorchDispatchMode} do.
 *
 * <p>Composite ops are not asked (their pieces are), nor are views (they cost nothing and must stay aliases). Ops
 * flagged {@link OpDef.Flag#SIDE_EFFECTS} are saved unless the policy says {@code MUST_RECOMPUTE}, so their effect
 * happens once (PyTorch 2.15). A call that wrote into existing tensors (in-place or {@code out=}) is always run again,
 * since handing back a cached tensor would not write its output.
 */
final class SelectiveCache {
    private final CheckpointOptions.PolicyFn policy;
    private final boolean allowMutation;
    private final boolean trackRng;
    private final Map<OpDef, ArrayDeque<Entry>> storage = new IdentityHashMap<>();

    /**
     * One saved call: its result (null: run again), the versions of its tensors when cached, and for a random op the
     * default generator's state after it, so the ops recomputed after it draw the same numbers.
     */
    private record Entry(Object value, int[] versions, byte[] rngAfter) {}

    private static final Entry RUN_AGAIN = new Entry(null, null, null);

    SelectiveCache(CheckpointOptions options) {
        this.policy = options.policy();
        this.allowMutation = options.allowCacheEntryMutation();
        this.trackRng = options.preserveRngState();
    }

    private static boolean asked(OpDef op) {
        return op.compositeFn() == null && op.viewFn() == null;
    }

    private boolean saves(OpDef op, Object[] args, boolean recompute) {
        CheckpointPolicy p = policy.decide(new CheckpointOptions.PolicyContext(recompute), op, args);
        if (p == null) throw new IllegalStateException("checkpoint policy returned null for " + op.name());
        if (op.has(OpDef.Flag.SIDE_EFFECTS) && p != CheckpointPolicy.MUST_RECOMPUTE) return true;
        return p.saves();
    }

    /** The forward pass: runs every op, caching what the policy saves. */
    Object forward(Operator operator, Object[] args, Dispatcher.Next next) {
        OpDef op = (OpDef) operator;
        if (!asked(op)) return next.call(op, args);
        boolean save = saves(op, args, false);
        Object result = next.call(op, args);
        if (save) storage.computeIfAbsent(op, k -> new ArrayDeque<>()).add(entryOf(op, result));
        return result;
    }

    private Entry entryOf(OpDef op, Object result) {
        Tensor[] ts = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
        int[] versions = new int[ts.length];
        for (int i = 0; i < ts.length; i++) {
            versions[i] = ts[i].version();
            if (versions[i] != 0) return RUN_AGAIN; // a fresh output has never been written through the dispatcher
        }
        byte[] rng = trackRng && op.has(OpDef.Flag.RANDOM)
                ? Generator.defaultGenerator().getStateBytes()
                : null;
        return new Entry(result, versions, rng);
    }

    /** The recompute: saved ops give back their cached outputs (recording their backward), the others run. */
    Object replay(Operator operator, Object[] args, Dispatcher.Next next) {
        OpDef op = (OpDef) operator;
        if (!asked(op) || !saves(op, args, true)) return next.call(op, args);
        ArrayDeque<Entry> entries = storage.get(op);
        if (entries == null) throw new TorchException(op + " encountered during backward, but not found in storage");
        Entry e = entries.poll();
        if (e == null) {
            throw new TorchException(
                    "Trying to backward an extra time. You are only allowed to backward once on any region "
                            + "computed under selective activation checkpoint.");
        }
        if (e.value() == null) return next.call(op, args);
        boolean single = e.value() instanceof Tensor;
        Tensor[] cached = single ? new Tensor[] {(Tensor) e.value()} : (Tensor[]) e.value();
        Tensor[] outs = new Tensor[cached.length];
        for (int i = 0; i < cached.length; i++) {
            if (!allowMutation && cached[i].version() != e.versions()[i]) {
                throw new TorchException("Tensor cached during selective activation checkpoint has been mutated");
            }
            outs[i] = cached[i].detach(); // a fresh alias: the history recorded below is the recompute's own
        }
        if (e.rngAfter() != null) Generator.defaultGenerator().setState(e.rngAfter());
        if (Recorder.needed(op, args)) Recorder.begin(op, args, outs, false).finish(outs);
        return single ? outs[0] : outs;
    }
}
