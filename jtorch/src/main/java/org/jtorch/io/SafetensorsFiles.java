package org.jtorch.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.jtorch.Tensor;
import org.jtorch.ops.CopyOps;

/**
 * File plumbing shared by the safetensors and NumPy readers and writers: atomic replacement, memory mapping, and
 * streaming a tensor's bytes.
 */
final class SafetensorsFiles {
    /** Copy granularity: large enough to amortize calls, small enough to keep memory flat. A multiple of 16. */
    static final int CHUNK = 1 << 20;

    private SafetensorsFiles() {}

    /** Receives the body of a file being written. */
    interface Body {
        void writeTo(FileChannel ch) throws IOException;
    }

    /** Receives a tensor's bytes chunk by chunk. */
    interface ChunkSink {
        void accept(ByteBuffer chunk) throws IOException;
    }

    /**
     * Writes a file through a temporary sibling that is flushed to disk and then renamed over {@code path}: readers
     * never see a half-written file, a crash leaves the old file intact, and tensors still memory-mapped from the old
     * file keep their data (the rename swaps the directory entry; the old inode lives on while mapped).
     */
    static void writeAtomically(Path path, Body body) {
        try {
            AtomicFile.write(path, body::writeTo);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) ch.write(b);
    }

    /**
     * Opens a file to be mapped copy-on-write. Java maps privately only through a writable channel, so this asks for
     * write access (nothing is ever written) and settles for read access when refused.
     */
    static FileChannel openForMapping(Path path) throws IOException {
        try {
            return FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (FileSystemException | UnsupportedOperationException notWritable) {
            return FileChannel.open(path, StandardOpenOption.READ);
        }
    }

    /**
     * Maps {@code [offset, offset + size)} copy-on-write: tensors over it can be modified in memory and the file never
     * changes. A channel without write access gives a read-only mapping, whose tensors refuse in-place writes with
     * IllegalArgumentException. The mapping lives until no tensor refers to it.
     */
    static MemorySegment map(FileChannel ch, long offset, long size) throws IOException {
        try {
            return ch.map(FileChannel.MapMode.PRIVATE, offset, size, Arena.ofAuto());
        } catch (NonWritableChannelException readOnly) {
            return ch.map(FileChannel.MapMode.READ_ONLY, offset, size, Arena.ofAuto());
        }
    }

    /** A (validated, non-meta) tensor's data as one row-major run: detached, and copied only when not contiguous. */
    static Tensor contiguousData(Tensor t) {
        return CopyOps.contiguous(t.detach());
    }

    /** Byte length of a tensor's data. */
    static long byteSize(Tensor t) {
        return t.numel() * t.dtype().itemSize();
    }

    /** Streams the little-endian bytes of a contiguous tensor (see {@link #contiguousData}). */
    static void forEachChunk(Tensor c, ChunkSink sink) throws IOException {
        MemorySegment src = c.impl().storage().segment();
        long start = c.storageOffset() * c.dtype().itemSize(), len = byteSize(c);
        byte[] buf = new byte[(int) Math.min(CHUNK, len)];
        MemorySegment dst = MemorySegment.ofArray(buf);
        for (long p = 0; p < len; p += buf.length) {
            int n = (int) Math.min(buf.length, len - p);
            MemorySegment.copy(src, start + p, dst, 0, n);
            sink.accept(ByteBuffer.wrap(buf, 0, n));
        }
    }
}
