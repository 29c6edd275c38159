package org.jtorch.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Test helpers to look inside checkpoint archives. */
final class Zips {
    private Zips() {}

    /** The whole file, mapped read-only. */
    static MemorySegment map(Path p) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), Arena.ofAuto());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a record. */
    static byte[] record(ZipReader z, String name) {
        ZipReader.Entry e = z.entry(name);
        if (e == null) throw new AssertionError("no record " + name + " in " + z.names());
        return z.data(e).toArray(ValueLayout.JAVA_BYTE);
    }

    /** File offset of a record's data. */
    static long dataOffset(Path p, String name) {
        MemorySegment file = map(p);
        ZipReader z = ZipReader.open(file, p.toString());
        return z.data(z.entry(name)).address() - file.address();
    }
}
