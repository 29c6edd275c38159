package org.jtorch.kernels.fft;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.jtorch.DType;
import org.jtorch.storage.TensorImpl;

/**
 * The lines of a float32/float64 or complex64/complex128 tensor along one dim, read into and written from double
 * buffers (complex values as interleaved pairs). Strides and offsets are in elements; a complex element {@code e} has
 * its parts in slots {@code 2e} and {@code 2e + 1}. Storage is read through its memory segment (heap, native or mapped
 * alike, little-endian as everywhere); a contiguous line is read and written in one simple loop (float64 without
 * scaling: one bulk copy).
 */
final class StridedLines {
    private static final ValueLayout.OfDouble F64 =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment segment;
    /** The storage's own array when it is a heap float64/complex128 one, else null. */
    private final double[] heapDoubles;

    private final boolean doubles;
    private final boolean complex;
    private final long offset;
    private final long[] shape;
    private final long[] strides;

    StridedLines(TensorImpl t) {
        DType d = t.dtype();
        this.segment = t.storage().segment();
        this.doubles = d == DType.FLOAT64 || d == DType.COMPLEX128;
        this.complex = d.isComplex();
        this.heapDoubles = doubles && t.storage().array() instanceof double[] a ? a : null;
        this.offset = t.storageOffset();
        this.shape = t.shapeRef().clone();
        this.strides = t.strideRef().clone();
    }

    /**
     * The storage's own array when it is a heap float64/complex128 one (else null): element {@code e} is in slot
     * {@code e} (real) or slots {@code 2e, 2e + 1} (complex), for a kernel that reads or writes a line where it lies.
     */
    double[] heapDoubles() {
        return heapDoubles;
    }

    long size(int dim) {
        return shape[dim];
    }

    long stride(int dim) {
        return strides[dim];
    }

    /** How many lines run along {@code dim}. */
    long count(int dim) {
        long c = 1;
        for (int i = 0; i < shape.length; i++) if (i != dim) c *= shape[i];
        return c;
    }

    /** The element index where line {@code line} along {@code dim} starts (lines in row-major order of the rest). */
    long start(int dim, long line) {
        long at = offset;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (i == dim) continue;
            at += (line % shape[i]) * strides[i];
            line /= shape[i];
        }
        return at;
    }

    private long slotBytes() {
        return doubles ? Double.BYTES : Float.BYTES;
    }

    /** Reads {@code n} values from {@code start} with {@code stride}: complex ones as pairs, real ones as is. */
    void read(long start, long stride, int n, double[] dst) {
        int parts = complex ? 2 : 1;
        long slot = parts * start, slotStride = parts * stride, w = slotBytes();
        if (stride == 1 || n == 1) {
            if (doubles) {
                MemorySegment.copy(segment, F64, slot * w, dst, 0, parts * n);
            } else {
                long at = slot * w;
                for (int k = 0, count = parts * n; k < count; k++, at += Float.BYTES) dst[k] = segment.get(F32, at);
            }
            return;
        }
        for (int k = 0; k < n; k++, slot += slotStride) {
            for (int c = 0; c < parts; c++) {
                dst[parts * k + c] = doubles ? segment.get(F64, (slot + c) * w) : segment.get(F32, (slot + c) * w);
            }
        }
    }

    /** Writes {@code n} values times {@code scale}, the inverse of {@link #read}. */
    void write(long start, long stride, int n, double[] src, double scale) {
        int parts = complex ? 2 : 1;
        long slot = parts * start, slotStride = parts * stride, w = slotBytes();
        if (stride == 1 || n == 1) {
            long at = slot * w;
            int count = parts * n;
            if (doubles && scale == 1) {
                MemorySegment.copy(src, 0, segment, F64, at, count);
            } else if (doubles) {
                for (int k = 0; k < count; k++, at += Double.BYTES) segment.set(F64, at, src[k] * scale);
            } else {
                for (int k = 0; k < count; k++, at += Float.BYTES) segment.set(F32, at, (float) (src[k] * scale));
            }
            return;
        }
        for (int k = 0; k < n; k++, slot += slotStride) {
            for (int c = 0; c < parts; c++) {
                double v = src[parts * k + c] * scale;
                if (doubles) segment.set(F64, (slot + c) * w, v);
                else segment.set(F32, (slot + c) * w, (float) v);
            }
        }
    }
}
