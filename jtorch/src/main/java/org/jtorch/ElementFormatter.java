package org.jtorch;

/**
 * PyTorch's {@code torch._tensor_str._Formatter}: one style and one column width for all printed elements of a tensor
 * (or of the real or imaginary parts of a complex tensor).
 *
 * <p>Floating values choose among three styles from their non-zero finite values: integer style ({@code 3.}) when all
 * are integral, scientific ({@code 1.0000e+05}) when the largest/smallest magnitude ratio exceeds 1000, the largest
 * exceeds 1e8 or the smallest is below 1e-4, else fixed ({@code 0.1235}). Integer and bool elements are already strings
 * and only get padded.
 */
final class ElementFormatter {
    private final boolean intMode;
    private final boolean sciMode;
    private final int precision;
    private final int maxWidth;

    private ElementFormatter(boolean intMode, boolean sciMode, int precision, int maxWidth) {
        this.intMode = intMode;
        this.sciMode = sciMode;
        this.precision = precision;
        this.maxWidth = maxWidth;
    }

    /** A formatter for already-stringified integer or bool elements: the width of the longest. */
    static ElementFormatter forStrings(String[] values) {
        int width = 1;
        for (String s : values) width = Math.max(width, s.length());
        return new ElementFormatter(false, false, 0, width);
    }

    /** A formatter for floating elements; only non-zero finite values decide the style and width. */
    static ElementFormatter forFloats(double[] values, int precision) {
        double min = Double.POSITIVE_INFINITY, max = 0;
        boolean intMode = true;
        int count = 0;
        for (double v : values) {
            if (!Double.isFinite(v) || v == 0) continue;
            count++;
            double a = Math.abs(v);
            min = Math.min(min, a);
            max = Math.max(max, a);
            if (v != Math.ceil(v)) intMode = false;
        }
        if (count == 0) return new ElementFormatter(true, false, precision, 1);
        boolean sciMode = max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4;
        int width = 1;
        for (double v : values) {
            if (!Double.isFinite(v) || v == 0) continue;
            int len;
            if (sciMode) len = PyFloatFormat.scientific(v, precision).length();
            else if (intMode) len = PyFloatFormat.fixed(v, 0).length() + 1; // room for the trailing '.'
            else len = PyFloatFormat.fixed(v, precision).length();
            width = Math.max(width, len);
        }
        return new ElementFormatter(intMode, sciMode, precision, width);
    }

    /** Column width ({@code _Formatter.width()}). */
    int width() {
        return maxWidth;
    }

    /** A floating element, right-aligned to the column width. */
    String format(double v) {
        String s;
        if (sciMode) s = PyFloatFormat.scientific(v, precision);
        else if (intMode) s = Double.isFinite(v) ? PyFloatFormat.fixed(v, 0) + "." : PyFloatFormat.fixed(v, 0);
        else s = PyFloatFormat.fixed(v, precision);
        return pad(s);
    }

    /** An integer or bool element, right-aligned to the column width. */
    String format(String s) {
        return pad(s);
    }

    private String pad(String s) {
        return s.length() >= maxWidth ? s : " ".repeat(maxWidth - s.length()) + s;
    }
}
