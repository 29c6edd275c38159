package org.jtorch.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * Lays out and writes one safetensors file. The header lists tensors in the caller's order, so a load returns them in
 * that order; the data are laid out by descending element size (stable), and the header is padded with spaces to a
 * multiple of 8, so every tensor starts aligned to its element size, as the reference writer arranges.
 */
final class SafetensorsWriter {
    private final List<Map.Entry<String, Tensor>> dataOrder;
    private final byte[] header;
    private final long dataLength;

    SafetensorsWriter(Map<String, Tensor> tensors, Map<String, String> metadata) {
        if (tensors == null) throw new IllegalArgumentException("safetensors: the tensor map is null");
        for (var e : tensors.entrySet()) check(e.getKey(), e.getValue());
        refuseSharedMemory(tensors);
        dataOrder = new ArrayList<>(tensors.entrySet());
        dataOrder.sort(Comparator.comparingInt(
                (Map.Entry<String, Tensor> e) -> -e.getValue().dtype().itemSize()));
        Map<String, long[]> offsets = new HashMap<>();
        long offset = 0;
        for (var e : dataOrder) {
            long n = SafetensorsFiles.byteSize(e.getValue());
            offsets.put(e.getKey(), new long[] {offset, offset + n});
            offset += n;
        }
        dataLength = offset;
        header = headerBytes(tensors, metadata, offsets);
    }

    private static void check(String name, Tensor t) {
        if (name == null) throw new IllegalArgumentException("safetensors: tensor names must not be null");
        if (name.equals(SafetensorsHeader.METADATA_KEY)) {
            throw new IllegalArgumentException("safetensors: " + SafetensorsHeader.METADATA_KEY
                    + " is reserved for the metadata and cannot name a tensor");
        }
        String what = "safetensors: tensor " + SafetensorsHeader.quoted(name);
        if (t == null) throw new IllegalArgumentException(what + " is null");
        if (t.isMeta()) throw new IllegalArgumentException(what + " is on the meta device and has no data to save");
        if (SafetensorsHeader.nameOf(t.dtype()) == null) {
            throw new IllegalArgumentException(what + " has dtype " + t.dtype() + ", which safetensors cannot store");
        }
    }

    /**
     * Refuses tensors whose memory overlaps (tied weights, views of one buffer), as safetensors' torch helper does: the
     * file cannot express sharing, so loading would silently untie them.
     */
    private static void refuseSharedMemory(Map<String, Tensor> tensors) {
        Map<Object, List<long[]>> byStorage = new IdentityHashMap<>();
        Map<long[], String> names = new IdentityHashMap<>();
        for (var e : tensors.entrySet()) {
            Tensor t = e.getValue();
            if (t.numel() == 0) continue;
            long last = t.storageOffset();
            for (int i = 0; i < t.dim(); i++)
                last += (t.impl().shapeRef()[i] - 1) * t.impl().strideRef()[i];
            long item = t.dtype().itemSize();
            long[] range = {t.storageOffset() * item, (last + 1) * item};
            names.put(range, e.getKey());
            byStorage
                    .computeIfAbsent(t.untypedStorage(), k -> new ArrayList<>())
                    .add(range);
        }
        TreeSet<String> shared = new TreeSet<>();
        for (List<long[]> ranges : byStorage.values()) {
            ranges.sort(Comparator.comparingLong(r -> r[0]));
            long[] reach = null;
            for (long[] r : ranges) {
                if (reach != null && r[0] < reach[1]) {
                    shared.add(names.get(reach));
                    shared.add(names.get(r));
                }
                if (reach == null || r[1] > reach[1]) reach = r;
            }
        }
        if (!shared.isEmpty()) {
            throw new TorchException(
                    "Some tensors share memory, this will lead to duplicate memory on disk and potential "
                            + "differences when loading them again: " + shared
                            + ". Save each buffer once (drop the tied "
                            + "duplicates) or clone() the tensors that should be stored separately.");
        }
    }

    private static byte[] headerBytes(
            Map<String, Tensor> tensors, Map<String, String> metadata, Map<String, long[]> offsets) {
        StringBuilder json = new StringBuilder("{");
        if (metadata != null) {
            json.append('"').append(SafetensorsHeader.METADATA_KEY).append("\":{");
            String sep = "";
            for (var m : metadata.entrySet()) {
                if (m.getKey() == null || m.getValue() == null) {
                    throw new IllegalArgumentException("safetensors: metadata keys and values must not be null");
                }
                json.append(sep);
                SafetensorsJson.quote(json, m.getKey(), "metadata key");
                json.append(':');
                SafetensorsJson.quote(json, m.getValue(), "metadata value");
                sep = ",";
            }
            json.append('}');
        }
        for (var e : tensors.entrySet()) {
            if (json.length() > 1) json.append(',');
            Tensor t = e.getValue();
            long[] off = offsets.get(e.getKey());
            SafetensorsJson.quote(json, e.getKey(), "tensor name");
            json.append(":{\"dtype\":\"")
                    .append(SafetensorsHeader.nameOf(t.dtype()))
                    .append("\",\"shape\":[");
            for (int i = 0; i < t.dim(); i++)
                json.append(i > 0 ? "," : "").append(t.impl().shapeRef()[i]);
            json.append("],\"data_offsets\":[")
                    .append(off[0])
                    .append(',')
                    .append(off[1])
                    .append("]}");
        }
        json.append('}');
        byte[] raw = json.toString().getBytes(StandardCharsets.UTF_8);
        byte[] bytes = Arrays.copyOf(raw, raw.length + (8 - raw.length % 8) % 8);
        Arrays.fill(bytes, raw.length, bytes.length, (byte) ' ');
        if (bytes.length > SafetensorsHeader.MAX_HEADER_BYTES) {
            throw new IllegalArgumentException("safetensors: header of " + bytes.length
                    + " bytes exceeds the format's limit of " + SafetensorsHeader.MAX_HEADER_BYTES);
        }
        return bytes;
    }

    long totalBytes() {
        return 8L + header.length + dataLength;
    }

    void write(SafetensorsFiles.ChunkSink sink) throws IOException {
        sink.accept(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, header.length));
        sink.accept(ByteBuffer.wrap(header));
        for (var e : dataOrder) {
            // Copies of non-contiguous tensors are made one at a time, so peak memory grows by one tensor at most.
            SafetensorsFiles.forEachChunk(SafetensorsFiles.contiguousData(e.getValue()), sink);
        }
    }
}
