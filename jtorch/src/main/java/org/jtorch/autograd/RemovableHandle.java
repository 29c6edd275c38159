package org.jtorch.autograd;

/** {@code torch.utils.hooks.RemovableHandle}: what registering a hook returns; {@link #remove()} unregisters it. */
public final class RemovableHandle {
    private final Runnable remover;
    private boolean removed;

    RemovableHandle(Runnable remover) {
        this.remover = remover;
    }

    /** Unregisters the hook; later calls do nothing. */
    public void remove() {
        if (removed) return;
        removed = true;
        remover.run();
    }
}
