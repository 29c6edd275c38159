package org.jtorch.onnx;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.onnx.proto.OnnxProto.ModelProto;
import org.jtorch.onnx.proto.OnnxProto.StringStringEntryProto;
import org.jtorch.onnx.proto.OnnxProto.TensorProto;

/**
 * Writes a lowered model to disk: the weights inline ({@code raw_data}) or, when the model would pass protobuf's 2 GB
 * limit (or when asked), in a data file beside it ({@code <model>.data}, ONNX's external data: each initializer names
 * the file, its offset and length). Both files are written to temporary names and moved into place, so a failed export
 * leaves no half-written model.
 */
final class ModelFile {
    /** Room left for the graph itself when deciding whether the weights fit inline. */
    private static final long GRAPH_HEADROOM = 64L * 1024 * 1024;

    /** Bytes copied per write from a weight's storage. */
    private static final long CHUNK = 1L << 20;

    private ModelFile() {}

    /** Whether weights of {@code weightBytes} in total go to external data. */
    static boolean external(long weightBytes, OnnxOptions.ExternalData mode) {
        return switch (mode) {
            case ALWAYS -> true;
            case NEVER -> {
                if (weightBytes > OnnxOptions.PROTOBUF_LIMIT - GRAPH_HEADROOM) {
                    throw new TorchException("onnx export: the weights take " + weightBytes
                            + " bytes, past protobuf's 2 GB limit; allow external data (ExternalData.WHEN_NEEDED)");
                }
                yield false;
            }
            case WHEN_NEEDED -> weightBytes > OnnxOptions.PROTOBUF_LIMIT - GRAPH_HEADROOM;
        };
    }

    static void write(ModelProto.Builder model, Map<String, Tensor> weights, Path out, OnnxOptions.ExternalData mode) {
        long total = 0;
        for (Tensor t : weights.values()) total += t.numel() * t.dtype().itemSize();
        Path dir = out.toAbsolutePath().getParent();
        Path dataFile = out.resolveSibling(out.getFileName() + ".data");
        try {
            if (dir != null) Files.createDirectories(dir);
            var graph = model.getGraphBuilder();
            if (external(total, mode)) {
                Path dataTmp = Files.createTempFile(dir, ".onnx-data", ".tmp");
                try (FileChannel ch = FileChannel.open(dataTmp, StandardOpenOption.WRITE)) {
                    for (int i = 0; i < graph.getInitializerCount(); i++) {
                        TensorProto.Builder init = graph.getInitializerBuilder(i);
                        Tensor t = weights.get(init.getName());
                        if (t == null) continue;
                        long offset = ch.position();
                        long length = writeData(ch, t);
                        init.setDataLocation(TensorProto.DataLocation.EXTERNAL)
                                .addExternalData(
                                        entry("location", dataFile.getFileName().toString()))
                                .addExternalData(entry("offset", Long.toString(offset)))
                                .addExternalData(entry("length", Long.toString(length)));
                    }
                }
                Files.move(dataTmp, dataFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                for (int i = 0; i < graph.getInitializerCount(); i++) {
                    TensorProto.Builder init = graph.getInitializerBuilder(i);
                    Tensor t = weights.get(init.getName());
                    if (t != null) init.setRawData(ByteString.copyFrom(TensorProtos.littleEndianBytes(t)));
                }
            }
            Path tmp = Files.createTempFile(dir, ".onnx", ".tmp");
            try (OutputStream os = Files.newOutputStream(tmp)) {
                model.build().writeTo(os);
            }
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("onnx export: writing " + out + " failed", e);
        }
    }

    /** Appends a tensor's little-endian bytes, read from its storage in windows; returns their length. */
    private static long writeData(FileChannel ch, Tensor t) throws IOException {
        Tensor c = t.detach().contiguous();
        long length = c.numel() * c.dtype().itemSize();
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            ch.write(ByteBuffer.wrap(TensorProtos.littleEndianBytes(c)));
            return length;
        }
        MemorySegment src = c.impl().storage().segment();
        long start = c.storageOffset() * c.dtype().itemSize();
        // storage may be a heap array of any element type, so the bytes pass through a byte[] window
        byte[] window = new byte[(int) Math.min(CHUNK, Math.max(length, 1))];
        MemorySegment dst = MemorySegment.ofArray(window);
        for (long p = 0; p < length; p += window.length) {
            int n = (int) Math.min(window.length, length - p);
            MemorySegment.copy(src, start + p, dst, 0, n);
            ByteBuffer buffer = ByteBuffer.wrap(window, 0, n);
            while (buffer.hasRemaining()) ch.write(buffer);
        }
        return length;
    }

    private static StringStringEntryProto entry(String key, String value) {
        return StringStringEntryProto.newBuilder().setKey(key).setValue(value).build();
    }
}
