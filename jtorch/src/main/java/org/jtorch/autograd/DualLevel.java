package org.jtorch.autograd;

import org.jtorch.dispatch.DispatchState;

/**
 * A forward-AD dual level ({@code torch.autograd.forward_ad.dual_level}): while open, dual tensors made at it carry
 * tangents through every op; closing it drops them. Levels nest (the innermost is the one {@link ForwardAD#makeDual}
 * uses by default) and must close in reverse order of opening, on the thread that opened them.
 */
public final class DualLevel implements AutoCloseable {
    private final int depth;
    private final ForwardMode mode;
    private DispatchState.Scope scope;
    private volatile boolean alive = true;

    /** The {@code depth}-th dual level of its thread, entering the dispatch state at {@code stackLevel}. */
    DualLevel(int depth, int stackLevel) {
        this.depth = depth;
        this.mode = new ForwardMode(this, stackLevel);
    }

    void open(DispatchState.Scope entered) {
        this.scope = entered;
    }

    /** 0 for the outermost open level, 1 for one nested inside it, ... */
    public int depth() {
        return depth;
    }

    /** Whether the level is still open; tangents of a closed level are gone. */
    public boolean isOpen() {
        return alive;
    }

    ForwardMode mode() {
        return mode;
    }

    /** {@code exit_dual_level}: pops the level; every tangent recorded at it disappears. */
    @Override
    public void close() {
        if (!alive) return;
        ForwardAD.checkExit(this);
        alive = false;
        scope.close();
    }

    @Override
    public String toString() {
        return "DualLevel(" + depth + (alive ? ")" : ", closed)");
    }
}
