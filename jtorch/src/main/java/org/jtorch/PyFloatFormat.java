package org.jtorch;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's {@code "{:.Nf}"} and {@code "{:.Ne}"} for doubles. Java's {@code String.format} rounds the shortest decimal
 * representation (so {@code 0.15} would print as {@code 0.2} with one digit), while Python rounds the exact binary
 * value half-to-even; going through {@code new BigDecimal(double)} gives Python's digits.
 */
final class PyFloatFormat {
    private PyFloatFormat() {}

    /** {@code "{:.<precision>f}".format(v)}: fixed point, {@code nan}, {@code inf}, signed zero kept. */
    static String fixed(double v, int precision) {
        if (!Double.isFinite(v)) return nonFinite(v);
        String digits = new BigDecimal(Math.abs(v))
                .setScale(precision, RoundingMode.HALF_EVEN)
                .toPlainString();
        return negative(v) ? "-" + digits : digits;
    }

    /** {@code "{:.<precision>e}".format(v)}: one digit, the fraction, and a signed exponent of at least two digits. */
    static String scientific(double v, int precision) {
        if (!Double.isFinite(v)) return nonFinite(v);
        double a = Math.abs(v);
        String digits;
        int exponent;
        if (a == 0) {
            digits = "0".repeat(precision + 1);
            exponent = 0;
        } else {
            BigDecimal rounded = new BigDecimal(a).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            String unscaled = rounded.unscaledValue().toString();
            exponent = unscaled.length() - 1 - rounded.scale();
            digits = unscaled + "0".repeat(precision + 1 - unscaled.length());
        }
        StringBuilder sb = new StringBuilder(precision + 8);
        if (negative(v)) sb.append('-');
        sb.append(digits.charAt(0));
        if (precision > 0) sb.append('.').append(digits, 1, precision + 1);
        sb.append('e').append(exponent < 0 ? '-' : '+');
        int e = Math.abs(exponent);
        if (e < 10) sb.append('0');
        return sb.append(e).toString();
    }

    /** Python prints every NaN (whatever its sign bit) as {@code nan}. */
    private static String nonFinite(double v) {
        if (Double.isNaN(v)) return "nan";
        return v > 0 ? "inf" : "-inf";
    }

    private static boolean negative(double v) {
        return Double.doubleToRawLongBits(v) < 0;
    }
}
