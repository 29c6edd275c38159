package org.jtorch.compile.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.jtorch.Warnings;

/**
 * One process's trace file, {@code dedicated_log_torch_trace_rank_<r>_<suffix>.log} in the trace directory (the suffix
 * makes the name unique, as PyTorch's temporary-file name does). The file is created with the first record, so a traced
 * process that never compiles leaves no empty file.
 *
 * <p>Each record reaches the file in one write, followed by a flush, while the file's lock is held: records of
 * concurrent compiles never interleave, and a process that dies leaves only whole records behind. The file also keeps
 * the table of interned strings (file names in stacks): a string's {@code str} record is written before the first
 * record that refers to it.
 */
public final class TraceFile implements AutoCloseable {
    private final Path directory;
    private final Integer rank;
    private final Map<String, Integer> interned = new HashMap<>();
    private OutputStream out;
    private Path path;
    private boolean closed;

    TraceFile(Path directory, Integer rank) {
        this.directory = directory;
        this.rank = rank;
    }

    /** The directory the file is written in. */
    public Path directory() {
        return directory;
    }

    /** The file, once the first record has been written. */
    public synchronized Optional<Path> path() {
        return Optional.ofNullable(path);
    }

    /** The rank written into every record ({@code rank}), when the process is one rank of a distributed job. */
    public OptionalInt rank() {
        return rank == null ? OptionalInt.empty() : OptionalInt.of(rank);
    }

    Integer rankOrNull() {
        return rank;
    }

    /**
     * Stops writing and closes the file. If this file is the one {@link StructuredTrace} writes to, tracing is off
     * afterwards.
     */
    @Override
    public void close() {
        StructuredTrace.detach(this);
        synchronized (this) {
            closed = true;
            if (out == null) return;
            try {
                out.close();
            } catch (IOException e) {
                Warnings.warn("the structured trace " + path + " could not be closed: " + e.getMessage());
            }
            out = null;
        }
    }

    /** The id of {@code s} in this file's string table; a new string's {@code str} record is written first. */
    synchronized int intern(String s) {
        Integer id = interned.get(s);
        if (id != null) return id;
        int next = interned.size();
        interned.put(s, next);
        write(GlogPrefix.now() + TraceJson.of(Map.of("str", List.of(s, next))) + "\n");
        return next;
    }

    /** Appends one whole record (its lines, each ending in a newline). */
    synchronized void write(String record) {
        if (closed) return;
        try {
            if (out == null) open();
            out.write(record.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // A trace must not make the compile it describes fail: say so once and stop writing this file.
            closed = true;
            Warnings.warn(
                    "the structured trace stopped: could not write to " + (path != null ? path : directory) + ": " + e);
        }
    }

    private void open() throws IOException {
        Files.createDirectories(directory);
        String prefix = "dedicated_log_torch_trace_rank_" + (rank == null ? 0 : rank) + "_";
        path = Files.createTempFile(directory, prefix, ".log");
        out = Files.newOutputStream(path);
    }
}
