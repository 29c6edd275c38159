package org.jtorch.testing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.RecordComponent;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.ops.ArrangeOps.PadMode;

/**
 * Writes the arguments and results of one differential-run case as JSON for {@code diffrun.py}. A tensor argument
 * carries its whole storage (little-endian bytes, as PyTorch lays them out) with its sizes, strides and storage offset,
 * so that PyTorch sees the same layout (transposed, expanded, offset) and not just the same values; a tensor passed
 * twice gets the same {@code id}, so PyTorch sees one tensor too. A result carries its values contiguous. Doubles are
 * written as strings ({@code "NaN"}, {@code "-Infinity"} are not JSON numbers).
 */
final class DiffRunJson {
    private final StringBuilder out = new StringBuilder();
    private final Map<Tensor, Integer> ids = new IdentityHashMap<>();

    /** The text written so far. */
    @Override
    public String toString() {
        return out.toString();
    }

    DiffRunJson raw(String text) {
        out.append(text);
        return this;
    }

    DiffRunJson string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
        return this;
    }

    /** An argument: tensors with their layout, lists, scalars, dtypes; false when the type has no encoding. */
    boolean argument(Object v) {
        switch (v) {
            case null -> out.append("null");
            case Tensor t -> tensorArgument(t);
            case Tensor[] ts -> {
                out.append('[');
                for (int i = 0; i < ts.length; i++) {
                    if (i > 0) out.append(',');
                    argument(ts[i]);
                }
                out.append(']');
            }
            case long[] ls -> longs(ls);
            case int[] is -> {
                out.append('[');
                for (int i = 0; i < is.length; i++) out.append(i > 0 ? "," : "").append(is[i]);
                out.append(']');
            }
            case double[] ds -> {
                out.append('[');
                for (int i = 0; i < ds.length; i++) {
                    if (i > 0) out.append(',');
                    floating(ds[i]);
                }
                out.append(']');
            }
            case boolean[] bs -> {
                out.append('[');
                for (int i = 0; i < bs.length; i++) out.append(i > 0 ? "," : "").append(bs[i]);
                out.append(']');
            }
            case Long l -> out.append(l);
            case Integer i -> out.append(i);
            case Double d -> floating(d);
            case Float f -> floating(f);
            case Boolean b -> out.append(b);
            case String s -> string(s);
            case Scalar s -> scalar(s);
            case DType d -> raw("{\"k\":\"dtype\",\"v\":").string(d.pyName()).raw("}");
            case Device d ->
                raw("{\"k\":\"device\",\"v\":").string(d.toString()).raw("}");
            case Generator g -> out.append("{\"k\":\"generator\"}");
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) out.append(',');
                    if (!argument(list.get(i))) return false;
                }
                out.append(']');
            }
            case PadMode mode -> string(mode.pyName()); // the schema's str mode
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A result: tensors contiguous, tuples and records as lists, numbers; false when the type has no encoding. */
    boolean result(Object v) {
        switch (v) {
            case null -> out.append("null");
            case Tensor t -> tensorResult(t);
            case Tensor[] ts -> {
                out.append('[');
                for (int i = 0; i < ts.length; i++) {
                    if (i > 0) out.append(',');
                    result(ts[i]);
                }
                out.append(']');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) out.append(',');
                    if (!result(list.get(i))) return false;
                }
                out.append(']');
            }
            case Record r -> {
                RecordComponent[] cs = r.getClass().getRecordComponents();
                out.append('[');
                for (int i = 0; i < cs.length; i++) {
                    if (i > 0) out.append(',');
                    try {
                        if (!result(cs[i].getAccessor().invoke(r))) return false;
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
                out.append(']');
            }
            default -> {
                return argument(v);
            }
        }
        return true;
    }

    DiffRunJson floating(double d) {
        return raw("{\"k\":\"f\",\"v\":\"").raw(Double.toString(d)).raw("\"}");
    }

    DiffRunJson longs(long[] ls) {
        out.append('[');
        for (int i = 0; i < ls.length; i++) out.append(i > 0 ? "," : "").append(ls[i]);
        out.append(']');
        return this;
    }

    private void scalar(Scalar s) {
        switch (s.kind()) {
            case BOOL -> out.append(s.longValue() != 0);
            case INT -> out.append(s.longValue());
            case UINT -> out.append(Long.toUnsignedString(s.longValue()));
            case FLOAT -> floating(s.doubleValue());
            case COMPLEX ->
                raw("{\"k\":\"c\",\"re\":\"")
                        .raw(Double.toString(s.doubleValue()))
                        .raw("\",\"im\":\"")
                        .raw(Double.toString(s.imag()))
                        .raw("\"}");
        }
    }

    private void tensorArgument(Tensor t) {
        Integer seen = ids.get(t);
        if (seen != null) {
            raw("{\"k\":\"ref\",\"id\":").raw(seen.toString()).raw("}");
            return;
        }
        int id = ids.size();
        ids.put(t, id);
        MemorySegment storage = t.impl().storage().segment();
        raw("{\"k\":\"T\",\"id\":")
                .raw(Integer.toString(id))
                .raw(",\"dtype\":")
                .string(t.dtype().pyName());
        raw(",\"shape\":").longs(t.shape()).raw(",\"stride\":").longs(t.stride());
        raw(",\"offset\":").raw(Long.toString(t.storageOffset()));
        raw(",\"data\":\"").raw(Base64.getEncoder().encodeToString(storage.toArray(ValueLayout.JAVA_BYTE)));
        raw("\"}");
    }

    private void tensorResult(Tensor t) {
        Tensor c = t.detach().contiguous();
        long bytes = c.numel() * c.dtype().itemSize();
        MemorySegment data = bytes == 0
                ? MemorySegment.NULL
                : c.impl()
                        .storage()
                        .segment()
                        .asSlice(c.storageOffset() * c.dtype().itemSize(), bytes);
        raw("{\"k\":\"T\",\"dtype\":")
                .string(t.dtype().pyName())
                .raw(",\"shape\":")
                .longs(t.shape());
        raw(",\"data\":\"").raw(Base64.getEncoder().encodeToString(data.toArray(ValueLayout.JAVA_BYTE)));
        raw("\"}");
    }
}
