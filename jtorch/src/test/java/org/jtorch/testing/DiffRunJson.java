package org.jtorch.testing;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
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
                return each(Arrays.asList(ts), this::argument);
            }
            case List<?> list -> {
                return each(list, this::argument);
            }
            case long[] ls -> longs(ls);
            case int[] is -> {
                return each(Arrays.stream(is).boxed().toList(), this::argument);
            }
            case double[] ds -> {
                return each(Arrays.stream(ds).boxed().toList(), this::argument);
            }
            case boolean[] bs -> {
                return each(booleans(bs), this::argument);
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
            case PadMode mode -> string(mode.pyName()); // the schema's str mode
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A result: tensors contiguous, tuples and records as lists, numbers; false when the type has no encoding. */
    boolean result(Object v) {
        return switch (v) {
            case Tensor t -> {
                tensorResult(t);
                yield true;
            }
            case Tensor[] ts -> each(Arrays.asList(ts), this::result);
            case List<?> list -> each(list, this::result);
            case Record r -> each(components(r), this::result);
            case null, default -> argument(v);
        };
    }

    /** {@code [a,b,...]}, each item written by {@code write}; false as soon as one has no encoding. */
    private boolean each(List<?> items, Predicate<Object> write) {
        out.append('[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) out.append(',');
            if (!write.test(items.get(i))) return false;
        }
        out.append(']');
        return true;
    }

    private static List<Boolean> booleans(boolean[] bs) {
        List<Boolean> list = new ArrayList<>(bs.length);
        for (boolean b : bs) list.add(b);
        return list;
    }

    private static List<Object> components(Record r) {
        List<Object> values = new ArrayList<>();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            try {
                values.add(c.getAccessor().invoke(r));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return values;
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
