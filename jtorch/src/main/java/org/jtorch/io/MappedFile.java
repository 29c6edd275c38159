package org.jtorch.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A checkpoint file mapped into memory. A copying load maps it in a confined arena and unmaps it when closed (every
 * storage was copied out); an {@code mmap} load maps it in an automatic arena, so the mapping lives as long as some
 * storage still views it.
 */
final class MappedFile implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment segment;

    private MappedFile(Arena arena, MemorySegment segment) {
        this.arena = arena;
        this.segment = segment;
    }

    /** Maps {@code path} for a copying load: read-only, unmapped by {@link #close()}. */
    static MappedFile forCopying(Path path) throws IOException {
        Arena arena = Arena.ofConfined();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            return new MappedFile(arena, ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena));
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Maps {@code path} for storages to view it ({@code torch.load(mmap=True)}); the mapping outlives this object. */
    static MappedFile forViews(Path path, LoadOptions.MmapMode mode) throws IOException {
        Arena arena = Arena.ofAuto();
        if (mode == LoadOptions.MmapMode.PRIVATE) {
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                return new MappedFile(null, ch.map(FileChannel.MapMode.PRIVATE, 0, ch.size(), arena));
            } catch (IOException notWritable) {
                mode = LoadOptions.MmapMode.READ_ONLY; // Java maps privately only through a writable channel
            }
        }
        if (mode == LoadOptions.MmapMode.SHARED) {
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                return new MappedFile(null, ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena));
            }
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            return new MappedFile(null, ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena));
        }
    }

    MemorySegment segment() {
        return segment;
    }

    @Override
    public void close() {
        if (arena != null) arena.close();
    }
}
