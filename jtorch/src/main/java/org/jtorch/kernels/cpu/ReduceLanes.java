package org.jtorch.kernels.cpu;

import java.util.Arrays;
import org.jtorch.storage.TensorImpl;

/**
 * The geometry of a reduction: a tensor's dims split into kept dims (one lane per output element, in row-major order)
 * and reduced dims, conceptually moved to the end. Adjacent reduced dims that are contiguous with each other are
 * coalesced and size-1 reduced dims dropped, so a lane is visited as few strided runs as possible, always in row-major
 * order of the reduced dims.
 */
final class ReduceLanes {
    /** Receives the strided runs of one lane, in order. */
    @FunctionalInterface
    interface RunSink {
        void run(long start, long stride, long len);
    }

    final long[] keptShape, keptStrides, redShape, redStrides;
    /** Storage offset of the tensor, elements per lane, number of lanes. */
    final long offset, size, outputs;

    ReduceLanes(TensorImpl t, boolean[] reduced) {
        long[] shape = t.shapeRef(), strides = t.strideRef();
        int kept = 0;
        for (boolean r : reduced) if (!r) kept++;
        keptShape = new long[kept];
        keptStrides = new long[kept];
        long[] rs = new long[shape.length - kept], rst = new long[shape.length - kept];
        int k = 0, r = 0;
        long total = 1, outs = 1;
        for (int d = 0; d < shape.length; d++) {
            if (!reduced[d]) {
                keptShape[k] = shape[d];
                keptStrides[k++] = strides[d];
                outs *= shape[d];
                continue;
            }
            total *= shape[d];
            if (shape[d] == 1) continue;
            if (r > 0 && rst[r - 1] == strides[d] * shape[d]) { // contiguous with the previous reduced dim: merge
                rs[r - 1] *= shape[d];
                rst[r - 1] = strides[d];
            } else {
                rs[r] = shape[d];
                rst[r++] = strides[d];
            }
        }
        redShape = Arrays.copyOf(rs, r);
        redStrides = Arrays.copyOf(rst, r);
        offset = t.storageOffset();
        size = total;
        outputs = outs;
    }

    /** Lanes of a single dim (scans, softmax). */
    static ReduceLanes along(TensorImpl t, int dim) {
        boolean[] mask = new boolean[t.dim()];
        mask[dim] = true;
        return new ReduceLanes(t, mask);
    }

    /** Storage index of the first element of lane {@code o}. */
    long base(long o) {
        long idx = offset;
        for (int d = keptShape.length - 1; d >= 0; d--) {
            long s = keptShape[d];
            idx += (o % s) * keptStrides[d];
            o /= s;
        }
        return idx;
    }

    /** Whether a lane is a single run (then {@link #runStride()} is its stride). */
    boolean singleRun() {
        return redShape.length <= 1;
    }

    /** Stride of a single-run lane (1 when the lane has at most one element). */
    long runStride() {
        return redShape.length == 0 ? 1 : redStrides[0];
    }

    /** Visits the lane starting at {@code base} as strided runs, in row-major order of the reduced dims. */
    void forEachRun(long base, RunSink sink) {
        if (size == 0) return;
        int nd = redShape.length;
        if (nd <= 1) {
            sink.run(base, runStride(), size);
            return;
        }
        long inner = redShape[nd - 1], innerStride = redStrides[nd - 1];
        long[] coord = new long[nd - 1];
        long pos = base;
        for (long r = 0, runs = size / inner; r < runs; r++) {
            sink.run(pos, innerStride, inner);
            for (int d = nd - 2; d >= 0; d--) {
                pos += redStrides[d];
                if (++coord[d] < redShape[d]) break;
                pos -= coord[d] * redStrides[d];
                coord[d] = 0;
            }
        }
    }
}
