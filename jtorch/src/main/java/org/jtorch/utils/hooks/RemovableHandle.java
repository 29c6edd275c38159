package org.jtorch.utils.hooks;

/** {@code torch.utils.hooks.RemovableHandle}: what registering a hook returns; {@link #remove()} unregisters it. */
public final class RemovableHandle {
    private final Runnable remover;
    private boolean removed;

    /**
     * A handle whose first {@link #remove()} runs {@code remover}. Made by the hook registrations (tensor and node
     * hooks of autograd), which pass what unregisters the hook they added; a program receives handles, it does not make
     * them.
     */
    public RemovableHandle(Runnable remover) {
        this.remover = java.util.Objects.requireNonNull(remover, "remover");
    }

    /** Unregisters the hook; later calls do nothing. */
    public void remove() {
        if (removed) return;
        removed = true;
        remover.run();
    }
}
