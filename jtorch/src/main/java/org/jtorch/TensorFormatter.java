package org.jtorch;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.internal.DefaultDtype;

/**
 * {@code repr(tensor)} exactly as PyTorch prints it ({@code torch/_tensor_str.py}) with the default print options:
 * precision 4, summarisation with {@code ...} above 1000 elements keeping 3 items at each edge, lines of 80 characters,
 * scientific notation chosen automatically.
 *
 * <p>The suffixes follow {@code _str_intern}: {@code device='meta'} for non-CPU tensors; {@code dtype=} unless the
 * dtype is the default float, its complex counterpart, int64 or bool; for empty tensors {@code size=} unless 1-D and
 * {@code dtype=} unless the default float (an empty int64 tensor would otherwise read as float); meta tensors print
 * {@code ...} with their size. Last comes the autograd suffix: {@code grad_fn=<MulBackward0>} for the result of a
 * recorded op, else {@code requires_grad=True} for a leaf that requires grad.
 */
final class TensorFormatter {
    private static final int PRECISION = 4;
    private static final long THRESHOLD = 1000;
    private static final int EDGE_ITEMS = 3;
    private static final int LINE_WIDTH = 80;
    private static final String PREFIX = "tensor(";

    private TensorFormatter() {}

    /** {@code repr(t)} / {@code str(t)}. */
    public static String format(Tensor t) {
        int indent = PREFIX.length();
        DType defaultDtype = DefaultDtype.get();
        List<String> suffixes = new ArrayList<>();
        if (t.device() != Device.CPU) suffixes.add("device='" + t.device() + "'");
        String body;
        if (t.isMeta()) {
            suffixes.add("size=" + tuple(t.impl().shapeRef()));
            if (t.dtype() != defaultDtype) suffixes.add("dtype=" + t.dtype());
            body = "...";
        } else if (t.numel() == 0) {
            if (t.dim() != 1) suffixes.add("size=" + tuple(t.impl().shapeRef()));
            if (t.dtype() != defaultDtype) suffixes.add("dtype=" + t.dtype());
            body = "[]";
        } else {
            if (!hasDefaultDtype(t.dtype(), defaultDtype)) suffixes.add("dtype=" + t.dtype());
            body = contents(t, indent);
        }
        if (t.gradFn() != null) suffixes.add("grad_fn=<" + t.gradFn().name() + ">");
        else if (t.requiresGrad()) suffixes.add("requires_grad=True");
        return addSuffixes(PREFIX + body, suffixes, indent);
    }

    private static boolean hasDefaultDtype(DType d, DType defaultDtype) {
        DType defaultComplex = defaultDtype == DType.FLOAT64 ? DType.COMPLEX128 : DType.COMPLEX64;
        return d == defaultDtype || d == defaultComplex || d == DType.INT64 || d == DType.BOOL;
    }

    /** {@code _tensor_str}: formatters built over the printed elements, then the nested brackets. */
    private static String contents(Tensor t, int indent) {
        boolean summarize = t.numel() > THRESHOLD;
        PrintedElements p = PrintedElements.read(t.impl(), summarize, EDGE_ITEMS);
        Layout layout;
        if (p.strings != null) {
            layout = new Layout(t.impl().shapeRef(), p, ElementFormatter.forStrings(p.strings), null);
        } else if (p.imag != null) {
            layout = new Layout(
                    t.impl().shapeRef(),
                    p,
                    ElementFormatter.forFloats(p.real, PRECISION),
                    ElementFormatter.forFloats(p.imag, PRECISION));
        } else {
            layout = new Layout(t.impl().shapeRef(), p, ElementFormatter.forFloats(p.real, PRECISION), null);
        }
        return layout.render(0, 0, indent);
    }

    /** {@code _tensor_str_with_formatter}; {@code imagFormatter} is non-null for complex tensors only. */
    private record Layout(long[] shape, PrintedElements p, ElementFormatter formatter, ElementFormatter imagFormatter) {
        String render(int dim, int base, int indent) {
            int nd = shape.length;
            if (dim == nd) return element(base);
            if (dim == nd - 1) return vector(dim, base, indent);
            List<String> slices = new ArrayList<>();
            long[] kept = p.kept[dim];
            boolean elided = p.elided(dim, shape[dim]);
            for (int i = 0; i < kept.length; i++) {
                if (elided && i == EDGE_ITEMS) slices.add("...");
                slices.add(render(dim + 1, base + i * p.keptStride[dim], indent + 1));
            }
            String sep = "," + "\n".repeat(nd - dim - 1) + " ".repeat(indent + 1);
            return "[" + String.join(sep, slices) + "]";
        }

        /** {@code _vector_str}: as many elements per line as fit in the line width after the indent. */
        private String vector(int dim, int base, int indent) {
            int elementLength = formatter.width() + 2;
            if (imagFormatter != null) elementLength += imagFormatter.width() + 1;
            int perLine = Math.max(1, Math.floorDiv(LINE_WIDTH - indent, elementLength));
            List<String> items = new ArrayList<>();
            int n = p.kept[dim].length;
            boolean elided = p.elided(dim, shape[dim]);
            for (int i = 0; i < n; i++) {
                if (elided && i == EDGE_ITEMS) items.add(" ...");
                items.add(element(base + i));
            }
            StringBuilder sb = new StringBuilder("[");
            String lineSep = ",\n" + " ".repeat(indent + 1);
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) sb.append(i % perLine == 0 ? lineSep : ", ");
                sb.append(items.get(i));
            }
            return sb.append(']').toString();
        }

        /** One element; complex ones join the real and imaginary columns ({@code 1.0000-2.0000j}). */
        private String element(int i) {
            if (p.strings != null) return formatter.format(p.strings[i]);
            String re = formatter.format(p.real[i]);
            if (imagFormatter == null) return re;
            String im = (imagFormatter.format(p.imag[i]) + "j").stripLeading();
            char c = im.charAt(0);
            return c == '+' || c == '-' ? re + im : re + "+" + im;
        }
    }

    /** {@code _add_suffixes}: a suffix moves to a new line when it would pass the line width. */
    private static String addSuffixes(String tensorStr, List<String> suffixes, int indent) {
        StringBuilder sb = new StringBuilder(tensorStr);
        // Python's len(s) - s.rfind("\n") + 1, including its quirk of counting 2 extra with no newline.
        int lastLineLen = tensorStr.length() - tensorStr.lastIndexOf('\n') + 1;
        for (String suffix : suffixes) {
            if (lastLineLen + suffix.length() + 2 > LINE_WIDTH) {
                sb.append(",\n").append(" ".repeat(indent)).append(suffix);
                lastLineLen = indent + suffix.length();
            } else {
                sb.append(", ").append(suffix);
                lastLineLen += suffix.length() + 2;
            }
        }
        return sb.append(')').toString();
    }

    /** Python's {@code str(tuple(shape))}: {@code (2, 3)}, {@code (5,)}, {@code ()}. */
    private static String tuple(long[] shape) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(shape[i]);
        }
        if (shape.length == 1) sb.append(',');
        return sb.append(')').toString();
    }
}
