package org.jtorch.compile.inductor.ir;

import java.util.Arrays;

/**
 * An affine index into a buffer: {@code offset + Σ strides[d] · i_d} over a loop's index variables (the buffer's own
 * storage offset is added at run time). Views (permute, expand, slice, select, compatible reshapes) are changes of the
 * strides and the offset, so a chain of views costs nothing in a kernel.
 */
public record Access(long offset, long[] strides) {
    /** Copies the strides, so the record stays immutable. */
    public Access {
        strides = strides.clone();
    }

    /** The contiguous row-major access of a tensor of {@code shape} with {@code strides}. */
    public static Access of(long[] strides) {
        return new Access(0, strides);
    }

    @Override
    public long[] strides() {
        return strides.clone();
    }

    /** The stride of variable {@code d}. */
    public long stride(int d) {
        return strides[d];
    }

    /** The number of index variables. */
    public int rank() {
        return strides.length;
    }

    /** This access with other strides and offset. */
    public Access with(long newOffset, long[] newStrides) {
        return new Access(newOffset, newStrides);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Access a && a.offset == offset && Arrays.equals(a.strides, strides);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(offset) * 31 + Arrays.hashCode(strides);
    }

    @Override
    public String toString() {
        return offset + "+" + Arrays.toString(strides);
    }
}
