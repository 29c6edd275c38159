package org.jtorch.export;

import java.util.List;
import java.util.Map;
import org.jtorch.TorchException;

/**
 * Typed reads of parsed JSON ({@link Json}) that refuse a value of the wrong kind with a message naming where it was: a
 * {@code .pt2} archive is read as hostile input, so no cast may fail with a raw Java exception.
 */
final class JsonValues {
    private JsonValues() {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object v, String where) {
        if (v instanceof Map<?, ?> m) return (Map<String, Object>) m;
        throw wrong(where, "an object", v);
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object v, String where) {
        if (v instanceof List<?> l) return (List<Object>) l;
        throw wrong(where, "a list", v);
    }

    static String string(Object v, String where) {
        if (v instanceof String s) return s;
        throw wrong(where, "a string", v);
    }

    static long integer(Object v, String where) {
        if (v instanceof Long l) return l;
        throw wrong(where, "an integer", v);
    }

    static double number(Object v, String where) {
        if (v instanceof Double d) return d;
        if (v instanceof Long l) return l;
        throw wrong(where, "a number", v);
    }

    static boolean bool(Object v, String where) {
        if (v instanceof Boolean b) return b;
        throw wrong(where, "a boolean", v);
    }

    /** {@code map.get(key)}, which must be present. */
    static Object field(Map<String, Object> map, String key, String where) {
        if (!map.containsKey(key)) throw new TorchException(where + " has no field '" + key + "'");
        return map.get(key);
    }

    /**
     * The one field of a union ({@code {"as_tensor": {...}}}, as the export schema writes a {@code _Union}); returns
     * its key and value.
     */
    static Map.Entry<String, Object> union(Object v, String where) {
        Map<String, Object> m = map(v, where);
        if (m.size() != 1) throw new TorchException(where + " is not a union of one field: it has " + m.keySet());
        return m.entrySet().iterator().next();
    }

    private static TorchException wrong(String where, String expected, Object v) {
        String got = v == null
                ? "null"
                : v instanceof Map
                        ? "an object"
                        : v instanceof List
                                ? "a list"
                                : v instanceof String
                                        ? "a string"
                                        : v.getClass().getSimpleName();
        return new TorchException(where + " should be " + expected + ", not " + got);
    }
}
