package org.jtorch.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The records of a zip archive whose records are stored uncompressed, as {@code torch.save} and
 * {@code torch.export.save} write them, read with the checkpoint reader's checks: every offset and length in the
 * directory and headers is checked against the file before it is used, each record read is checked against its CRC-32,
 * and a tensor made from a record must fit in it. Problems raise {@link TorchException} naming the file and the record;
 * I/O errors are {@link UncheckedIOException}s.
 *
 * <p>The file is mapped while the archive is open; what {@link #bytes}, {@link #tensor} and {@link #checkpoint} return
 * is copied out of it and outlives {@link #close()}.
 */
public final class ZipRecords implements AutoCloseable {
    private final MappedFile file;
    private final ZipReader zip;
    private final String what;
    /** The records read as storages, so that tensors over one record share it (tied weights stay tied). */
    private final Map<String, Storage> storages = new HashMap<>();

    private ZipRecords(MappedFile file, ZipReader zip, String what) {
        this.file = file;
        this.zip = zip;
        this.what = what;
    }

    /** Opens {@code path} and reads its directory. */
    public static ZipRecords open(Path path) {
        String what = String.valueOf(path);
        MappedFile mapped;
        try {
            mapped = MappedFile.forCopying(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
        try {
            if (!ZipReader.isZip(mapped.segment())) throw new TorchException(what + " is not a zip archive");
            return new ZipRecords(mapped, ZipReader.open(mapped.segment(), what), what);
        } catch (RuntimeException e) {
            mapped.close();
            throw e;
        }
    }

    /** The records' names, in directory order. */
    public List<String> names() {
        return zip.names();
    }

    /** Whether a record is called {@code name}. */
    public boolean contains(String name) {
        return zip.entry(name) != null;
    }

    /** The record's bytes, checked against its CRC-32; refused when it holds more than {@code maxBytes}. */
    public byte[] bytes(String name, long maxBytes) {
        ZipReader.Entry e = entry(name);
        if (e.size() > maxBytes) {
            throw new TorchException(what + ": record '" + name + "' declares " + e.size() + " bytes, more than the "
                    + maxBytes + " such a record may hold");
        }
        MemorySegment data = zip.data(e);
        zip.verify(e, data);
        return data.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * A tensor of {@code dtype} with the given geometry over the record's bytes (little-endian, as
     * {@code torch.export.save} writes them), copied out of the file once: tensors over one record share its copy. The
     * geometry must lie inside the record.
     */
    public Tensor tensor(String name, DType dtype, long[] size, long[] stride, long storageOffset) {
        if (size.length != stride.length) {
            throw new TorchException(what + ": tensor '" + name + "' has size " + Shapes.str(size) + " and stride "
                    + Shapes.str(stride) + " of different lengths");
        }
        for (int d = 0; d < size.length; d++) {
            if (size[d] < 0 || stride[d] < 0) {
                throw new TorchException(what + ": tensor '" + name + "' has a negative size or stride: size "
                        + Shapes.str(size) + ", stride " + Shapes.str(stride));
            }
        }
        if (storageOffset < 0) throw new TorchException(what + ": tensor '" + name + "' has a negative offset");
        ZipReader.Entry e = entry(name);
        if (e.size() % dtype.itemSize() != 0) {
            throw new TorchException(what + ": record '" + name + "' holds " + e.size() + " bytes, not a whole number"
                    + " of " + dtype.pyName() + " elements");
        }
        long elements = e.size() / dtype.itemSize();
        long extent = extent(name, storageOffset, size, stride);
        if (extent > elements) {
            throw new TorchException(what + ": tensor '" + name + "' of size " + Shapes.str(size) + ", stride "
                    + Shapes.str(stride) + " and offset " + storageOffset + " needs " + extent
                    + " elements but its record holds " + elements);
        }
        Storage s = storages.get(name);
        if (s != null && s.kind() != dtype.storageKind()) {
            throw new TorchException(what + ": record '" + name + "' is read as two dtypes of different kinds");
        }
        if (s == null) {
            MemorySegment data = zip.data(e);
            zip.verify(e, data);
            DType.StorageKind kind = dtype.storageKind();
            s = Storage.allocate(kind, e.size() / Storage.slotBytes(kind));
            MemorySegment.copy(data, 0, s.segment(), 0, e.size());
            if (dtype == DType.BOOL) Safetensors.normalizeBools((byte[]) s.array());
            storages.put(name, s);
        }
        return Tensor.of(TensorImpl.of(s, storageOffset, size.clone(), stride.clone(), dtype));
    }

    /**
     * The record as a {@code torch.save} checkpoint (a zip inside the zip, as {@code torch.export.save} before 2.8
     * stored the state dict), loaded with {@code weights_only=True}.
     */
    public Object checkpoint(String name) {
        ZipReader.Entry e = entry(name);
        MemorySegment data = zip.data(e);
        zip.verify(e, data);
        String inner = what + ":" + name;
        if (!ZipReader.isZip(data)) throw new TorchException(inner + " is not a torch.save checkpoint (zip format)");
        return ZipCheckpoint.load(data, inner, LoadOptions.defaults(), Map.of(), null);
    }

    private ZipReader.Entry entry(String name) {
        ZipReader.Entry e = zip.entry(name);
        if (e == null) throw new TorchException(what + ": the archive has no record '" + name + "'");
        return e;
    }

    /** Elements a strided tensor needs: {@code offset + Σ (size_i − 1)·stride_i + 1}, 0 when empty. */
    private long extent(String name, long offset, long[] size, long[] stride) {
        for (long s : size) {
            if (s == 0) return 0;
        }
        try {
            long last = offset;
            for (int i = 0; i < size.length; i++)
                last = Math.addExact(last, Math.multiplyExact(size[i] - 1, stride[i]));
            return Math.addExact(last, 1);
        } catch (ArithmeticException overflow) {
            throw new TorchException(what + ": the geometry of tensor '" + name + "' overflows 64 bits");
        }
    }

    /** Unmaps the file. */
    @Override
    public void close() {
        file.close();
    }
}
