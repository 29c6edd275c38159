package org.jtorch.fx;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.storage.ArrayPool;
import org.jtorch.storage.Storage;

/**
 * The values a compiled forward saved for its backward that nothing else can read: their arrays go to {@link ArrayPool}
 * when the graph frees them, so the next call's outputs of those sizes are written into memory the step has just used
 * instead of newly allocated (cold, and collected later) arrays. This is what a compiled training step allocates most
 * of, as PyTorch's caching allocator makes the same saved buffers its next step's outputs.
 *
 * <p>A saved value qualifies when its storage was allocated for an op output during the forward call (never an input, a
 * constant, a compiled plan's own slot or memory of an earlier call) and shares no storage with the outputs the caller
 * gets, nor with a gradient the backward returns (a graph may pass a saved value through as a gradient). Nothing is
 * freed when the graph is retained, when recycling is off, or under an interpreter that may keep the tensors it sees.
 */
final class SavedActivations {
    private static final String FREED = "this tensor was saved for the backward of a compiled function, which has "
            + "finished with it, and its memory now holds another tensor";

    private final Set<Storage> own = Collections.newSetFromMap(new IdentityHashMap<>());

    private SavedActivations() {}

    /**
     * Those of {@code saved} that qualify, given the forward call's {@code epoch} and its {@code outputs}; null when
     * none do or nothing may be freed.
     */
    static SavedActivations of(ArrayPool.Epoch epoch, Tensor[] saved, Tensor[] outputs) {
        if (!ArrayPool.enabled() || !DispatchState.isPlainEager()) return null;
        SavedActivations s = new SavedActivations();
        for (Tensor t : saved) if (t != null && epoch.allocatedIn(rootOf(t))) s.own.add(rootOf(t));
        s.exclude(outputs);
        return s.own.isEmpty() ? null : s;
    }

    /** Keeps the storages of {@code tensors} (a backward's gradients, which reach the caller). */
    void exclude(Tensor[] tensors) {
        for (Tensor t : tensors) if (t != null) own.remove(rootOf(t));
    }

    /** Hands the qualifying storages to the pool: the graph has freed the saved values. */
    void recycle() {
        if (!DispatchState.isPlainEager()) return;
        for (Storage s : own) ArrayPool.recycle(s, FREED);
        own.clear();
    }

    private static Storage rootOf(Tensor t) {
        return t.impl().storage().root();
    }
}
