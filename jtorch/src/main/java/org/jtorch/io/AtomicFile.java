package org.jtorch.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a file atomically: the content goes to a temporary file in the same directory, which is flushed to the
 * device ({@code fsync}) and then renamed over the target, and the directory entry is flushed too. A crash at any point
 * leaves either the old file or the new one, never a mix.
 */
final class AtomicFile {
    /** Writes the content. */
    interface Body {
        void write(FileChannel out) throws IOException;
    }

    private AtomicFile() {}

    static void write(Path target, Body body) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        String tmpName = "." + abs.getFileName() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp";
        Path tmp = dir.resolve(tmpName);
        boolean done = false;
        try {
            // CREATE_NEW (not createTempFile) so that the file gets the usual umask permissions, as PyTorch's do
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                body.write(out);
                out.force(true);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
            syncDirectory(dir);
        } finally {
            if (!done) Files.deleteIfExists(tmp);
        }
    }

    /** Makes the rename durable; file systems that cannot open a directory for sync are skipped. */
    private static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // Windows and some file systems: the rename itself is what they offer
        }
    }
}
