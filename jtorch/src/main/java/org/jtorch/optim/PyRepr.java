package org.jtorch.optim;

import java.math.BigDecimal;

/** Python's {@code repr(float)} for the values quoted in optimizer error messages ({@code 1e-05}, {@code -0.1}). */
final class PyRepr {
    private PyRepr() {}

    static String of(double v) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (v == 0) return Double.doubleToRawLongBits(v) < 0 ? "-0.0" : "0.0";
        // Double.toString gives the shortest round-tripping digits, as Python's repr does; only the layout differs.
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int exponent = digits.length() - 1 - d.scale();
        String sign = v < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 16) {
            String plain = d.toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        int e = Math.abs(exponent);
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
    }

    /** {@code repr} of a hyper-parameter value: floats, bools, None and tuples as Python prints them. */
    static String of(Object v) {
        if (v == null) return "None";
        if (v instanceof Double || v instanceof Float) return of(((Number) v).doubleValue());
        if (v instanceof Boolean b) return b ? "True" : "False";
        if (v instanceof java.util.List<?> l) { // tuple-valued hyper-parameters (betas)
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < l.size(); i++) sb.append(i > 0 ? ", " : "").append(of(l.get(i)));
            return sb.append(l.size() == 1 ? ",)" : ")").toString();
        }
        return String.valueOf(v);
    }
}
