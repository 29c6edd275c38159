package org.jtorch;

import java.lang.foreign.MemorySegment;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;

/**
 * The elements a tensor's repr shows, read straight from storage: along each dimension all indices, or, when the tensor
 * is summarised and the dimension is longer than {@code 2 * edgeItems}, the first and last {@code edgeItems}. These are
 * also exactly the values PyTorch's {@code get_summarized_data} hands to the formatters, so a 100M-element tensor costs
 * only the few elements printed.
 *
 * <p>Values are kept in row-major order over the kept indices: as strings for bool and integer dtypes, as doubles for
 * floating dtypes, and as real/imaginary doubles for complex dtypes.
 */
final class PrintedElements {
    /** Kept indices of each dimension, ascending. */
    final long[][] kept;
    /** Distance in {@link #count} order between consecutive kept indices of each dimension. */
    final int[] keptStride;

    final int count;
    /** Bool/integer elements as Python prints them; null otherwise. */
    final String[] strings;
    /** Floating elements, or the real parts of complex ones; null for bool/integer. */
    final double[] real;
    /** Imaginary parts of complex elements; null otherwise. */
    final double[] imag;

    private PrintedElements(
            long[][] kept, int[] keptStride, int count, String[] strings, double[] real, double[] imag) {
        this.kept = kept;
        this.keptStride = keptStride;
        this.count = count;
        this.strings = strings;
        this.real = real;
        this.imag = imag;
    }

    /** Reads the printed elements of a non-empty CPU tensor. */
    static PrintedElements read(TensorImpl t, boolean summarize, int edgeItems) {
        long[] shape = t.shapeRef(), strides = t.strideRef();
        int nd = shape.length;
        long[][] kept = new long[nd][];
        for (int d = 0; d < nd; d++) kept[d] = keptIndices(shape[d], summarize, edgeItems);
        int[] keptStride = new int[nd];
        int count = 1;
        for (int d = nd - 1; d >= 0; d--) {
            keptStride[d] = count;
            count = Math.multiplyExact(count, kept[d].length);
        }

        DType dtype = t.dtype();
        ElementIO io = ElementIO.of(dtype);
        MemorySegment seg = t.storage().segment();
        boolean complex = dtype.isComplex(), floating = dtype.isFloatingPoint();
        String[] strings = complex || floating ? null : new String[count];
        double[] real = strings == null ? new double[count] : null;
        double[] imag = complex ? new double[count] : null;
        int[] counter = new int[nd];
        for (int i = 0; i < count; i++) {
            long idx = t.storageOffset();
            for (int d = 0; d < nd; d++) idx += kept[d][counter[d]] * strides[d];
            if (strings != null) {
                strings[i] = integerString(dtype, io.getLong(seg, idx));
            } else {
                real[i] = io.getDouble(seg, idx);
                if (complex) imag[i] = io.getImag(seg, idx);
            }
            for (int d = nd - 1; d >= 0 && ++counter[d] == kept[d].length; d--) counter[d] = 0;
        }
        return new PrintedElements(kept, keptStride, count, strings, real, imag);
    }

    /** True when dimension {@code d} is cut short with an ellipsis. */
    boolean elided(int d, long size) {
        return kept[d].length < size;
    }

    private static long[] keptIndices(long size, boolean summarize, int edgeItems) {
        if (summarize && size > 2L * edgeItems) {
            long[] k = new long[2 * edgeItems];
            for (int i = 0; i < edgeItems; i++) {
                k[i] = i;
                k[edgeItems + i] = size - edgeItems + i;
            }
            return k;
        }
        long[] k = new long[Math.toIntExact(size)];
        for (int i = 0; i < k.length; i++) k[i] = i;
        return k;
    }

    /** Python's {@code str()} of the element: {@code True}/{@code False}, or the integer (uint64 unsigned). */
    private static String integerString(DType dtype, long v) {
        if (dtype == DType.BOOL) return v != 0 ? "True" : "False";
        return dtype == DType.UINT64 ? Long.toUnsignedString(v) : Long.toString(v);
    }
}
