package org.jtorch.autograd;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.storage.ArrayPool;
import org.jtorch.storage.Storage;

/**
 * Finds the gradient buffers of one backward pass that no tensor will read again and hands their arrays to
 * {@link ArrayPool}, so that the next op output of the same size is written into memory still in cache.
 *
 * <p>A storage is freed when all of these hold: an op output allocated during this pass (never a tensor from the
 * forward pass or from the caller, such as the gradient given to {@code backward}); every gradient slot of the engine
 * that held a tensor on it has been consumed (counted per storage, so the views that {@code cat}'s or {@code split}'s
 * backward hands to several nodes keep it alive until the last one has run, and a node that passes its gradient through
 * unchanged keeps it alive in its result); and it never reached code outside the built-in backward rules. A tensor
 * reaches outside code, and is never freed, when it is a gradient seen by a hook, stored in {@code .grad}, returned by
 * {@code Autograd.grad}, or given to or returned by a custom {@code Function} or any other node that is not a built-in
 * op's rule. The pass does not free anything under {@code createGraph} (gradients are then part of a graph), anomaly
 * mode (it keeps tensors for its report), or any interpreter that sees ops (DebugMode, tracing, func transforms: they
 * may keep the tensors they see).
 */
final class GradRecycler implements AutoCloseable {
    private static final String FREED =
            "this tensor was a gradient buffer of a backward pass that had finished with it,"
                    + " and its memory now holds another tensor";

    private final ArrayPool.Epoch epoch = ArrayPool.open();
    private final Map<Storage, Integer> holders = new IdentityHashMap<>();
    private final Set<Storage> escaped = Collections.newSetFromMap(new IdentityHashMap<>());

    private GradRecycler() {}

    /** A recycler for a pass, or null when this pass must not free anything. */
    static GradRecycler begin(boolean createGraph) {
        if (createGraph || !ArrayPool.enabled() || AnomalyMode.isEnabled() || !DispatchState.isPlainEager())
            return null;
        return new GradRecycler();
    }

    /** Whether {@code node}'s rule is a built-in one that neither keeps its gradients nor shows them to a hook. */
    static boolean contained(Node node) {
        return node instanceof OpNode && !node.hasHooks();
    }

    private static Storage storageOf(Tensor t) {
        return t.impl().storage().root();
    }

    /** {@code t} now sits in one more gradient slot. */
    void hold(Tensor t) {
        if (t != null) holders.merge(storageOf(t), 1, Integer::sum);
    }

    /** {@code t} may be seen by code outside the built-in rules: its storage is never freed. */
    void escape(Tensor t) {
        if (t != null) escaped.add(storageOf(t));
    }

    void escapeAll(Tensor[] ts) {
        if (ts != null) for (Tensor t : ts) escape(t);
    }

    /** {@code t} left a gradient slot; the storage is freed once no slot holds it and it qualifies. */
    void drop(Tensor t) {
        if (t == null) return;
        Storage s = storageOf(t);
        Integer left = holders.merge(s, -1, Integer::sum);
        if (left != null && left > 0) return;
        holders.remove(s);
        if (!escaped.contains(s) && epoch.allocatedIn(s)) ArrayPool.recycle(s, FREED);
    }

    void dropAll(Tensor[] ts) {
        if (ts != null) for (Tensor t : ts) drop(t);
    }

    @Override
    public void close() {
        epoch.close();
    }
}
