package org.jtorch.kernels.cpu;

import org.jtorch.internal.Shapes;
import org.jtorch.storage.TensorImpl;

/**
 * The order in which ATen's {@code cpu_serial_kernel} visits elements, which is the order in which a random op consumes
 * its generator: TensorIterator sorts the dims by stride (innermost = smallest stride of the first operand that
 * decides, output first), so a fresh contiguous output fills in row-major order and an in-place fill of a transposed or
 * sliced view fills in memory order.
 *
 * <p>The sort is TensorIterator's {@code reorder_dimensions}: an insertion sort whose comparison skips broadcast
 * (stride 0) operands and breaks equal strides by size, and may be undecided.
 */
public final class SerialOrder {
    private SerialOrder() {}

    /** Receives the storage index of the output element and, for two-operand loops, of the input element. */
    @FunctionalInterface
    public interface Visitor {
        void visit(long outIndex, long inIndex);
    }

    /** Visits every element of {@code out} in ATen's serial order; the input index is always 0. */
    public static void forEach(TensorImpl out, Visitor v) {
        forEach(out, null, v);
    }

    /**
     * Visits every element of {@code out} with the matching element of {@code in} (broadcast to {@code out}'s shape),
     * in the order TensorIterator gives the pair.
     */
    public static void forEach(TensorImpl out, TensorImpl in, Visitor v) {
        long[] shape = out.shapeRef();
        long n = out.numel();
        if (n == 0) return;
        long[] so = out.strideRef();
        long[] si = in == null ? new long[shape.length] : Shapes.broadcastStrides(in.shapeRef(), in.strideRef(), shape);
        long oo = out.storageOffset(), io = in == null ? 0 : in.storageOffset();
        int nd = shape.length;
        if (nd == 0) {
            v.visit(oo, io);
            return;
        }
        int[] perm = order(shape, so, in == null ? null : si); // perm[0] = innermost dim
        long[] coord = new long[nd];
        long po = oo, pi = io;
        for (long k = 0; k < n; k++) {
            v.visit(po, pi);
            for (int p = 0; p < nd; p++) {
                int d = perm[p];
                if (++coord[d] < shape[d]) {
                    po += so[d];
                    pi += si[d];
                    break;
                }
                coord[d] = 0;
                po -= so[d] * (shape[d] - 1);
                pi -= si[d] * (shape[d] - 1);
            }
        }
    }

    private static int[] order(long[] shape, long[] outStrides, long[] inStrides) {
        int nd = shape.length;
        int[] perm = new int[nd];
        for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
        for (int i = 1; i < nd; i++) {
            int dim1 = i;
            for (int dim0 = i - 1; dim0 >= 0; dim0--) {
                int c = compare(shape, outStrides, inStrides, perm[dim0], perm[dim1]);
                if (c > 0) {
                    int t = perm[dim0];
                    perm[dim0] = perm[dim1];
                    perm[dim1] = t;
                    dim1 = dim0;
                } else if (c < 0) {
                    break;
                }
            }
        }
        return perm;
    }

    /** TensorIterator's {@code should_swap}: 1 if {@code d0} should come after {@code d1}, -1 before, 0 undecided. */
    private static int compare(long[] shape, long[] outStrides, long[] inStrides, int d0, int d1) {
        int c = compare(shape, outStrides, d0, d1);
        if (c != 0 || inStrides == null) return c;
        return compare(shape, inStrides, d0, d1);
    }

    private static int compare(long[] shape, long[] strides, int d0, int d1) {
        long s0 = strides[d0], s1 = strides[d1];
        if (s0 == 0 || s1 == 0) return 0;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        return shape[d0] > shape[d1] ? 1 : 0;
    }
}
