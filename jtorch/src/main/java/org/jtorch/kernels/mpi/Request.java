package org.jtorch.kernels.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A nonblocking send or receive in flight: the {@code MPI_Request} MPI fills in and the {@code MPI_Status} it reports
 * on completion, in native memory released when the request completes.
 */
public final class Request {
    /** {@code MPI_Status}: MPI_SOURCE, MPI_TAG, MPI_ERROR, _cancelled (ints), then a size_t count. */
    private static final long STATUS_BYTES = 24;

    /**
     * Confined: a request is started, tested and completed on the one thread that calls MPI, and closing a confined
     * arena is cheap where closing a shared one synchronises with every thread of the JVM.
     */
    private final Arena arena = Arena.ofConfined();

    final MemorySegment handle = arena.allocate(ADDRESS);
    final MemorySegment flag = arena.allocate(JAVA_INT);
    final MemorySegment status = arena.allocate(STATUS_BYTES, 8);
    private boolean done;
    private int source = -1;

    Request() {}

    void complete(int sourceRank) {
        source = sourceRank;
        close();
    }

    void close() {
        if (!done) {
            done = true;
            arena.close();
        }
    }

    /** Whether the request has completed (or failed). */
    public boolean isDone() {
        return done;
    }

    /** For a completed receive, the rank the message came from; -1 before completion. */
    public int source() {
        return source;
    }
}
