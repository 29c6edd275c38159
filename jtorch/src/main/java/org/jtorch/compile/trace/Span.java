package org.jtorch.compile.trace;

import java.time.Instant;

/**
 * A timed stage of a compile, from {@link StructuredTrace#span} to {@link #close()}: a begin and an end
 * {@code chromium_event} record. When tracing is off the span is a shared object that does nothing.
 */
public final class Span implements AutoCloseable {
    static final Span OFF = new Span(null, null, null);

    private final TraceFile file;
    private final CompileId id;
    private final String name;

    Span(TraceFile file, CompileId id, String name) {
        this.file = file;
        this.id = id;
        this.name = name;
    }

    void begin() {
        StructuredTrace.chromiumEvent(file, id, name, "B", micros());
    }

    /** Ends the stage: writes its end event. */
    @Override
    public void close() {
        if (file != null) StructuredTrace.chromiumEvent(file, id, name, "E", micros());
    }

    /** Microseconds since the epoch, the Chrome trace format's clock. */
    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
