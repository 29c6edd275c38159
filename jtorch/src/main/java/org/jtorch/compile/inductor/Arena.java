package org.jtorch.compile.inductor;

import org.jtorch.Tensor;
import org.jtorch.fx.TensorMeta;
import org.jtorch.storage.ArrayPool;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The storage a compiled plan keeps between calls: one array per slot of its {@link MemoryPlan}, allocated by the first
 * call that needs it, so that later calls with the same sizes (the same plan) allocate nothing for those buffers.
 *
 * <p>A slot holding a graph output ({@code mode="reduce-overhead"}) is handed to the caller through a storage object of
 * its own ({@link Storage#share}); the next call, before writing the slot again, releases that object, so a tensor of
 * the earlier call then throws on any read instead of showing the new call's values (PyTorch raises the same way for
 * CUDA graphs' outputs overwritten by a later replay). A call whose inputs share memory with such a slot (an output fed
 * back in) writes its outputs to new storage instead, leaving the earlier outputs readable.
 */
final class Arena {
    /** What a tensor of an earlier call says when read after the next call took its memory back. */
    static final String OVERWRITTEN = "Error: accessing tensor output of a compiled graph (mode=\"reduce-overhead\") "
            + "that has been overwritten by a subsequent run: its memory is reused by each call of the compiled "
            + "function. To keep it, clone() it before the next call";

    private final MemoryPlan plan;
    private final Storage[] storage;
    /** Per output slot, the storage object the last call handed out over it. */
    private final Storage[] handedOut;
    /** Whether this call writes outputs into their slots (false when an input shares memory with one). */
    private boolean keepOutputs;

    Arena(MemoryPlan plan) {
        this.plan = plan;
        this.storage = new Storage[plan.sizes().length];
        this.handedOut = new Storage[plan.sizes().length];
    }

    /** Starts a call on {@code inputs}. */
    void startCall(Tensor[] inputs) {
        keepOutputs = true;
        for (int s = 0; s < storage.length; s++) {
            if (!plan.outputSlot()[s] || storage[s] == null) continue;
            for (Tensor t : inputs) {
                if (t.impl().storage().root().array() == storage[s].array()) keepOutputs = false;
            }
        }
    }

    /**
     * The tensor output {@code o} of {@code launch} is written to. A generated kernel writes every element of its
     * outputs, so storage new on each call comes uninitialized (and may be memory the pool recycled) when the layout
     * leaves no slot between elements; a layout with gaps gets zeroed storage, so that no stale value sits where a view
     * of other strides could read it.
     */
    Tensor output(CompiledPlan.Launch launch, int o) {
        TensorMeta layout = launch.layouts()[o];
        return output(launch, layout, o, isDense(layout));
    }

    private static boolean isDense(TensorMeta layout) {
        long elements = 1;
        for (long n : layout.shape()) elements *= n;
        return MemoryPlan.storageSlots(layout) == elements * layout.dtype().slotsPerElement();
    }

    /**
     * The tensor output {@code o} of a planned extern call is written to. Storage new on each call comes uninitialized,
     * as the op would have allocated it: the op's kernel writes every element.
     */
    Tensor output(ExternCall call, int o) {
        return output(call, call.layouts()[o], o, true);
    }

    private Tensor output(Object step, TensorMeta layout, int o, boolean fullyWritten) {
        int slot = plan.slotOf().get(step)[o];
        if (slot < 0 || (plan.outputSlot()[slot] && !keepOutputs)) {
            return tensor(fullyWritten ? allocateUninitialized(layout) : allocate(layout), layout);
        }
        Storage s = storage[slot];
        if (s == null) {
            s = storage[slot] = allocate(layout);
            // the slot outlives the call: a MemoryScope open around it must not take its memory
            ArrayPool.keepInOpenScopes(s);
        } else {
            Inductor.countBufferReused();
        }
        if (plan.outputSlot()[slot]) {
            if (handedOut[slot] != null) handedOut[slot].release(OVERWRITTEN);
            s = handedOut[slot] = s.share();
        }
        return tensor(s, layout);
    }

    private static Storage allocate(TensorMeta layout) {
        Storage s = Storage.allocate(layout.dtype().storageKind(), MemoryPlan.storageSlots(layout));
        Inductor.countPlanBytes(s.byteSize());
        return s;
    }

    private static Storage allocateUninitialized(TensorMeta layout) {
        Storage s = Storage.allocateUninitialized(layout.dtype().storageKind(), MemoryPlan.storageSlots(layout));
        Inductor.countPlanBytes(s.byteSize());
        return s;
    }

    private static Tensor tensor(Storage s, TensorMeta layout) {
        return Tensor.of(TensorImpl.of(s, 0, layout.shape(), layout.stride(), layout.dtype()));
    }
}
