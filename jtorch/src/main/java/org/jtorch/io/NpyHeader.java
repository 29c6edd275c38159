package org.jtorch.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.TorchException;

/**
 * The header of a NumPy {@code .npy} array: the Python dict literal {@code {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), }} after the magic, version and length fields (numpy/lib/format.py).
 *
 * <p>Parsing accepts only the literal forms numpy writes (strings, ints, True/False/None, tuples, lists, dicts), with
 * numpy's checks: exactly the three keys, a tuple of non-negative ints for the shape, a bool for the order. Structured
 * and object dtypes are refused; object arrays are pickles and could run code.
 */
record NpyHeader(DType dtype, boolean bigEndian, boolean fortranOrder, long[] shape) {
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** numpy's default {@code max_header_size}: real headers are about 128 bytes. */
    static final int MAX_HEADER_BYTES = 10_000;
    /** numpy 2's {@code NPY_MAXDIMS}. */
    static final int MAX_RANK = 64;

    private static final int ALIGN = 64;
    /** numpy leaves room for the growth axis to reach this many digits (format.GROWTH_AXIS_MAX_DIGITS). */
    private static final int GROWTH_AXIS_MAX_DIGITS = 21;

    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    /** Bytes of data the header describes (numel * itemsize), or an error when that overflows. */
    long dataBytes(String source) {
        try {
            long n = dtype.itemSize();
            for (long d : shape) n = Math.multiplyExact(n, d);
            return n;
        } catch (ArithmeticException overflow) {
            throw new TorchException(source + ": shape " + shapeRepr(shape) + " overflows a 64-bit byte count");
        }
    }

    /** Parses the dict literal of a header. */
    static NpyHeader parse(String text, String source) {
        Object parsed = new Literal(text, source).parseAll();
        if (!(parsed instanceof Map<?, ?> d)) throw new TorchException(source + ": header is not a dictionary");
        if (!d.keySet().equals(KEYS)) {
            throw new TorchException(
                    source + ": header does not contain the correct keys (descr, fortran_order, shape): " + d.keySet());
        }
        if (!(d.get("fortran_order") instanceof Boolean fortran)) {
            throw new TorchException(source + ": fortran_order is not a valid bool");
        }
        if (!(d.get("shape") instanceof Tuple(List<Object> dims)))
            throw new TorchException(source + ": shape is not a tuple");
        if (dims.size() > MAX_RANK)
            throw new TorchException(source + ": " + dims.size() + " dimensions exceed the limit of " + MAX_RANK);
        long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
            if (!(dims.get(i) instanceof Long v) || v < 0)
                throw new TorchException(source + ": shape is not valid: " + dims);
            shape[i] = v;
        }
        Object descr = d.get("descr");
        if (!(descr instanceof String s)) {
            throw new TorchException(source + ": structured dtypes (record arrays) are not supported: descr " + descr);
        }
        return descr(s, fortran, shape, source);
    }

    private static NpyHeader descr(String descr, boolean fortran, long[] shape, String source) {
        String body = descr;
        char order = '|';
        if (!body.isEmpty() && "<>|=".indexOf(body.charAt(0)) >= 0) {
            order = body.charAt(0);
            body = body.substring(1);
        }
        if (body.startsWith("O")) {
            throw new TorchException(
                    source + ": object arrays (descr '" + descr + "') hold pickled Python objects, which "
                            + "could run arbitrary code when loaded; they are refused (numpy requires "
                            + "allow_pickle=True for them)");
        }
        DType dtype =
                switch (body) {
                    case "b1" -> DType.BOOL;
                    case "i1" -> DType.INT8;
                    case "u1" -> DType.UINT8;
                    case "i2" -> DType.INT16;
                    case "u2" -> DType.UINT16;
                    case "i4" -> DType.INT32;
                    case "u4" -> DType.UINT32;
                    case "i8" -> DType.INT64;
                    case "u8" -> DType.UINT64;
                    case "f2" -> DType.FLOAT16;
                    case "f4" -> DType.FLOAT32;
                    case "f8" -> DType.FLOAT64;
                    case "c8" -> DType.COMPLEX64;
                    case "c16" -> DType.COMPLEX128;
                    default ->
                        throw new TorchException(source + ": unsupported dtype descr '" + descr
                                + "' (supported: b1, i1-i8, u1-u8, f2, f4, f8, c8, c16 in either byte order)");
                };
        return new NpyHeader(dtype, order == '>', fortran, shape);
    }

    /** The descr numpy writes for a dtype, or null when NumPy has no such dtype (bfloat16, float8, complex32). */
    static String descrOf(DType d) {
        return switch (d) {
            case BOOL -> "|b1";
            case INT8 -> "|i1";
            case UINT8 -> "|u1";
            case INT16 -> "<i2";
            case UINT16 -> "<u2";
            case INT32 -> "<i4";
            case UINT32 -> "<u4";
            case INT64 -> "<i8";
            case UINT64 -> "<u8";
            case FLOAT16 -> "<f2";
            case FLOAT32 -> "<f4";
            case FLOAT64 -> "<f8";
            case COMPLEX64 -> "<c8";
            case COMPLEX128 -> "<c16";
            default -> null;
        };
    }

    /**
     * The full preamble numpy writes for a C-order array: magic, version 1.0, header length, and the header padded with
     * spaces and a newline so that the data start at a multiple of 64. Byte-identical to {@code np.save}'s. Callers
     * keep the rank within {@link #MAX_RANK}, so the header always fits version 1.0's 16-bit length.
     */
    static byte[] encode(DType dtype, long[] shape) {
        String header =
                "{'descr': '" + descrOf(dtype) + "', 'fortran_order': False, 'shape': " + shapeRepr(shape) + ", }";
        if (shape.length > 0)
            header +=
                    " ".repeat(GROWTH_AXIS_MAX_DIGITS - Long.toString(shape[0]).length());
        byte[] text = header.getBytes(StandardCharsets.ISO_8859_1);
        int prefix = MAGIC.length + 4;
        int pad = ALIGN - (prefix + text.length + 1) % ALIGN;
        ByteBuffer b = ByteBuffer.allocate(prefix + text.length + pad + 1).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC)
                .put((byte) 1)
                .put((byte) 0)
                .putShort((short) (text.length + pad + 1))
                .put(text);
        for (int i = 0; i < pad; i++) b.put((byte) ' ');
        b.put((byte) '\n');
        return b.array();
    }

    /** Python's repr of a shape tuple: {@code ()}, {@code (5,)}, {@code (2, 3)}. */
    static String shapeRepr(long[] shape) {
        if (shape.length == 1) return "(" + shape[0] + ",)";
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) b.append(i > 0 ? ", " : "").append(shape[i]);
        return b.append(')').toString();
    }

    /** A Python tuple (shape must be one; a list is not accepted in its place, as in numpy). */
    private record Tuple(List<Object> items) {}

    /**
     * Python's literal syntax, the subset numpy headers use; nesting is capped so hostile input cannot overflow the
     * stack.
     */
    private static final class Literal {
        private static final int MAX_DEPTH = 16;
        private static final Object NONE = new Object();
        private final String s;
        private final String source;
        private int pos;
        private int depth;

        Literal(String s, String source) {
            this.s = s;
            this.source = source;
        }

        Object parseAll() {
            Object v = value();
            skipWhitespace();
            if (pos != s.length()) throw error("unexpected text after the dictionary");
            return v;
        }

        private TorchException error(String problem) {
            return new TorchException(source + ": cannot parse the header at character " + pos + ": " + problem);
        }

        private Object value() {
            skipWhitespace();
            if (pos >= s.length()) throw error("unexpected end of the header");
            char c = s.charAt(pos);
            if (c == '{' || c == '(' || c == '[') {
                if (++depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH + " levels");
                pos++;
                Object v = c == '{' ? dict() : sequence(c == '(' ? ')' : ']', c == '(');
                depth--;
                return v;
            }
            if (c == '\'' || c == '"') return string(c);
            if (c == '-' || (c >= '0' && c <= '9')) return integer();
            if (s.startsWith("True", pos)) return word("True", Boolean.TRUE);
            if (s.startsWith("False", pos)) return word("False", Boolean.FALSE);
            if (s.startsWith("None", pos)) return word("None", NONE);
            throw error(
                    "unexpected character '" + (c < 0x20 || c > 0x7e ? String.format("\\x%02x", (int) c) : c) + "'");
        }

        private Object word(String w, Object v) {
            pos += w.length();
            return v;
        }

        private Map<String, Object> dict() {
            Map<String, Object> m = new LinkedHashMap<>();
            while (true) {
                skipWhitespace();
                if (consume('}')) return m;
                if (!(value() instanceof String key)) throw error("dictionary keys must be strings");
                skipWhitespace();
                if (!consume(':')) throw error("expected ':'");
                if (m.put(key, value()) != null) throw error("duplicate key '" + key + "'");
                skipWhitespace();
                if (consume('}')) return m;
                if (!consume(',')) throw error("expected ',' or '}'");
            }
        }

        /** A tuple or list; {@code (x)} without a comma is just {@code x}, as in Python. */
        private Object sequence(char close, boolean tuple) {
            List<Object> items = new ArrayList<>();
            boolean comma = false;
            while (true) {
                skipWhitespace();
                if (consume(close)) break;
                items.add(value());
                skipWhitespace();
                if (consume(close)) break;
                if (!consume(',')) throw error("expected ',' or '" + close + "'");
                comma = true;
            }
            if (!tuple) return items;
            if (items.size() == 1 && !comma) return items.get(0);
            return new Tuple(items);
        }

        private String string(char quote) {
            pos++;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (pos >= s.length()) throw error("unterminated string");
                char c = s.charAt(pos++);
                if (c == quote) return b.toString();
                if (c == '\n') throw error("newline in a string");
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= s.length()) throw error("unterminated string");
                char e = s.charAt(pos++);
                switch (e) {
                    case '\\', '\'', '"' -> b.append(e);
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    default -> throw error("unsupported escape \\" + e);
                }
            }
        }

        /** An int, with Python 2's {@code L} suffix accepted (old numpy wrote {@code (3L, 4L)}). */
        private Long integer() {
            int start = pos;
            boolean negative = s.charAt(pos) == '-';
            if (negative) pos++;
            long v = 0;
            int digits = 0;
            while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                int d = s.charAt(pos++) - '0';
                if (v > (Long.MAX_VALUE - d) / 10) throw error("integer too large");
                v = v * 10 + d;
                digits++;
            }
            if (digits == 0) throw error("expected digits");
            if (pos < s.length() && s.charAt(pos) == 'L') pos++;
            if (pos < s.length() && (s.charAt(pos) == '.' || s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                pos = start;
                throw error("expected an integer");
            }
            return negative ? -v : v;
        }

        private boolean consume(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void skipWhitespace() {
            while (pos < s.length() && " \t\n\r".indexOf(s.charAt(pos)) >= 0) pos++;
        }
    }
}
