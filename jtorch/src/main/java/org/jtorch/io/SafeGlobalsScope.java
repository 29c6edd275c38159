package org.jtorch.io;

import java.util.List;

/**
 * The try-with-resources form of {@code torch.serialization.safe_globals}: the globals it names are allowed for loads
 * on this thread until it is closed. Scopes nest and must be closed in reverse order.
 */
public final class SafeGlobalsScope implements AutoCloseable {
    private final List<SafeGlobal> globals;
    private final Thread owner = Thread.currentThread();
    private boolean closed;

    SafeGlobalsScope(List<SafeGlobal> globals) {
        this.globals = globals;
    }

    List<SafeGlobal> globals() {
        return globals;
    }

    @Override
    public void close() {
        if (closed) return;
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("safeGlobals scope closed on a thread other than the one that opened it");
        }
        SafeGlobals.pop(this);
        closed = true;
    }
}
