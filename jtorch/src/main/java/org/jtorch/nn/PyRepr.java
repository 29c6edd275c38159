package org.jtorch.nn;

import java.math.BigDecimal;

/** Python's {@code repr} of the values module reprs quote ({@code eps=1e-05}, {@code (4,)}, {@code True}). */
final class PyRepr {
    private PyRepr() {}

    /** {@code repr(float)}: shortest round-tripping digits, exponent form below 1e-4 and from 1e16. */
    static String of(double v) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (v == 0) return Double.doubleToRawLongBits(v) < 0 ? "-0.0" : "0.0";
        // Double.toString already gives Python's shortest digits; only the layout differs.
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

    /** {@code repr(bool)}. */
    static String of(boolean b) {
        return b ? "True" : "False";
    }

    /** {@code repr(tuple(ints))}: {@code (4,)}, {@code (2, 5)}. */
    static String tuple(long[] values) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < values.length; i++) sb.append(i > 0 ? ", " : "").append(values[i]);
        return sb.append(values.length == 1 ? ",)" : ")").toString();
    }

    /** A batch-norm layer's {@code extra_repr}: {@code 4, eps=1e-05, momentum=0.1, affine=True, ...}. */
    static String batchNorm(BatchNormNd bn) {
        Double momentum = bn.momentum();
        return bn.numFeatures() + ", eps=" + of(bn.eps()) + ", momentum=" + (momentum == null ? "None" : of(momentum))
                + ", affine=" + of(bn.affine()) + ", bias=" + of(bn.getParameter("bias") != null)
                + ", track_running_stats=" + of(bn.trackRunningStats());
    }
}
