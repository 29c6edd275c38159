package org.jtorch.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.storage.TensorImpl;

/**
 * Writes a zip archive of uncompressed records under one top-level directory, laid out as PyTorch's
 * {@code PyTorchStreamWriter} lays them out (each record's data 64-byte aligned), which is what {@code torch.save} and
 * {@code torch.export.save} write. Records are collected, then {@link #save} writes the file atomically: a reader sees
 * the old file or the complete new one.
 */
public final class ZipRecordsWriter {
    private record Pending(String name, MemorySegment data) {}

    private final String archiveName;
    private final List<Pending> records = new ArrayList<>();

    /** An archive whose records go under {@code archiveName/}. */
    public ZipRecordsWriter(String archiveName) {
        if (archiveName.isEmpty() || archiveName.contains("/")) {
            throw new TorchException("ZipRecordsWriter: archive name '" + archiveName + "' must be one path element");
        }
        this.archiveName = archiveName;
    }

    /** Adds record {@code name} holding {@code data}. */
    public void add(String name, byte[] data) {
        records.add(new Pending(name, MemorySegment.ofArray(data.clone())));
    }

    /** Adds record {@code name} holding the text in UTF-8. */
    public void add(String name, String text) {
        add(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Adds record {@code name} holding the tensor's elements in row-major order, in their little-endian bytes. */
    public void add(String name, Tensor tensor) {
        if (tensor.impl().storage().isFake() || tensor.impl().storage().isMeta()) {
            throw new TorchException("ZipRecordsWriter: tensor '" + name + "' has no data (a meta or fake tensor)");
        }
        TensorImpl c = tensor.detach().contiguous().impl();
        long itemSize = tensor.dtype().itemSize();
        long start = c.storageOffset() * itemSize;
        records.add(new Pending(name, c.storage().segment().asSlice(start, c.numel() * itemSize)));
    }

    /** Writes the archive to {@code path}. */
    public void save(Path path) {
        try {
            AtomicFile.write(path, out -> {
                ZipWriter zip = new ZipWriter(out, archiveName);
                for (Pending r : records) zip.write(r.name(), r.data());
                zip.finish();
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }
}
