package org.jtorch.compile.inductor.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The optional on-disk kernel cache: the directory named by {@code -Djtorch.inductor.cacheDir} holds one class file per
 * kernel, named by the kernel's class name (which ends with a hash of its source). Files are written to a temporary
 * name and moved into place, so a concurrent process never reads half a file. Without the property nothing is read or
 * written.
 */
final class DiskCache {
    private DiskCache() {}

    /** The system property naming the cache directory. */
    static final String PROPERTY = "jtorch.inductor.cacheDir";

    private static Path directory() {
        String dir = System.getProperty(PROPERTY);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    /** The class files of {@code classNames} found on disk, by class name. */
    static Map<String, byte[]> load(Collection<String> classNames) {
        Path dir = directory();
        Map<String, byte[]> out = new HashMap<>();
        if (dir == null) return out;
        for (String name : classNames) {
            Path file = dir.resolve(name + ".class");
            try {
                if (Files.isRegularFile(file)) out.put(name, Files.readAllBytes(file));
            } catch (IOException e) {
                throw new UncheckedIOException("inductor: cannot read cached kernel " + file, e);
            }
        }
        return out;
    }

    /** Writes {@code classes} to the cache directory, if there is one. */
    static void store(Map<String, byte[]> classes) {
        Path dir = directory();
        if (dir == null) return;
        try {
            Files.createDirectories(dir);
            for (var e : classes.entrySet()) {
                Path tmp = Files.createTempFile(dir, e.getKey(), ".tmp");
                Files.write(tmp, e.getValue());
                try {
                    Files.move(tmp, dir.resolve(e.getKey() + ".class"), StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException notAtomic) {
                    Files.move(tmp, dir.resolve(e.getKey() + ".class"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("inductor: cannot write the kernel cache in " + dir, e);
        }
    }
}
