package org.jtorch.compile.trace.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON value: objects become insertion-ordered maps, arrays lists, integers {@link Long} (or {@link Double}
 * when out of range), other numbers {@link Double}. Trace files come from crashed or foreign processes, so the reader
 * trusts nothing: nesting is capped, and every error is an {@link IllegalArgumentException} naming the character
 * position.
 */
final class JsonReader {
    private static final int MAX_DEPTH = 64;

    private final String s;
    private int pos;
    private int depth;

    private JsonReader(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        Object v = r.value();
        r.whitespace();
        if (r.pos != text.length()) throw r.error("unexpected text after the value");
        return v;
    }

    private Object value() {
        whitespace();
        return switch (peek()) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        enter();
        Map<String, Object> m = new LinkedHashMap<>();
        whitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return m;
        }
        while (true) {
            whitespace();
            String key = string();
            whitespace();
            expect(':');
            m.put(key, value());
            whitespace();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                depth--;
                return m;
            }
        }
    }

    private List<Object> array() {
        enter();
        List<Object> l = new ArrayList<>();
        whitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return l;
        }
        while (true) {
            l.add(value());
            whitespace();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                depth--;
                return l;
            }
        }
    }

    private void enter() {
        pos++;
        if (++depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH + " levels");
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = peek();
            pos++;
            if (c == '"') return b.toString();
            if (c < 0x20) throw error("control character in a string");
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = peek();
            pos++;
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> b.append(hex4());
                default -> throw error("invalid escape \\" + e);
            }
        }
    }

    private char hex4() {
        if (pos + 4 > s.length()) throw error("truncated \\u escape");
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(s.charAt(pos + i), 16);
            if (d < 0) throw error("invalid \\u escape");
            v = v * 16 + d;
        }
        pos += 4;
        return (char) v;
    }

    private Object literal(String word, Object value) {
        if (!s.startsWith(word, pos)) throw error("unexpected character '" + peek() + "'");
        pos += word.length();
        return value;
    }

    /** JSON's grammar: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private Object number() {
        int start = pos;
        if (peek() == '-') pos++;
        if (peek() == '0') pos++;
        else if (digits() == 0) throw error("unexpected character '" + s.charAt(pos) + "'");
        boolean integral = true;
        if (pos < s.length() && s.charAt(pos) == '.') {
            pos++;
            integral = false;
            if (digits() == 0) throw error("digits expected after '.'");
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            pos++;
            integral = false;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
            if (digits() == 0) throw error("digits expected in the exponent");
        }
        String text = s.substring(start, pos);
        if (integral) {
            try {
                return Long.valueOf(text);
            } catch (NumberFormatException tooLarge) {
                return Double.valueOf(text);
            }
        }
        return Double.valueOf(text);
    }

    private int digits() {
        int start = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
        return pos - start;
    }

    private void whitespace() {
        while (pos < s.length() && " \t\n\r".indexOf(s.charAt(pos)) >= 0) pos++;
    }

    private char peek() {
        if (pos >= s.length()) throw error("unexpected end of the text");
        return s.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) throw error("expected '" + c + "', found '" + peek() + "'");
        pos++;
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException("invalid JSON at character " + pos + ": " + problem);
    }
}
