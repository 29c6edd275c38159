package org.jtorch.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * A parsed and fully validated safetensors header: the tensor entries in header order, the {@code __metadata__}
 * strings, and where the byte buffer lies in the file.
 *
 * <p>Validation follows the reference implementation and happens before any tensor is made: header length at most
 * 100,000,000 bytes and inside the file, UTF-8 JSON object starting with '{', no duplicate names, known dtypes, sizes
 * without overflow, {@code end - begin == numel * itemsize}, and byte ranges that tile the buffer exactly (no gap, no
 * overlap, nothing outside, nothing left over).
 */
record SafetensorsHeader(List<Entry> entries, Map<String, String> metadata, long dataStart, long dataLength) {
    /** The reference implementation's limit (safetensors' {@code MAX_HEADER_SIZE}). */
    static final long MAX_HEADER_BYTES = 100_000_000;
    /** Far above any real model; bounds the memory a forged header can make us spend per entry. */
    static final int MAX_RANK = 1024;

    static final String METADATA_KEY = "__metadata__";

    /** One tensor: offsets are relative to the start of the byte buffer, {@code end} exclusive. */
    record Entry(String name, DType dtype, long[] shape, long begin, long end) {
        long byteSize() {
            return end - begin;
        }
    }

    /** Reads and validates the header of an open file, touching no tensor data. */
    static SafetensorsHeader read(FileChannel ch, String source) throws IOException {
        long fileSize = ch.size();
        long n = headerLength(readFully(ch, 0, (int) Math.min(8, fileSize)), fileSize, source);
        byte[] header = readFully(ch, 8, (int) n);
        if (header.length != n) throw new TorchException(source + ": file shrank while its header was read");
        return parse(header, fileSize, source);
    }

    /** Parses a whole file held in memory. */
    static SafetensorsHeader read(byte[] file, String source) {
        long n = headerLength(Arrays.copyOf(file, Math.min(8, file.length)), file.length, source);
        return parse(Arrays.copyOfRange(file, 8, 8 + (int) n), file.length, source);
    }

    /** The header length from the first 8 bytes, checked against the limit and the file size. */
    private static long headerLength(byte[] prefix, long fileSize, String source) {
        if (prefix.length < 8) {
            throw new TorchException(
                    source + ": file of " + fileSize + " bytes is too small for the 8-byte header length");
        }
        long n = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getLong();
        // Unsigned: a forged 2^63+ length reads as negative here and is caught by the same test.
        if (n < 0 || n > MAX_HEADER_BYTES) {
            throw new TorchException(source + ": header length " + Long.toUnsignedString(n) + " exceeds the limit of "
                    + MAX_HEADER_BYTES + " bytes (corrupted or not a safetensors file)");
        }
        if (n > fileSize - 8) {
            throw new TorchException(source + ": header length " + n + " runs past the end of the " + fileSize
                    + "-byte file (truncated?)");
        }
        if (n < 2) throw new TorchException(source + ": header of " + n + " bytes cannot hold a JSON object");
        return n;
    }

    private static byte[] readFully(FileChannel ch, long position, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        while (buf.hasRemaining()) {
            if (ch.read(buf, position + buf.position()) < 0) break;
        }
        return Arrays.copyOf(buf.array(), buf.position());
    }

    private static SafetensorsHeader parse(byte[] header, long fileSize, String source) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(header))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new TorchException(source + ": header is not valid UTF-8 (corrupted or not a safetensors file)");
        }
        if (text.charAt(0) != '{') {
            throw new TorchException(source + ": header does not start with '{' (corrupted or not a safetensors file)");
        }
        long dataStart = 8L + header.length;
        SafetensorsJson json = new SafetensorsJson(text, source);
        List<Entry> entries = new ArrayList<>();
        Map<String, String> metadata = Map.of();
        Set<String> names = new HashSet<>();
        json.beginObject();
        while (json.nextMember()) {
            String name = json.name();
            if (!names.add(name)) throw json.error("duplicate key " + quoted(name));
            if (name.equals(METADATA_KEY)) {
                metadata = metadata(json);
            } else {
                entries.add(entry(json, name));
            }
        }
        json.end();
        SafetensorsHeader h =
                new SafetensorsHeader(Collections.unmodifiableList(entries), metadata, dataStart, fileSize - dataStart);
        h.validate(source);
        return h;
    }

    private static Map<String, String> metadata(SafetensorsJson json) {
        if (json.nullValue()) return Map.of();
        Map<String, String> m = new LinkedHashMap<>();
        json.beginObject();
        while (json.nextMember()) {
            String key = json.name();
            json.skipWhitespace();
            if (json.peek() != '"')
                throw json.error(METADATA_KEY + " values must be strings (key " + quoted(key) + ")");
            if (m.put(key, json.string()) != null)
                throw json.error("duplicate " + METADATA_KEY + " key " + quoted(key));
        }
        return Collections.unmodifiableMap(m);
    }

    private static Entry entry(SafetensorsJson json, String name) {
        String dtypeName = null;
        long[] shape = null, offsets = null;
        json.beginObject();
        while (json.nextMember()) {
            String field = json.name();
            switch (field) {
                case "dtype" -> {
                    if (dtypeName != null) throw json.error("tensor " + quoted(name) + ": duplicate \"dtype\"");
                    dtypeName = json.string();
                }
                case "shape" -> {
                    if (shape != null) throw json.error("tensor " + quoted(name) + ": duplicate \"shape\"");
                    shape = longs(json, name, MAX_RANK, "shape");
                }
                case "data_offsets" -> {
                    if (offsets != null) throw json.error("tensor " + quoted(name) + ": duplicate \"data_offsets\"");
                    offsets = longs(json, name, 2, "data_offsets");
                    if (offsets.length != 2)
                        throw json.error("tensor " + quoted(name) + ": data_offsets must be [begin, end]");
                }
                // Unknown fields are ignored, as the reference reader does.
                default -> json.skipValue();
            }
        }
        if (dtypeName == null || shape == null || offsets == null) {
            throw json.error("tensor " + quoted(name) + " lacks "
                    + (dtypeName == null ? "\"dtype\"" : shape == null ? "\"shape\"" : "\"data_offsets\""));
        }
        DType dtype = dtypeOf(dtypeName);
        if (dtype == null) throw json.error("tensor " + quoted(name) + " has unsupported dtype " + quoted(dtypeName));
        return new Entry(name, dtype, shape, offsets[0], offsets[1]);
    }

    private static long[] longs(SafetensorsJson json, String name, int max, String what) {
        long[] out = new long[4];
        int n = 0;
        json.beginArray();
        while (json.nextElement()) {
            if (n == max)
                throw json.error("tensor " + quoted(name) + ": " + what + " has more than " + max + " entries");
            if (n == out.length) out = Arrays.copyOf(out, Math.min(max, 2 * n));
            out[n++] = json.nonNegativeLong();
        }
        return Arrays.copyOf(out, n);
    }

    private void validate(String source) {
        for (Entry e : entries) {
            long bytes;
            try {
                long numel = 1;
                for (long d : e.shape) numel = Math.multiplyExact(numel, d);
                bytes = Math.multiplyExact(numel, (long) e.dtype.itemSize());
            } catch (ArithmeticException overflow) {
                throw new TorchException(source + ": tensor " + quoted(e.name) + ": shape " + Shapes.str(e.shape)
                        + " overflows a 64-bit byte count");
            }
            if (e.end < e.begin) {
                throw new TorchException(source + ": tensor " + quoted(e.name) + ": data_offsets [" + e.begin + ", "
                        + e.end + "] end before they begin");
            }
            if (e.end > dataLength) {
                throw new TorchException(source + ": tensor " + quoted(e.name) + ": data_offsets [" + e.begin + ", "
                        + e.end + "] lie outside the " + dataLength + "-byte data buffer (truncated?)");
            }
            if (e.byteSize() != bytes) {
                throw new TorchException(
                        source + ": tensor " + quoted(e.name) + ": data_offsets [" + e.begin + ", " + e.end
                                + "] hold " + e.byteSize() + " bytes but shape " + Shapes.str(e.shape) + " of "
                                + nameOf(e.dtype)
                                + " needs " + bytes);
            }
        }
        List<Entry> byOffset = new ArrayList<>(entries);
        byOffset.sort(Comparator.comparingLong(Entry::begin).thenComparingLong(Entry::end));
        long covered = 0;
        Entry previous = null;
        for (Entry e : byOffset) {
            if (e.begin < covered) {
                throw new TorchException(source + ": tensor " + quoted(e.name) + " (bytes " + e.begin + ".." + e.end
                        + ") overlaps tensor " + quoted(previous.name) + " (bytes " + previous.begin + ".."
                        + previous.end + ")");
            }
            if (e.begin > covered) {
                throw new TorchException(source + ": " + (e.begin - covered) + " unused bytes before tensor "
                        + quoted(e.name) + " at offset " + covered + " (the tensors must tile the data buffer)");
            }
            covered = e.end;
            previous = e;
        }
        if (covered != dataLength) {
            throw new TorchException(source + ": the tensors cover " + covered + " bytes but the data buffer holds "
                    + dataLength + " (trailing bytes after the last tensor)");
        }
    }

    /** The {@link DType} of a safetensors dtype name, or null. F4/F6 have no JTorch dtype and stay unsupported. */
    static DType dtypeOf(String name) {
        return switch (name) {
            case "BOOL" -> DType.BOOL;
            case "U8" -> DType.UINT8;
            case "I8" -> DType.INT8;
            case "I16" -> DType.INT16;
            case "U16" -> DType.UINT16;
            case "F16" -> DType.FLOAT16;
            case "BF16" -> DType.BFLOAT16;
            case "I32" -> DType.INT32;
            case "U32" -> DType.UINT32;
            case "F32" -> DType.FLOAT32;
            case "F64" -> DType.FLOAT64;
            case "I64" -> DType.INT64;
            case "U64" -> DType.UINT64;
            case "F8_E4M3" -> DType.FLOAT8_E4M3FN;
            case "F8_E5M2" -> DType.FLOAT8_E5M2;
            case "F8_E8M0" -> DType.FLOAT8_E8M0FNU;
            case "C64" -> DType.COMPLEX64;
            default -> null;
        };
    }

    /** The safetensors name of a dtype, or null when the format has none (complex128, complex32, the fnuz float8s). */
    static String nameOf(DType d) {
        return switch (d) {
            case BOOL -> "BOOL";
            case UINT8 -> "U8";
            case INT8 -> "I8";
            case INT16 -> "I16";
            case UINT16 -> "U16";
            case FLOAT16 -> "F16";
            case BFLOAT16 -> "BF16";
            case INT32 -> "I32";
            case UINT32 -> "U32";
            case FLOAT32 -> "F32";
            case FLOAT64 -> "F64";
            case INT64 -> "I64";
            case UINT64 -> "U64";
            case FLOAT8_E4M3FN -> "F8_E4M3";
            case FLOAT8_E5M2 -> "F8_E5M2";
            case FLOAT8_E8M0FNU -> "F8_E8M0";
            case COMPLEX64 -> "C64";
            default -> null;
        };
    }

    /** A name for an error message; hostile files may carry megabyte-long names. */
    static String quoted(String name) {
        return "'" + (name.length() <= 80 ? name : name.substring(0, 80) + "...") + "'";
    }
}
