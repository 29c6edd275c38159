package org.jtorch.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Replaces a file atomically: the content goes to a temporary file in the same directory, which is flushed to the
 * device ({@code fsync}) and then renamed over the target, and the directory entry is flushed too. A crash at any point
 * leaves either the old file or the new one, never a mix.
 *
 * <p>A process killed while it writes leaves its temporary file behind (as large as the checkpoint). So the writer
 * holds an exclusive lock on its temporary file until the rename, and every save first deletes the temporaries of the
 * same target that no one holds locked: the operating system drops the locks of a dead process, so those are exactly
 * the leftovers of crashed saves, while a concurrent save (another thread or process) keeps its file.
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
        String name = abs.getFileName().toString();
        sweepStale(dir, name);
        while (true) {
            Path tmp = dir.resolve("." + name + "."
                    + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ".tmp");
            // CREATE_NEW (not createTempFile) so that the file gets the usual umask permissions, as PyTorch's do
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                if (!lockStillOwned(out, tmp)) continue; // a sweep took it between creation and lock: draw a new name
                boolean done = false;
                try {
                    body.write(out);
                    out.force(true);
                    // renamed while still locked, so that no sweep can delete it before it becomes the target
                    try {
                        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException e) {
                        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
                    }
                    done = true;
                } finally {
                    if (!done) Files.deleteIfExists(tmp);
                }
            }
            syncDirectory(dir);
            return;
        }
    }

    /**
     * Locks the new temporary file, then checks that its name still leads to it: a sweep deletes only under the lock,
     * so a file found after locking is this writer's for good.
     */
    private static boolean lockStillOwned(FileChannel out, Path tmp) throws IOException {
        try {
            out.lock();
        } catch (OverlappingFileLockException sweptInThisProcess) {
            return false;
        }
        return Files.exists(tmp);
    }

    /** Deletes the temporaries of {@code name} that no live save holds locked: what killed saves left. */
    private static void sweepStale(Path dir, String name) throws IOException {
        Pattern mine = Pattern.compile(Pattern.quote("." + name + ".") + "[0-9a-f]{1,16}\\.tmp");
        DirectoryStream.Filter<Path> leftovers =
                p -> mine.matcher(p.getFileName().toString()).matches();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, leftovers)) {
            for (Path p : entries) deleteIfUnlocked(p);
        }
    }

    private static void deleteIfUnlocked(Path p) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE);
                FileLock lock = ch.tryLock()) {
            if (lock != null) Files.deleteIfExists(p);
        } catch (OverlappingFileLockException | IOException inUseOrGone) {
            // a save of this process holds it, or it was renamed or removed meanwhile: not a leftover
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
