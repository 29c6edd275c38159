package org.jtorch.compile.trace;

import java.util.Collection;
import java.util.Map;

/**
 * JSON text of the values trace records hold: maps (written in their iteration order, keys as strings), lists and
 * arrays, strings, numbers, booleans and {@code null}. Everything goes on one line, as a record's JSON must; a
 * non-finite double, which JSON cannot hold, is written {@code null}.
 */
final class TraceJson {
    private TraceJson() {}

    static String of(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    static void write(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case String s -> quote(out, s);
            case Boolean b -> out.append(b);
            case Double d -> number(out, d);
            case Float f -> number(out, f.doubleValue());
            case Number n -> out.append(n.longValue());
            case Map<?, ?> m -> object(out, m);
            case Collection<?> c -> array(out, c.toArray());
            case Object[] a -> array(out, a);
            case long[] a -> {
                out.append('[');
                for (int i = 0; i < a.length; i++)
                    out.append(i == 0 ? "" : ", ").append(a[i]);
                out.append(']');
            }
            default ->
                throw new IllegalArgumentException(
                        "a trace record cannot hold a " + value.getClass().getName());
        }
    }

    private static void number(StringBuilder out, double d) {
        if (Double.isFinite(d)) out.append(d);
        else out.append("null");
    }

    private static void object(StringBuilder out, Map<?, ?> m) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!first) out.append(", ");
            first = false;
            quote(out, String.valueOf(e.getKey()));
            out.append(": ");
            write(out, e.getValue());
        }
        out.append('}');
    }

    private static void array(StringBuilder out, Object[] a) {
        out.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) out.append(", ");
            write(out, a[i]);
        }
        out.append(']');
    }

    /** Escapes quotes, backslashes and control characters (so a record never spans two lines). */
    static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
