package org.jtorch.debug;

import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaValue;

/**
 * Text of a recorded call as PyTorch's DebugMode prints it: the op as {@code aten::name.overload} ({@code .default}
 * omitted), the arguments as the Python dispatcher hands them to a mode (trailing positional arguments equal to their
 * default dropped, keyword-only ones as {@code name=value} unless default), and every value as Python's {@code str}
 * would print it.
 */
final class CallFormat {
    private CallFormat() {}

    /**
     * Which argument indices print positionally and which as keywords, as {@code parseIValuesToPyArgsKwargs} decides.
     * Arguments beyond the schema print positionally.
     */
    static Layout layout(Schema schema, Object[] args) {
        List<Schema.Argument> params = schema.arguments();
        int n = params.size();
        if (args.length > n) return new Layout(args.length, new int[0]);
        int kwStart = n;
        while (kwStart > 0 && params.get(kwStart - 1).kwargOnly()) kwStart--;
        int posEnd = kwStart;
        while (posEnd > 0 && isDefault(params.get(posEnd - 1), posEnd - 1, args)) posEnd--;
        List<Integer> kw = new ArrayList<>();
        for (int i = kwStart; i < n; i++) if (!isDefault(params.get(i), i, args)) kw.add(i);
        return new Layout(posEnd, kw.stream().mapToInt(Integer::intValue).toArray());
    }

    private static boolean isDefault(Schema.Argument param, int i, Object[] args) {
        if (!param.hasDefault()) return false;
        return i >= args.length || equalsDefault(args[i], param.defaultValue());
    }

    /** Arguments {@code [0, positional)} print positionally, then {@code keywords} as {@code name=value}. */
    record Layout(int positional, int[] keywords) {}

    /** {@code arg, arg, name=value}: the text between the call's parentheses. */
    static String args(Schema schema, Layout layout, Object[] args, Function<Tensor, String> tensorStr) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < layout.positional(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(str(i < args.length ? args[i] : null, tensorStr));
        }
        for (int i : layout.keywords()) {
            if (!sb.isEmpty()) sb.append(", ");
            Object value = i < args.length ? args[i] : null;
            sb.append(schema.arguments().get(i).name()).append('=').append(str(value, tensorStr));
        }
        return sb.toString();
    }

    // ---- values as Python prints them -------------------------------------------------------------

    /** Python's {@code str(v)}, with tensors rendered by {@code tensorStr}. */
    static String str(Object v, Function<Tensor, String> tensorStr) {
        return switch (v) {
            case null -> "None";
            case Tensor t -> tensorStr.apply(t);
            case String s -> s;
            case Device d -> d.type();
            case DType d -> d.toString();
            case Enum<?> e -> e.name().toLowerCase(Locale.ROOT);
            default -> repr(v, tensorStr);
        };
    }

    /** Python's {@code repr(v)}: what a container prints for its elements (strings and tensors quoted). */
    static String repr(Object v, Function<Tensor, String> tensorStr) {
        return switch (v) {
            case null -> "None";
            case Tensor t -> quote(tensorStr.apply(t));
            case String s -> quote(s);
            case Boolean b -> b ? "True" : "False";
            case Double d -> pyFloat(d);
            case Float f -> pyFloat(f);
            case Number n -> n.toString();
            case Scalar s -> scalar(s);
            case Device d -> "device(type='" + d.type() + "')";
            case DType d -> d.toString();
            case Enum<?> e -> quote(e.name().toLowerCase(Locale.ROOT));
            case long[] a -> list(a.length, i -> Long.toString(a[i]));
            case int[] a -> list(a.length, i -> Integer.toString(a[i]));
            case double[] a -> list(a.length, i -> pyFloat(a[i]));
            case float[] a -> list(a.length, i -> pyFloat(a[i]));
            case boolean[] a -> list(a.length, i -> a[i] ? "True" : "False");
            case Object[] a -> list(a.length, i -> repr(a[i], tensorStr));
            case List<?> l -> list(l.size(), i -> repr(l.get(i), tensorStr));
            case Record r -> tuple(components(r), tensorStr);
            default -> v.toString();
        };
    }

    /** Python's {@code str} of a tuple. */
    static String tuple(List<?> items, Function<Tensor, String> tensorStr) {
        if (items.size() == 1) return "(" + repr(items.get(0), tensorStr) + ",)";
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(repr(items.get(i), tensorStr));
        }
        return sb.append(')').toString();
    }

    /** The components of a record in declaration order (a composite's multi-output result). */
    static List<Object> components(Record r) {
        List<Object> out = new ArrayList<>();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            try {
                out.add(c.getAccessor().invoke(r));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(
                        "cannot read " + c.getName() + " of " + r.getClass().getName(), e);
            }
        }
        return out;
    }

    private static String list(int n, java.util.function.IntFunction<String> item) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(", ");
            sb.append(item.apply(i));
        }
        return sb.append(']').toString();
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static String scalar(Scalar s) {
        return switch (s.kind()) {
            case BOOL -> s.longValue() != 0 ? "True" : "False";
            case INT -> Long.toString(s.longValue());
            case UINT -> Long.toUnsignedString(s.longValue());
            case FLOAT -> pyFloat(s.doubleValue());
            case COMPLEX -> pyComplex(s.doubleValue(), s.imag());
        };
    }

    /** Python's {@code repr(float)}: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
    static String pyFloat(double v) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        String sign = Double.doubleToRawLongBits(v) < 0 ? "-" : "";
        if (v == 0) return sign + "0.0";
        // Double.toString gives the shortest round-trip digits (JDK 19+), as Python's repr does, except
        // that it never prints fewer than two: try the nearest one-digit decimal too (5e-324, not 4.9e-324).
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
        if (d.precision() == 2) {
            BigDecimal one = new BigDecimal(Math.abs(v)).round(new MathContext(1, java.math.RoundingMode.HALF_EVEN));
            if (one.doubleValue() == Math.abs(v)) d = one.stripTrailingZeros();
        }
        String digits = d.unscaledValue().toString();
        int exp = digits.length() - 1 - d.scale();
        if (exp < -4 || exp >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            int e = Math.abs(exp);
            return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
        }
        if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
        if (digits.length() <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length()) + ".0";
        return sign + digits.substring(0, exp + 1) + "." + digits.substring(exp + 1);
    }

    /** Python's {@code repr(complex)}: {@code 1j}, {@code (1+2j)}, {@code (1.5-0j)}. */
    private static String pyComplex(double re, double im) {
        String imag = shortFloat(im) + "j";
        if (re == 0 && Double.doubleToRawLongBits(re) >= 0) return imag;
        boolean negIm = !Double.isNaN(im) && Double.doubleToRawLongBits(im) < 0;
        return "(" + shortFloat(re) + (negIm ? "" : "+") + imag + ")";
    }

    /** A float as Python's complex repr prints its parts: no trailing {@code .0}. */
    private static String shortFloat(double v) {
        String s = pyFloat(v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    // ---- defaults ---------------------------------------------------------------------------------

    /** Whether an argument equals its schema default, as the dispatcher's {@code IValue} comparison decides. */
    static boolean equalsDefault(Object v, SchemaValue def) {
        return switch (def) {
            case SchemaValue.None _ -> v == null;
            case SchemaValue.Int i -> equalsNumber(v, i.value());
            case SchemaValue.Float f -> equalsNumber(v, f.value());
            case SchemaValue.ListOf l -> equalsList(v, l.elements());
            case SchemaValue.Str s -> v != null && str(v, NO_TENSORS).equals(s.value());
            case SchemaValue.Bool b -> v != null && str(v, NO_TENSORS).equals(b.toString());
            case SchemaValue.Identifier id -> v != null && str(v, NO_TENSORS).equals(id.name());
        };
    }

    private static final Function<Tensor, String> NO_TENSORS = t -> "<tensor>";

    private static boolean equalsNumber(Object v, double number) {
        return switch (v) {
            case Boolean _ -> false;
            case Number n -> n.doubleValue() == number;
            case Scalar s ->
                s.kind() != Scalar.Kind.BOOL && s.kind() != Scalar.Kind.COMPLEX && s.doubleValue() == number;
            case null, default -> false;
        };
    }

    private static boolean equalsList(Object v, List<SchemaValue> expected) {
        List<?> items =
                switch (v) {
                    case long[] a -> Arrays.stream(a).boxed().toList();
                    case int[] a -> Arrays.stream(a).boxed().toList();
                    case double[] a -> Arrays.stream(a).boxed().toList();
                    case boolean[] a ->
                        IntStream.range(0, a.length).mapToObj(i -> a[i]).toList();
                    case Object[] a -> Arrays.asList(a);
                    case List<?> l -> l;
                    case null, default -> null;
                };
        if (items == null || items.size() != expected.size()) return false;
        for (int i = 0; i < items.size(); i++) if (!equalsDefault(items.get(i), expected.get(i))) return false;
        return true;
    }
}
