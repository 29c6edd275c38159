package org.jtorch.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.jtorch.TorchException;

/**
 * Reads the records of a zip archive in memory (a mapped file): the central directory, ZIP64 included, and each
 * record's data as a slice, without copying. Only stored (uncompressed) records can be read, which is what
 * {@code torch.save} writes.
 *
 * <p>The file is hostile: every offset and length is checked against the file and against the structures that must
 * contain it (the directory lies inside the file, records' data before the directory, names inside their headers)
 * before it is used, and entry counts are bounded by the bytes that could hold them. A violation raises
 * {@link TorchException} naming the file.
 */
final class ZipReader {
    /** One central directory entry. */
    record Entry(String name, long headerOffset, long size, long compressedSize, int crc, int method, int flags) {}

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final int LOCAL_SIG = 0x04034b50;
    static final int CENTRAL_SIG = 0x02014b50;
    static final int EOCD_SIG = 0x06054b50;
    static final int ZIP64_EOCD_SIG = 0x06064b50;
    static final int ZIP64_LOCATOR_SIG = 0x07064b50;
    private static final int EOCD_SIZE = 22;
    private static final int CENTRAL_SIZE = 46;
    private static final int LOCAL_SIZE = 30;

    private final MemorySegment file;
    private final String what;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    /** Record data must end before the central directory. */
    private long directoryStart;

    private ZipReader(MemorySegment file, String what) {
        this.file = file;
        this.what = what;
    }

    /** True if the file starts with a zip local header ({@code torch.serialization._is_zipfile}). */
    static boolean isZip(MemorySegment file) {
        return file.byteSize() >= 4 && file.get(U32, 0) == LOCAL_SIG;
    }

    /** Parses the central directory of {@code file}; {@code what} names it in messages. */
    static ZipReader open(MemorySegment file, String what) {
        ZipReader z = new ZipReader(file, what);
        z.readDirectory();
        return z;
    }

    /** Entry names in directory order. */
    List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(entries.keySet()));
    }

    /** The entry called {@code name}, or null. */
    Entry entry(String name) {
        return entries.get(name);
    }

    /** The data of a stored entry, as a slice of the file (nothing is read). */
    MemorySegment data(Entry e) {
        if (e.method() != 0) {
            throw corrupt("record '" + e.name() + "' is compressed (method " + e.method()
                    + "); torch.save writes records uncompressed");
        }
        if ((e.flags() & 1) != 0) throw corrupt("record '" + e.name() + "' is encrypted");
        if (e.compressedSize() != e.size())
            throw corrupt("stored record '" + e.name() + "' has different stored and real sizes");
        long h = e.headerOffset();
        if (h > directoryStart - LOCAL_SIZE)
            throw corrupt("local header of '" + e.name() + "' lies outside the records");
        if (file.get(U32, h) != LOCAL_SIG) throw corrupt("local header of '" + e.name() + "' is missing");
        int nameLen = u16(h + 26);
        int extraLen = u16(h + 28);
        long start = h + LOCAL_SIZE + nameLen + extraLen;
        if (start > directoryStart || e.size() > directoryStart - start) {
            throw corrupt("data of '" + e.name() + "' (" + e.size() + " bytes) runs past the records");
        }
        byte[] localName = file.asSlice(h + LOCAL_SIZE, nameLen).toArray(ValueLayout.JAVA_BYTE);
        if (!new String(localName, StandardCharsets.UTF_8).equals(e.name())) {
            throw corrupt("local header of '" + e.name() + "' names another record");
        }
        return file.asSlice(start, e.size());
    }

    /** Checks the CRC-32 of an entry's data. */
    void verify(Entry e, MemorySegment data) {
        CRC32 crc = new CRC32();
        long chunk = 1 << 30;
        for (long off = 0; off < data.byteSize(); off += chunk) {
            crc.update(data.asSlice(off, Math.min(chunk, data.byteSize() - off)).asByteBuffer());
        }
        if ((int) crc.getValue() != e.crc()) {
            throw corrupt("record '" + e.name() + "' fails its CRC-32 check (stored " + Integer.toHexString(e.crc())
                    + ", computed " + Long.toHexString(crc.getValue()) + "): the data are corrupted");
        }
    }

    private void readDirectory() {
        long size = file.byteSize();
        if (size < EOCD_SIZE) throw corrupt("file of " + size + " bytes is too short to be a zip archive (truncated?)");
        long eocd = findEndOfDirectory();
        if (u16(eocd + 4) != 0 || u16(eocd + 6) != 0) throw corrupt("multi-disk archives are not supported");
        long count = u16(eocd + 10);
        long dirSize = u32(eocd + 12);
        long dirOffset = u32(eocd + 16);
        long dirEnd = eocd;
        if (count == 0xffff || dirSize == 0xffffffffL || dirOffset == 0xffffffffL) {
            long locator = eocd - 20;
            if (locator < 0 || file.get(U32, locator) != ZIP64_LOCATOR_SIG)
                throw corrupt("ZIP64 end of directory locator is missing");
            long z64 = file.get(U64, locator + 8);
            if (z64 < 0 || z64 > locator - 56) throw corrupt("ZIP64 end of directory lies outside the file");
            if (file.get(U32, z64) != ZIP64_EOCD_SIG) throw corrupt("ZIP64 end of directory record is missing");
            count = file.get(U64, z64 + 32);
            dirSize = file.get(U64, z64 + 40);
            dirOffset = file.get(U64, z64 + 48);
            dirEnd = z64;
        }
        if (dirOffset < 0 || dirSize < 0 || dirOffset > dirEnd || dirSize > dirEnd - dirOffset) {
            throw corrupt("central directory (" + dirSize + " bytes at " + dirOffset
                    + ") lies outside the file (truncated?)");
        }
        if (count < 0 || count > dirSize / CENTRAL_SIZE)
            throw corrupt("central directory claims " + count + " entries in " + dirSize + " bytes");
        directoryStart = dirOffset;
        long p = dirOffset;
        long end = dirOffset + dirSize;
        for (long i = 0; i < count; i++) p = readEntry(p, end);
    }

    private long findEndOfDirectory() {
        long size = file.byteSize();
        long lowest = Math.max(0, size - EOCD_SIZE - 0xffff);
        for (long p = size - EOCD_SIZE; p >= lowest; p--) {
            if (file.get(U32, p) == EOCD_SIG && p + EOCD_SIZE + u16(p + 20) == size) return p;
        }
        throw corrupt("end of central directory not found (truncated or not a zip file)");
    }

    private long readEntry(long p, long end) {
        if (p > end - CENTRAL_SIZE || file.get(U32, p) != CENTRAL_SIG)
            throw corrupt("central directory entry at " + p + " is damaged");
        int flags = u16(p + 8);
        int method = u16(p + 10);
        int crc = file.get(U32, p + 16);
        long compressed = u32(p + 20);
        long size = u32(p + 24);
        int nameLen = u16(p + 28);
        int extraLen = u16(p + 30);
        int commentLen = u16(p + 32);
        long header = u32(p + 42);
        long next = p + CENTRAL_SIZE + nameLen + extraLen + commentLen;
        if (next > end) throw corrupt("central directory entry at " + p + " runs past the directory");
        String name = new String(
                file.asSlice(p + CENTRAL_SIZE, nameLen).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        // ZIP64 extra field: the 8-byte values that replace 0xffffffff fields, in this order
        long x = p + CENTRAL_SIZE + nameLen;
        long xEnd = x + extraLen;
        while (x + 4 <= xEnd) {
            int id = u16(x);
            int len = u16(x + 2);
            long body = x + 4;
            if (len > xEnd - body) throw corrupt("extra field of '" + name + "' runs past its entry");
            if (id == 1) {
                long q = body;
                if (size == 0xffffffffL) {
                    size = u64(q, body + len, name);
                    q += 8;
                }
                if (compressed == 0xffffffffL) {
                    compressed = u64(q, body + len, name);
                    q += 8;
                }
                if (header == 0xffffffffL) header = u64(q, body + len, name);
            }
            x = body + len;
        }
        if (size < 0 || compressed < 0 || header < 0)
            throw corrupt("entry '" + name + "' has sizes or offsets above 2^63");
        if (entries.putIfAbsent(name, new Entry(name, header, size, compressed, crc, method, flags)) != null) {
            throw corrupt("record '" + name + "' appears twice");
        }
        return next;
    }

    private long u64(long at, long limit, String name) {
        if (at + 8 > limit) throw corrupt("ZIP64 field of '" + name + "' is truncated");
        return file.get(U64, at);
    }

    private int u16(long at) {
        return file.get(U16, at) & 0xffff;
    }

    private long u32(long at) {
        return file.get(U32, at) & 0xffffffffL;
    }

    private TorchException corrupt(String detail) {
        return new TorchException(what + ": not a valid checkpoint archive: " + detail);
    }
}
