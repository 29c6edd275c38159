package org.jtorch.kernels.cpu;

import org.jtorch.internal.Shapes;
import org.jtorch.storage.TensorImpl;

/**
 * The geometry of an elementwise loop (ATen's TensorIterator idea): operand 0 is the output; inputs are broadcast to
 * its shape (stride 0 on expanded dims); dims that are contiguous for every operand are merged, so most loops become
 * one long run. Kernels then see only 1-D runs: {@code (base index per operand, inner stride per operand, length)}.
 */
public final class StridedIter {
    private final long[] shape;
    private final long[][] strides;
    private final long[] offsets;
    private final long numel;

    /** Runs of the loop, visited in row-major order of the output. */
    @FunctionalInterface
    public interface RunBody {
        /** {@code base[k]} is operand k's storage index of the run's first element. */
        void run(long[] base, long[] innerStride, long n);
    }

    public StridedIter(long[] shape, TensorImpl... operands) {
        int k = operands.length;
        long[][] st = new long[k][];
        offsets = new long[k];
        for (int i = 0; i < k; i++) {
            st[i] = Shapes.broadcastStrides(operands[i].shapeRef(), operands[i].strideRef(), shape);
            offsets[i] = operands[i].storageOffset();
        }
        this.numel = Shapes.numel(shape);
        // Coalesce: dim d-1 and d merge when, for every operand, stride[d-1] == stride[d] * size[d].
        long[] sh = new long[shape.length];
        long[][] cs = new long[k][shape.length];
        int n = 0;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 1) continue;
            if (n > 0) {
                boolean merge = true;
                for (int i = 0; i < k; i++) {
                    if (cs[i][n - 1] != st[i][d] * shape[d]) {
                        merge = false;
                        break;
                    }
                }
                if (merge) {
                    sh[n - 1] *= shape[d];
                    for (int i = 0; i < k; i++) cs[i][n - 1] = st[i][d];
                    continue;
                }
            }
            sh[n] = shape[d];
            for (int i = 0; i < k; i++) cs[i][n] = st[i][d];
            n++;
        }
        if (n == 0) { // every dim has size 1: a single element
            this.shape = new long[] {1};
            this.strides = new long[k][1];
            return;
        }
        this.shape = java.util.Arrays.copyOf(sh, n);
        this.strides = new long[k][];
        for (int i = 0; i < k; i++) strides[i] = java.util.Arrays.copyOf(cs[i], n);
    }

    public long numel() {
        return numel;
    }

    /** Number of dims after coalescing; 1 means every operand is a single strided run. */
    public int dims() {
        return shape.length;
    }

    /** Inner (last coalesced) stride of operand {@code k}. */
    public long innerStride(int k) {
        return strides[k][shape.length - 1];
    }

    /** Visits the runs covering output linear indices {@code [start, end)}. */
    public void forEachRun(long start, long end, RunBody body) {
        int nd = shape.length, k = offsets.length;
        long inner = shape[nd - 1];
        long[] coord = new long[nd];
        long rem = start;
        for (int d = nd - 1; d >= 0; d--) {
            coord[d] = rem % shape[d];
            rem /= shape[d];
        }
        long[] base = new long[k];
        long[] innerStride = new long[k];
        for (int i = 0; i < k; i++) innerStride[i] = strides[i][nd - 1];
        long pos = start;
        while (pos < end) {
            for (int i = 0; i < k; i++) {
                long b = offsets[i];
                for (int d = 0; d < nd; d++) b += coord[d] * strides[i][d];
                base[i] = b;
            }
            long n = Math.min(inner - coord[nd - 1], end - pos);
            body.run(base, innerStride, n);
            pos += n;
            coord[nd - 1] += n;
            for (int d = nd - 1; d > 0 && coord[d] >= shape[d]; d--) {
                coord[d] = 0;
                coord[d - 1]++;
            }
        }
    }
}
