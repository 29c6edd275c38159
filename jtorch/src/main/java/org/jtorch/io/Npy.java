package org.jtorch.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * NumPy's array files: {@code .npy} ({@code np.save} / {@code np.load}) and {@code .npz} ({@code np.savez},
 * uncompressed zip of {@code .npy} members; {@code np.savez_compressed} archives are read too).
 *
 * <p>Dtypes by descr: {@code |b1}, {@code i1}..{@code i8}, {@code u1}..{@code u8}, {@code f2}, {@code f4}, {@code f8},
 * {@code c8}, {@code c16}. Reading accepts both byte orders (big-endian data are converted) and C or Fortran order (a
 * Fortran array loads as a column-major view, as {@code torch.from_numpy} gives; call {@code contiguous()} for
 * row-major). Object arrays and pickles are refused: they could run code. Writing uses C order, little-endian, and
 * refuses the dtypes NumPy lacks (bfloat16, float8, complex32): convert them first or use {@link Safetensors}.
 *
 * <p>Reading treats the file as hostile: header size, shape and dtype are checked, and the data size is checked against
 * what the file (or zip entry) really holds, before anything is allocated; truncated, over-long and corrupted files
 * raise {@link TorchException} naming the file. Loaded arrays are copies on the Java heap. I/O failures (missing file,
 * permissions) are {@link UncheckedIOException}s. Writes are atomic (temporary file, fsync, rename).
 */
public final class Npy {
    /** Deflate cannot expand data by more than about 1032:1; a zip entry claiming more is forged. */
    private static final long MAX_DEFLATE_RATIO = 1032;
    /** A fixed entry time makes archives byte-reproducible (np.savez stamps the current time). */
    private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(1980, 1, 1, 0, 0);

    private Npy() {}

    /** {@code np.save(path, t)}. */
    public static void save(Tensor t, Path path) {
        Tensor c = SafetensorsFiles.contiguousData(validated(t, "npy: tensor"));
        byte[] header = NpyHeader.encode(c.dtype(), c.impl().shapeRef());
        SafetensorsFiles.writeAtomically(path, ch -> {
            SafetensorsFiles.writeFully(ch, ByteBuffer.wrap(header));
            SafetensorsFiles.forEachChunk(c, b -> SafetensorsFiles.writeFully(ch, b));
        });
    }

    /** {@code np.load(path)} of a {@code .npy} file. */
    public static Tensor load(Path path) {
        String source = "npy file " + path;
        try (InputStream in = Files.newInputStream(path)) {
            return read(in, Files.size(path), source);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code np.savez(path, **arrays)}: an uncompressed zip with one {@code <name>.npy} member per tensor, in map
     * order.
     */
    public static void saveZ(Map<String, Tensor> arrays, Path path) {
        if (arrays == null) throw new IllegalArgumentException("npz: the array map is null");
        for (var e : arrays.entrySet()) {
            if (e.getKey() == null) throw new IllegalArgumentException("npz: array names must not be null");
            validated(e.getValue(), "npz: array " + SafetensorsHeader.quoted(e.getKey()));
        }
        SafetensorsFiles.writeAtomically(path, ch -> {
            ZipOutputStream zip =
                    new ZipOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), SafetensorsFiles.CHUNK));
            for (var e : arrays.entrySet()) {
                writeMember(zip, e.getKey() + ".npy", SafetensorsFiles.contiguousData(e.getValue()));
            }
            zip.finish();
            zip.flush();
        });
    }

    /** A stored (uncompressed) member: its size and CRC must be known before it is written, hence two passes. */
    private static void writeMember(ZipOutputStream zip, String name, Tensor c) throws IOException {
        byte[] header = NpyHeader.encode(c.dtype(), c.impl().shapeRef());
        CRC32 crc = new CRC32();
        crc.update(header);
        SafetensorsFiles.forEachChunk(c, crc::update);
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(header.length + SafetensorsFiles.byteSize(c));
        entry.setCompressedSize(entry.getSize());
        entry.setCrc(crc.getValue());
        entry.setTimeLocal(ENTRY_TIME);
        zip.putNextEntry(entry);
        zip.write(header);
        OutputStream out = zip;
        SafetensorsFiles.forEachChunk(c, b -> out.write(b.array(), b.arrayOffset() + b.position(), b.remaining()));
        zip.closeEntry();
    }

    /**
     * {@code np.load(path)} of a {@code .npz} archive: member {@code <name>.npy} becomes key {@code <name>}, in archive
     * order (a new, modifiable map). Every member is read and CRC-checked; compressed members may expand up to
     * deflate's limit of about 1000:1, never beyond.
     */
    public static Map<String, Tensor> loadZ(Path path) {
        String source = "npz file " + path;
        long fileSize;
        try {
            fileSize = Files.size(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
        try (ZipFile zip = new ZipFile(path.toFile())) {
            Map<String, Tensor> out = new LinkedHashMap<>();
            long claimed = 0;
            for (Enumeration<? extends ZipEntry> en = zip.entries(); en.hasMoreElements(); ) {
                ZipEntry entry = en.nextElement();
                String where = source + ", member " + SafetensorsHeader.quoted(entry.getName());
                String name = entry.getName();
                if (entry.isDirectory() || !name.endsWith(".npy"))
                    throw new TorchException(where + " is not a .npy array");
                String key = name.substring(0, name.length() - 4);
                if (out.containsKey(key)) throw new TorchException(where + " appears twice");
                claimed += checkSizes(entry, fileSize, where);
                // Members may not share bytes: overlapping members (a zip-bomb trick) would let a small file claim huge
                // arrays.
                if (claimed > fileSize)
                    throw new TorchException(where + ": members claim more bytes than the file holds");
                out.put(key, readMember(zip, entry, where));
            }
            return out;
        } catch (IOException e) {
            String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            throw new TorchException(source + ": not a valid .npz (zip) archive: " + why, e);
        }
    }

    /** Returns the compressed size after checking the member's declared sizes against the file. */
    private static long checkSizes(ZipEntry entry, long fileSize, String where) {
        long size = entry.getSize(), packed = entry.getCompressedSize();
        if (size < 0 || packed < 0) throw new TorchException(where + " has no recorded size");
        if (entry.getMethod() == ZipEntry.STORED ? size != packed : size > packed * MAX_DEFLATE_RATIO + 1024) {
            throw new TorchException(
                    where + " claims " + size + " bytes from " + packed + " stored bytes, which is impossible");
        }
        return packed;
    }

    private static Tensor readMember(ZipFile zip, ZipEntry entry, String where) throws IOException {
        try (CheckedInputStream in = new CheckedInputStream(zip.getInputStream(entry), new CRC32())) {
            Tensor t = read(in, entry.getSize(), where);
            if (in.read() >= 0) throw new TorchException(where + ": more data than its recorded size");
            if (entry.getCrc() >= 0 && in.getChecksum().getValue() != entry.getCrc()) {
                throw new TorchException(where + ": CRC mismatch, the archive is corrupted");
            }
            return t;
        }
    }

    /** Checks that NumPy can hold the tensor, before anything is written. */
    private static Tensor validated(Tensor t, String what) {
        if (t == null) throw new IllegalArgumentException(what + " is null");
        if (t.isMeta()) throw new IllegalArgumentException(what + " is on the meta device and has no data to save");
        if (NpyHeader.descrOf(t.dtype()) == null) {
            throw new IllegalArgumentException(
                    what + " has dtype " + t.dtype() + ", which NumPy lacks; convert it first "
                            + "(e.g. to(DType.FLOAT32)) or save it with Safetensors");
        }
        if (t.dim() > NpyHeader.MAX_RANK) {
            throw new IllegalArgumentException(
                    what + " has " + t.dim() + " dimensions; NumPy allows at most " + NpyHeader.MAX_RANK);
        }
        return t;
    }

    /**
     * Reads one array from {@code in}, which holds exactly {@code available} bytes (a file, a zip member). Every size
     * is checked against {@code available} before the data array is allocated.
     */
    private static Tensor read(InputStream in, long available, String source) throws IOException {
        byte[] pre = in.readNBytes(8);
        if (pre.length < 8 || !Arrays.equals(pre, 0, 6, NpyHeader.MAGIC, 0, 6)) throw notNpy(pre, source);
        int major = pre[6] & 0xFF, minor = pre[7] & 0xFF;
        if (minor != 0 || major < 1 || major > 3) {
            throw new TorchException(source + ": unsupported .npy format version " + major + "." + minor);
        }
        int lengthBytes = major == 1 ? 2 : 4;
        byte[] lb = in.readNBytes(lengthBytes);
        if (lb.length < lengthBytes) throw new TorchException(source + ": truncated inside the .npy preamble");
        long headerLength = lengthBytes == 2
                ? ByteBuffer.wrap(lb).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xFFFFL
                : ByteBuffer.wrap(lb).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
        if (headerLength > NpyHeader.MAX_HEADER_BYTES) {
            throw new TorchException(source + ": header length " + headerLength + " exceeds NumPy's limit of "
                    + NpyHeader.MAX_HEADER_BYTES + " bytes");
        }
        long dataStart = 8 + lengthBytes + headerLength;
        if (dataStart > available) throw new TorchException(source + ": truncated inside the header");
        byte[] hb = in.readNBytes((int) headerLength);
        if (hb.length < headerLength) throw new TorchException(source + ": truncated inside the header");
        NpyHeader h = NpyHeader.parse(headerText(hb, major, source), source);
        long dataBytes = h.dataBytes(source);
        long present = available - dataStart;
        if (present < dataBytes) {
            throw new TorchException(source + ": truncated: shape " + NpyHeader.shapeRepr(h.shape()) + " needs "
                    + dataBytes + " bytes of data, the file holds " + present);
        }
        if (present > dataBytes) {
            throw new TorchException(source + ": " + (present - dataBytes) + " unexpected bytes after the " + dataBytes
                    + " bytes of array data (several arrays appended to one file?)");
        }
        Storage st = allocate(h, dataBytes, source);
        readData(in, st, h, dataBytes, source);
        long[] shape = h.shape().clone();
        return Tensor.of(TensorImpl.of(
                st,
                0,
                shape,
                h.fortranOrder() ? columnMajorStrides(shape) : Shapes.contiguousStrides(shape),
                h.dtype()));
    }

    private static TorchException notNpy(byte[] pre, String source) {
        if (pre.length > 0 && (pre[0] & 0xFF) == 0x80) {
            return new TorchException(
                    source + " is a Python pickle, not a .npy array; pickles are refused because loading "
                            + "them can run arbitrary code");
        }
        if (pre.length >= 4 && pre[0] == 'P' && pre[1] == 'K' && pre[2] == 3 && pre[3] == 4) {
            return new TorchException(source + " is a zip archive (.npz), not a .npy array; load it with Npy.loadZ");
        }
        if (pre.length < 8 && Arrays.equals(pre, 0, pre.length, NpyHeader.MAGIC, 0, Math.min(pre.length, 6))) {
            return new TorchException(source + ": truncated: " + pre.length + " bytes, shorter than the .npy preamble");
        }
        return new TorchException(source + " is not a .npy file (bad magic bytes)");
    }

    /** Versions 1 and 2 store the header in Latin-1, version 3 in UTF-8. */
    private static String headerText(byte[] hb, int major, String source) {
        if (major < 3) return new String(hb, StandardCharsets.ISO_8859_1);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(hb))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new TorchException(source + ": header is not valid UTF-8");
        }
    }

    private static Storage allocate(NpyHeader h, long dataBytes, String source) {
        DType.StorageKind kind = h.dtype().storageKind();
        try {
            return Storage.allocate(kind, dataBytes / Storage.slotBytes(kind));
        } catch (TorchException tooLarge) {
            throw new TorchException(source + ": " + tooLarge.getMessage());
        }
    }

    /** Copies the data in chunks, swapping bytes of big-endian files per primitive slot (each half of a complex). */
    private static void readData(InputStream in, Storage st, NpyHeader h, long dataBytes, String source)
            throws IOException {
        int width = Storage.slotBytes(st.kind());
        ValueLayout big = h.bigEndian() && width > 1 ? swapLayout(width) : null;
        byte[] buf = new byte[(int) Math.min(SafetensorsFiles.CHUNK, dataBytes)];
        MemorySegment chunk = MemorySegment.ofArray(buf);
        for (long p = 0; p < dataBytes; ) {
            int n = (int) Math.min(buf.length, dataBytes - p);
            int got = in.readNBytes(buf, 0, n);
            if (got < n) {
                throw new TorchException(
                        source + ": truncated: the data end after " + (p + got) + " of " + dataBytes + " bytes");
            }
            if (big != null) {
                MemorySegment.copy(chunk, big, 0, st.segment(), big.withOrder(ByteOrder.LITTLE_ENDIAN), p, n / width);
            } else {
                MemorySegment.copy(chunk, 0, st.segment(), p, n);
            }
            p += n;
        }
        if (h.dtype() == DType.BOOL) Safetensors.normalizeBools((byte[]) st.array());
    }

    /** Integer layouts (bit patterns swap exactly, NaN payloads included). */
    private static ValueLayout swapLayout(int width) {
        ValueLayout l =
                switch (width) {
                    case 2 -> ValueLayout.JAVA_SHORT_UNALIGNED;
                    case 4 -> ValueLayout.JAVA_INT_UNALIGNED;
                    default -> ValueLayout.JAVA_LONG_UNALIGNED;
                };
        return l.withOrder(ByteOrder.BIG_ENDIAN);
    }

    /** Fortran (column-major) strides: the first index varies fastest. */
    private static long[] columnMajorStrides(long[] shape) {
        long[] s = new long[shape.length];
        long step = 1;
        for (int i = 0; i < shape.length; i++) {
            s[i] = step;
            step *= Math.max(shape[i], 1);
        }
        return s;
    }
}
