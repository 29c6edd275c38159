package org.jtorch.autograd;

/** {@code torch.utils.hooks.RemovableHandle}: removes the hook it was returned for; closing it does the same. */
@FunctionalInterface
public interface RemovableHandle extends AutoCloseable {
    /** Unregisters the hook; further calls do nothing. */
    void remove();

    @Override
    default void close() { remove(); }
}
