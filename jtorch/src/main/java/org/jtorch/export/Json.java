package org.jtorch.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.TorchException;

/**
 * The JSON of a {@code .pt2} archive, read into maps, lists, strings, {@link Long}s, {@link Double}s, booleans and
 * nulls, and written back. Python's {@code json} module writes {@code NaN}, {@code Infinity} and {@code -Infinity} for
 * non-finite floats, so both directions accept them. The reader trusts nothing: nesting is bounded, every token is
 * checked, and an error names the document and the offset.
 */
final class Json {
    /** Deeper nesting than any program needs; a bound keeps a hostile document from exhausting the stack. */
    private static final int MAX_DEPTH = 200;

    private final String text;
    private final String what;
    private int pos;

    private Json(String text, String what) {
        this.text = text;
        this.what = what;
    }

    /** Parses one JSON document; {@code what} names it in errors. */
    static Object parse(String text, String what) {
        Json p = new Json(text, what);
        p.skipSpace();
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) throw p.error("unexpected text after the document");
        return v;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH);
        if (pos >= text.length()) throw error("unexpected end of the document");
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            case 'N' -> literal("NaN", Double.NaN);
            case 'I' -> literal("Infinity", Double.POSITIVE_INFINITY);
            default -> {
                if (c == '-' && text.startsWith("-Infinity", pos)) yield literal("-Infinity", Double.NEGATIVE_INFINITY);
                if (c == '-' || (c >= '0' && c <= '9')) yield number();
                throw error("unexpected character '" + c + "'");
            }
        };
    }

    private Map<String, Object> object(int depth) {
        pos++;
        Map<String, Object> out = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return out;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') throw error("expected a key");
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (out.put(key, value(depth + 1)) != null) {
                throw error("duplicate key \"" + key + "\"");
            }
            skipSpace();
            char c = next();
            if (c == '}') return out;
            if (c != ',') throw error("expected ',' or '}'");
        }
    }

    private List<Object> array(int depth) {
        pos++;
        List<Object> out = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return out;
        }
        while (true) {
            skipSpace();
            out.add(value(depth + 1));
            skipSpace();
            char c = next();
            if (c == ']') return out;
            if (c != ',') throw error("expected ',' or ']'");
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') return sb.toString();
            if (c < 0x20) throw error("control character in a string");
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) throw error("truncated \\u escape");
                    try {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException bad) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') pos++;
        boolean integral = true;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c >= '0' && c <= '9') pos++;
            else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                integral = false;
                pos++;
            } else break;
        }
        String s = text.substring(start, pos);
        try {
            if (integral) return Long.parseLong(s);
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            if (integral && s.matches("-?[0-9]+")) throw error("integer " + s + " does not fit 64 bits");
            throw error("bad number '" + s + "'");
        }
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) throw error("unexpected token");
        pos += word.length();
        return v;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
            pos++;
        }
    }

    private char peek() {
        if (pos >= text.length()) throw error("unexpected end of the document");
        return text.charAt(pos);
    }

    private char next() {
        char c = peek();
        pos++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) throw error("expected '" + c + "'");
    }

    private TorchException error(String detail) {
        return new TorchException(what + ": malformed JSON at offset " + pos + ": " + detail);
    }

    /** Writes {@code v} (maps, lists, strings, numbers, booleans, null) as compact JSON, as Python's json.dumps. */
    static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(v, sb);
        return sb.toString();
    }

    private static void write(Object v, StringBuilder sb) {
        switch (v) {
            case null -> sb.append("null");
            case String s -> quote(s, sb);
            case Boolean b -> sb.append(b ? "true" : "false");
            case Double d -> sb.append(pythonFloat(d));
            case Float f -> sb.append(pythonFloat(f.doubleValue()));
            case Number n -> sb.append(n.longValue());
            case Map<?, ?> m -> {
                sb.append('{');
                boolean first = true;
                for (var e : m.entrySet()) {
                    if (!first) sb.append(", ");
                    first = false;
                    quote((String) e.getKey(), sb);
                    sb.append(": ");
                    write(e.getValue(), sb);
                }
                sb.append('}');
            }
            case List<?> l -> {
                sb.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) sb.append(", ");
                    write(l.get(i), sb);
                }
                sb.append(']');
            }
            default ->
                throw new IllegalArgumentException(
                        "not a JSON value: " + v.getClass().getName());
        }
    }

    /** A float as Python's {@code repr} spells it, so that PyTorch reads it as a float and not an int. */
    private static String pythonFloat(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        String s = Double.toString(d);
        return s.replace("E", "e");
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }
}
