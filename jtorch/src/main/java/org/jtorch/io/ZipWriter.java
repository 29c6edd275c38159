package org.jtorch.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Writes a zip archive the way PyTorch's {@code PyTorchStreamWriter} lays it out: every record stored (uncompressed)
 * under one top-level directory, its data starting on a 64-byte boundary of the file (the local header's extra field is
 * padded with an {@code "FB"} field of {@code 'Z'}s), ZIP64 fields when a size or offset needs them. Unlike miniz it
 * writes sizes and CRC into the local header (patched after the data are streamed) instead of a trailing data
 * descriptor: standard, and what readers expect first.
 */
final class ZipWriter {
    static final int ALIGNMENT = 64;
    private static final long MAX32 = 0xffffffffL;
    private static final int CHUNK = 4 << 20;

    private record Written(byte[] name, long headerOffset, long size, int crc) {}

    private final FileChannel out;
    private final String prefix;
    private final List<Written> written = new ArrayList<>();
    private ByteBuffer chunk;
    private MemorySegment chunkSegment;

    /** Records go under {@code archiveName/}. */
    ZipWriter(FileChannel out, String archiveName) {
        this.out = out;
        this.prefix = archiveName + "/";
    }

    void write(String name, byte[] data) throws IOException {
        write(name, MemorySegment.ofArray(data));
    }

    /** Appends record {@code name} holding the bytes of {@code data}. */
    void write(String name, MemorySegment data) throws IOException {
        byte[] fullName = (prefix + name).getBytes(StandardCharsets.UTF_8);
        long size = data.byteSize();
        long offset = out.position();
        boolean zip64 = size >= MAX32;
        int zip64Extra = zip64 ? 20 : 0;
        long dataStart = offset + 30 + fullName.length + zip64Extra + 4;
        int pad = (int) ((ALIGNMENT - dataStart % ALIGNMENT) % ALIGNMENT);
        ByteBuffer h = le(30 + fullName.length + zip64Extra + 4 + pad);
        h.putInt(ZipReader.LOCAL_SIG)
                .putShort((short) (zip64 ? 45 : 20))
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) 0) // time, date: zero, as PyTorch writes them (reproducible files)
                .putInt(0) // CRC, patched below
                .putInt((int) (zip64 ? MAX32 : size))
                .putInt((int) (zip64 ? MAX32 : size))
                .putShort((short) fullName.length)
                .putShort((short) (zip64Extra + 4 + pad))
                .put(fullName);
        if (zip64) h.putShort((short) 1).putShort((short) 16).putLong(size).putLong(size);
        h.put((byte) 'F').put((byte) 'B').putShort((short) pad);
        for (int i = 0; i < pad; i++) h.put((byte) 'Z');
        writeFully(h.flip());
        int crc = stream(data);
        writeFully(le(4).putInt(crc).flip(), offset + 14);
        written.add(new Written(fullName, offset, size, crc));
    }

    /** Writes the central directory and end records; the archive is complete afterwards. */
    void finish() throws IOException {
        long dirStart = out.position();
        for (Written w : written) {
            boolean bigSize = w.size >= MAX32;
            boolean bigOffset = w.headerOffset >= MAX32;
            int extra = (bigSize ? 16 : 0) + (bigOffset ? 8 : 0);
            ByteBuffer c = le(46 + w.name.length + (extra > 0 ? 4 + extra : 0));
            short version = (short) (extra > 0 ? 45 : 20);
            c.putInt(ZipReader.CENTRAL_SIG)
                    .putShort(version)
                    .putShort(version)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putInt(w.crc)
                    .putInt((int) (bigSize ? MAX32 : w.size))
                    .putInt((int) (bigSize ? MAX32 : w.size))
                    .putShort((short) w.name.length)
                    .putShort((short) (extra > 0 ? 4 + extra : 0))
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putInt(0)
                    .putInt((int) (bigOffset ? MAX32 : w.headerOffset))
                    .put(w.name);
            if (extra > 0) {
                c.putShort((short) 1).putShort((short) extra);
                if (bigSize) c.putLong(w.size).putLong(w.size);
                if (bigOffset) c.putLong(w.headerOffset);
            }
            writeFully(c.flip());
        }
        long dirEnd = out.position();
        long dirSize = dirEnd - dirStart;
        long count = written.size();
        boolean zip64 = count >= 0xffff || dirStart >= MAX32 || dirSize >= MAX32;
        if (zip64) {
            ByteBuffer z = le(56 + 20);
            z.putInt(ZipReader.ZIP64_EOCD_SIG)
                    .putLong(44)
                    .putShort((short) 45)
                    .putShort((short) 45)
                    .putInt(0)
                    .putInt(0)
                    .putLong(count)
                    .putLong(count)
                    .putLong(dirSize)
                    .putLong(dirStart);
            z.putInt(ZipReader.ZIP64_LOCATOR_SIG).putInt(0).putLong(dirEnd).putInt(1);
            writeFully(z.flip());
        }
        ByteBuffer e = le(22);
        e.putInt(ZipReader.EOCD_SIG)
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) (zip64 ? 0xffff : count))
                .putShort((short) (zip64 ? 0xffff : count))
                .putInt((int) (zip64 ? MAX32 : dirSize))
                .putInt((int) (zip64 ? MAX32 : dirStart))
                .putShort((short) 0);
        writeFully(e.flip());
    }

    /**
     * Copies {@code data} to the file through a direct buffer (heap storages of any primitive type), returning its
     * CRC-32.
     */
    private int stream(MemorySegment data) throws IOException {
        CRC32 crc = new CRC32();
        if (chunk == null) {
            chunk = ByteBuffer.allocateDirect(CHUNK);
            chunkSegment = MemorySegment.ofBuffer(chunk);
        }
        for (long off = 0, n = data.byteSize(); off < n; off += CHUNK) {
            int len = (int) Math.min(CHUNK, n - off);
            MemorySegment.copy(data, off, chunkSegment, 0, len);
            chunk.clear().limit(len);
            crc.update(chunk);
            chunk.position(0);
            writeFully(chunk);
        }
        return (int) crc.getValue();
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) out.write(b);
    }

    private void writeFully(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) at += out.write(b, at);
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
