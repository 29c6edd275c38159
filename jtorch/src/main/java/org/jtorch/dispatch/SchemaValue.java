package org.jtorch.dispatch;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A default value in a schema, typed as PyTorch's schema parser reads it: {@code None}, an integer, a float
 * ({@code inf}, {@code nan} included), a bool, a quoted string, a list of values, or a bare identifier naming an enum
 * constant ({@code Mean} for a reduction, {@code long} for a ScalarType, {@code contiguous_format} for a MemoryFormat).
 * {@code toString()} renders the canonical literal.
 */
public sealed interface SchemaValue {
    /** {@code None}. */
    record None() implements SchemaValue {
        @Override
        public String toString() {
            return "None";
        }
    }

    /** An integer literal. */
    record Int(long value) implements SchemaValue {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    /** A float literal. */
    record Float(double value) implements SchemaValue {
        @Override
        public String toString() {
            return render(value);
        }
    }

    /** {@code True} or {@code False}. */
    record Bool(boolean value) implements SchemaValue {
        @Override
        public String toString() {
            return value ? "True" : "False";
        }
    }

    /** A quoted string; rendered in single quotes, as PyTorch prints a schema. */
    record Str(String value) implements SchemaValue {
        @Override
        public String toString() {
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
    }

    /** {@code [a, b, ...]}. */
    record ListOf(List<SchemaValue> elements) implements SchemaValue {
        public ListOf {
            elements = List.copyOf(elements);
        }

        @Override
        public String toString() {
            return elements.stream().map(Object::toString).collect(Collectors.joining(", ", "[", "]"));
        }
    }

    /** A bare enum identifier such as {@code Mean}, {@code long} or {@code contiguous_format}. */
    record Identifier(String name) implements SchemaValue {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The shared {@code None}. */
    None NONE = new None();

    /** A float as a schema writes it: {@code 1.0}, {@code 0.5}, {@code 1e-05}, {@code inf}, {@code nan}. */
    private static String render(double v) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        double abs = Math.abs(v);
        if (v == Math.rint(v) && abs < 1e16) return (long) v + ".0";
        if (abs >= 1e-4 && abs < 1e16)
            return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        BigDecimal d = BigDecimal.valueOf(abs).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int exp = digits.length() - 1 - d.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String e = (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
        return (v < 0 ? "-" : "") + mantissa + "e" + e;
    }
}
