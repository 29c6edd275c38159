package org.jtorch.internal;

import java.util.Arrays;
import org.jtorch.TorchException;

/** Shape and stride arithmetic shared by every layer: all {@code long}, overflow-checked. */
public final class Shapes {
    private Shapes() {}

    public static final long[] SCALAR = new long[0];

    /** Number of elements; throws on negative sizes or overflow. */
    public static long numel(long[] shape) {
        long n = 1;
        for (long s : shape) {
            if (s < 0)
                throw new TorchException("Trying to create tensor with negative dimension " + s + ": " + str(shape));
            n = Math.multiplyHigh(n, s) != 0 || n * s < 0 ? overflow(shape) : n * s;
        }
        return n;
    }

    private static long overflow(long[] shape) {
        throw new TorchException("numel: integer multiplication overflow for size " + str(shape));
    }

    /** Row-major (C-contiguous) strides in elements. */
    public static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= Math.max(shape[i], 1);
        }
        return strides;
    }

    /** PyTorch's {@code is_contiguous}: size-1 dims may have any stride; empty tensors are contiguous. */
    public static boolean isContiguous(long[] shape, long[] strides) {
        long expected = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] == 0) return true;
            if (shape[i] != 1) {
                if (strides[i] != expected) return false;
                expected *= shape[i];
            }
        }
        return true;
    }

    /** Wraps a possibly negative dim into [0, rank), PyTorch's {@code maybe_wrap_dim}. */
    public static int wrapDim(long dim, int rank) {
        int r = Math.max(rank, 1); // a 0-d tensor accepts dims -1 and 0
        if (dim < -r || dim >= r) {
            throw new IndexOutOfBoundsException("Dimension out of range (expected to be in range of [" + (-r) + ", "
                    + (r - 1) + "], but got " + dim + ")");
        }
        return (int) (dim < 0 ? dim + r : dim);
    }

    /** The broadcast shape of two shapes, with PyTorch's error message. */
    public static long[] broadcast(long[] a, long[] b) {
        if (Arrays.equals(a, b)) return a;
        int n = Math.max(a.length, b.length);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            int ia = a.length - n + i, ib = b.length - n + i;
            long sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
            if (sa == sb || sb == 1) out[i] = sa;
            else if (sa == 1) out[i] = sb;
            else {
                throw new TorchException("The size of tensor a (" + sa + ") must match the size of tensor b (" + sb
                        + ") at non-singleton dimension " + i);
            }
        }
        return out;
    }

    /** Strides that read a tensor of {@code shape}/{@code strides} broadcast to {@code target} (0 on expanded dims). */
    public static long[] broadcastStrides(long[] shape, long[] strides, long[] target) {
        long[] out = new long[target.length];
        int off = target.length - shape.length;
        for (int i = 0; i < shape.length; i++) {
            out[off + i] = shape[i] == 1 && target[off + i] != 1 ? 0 : strides[i];
        }
        return out;
    }

    /** PyTorch's size string: {@code [2, 3]}. */
    public static String str(long[] shape) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++) sb.append(i > 0 ? ", " : "").append(shape[i]);
        return sb.append(']').toString();
    }

    /** Checks that every size is non-negative and that the product fits in a long. */
    public static long[] checkSizes(String op, long[] shape) {
        for (long s : shape) {
            if (s < 0)
                throw new TorchException(
                        op + "(): Trying to create tensor with negative dimension " + s + ": " + str(shape));
        }
        numel(shape);
        return shape;
    }
}
