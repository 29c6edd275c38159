package org.jtorch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An open {@link Warnings#catchWarnings()} scope: while open, every warning raised on the thread that opened it is (or
 * on a thread working for it, such as an intra-op worker of a parallel kernel) is recorded here instead of being
 * printed, ignored or thrown, regardless of filters and once-rules (Python's {@code catch_warnings(record=True)} with
 * {@code simplefilter("always")}). Scopes nest; the innermost open one records. Close it on the opening thread,
 * innermost first.
 */
public final class WarningRecorder implements AutoCloseable {
    private final WarningRecorder outer;
    private final Thread owner;
    private final List<Warning> records = new CopyOnWriteArrayList<>();
    private final Warnings.Context context = new Warnings.Context(this);
    private volatile boolean closed;

    WarningRecorder(WarningRecorder outer, Thread owner) {
        this.outer = outer;
        this.owner = owner;
    }

    /** The warnings recorded so far, oldest first (a snapshot; readable after closing, from any thread). */
    public List<Warning> records() {
        return List.copyOf(records);
    }

    void add(Warning w) {
        records.add(w);
    }

    /** This scope as a context that other threads working for its owner install. */
    Warnings.Context context() {
        return context;
    }

    WarningRecorder outer() {
        return outer;
    }

    Thread owner() {
        return owner;
    }

    boolean isClosed() {
        return closed;
    }

    void markClosed() {
        closed = true;
    }

    /** Ends recording; warnings go back to the filters. Closing twice does nothing. */
    @Override
    public void close() {
        Warnings.close(this);
    }
}
