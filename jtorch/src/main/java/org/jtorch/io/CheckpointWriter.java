package org.jtorch.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code torch.save} to a path: pickles the object, then writes the archive records in PyTorch's order
 * ({@code data.pkl}, {@code .format_version}, {@code .storage_alignment}, {@code byteorder}, {@code data/0...},
 * {@code version}, {@code .data/serialization_id}) atomically.
 */
final class CheckpointWriter {
    /** {@code .format_version} 1: storages are numbered in first-seen order. */
    static final String FORMAT_VERSION = "1";
    /** File format version of {@code torch.save} archives ({@code kMinProducedFileFormatVersion}). */
    static final String FILE_VERSION = "3\n";

    private CheckpointWriter() {}

    static void save(Object obj, Path path) throws IOException {
        PickleWriter pickler = new PickleWriter();
        byte[] pickle = pickler.dump(obj);
        AtomicFile.write(path, out -> {
            ZipWriter zip = new ZipWriter(out, archiveName(path));
            zip.write("data.pkl", pickle);
            zip.write(".format_version", ascii(FORMAT_VERSION));
            zip.write(".storage_alignment", ascii(String.valueOf(ZipWriter.ALIGNMENT)));
            zip.write("byteorder", ascii("little"));
            for (PickleWriter.SavedStorage s : pickler.storages()) {
                zip.write("data/" + s.key(), s.storage().segment().asSlice(0, s.nbytes()));
            }
            zip.write("version", ascii(FILE_VERSION));
            zip.write(".data/serialization_id", ascii(serializationId()));
            zip.finish();
        });
    }

    /**
     * The top-level directory: the file name without its extension, as PyTorch names it ({@code model.pt → model/}).
     */
    static String archiveName(Path path) {
        Path name = path.getFileName();
        String base = name == null ? "" : name.toString();
        int dot = base.lastIndexOf('.');
        if (dot > 0) base = base.substring(0, dot);
        return base.isEmpty() ? "archive" : base;
    }

    private static String serializationId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return String.format("%010d%010d", r.nextLong(10_000_000_000L), r.nextLong(10_000_000_000L));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
