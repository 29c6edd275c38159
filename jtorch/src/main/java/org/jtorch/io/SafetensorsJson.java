package org.jtorch.io;

import org.jtorch.TorchException;

/**
 * The JSON of safetensors headers, without a dependency: a pull reader that the header parser drives member by member
 * (so a header is never held twice, as a tree and as entries), and the string quoting the writer needs.
 *
 * <p>The reader treats its input as hostile: nesting is capped (no stack overflow from {@code [[[[...}), every step
 * consumes input (no loop can stall), integers are checked for overflow, and every error is a {@link TorchException}
 * naming the source and the character position.
 */
final class SafetensorsJson {
    /** Deeper nesting than any valid header needs (which is 3); unknown members are skipped up to this depth. */
    private static final int MAX_DEPTH = 32;

    private final String s;
    private final String source;
    private int pos;
    private int depth;
    /** Per open object/array: whether no member has been read yet (decides whether a comma is due). */
    private final boolean[] first = new boolean[MAX_DEPTH + 1];

    SafetensorsJson(String text, String source) {
        this.s = text;
        this.source = source;
    }

    TorchException error(String problem) {
        return new TorchException(source + ": invalid header JSON at character " + pos + ": " + problem);
    }

    /** Opens an object; iterate its members with {@link #nextMember()} and {@link #name()}. */
    void beginObject() {
        open('{');
    }

    /** Opens an array; iterate its elements with {@link #nextElement()}. */
    void beginArray() {
        open('[');
    }

    private void open(char c) {
        skipWhitespace();
        expect(c);
        if (++depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH + " levels");
        first[depth] = true;
    }

    /** True when another member follows in the current object (consumes the separating comma), false at '}'. */
    boolean nextMember() {
        return next('}');
    }

    /** True when another element follows in the current array (consumes the separating comma), false at ']'. */
    boolean nextElement() {
        return next(']');
    }

    private boolean next(char close) {
        skipWhitespace();
        if (peek() == close) {
            pos++;
            depth--;
            return false;
        }
        if (!first[depth]) {
            expect(',');
            skipWhitespace();
        }
        first[depth] = false;
        return true;
    }

    /** A member's name and the colon after it. */
    String name() {
        String n = string();
        skipWhitespace();
        expect(':');
        return n;
    }

    /** Consumes {@code null} if it comes next. */
    boolean nullValue() {
        skipWhitespace();
        if (s.startsWith("null", pos)) {
            pos += 4;
            return true;
        }
        return false;
    }

    String string() {
        skipWhitespace();
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = peek();
            pos++;
            if (c == '"') return b.toString();
            if (c < 0x20) throw error("control character U+" + hex(c) + " in a string");
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
                case 'u' -> b.append(unicodeEscape());
                default -> throw error("invalid escape \\" + e);
            }
        }
    }

    /** The code unit(s) of a {@code \\uXXXX} escape; unpaired surrogates are refused, as serde_json does. */
    private String unicodeEscape() {
        char c = hex4();
        if (Character.isLowSurrogate(c)) throw error("unpaired surrogate \\u" + hex(c));
        if (!Character.isHighSurrogate(c)) return String.valueOf(c);
        if (!s.startsWith("\\u", pos)) throw error("unpaired surrogate \\u" + hex(c));
        pos += 2;
        char low = hex4();
        if (!Character.isLowSurrogate(low)) throw error("unpaired surrogate \\u" + hex(c));
        return new String(new char[] {c, low});
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

    /** A non-negative integer that fits a {@code long} (offsets and sizes); fractions and exponents are refused. */
    long nonNegativeLong() {
        skipWhitespace();
        int start = pos;
        if (pos < s.length() && s.charAt(pos) == '-') throw error("negative number where a size or offset is expected");
        long v = 0;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
            int d = s.charAt(pos) - '0';
            if (v > (Long.MAX_VALUE - d) / 10) throw error("integer too large");
            v = v * 10 + d;
            pos++;
        }
        if (pos == start) throw error("expected a non-negative integer");
        if (s.charAt(start) == '0' && pos - start > 1) throw error("leading zero in a number");
        if (pos < s.length() && (s.charAt(pos) == '.' || s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            throw error("expected an integer, found a fraction or exponent");
        }
        return v;
    }

    /** Skips one value of any kind (an unknown member's value). */
    void skipValue() {
        skipWhitespace();
        switch (peek()) {
            case '{' -> {
                beginObject();
                while (nextMember()) {
                    name();
                    skipValue();
                }
            }
            case '[' -> {
                beginArray();
                while (nextElement()) skipValue();
            }
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void literal(String word) {
        if (!s.startsWith(word, pos)) throw error("unexpected character '" + printable(peek()) + "'");
        pos += word.length();
    }

    /** JSON's number grammar: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private void number() {
        if (peek() == '-') pos++;
        if (peek() == '0') pos++;
        else if (digits() == 0) throw error("unexpected character '" + printable(peek()) + "'");
        if (pos < s.length() && s.charAt(pos) == '.') {
            pos++;
            if (digits() == 0) throw error("digits expected after '.'");
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            pos++;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
            if (digits() == 0) throw error("digits expected in the exponent");
        }
    }

    private int digits() {
        int start = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
        return pos - start;
    }

    /** Requires that only whitespace (writers pad with spaces) follows the top-level value. */
    void end() {
        skipWhitespace();
        if (pos != s.length()) throw error("unexpected characters after the header object");
    }

    char peek() {
        if (pos >= s.length()) throw error("unexpected end of the header");
        return s.charAt(pos);
    }

    void skipWhitespace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            pos++;
        }
    }

    private void expect(char c) {
        if (peek() != c) throw error("expected '" + c + "', found '" + printable(peek()) + "'");
        pos++;
    }

    private static String printable(char c) {
        return c < 0x20 || c > 0x7e ? "U+" + hex(c) : String.valueOf(c);
    }

    private static String hex(char c) {
        return String.format("%04X", (int) c);
    }

    // ---- writing ----------------------------------------------------------------------------------------------

    /** Appends {@code v} as a JSON string. Unpaired surrogates cannot be encoded in UTF-8 and are refused. */
    static void quote(StringBuilder out, String v, String what) {
        out.append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < v.length() && Character.isLowSurrogate(v.charAt(i + 1))) {
                out.append(c).append(v.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(
                        what + " contains an unpaired surrogate U+" + hex(c) + " at index " + i);
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append("\\u").append(hex(c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
