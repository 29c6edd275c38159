package org.jtorch.compile.inductor.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The optional on-disk kernel cache: the directory named by {@code -Djtorch.inductor.cacheDir} holds one class file per
 * kernel, named by the kernel's class name (which ends with a hash of its listing). Files are written to a temporary
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

    /** The class file of kernel class {@code className} found on disk, or null. */
    static byte[] load(String className) {
        Path dir = directory();
        if (dir == null) return null;
        Path file = dir.resolve(className + ".class");
        try {
            return Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("inductor: cannot read cached kernel " + file, e);
        }
    }

    /** Writes the class file of kernel class {@code className} to the cache directory, if there is one. */
    static void store(String className, byte[] bytes) {
        Path dir = directory();
        if (dir == null) return;
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, className, ".tmp");
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, dir.resolve(className + ".class"), StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException notAtomic) {
                Files.move(tmp, dir.resolve(className + ".class"), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("inductor: cannot write the kernel cache in " + dir, e);
        }
    }
}
