package org.jtorch.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The safetensors format ({@code safetensors.torch.save_file / load_file / safe_open}): an 8-byte header length, a JSON
 * header naming each tensor's dtype, shape and byte range, then the raw little-endian, row-major data. Unlike pickle
 * checkpoints, loading runs no code.
 *
 * <p>Dtypes: BOOL, U8, I8, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64, F8_E4M3 (float8_e4m3fn), F8_E5M2, F8_E8M0
 * (float8_e8m0fnu) and C64 (complex64). The sub-byte F4/F6 types have no JTorch dtype and are refused on read;
 * complex128, complex32 and the fnuz float8 types have no safetensors name and are refused on write.
 *
 * <p>Reading treats the file as hostile: the whole header is validated before any tensor exists (length at most
 * 100,000,000 bytes and inside the file, a UTF-8 JSON object, no duplicate names, known dtypes, sizes without overflow,
 * byte ranges that match the shapes and tile the data exactly), every problem is a {@link TorchException} naming the
 * file, and nothing is allocated from a size the file merely claims. Files are memory-mapped by default: tensors are
 * copy-on-write views of the file (zero copy; in-place changes stay in memory and the file never changes). Java maps
 * privately only through a writable channel, so a file this process may not write is mapped read-only, and in-place
 * writes to its tensors fail with IllegalArgumentException; {@code load(path, false)} copies instead. As with any
 * memory map, a file truncated in place by another process while mapped makes later reads of the lost pages fail
 * (InternalError); replacing it, as {@link #save} does, is safe. I/O failures (missing file, permissions) are
 * {@link UncheckedIOException}s.
 *
 * <p>Writing is atomic (temporary file, fsync, rename), so a crash never leaves a torn file and overwriting a file
 * whose tensors are still mapped is safe. Non-contiguous tensors are written contiguous; tensors sharing memory are
 * refused, as in safetensors' torch helpers.
 */
public final class Safetensors {
    private Safetensors() {}

    /** {@code save_file(tensors, path)}: writes the tensors in map order. */
    public static void save(Map<String, Tensor> tensors, Path path) {
        save(tensors, null, path);
    }

    /** {@code save_file(tensors, path, metadata)}; {@code metadata} may be null (no {@code __metadata__}). */
    public static void save(Map<String, Tensor> tensors, Map<String, String> metadata, Path path) {
        SafetensorsWriter w = new SafetensorsWriter(tensors, metadata);
        SafetensorsFiles.writeAtomically(path, ch -> w.write(b -> SafetensorsFiles.writeFully(ch, b)));
    }

    /** {@code safetensors.torch.save(tensors, metadata)}: the file's bytes in memory (at most 2 GiB). */
    public static byte[] serialize(Map<String, Tensor> tensors, Map<String, String> metadata) {
        SafetensorsWriter w = new SafetensorsWriter(tensors, metadata);
        if (w.totalBytes() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "safetensors: " + w.totalBytes() + " bytes do not fit a byte array; save to a file");
        }
        ByteBuffer out = ByteBuffer.allocate((int) w.totalBytes());
        try {
            w.write(out::put);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.array();
    }

    /** {@code load_file(path)}: every tensor, in header order (a new, modifiable map), memory-mapped (zero copy). */
    public static Map<String, Tensor> load(Path path) {
        return load(path, true);
    }

    /**
     * {@code load_file(path)}: every tensor in header order; memory-mapped when {@code mmap}, otherwise copied into
     * heap arrays (the file is not held open or mapped afterwards).
     */
    public static Map<String, Tensor> load(Path path, boolean mmap) {
        String source = source(path);
        try (FileChannel ch =
                mmap ? SafetensorsFiles.openForMapping(path) : FileChannel.open(path, StandardOpenOption.READ)) {
            SafetensorsHeader h = SafetensorsHeader.read(ch, source);
            if (mmap) return tensors(h, SafetensorsFiles.map(ch, h.dataStart(), h.dataLength()), true, source);
            try (Arena arena = Arena.ofConfined()) {
                return tensors(
                        h, ch.map(FileChannel.MapMode.READ_ONLY, h.dataStart(), h.dataLength(), arena), false, source);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /** {@code safetensors.torch.load(data)}: parses a file held in memory; the tensors are copies (in header order). */
    public static Map<String, Tensor> deserialize(byte[] data) {
        String source = "safetensors data";
        SafetensorsHeader h = SafetensorsHeader.read(data, source);
        return tensors(h, MemorySegment.ofArray(data).asSlice(h.dataStart()), false, source);
    }

    /**
     * {@code safe_open(path).metadata()}: the {@code __metadata__} strings (empty when absent), in file order. Reads
     * only the header, but validates it whole, so a corrupted file is refused here too.
     */
    public static Map<String, String> loadMetadata(Path path) {
        String source = source(path);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            return new LinkedHashMap<>(SafetensorsHeader.read(ch, source).metadata());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /** {@code safe_open(path)}: a lazy reader; tensors are made (as mapped views) only when asked for. */
    public static SafetensorsFile open(Path path) {
        String source = source(path);
        try (FileChannel ch = SafetensorsFiles.openForMapping(path)) {
            SafetensorsHeader h = SafetensorsHeader.read(ch, source);
            return new SafetensorsFile(source, h, SafetensorsFiles.map(ch, h.dataStart(), h.dataLength()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    static String source(Path path) {
        return "safetensors file " + path;
    }

    private static Map<String, Tensor> tensors(SafetensorsHeader h, MemorySegment data, boolean view, String source) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (SafetensorsHeader.Entry e : h.entries()) out.put(e.name(), view ? view(e, data) : copy(e, data, source));
        return out;
    }

    /** A tensor over the entry's bytes of {@code data} (a validated header guarantees they are inside). */
    static Tensor view(SafetensorsHeader.Entry e, MemorySegment data) {
        Storage s = Storage.ofSegment(e.dtype().storageKind(), data.asSlice(e.begin(), e.byteSize()));
        return Tensor.of(TensorImpl.of(s, 0, e.shape().clone(), Shapes.contiguousStrides(e.shape()), e.dtype()));
    }

    private static Tensor copy(SafetensorsHeader.Entry e, MemorySegment data, String source) {
        DType.StorageKind kind = e.dtype().storageKind();
        Storage s;
        try {
            s = Storage.allocate(kind, e.byteSize() / Storage.slotBytes(kind));
        } catch (TorchException tooLarge) {
            throw new TorchException(source + ": tensor " + SafetensorsHeader.quoted(e.name()) + ": "
                    + tooLarge.getMessage() + "; load it memory-mapped instead");
        }
        MemorySegment.copy(data, e.begin(), s.segment(), 0, e.byteSize());
        if (e.dtype() == DType.BOOL) normalizeBools((byte[]) s.array());
        return Tensor.of(TensorImpl.of(s, 0, e.shape().clone(), Shapes.contiguousStrides(e.shape()), e.dtype()));
    }

    /** Bytes other than 0 and 1 are not valid bools; kernels that test bytes directly expect exactly 0 or 1. */
    static void normalizeBools(byte[] a) {
        for (int i = 0; i < a.length; i++) if (a[i] != 0) a[i] = 1;
    }
}
