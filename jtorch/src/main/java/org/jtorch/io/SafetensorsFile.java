package org.jtorch.io;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;

/**
 * A safetensors file opened lazily ({@code safe_open}): the header is read and validated up front, and each
 * {@link #get} makes a tensor over the mapped bytes of one entry, so only the pages actually used are read from disk.
 *
 * <p>Each {@code get} returns a new tensor over the same mapped bytes: two tensors for one name alias each other.
 * {@link #close()} ends access through this reader; tensors already returned stay valid (they keep the mapping alive
 * until they become unreachable).
 */
public final class SafetensorsFile implements AutoCloseable {
    private final String source;
    private final SafetensorsHeader header;
    private final Map<String, SafetensorsHeader.Entry> byName = new LinkedHashMap<>();
    private final MemorySegment data;
    private volatile boolean closed;

    SafetensorsFile(String source, SafetensorsHeader header, MemorySegment data) {
        this.source = source;
        this.header = header;
        this.data = data;
        for (SafetensorsHeader.Entry e : header.entries()) byName.put(e.name(), e);
    }

    /** {@code keys()}: tensor names in header order. */
    public List<String> keys() {
        return List.copyOf(byName.keySet());
    }

    /** {@code metadata()}: the {@code __metadata__} strings, empty when the file has none. */
    public Map<String, String> metadata() {
        return Collections.unmodifiableMap(header.metadata());
    }

    /** {@code get_tensor(name)}: the tensor, as a view of the mapped file. */
    public Tensor get(String name) {
        return Safetensors.view(entry(name), data);
    }

    /** The dtype of a tensor, without making it. */
    public DType dtype(String name) {
        return entry(name).dtype();
    }

    /** {@code get_slice(name).get_shape()}: the shape of a tensor, without making it. */
    public long[] shape(String name) {
        return entry(name).shape().clone();
    }

    private SafetensorsHeader.Entry entry(String name) {
        if (closed) throw new IllegalStateException(source + " is closed");
        SafetensorsHeader.Entry e = byName.get(name);
        if (e == null)
            throw new IllegalArgumentException(
                    source + " does not contain tensor " + SafetensorsHeader.quoted(String.valueOf(name)));
        return e;
    }

    @Override
    public void close() {
        closed = true;
    }
}
