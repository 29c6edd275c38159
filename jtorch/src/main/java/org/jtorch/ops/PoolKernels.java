package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernels of {@link PoolOps}. Inputs are read as dense float64 planes (exact for every floating pooled dtype)
 * and results written through a float64 buffer converted once into the output, so one loop serves every floating dtype;
 * int64 average pooling has its own integer loops. Planes are independent and run in parallel; within a plane the order
 * is fixed, so results do not depend on the thread count.
 */
final class PoolKernels {
    private PoolKernels() {}

    private static double[] dense(Tensor t) {
        Tensor c = CopyOps.clone(CopyOps.to(t, DType.FLOAT64));
        return (double[]) c.impl().storage().array();
    }

    private static long grain(long planeWork) {
        return Math.max(1, Parallel.GRAIN / Math.max(1, planeWork));
    }

    /**
     * Max over each window, as ATen's kernel scans it: the first maximum is kept, and a NaN replaces anything before
     * it.
     */
    static void maxForward(Tensor input, Tensor values, Tensor indices, PoolOps.MaxPlan p) {
        if (values.numel() == 0) return;
        if (!input.dtype().isFloatingPoint()) {
            maxForwardIntegral(input, values, indices, p);
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            double[] x = dense(input);
            int h = (int) p.h(), w = (int) p.w(), oh = (int) p.oh(), ow = (int) p.ow(), plane = h * w, out = oh * ow;
            double[] v = new double[(int) (p.planes() * out)];
            long[] ix = new long[v.length];
            Parallel.forRange(p.planes(), grain((long) out * p.kh() * p.kw()), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int i = 0; i < oh; i++) {
                        long hs = i * p.sh() - p.ph();
                        for (int j = 0; j < ow; j++) {
                            long ws = j * p.sw() - p.pw();
                            // ATen starts from the first in-range position, even when the whole window is out of range
                            long y0 = hs, x0 = ws;
                            while (y0 < 0) y0 += p.dh();
                            while (x0 < 0) x0 += p.dw();
                            long best = y0 * w + x0;
                            double max = Double.NEGATIVE_INFINITY;
                            for (long y = y0; y < Math.min(hs + (p.kh() - 1) * p.dh() + 1, h); y += p.dh()) {
                                for (long xx = x0; xx < Math.min(ws + (p.kw() - 1) * p.dw() + 1, w); xx += p.dw()) {
                                    double val = x[(int) (c * plane + y * w + xx)];
                                    if (val > max || Double.isNaN(val)) {
                                        max = val;
                                        best = y * w + xx;
                                    }
                                }
                            }
                            v[c * out + i * ow + j] = max;
                            ix[c * out + i * ow + j] = best;
                        }
                    }
                }
            });
            writeDoubles(v, values);
            writeLongs(ix, indices);
        }
    }

    /**
     * {@link #maxForward} of integer input, compared as int64 (exact for every integer dtype): the first maximum of
     * each window is kept, starting from the dtype's lowest value as ATen's kernel does.
     */
    private static void maxForwardIntegral(Tensor input, Tensor values, Tensor indices, PoolOps.MaxPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            long[] x = (long[]) CopyOps.clone(CopyOps.to(input, DType.INT64))
                    .impl()
                    .storage()
                    .array();
            int w = (int) p.w(), oh = (int) p.oh(), ow = (int) p.ow(), plane = (int) (p.h() * p.w()), out = oh * ow;
            long[] v = new long[(int) (p.planes() * out)];
            long[] ix = new long[v.length];
            Parallel.forRange(p.planes(), grain((long) out * p.kh() * p.kw()), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int i = 0; i < oh; i++) {
                        long hs = i * p.sh() - p.ph();
                        long y0 = hs;
                        while (y0 < 0) y0 += p.dh();
                        for (int j = 0; j < ow; j++) {
                            long ws = j * p.sw() - p.pw();
                            long x0 = ws;
                            while (x0 < 0) x0 += p.dw();
                            long best = y0 * w + x0;
                            long max = Long.MIN_VALUE;
                            for (long y = y0; y < Math.min(hs + (p.kh() - 1) * p.dh() + 1, p.h()); y += p.dh()) {
                                for (long xx = x0; xx < Math.min(ws + (p.kw() - 1) * p.dw() + 1, w); xx += p.dw()) {
                                    long val = x[(int) (c * plane + y * w + xx)];
                                    if (val > max) {
                                        max = val;
                                        best = y * w + xx;
                                    }
                                }
                            }
                            v[c * out + i * ow + j] = max;
                            ix[c * out + i * ow + j] = best;
                        }
                    }
                }
            });
            writeLongs(v, values);
            writeLongs(ix, indices);
        }
    }

    /** Adds each gradient element at its recorded index of its plane. */
    static void maxBackward(Tensor gradOutput, Tensor indices, Tensor gradInput, PoolOps.MaxPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int plane = (int) (p.h() * p.w()), out = (int) (p.oh() * p.ow());
            double[] gi = new double[(int) (p.planes() * plane)];
            if (gi.length > 0 && out > 0) {
                double[] g = dense(gradOutput);
                long[] ix = (long[]) CopyOps.clone(indices).impl().storage().array();
                for (int c = 0; c < p.planes(); c++) {
                    for (int k = 0; k < out; k++) {
                        long at = ix[c * out + k];
                        if (at < 0 || at >= plane) {
                            throw new IndexOutOfBoundsException("max_pool2d_with_indices_backward: index " + at
                                    + " is out of bounds for an input plane of " + plane + " elements");
                        }
                        gi[(int) (c * (long) plane + at)] += g[c * out + k];
                    }
                }
            }
            writeDoubles(gi, gradInput);
        }
    }

    /** The average of each window, divided by the plan's divisor. */
    static void average(Tensor input, Tensor output, PoolOps.WindowPlan p) {
        if (output.numel() == 0) return;
        if (input.dtype() == DType.INT64) {
            averageLong(input, output, p);
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            double[] x = dense(input);
            int w = (int) p.w(), plane = (int) (p.h() * p.w()), oh = p.oh(), ow = p.ow(), out = oh * ow;
            double[] v = new double[(int) (p.planes() * out)];
            Parallel.forRange(p.planes(), grain(plane), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int i = 0; i < oh; i++) {
                        for (int j = 0; j < ow; j++) {
                            double sum = 0;
                            for (int y = p.hStart()[i]; y < p.hEnd()[i]; y++) {
                                int row = c * plane + y * w;
                                for (int xx = p.wStart()[j]; xx < p.wEnd()[j]; xx++) sum += x[row + xx];
                            }
                            v[c * out + i * ow + j] = sum / p.divisor(i, j);
                        }
                    }
                }
            });
            writeDoubles(v, output);
        }
    }

    /** The adjoint of {@link #average}: each gradient element, divided by its divisor, is added over its window. */
    static void averageBackward(Tensor gradOutput, Tensor gradInput, PoolOps.WindowPlan p) {
        if (gradInput.dtype() == DType.INT64) {
            averageBackwardLong(gradOutput, gradInput, p);
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            int w = (int) p.w(), plane = (int) (p.h() * p.w()), oh = p.oh(), ow = p.ow(), out = oh * ow;
            double[] gi = new double[(int) (p.planes() * plane)];
            if (gi.length > 0 && out > 0) {
                double[] g = dense(gradOutput);
                Parallel.forRange(p.planes(), grain(plane), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        for (int i = 0; i < oh; i++) {
                            for (int j = 0; j < ow; j++) {
                                double share = g[c * out + i * ow + j] / p.divisor(i, j);
                                for (int y = p.hStart()[i]; y < p.hEnd()[i]; y++) {
                                    int row = c * plane + y * w;
                                    for (int xx = p.wStart()[j]; xx < p.wEnd()[j]; xx++) gi[row + xx] += share;
                                }
                            }
                        }
                    }
                });
            }
            writeDoubles(gi, gradInput);
        }
    }

    /**
     * {@link #average} of int64 input, as ATen's kernel computes it: an int64 window sum divided by the divisor in
     * integer division (truncating toward zero), so -6 / 4 is -1.
     */
    private static void averageLong(Tensor input, Tensor output, PoolOps.WindowPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            long[] x = (long[]) CopyOps.clone(input).impl().storage().array();
            int w = (int) p.w(), plane = (int) (p.h() * p.w()), oh = p.oh(), ow = p.ow(), out = oh * ow;
            long[] v = new long[(int) (p.planes() * out)];
            Parallel.forRange(p.planes(), grain(plane), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int i = 0; i < oh; i++) {
                        for (int j = 0; j < ow; j++) {
                            long sum = 0;
                            for (int y = p.hStart()[i]; y < p.hEnd()[i]; y++) {
                                int row = c * plane + y * w;
                                for (int xx = p.wStart()[j]; xx < p.wEnd()[j]; xx++) sum += x[row + xx];
                            }
                            v[c * out + i * ow + j] = sum / p.longDivisor(i, j);
                        }
                    }
                }
            });
            writeLongs(v, output);
        }
    }

    /**
     * {@link #averageBackward} of int64: each gradient element, integer-divided by its divisor, added over its window.
     */
    private static void averageBackwardLong(Tensor gradOutput, Tensor gradInput, PoolOps.WindowPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int w = (int) p.w(), plane = (int) (p.h() * p.w()), oh = p.oh(), ow = p.ow(), out = oh * ow;
            long[] gi = new long[(int) (p.planes() * plane)];
            if (gi.length > 0 && out > 0) {
                long[] g = (long[]) CopyOps.clone(gradOutput).impl().storage().array();
                Parallel.forRange(p.planes(), grain(plane), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        for (int i = 0; i < oh; i++) {
                            for (int j = 0; j < ow; j++) {
                                long share = g[c * out + i * ow + j] / p.longDivisor(i, j);
                                for (int y = p.hStart()[i]; y < p.hEnd()[i]; y++) {
                                    int row = c * plane + y * w;
                                    for (int xx = p.wStart()[j]; xx < p.wEnd()[j]; xx++) gi[row + xx] += share;
                                }
                            }
                        }
                    }
                });
            }
            writeLongs(gi, gradInput);
        }
    }

    private static void writeDoubles(double[] v, Tensor out) {
        if (v.length == 0) return;
        Tensor src = Tensor.of(TensorImpl.empty(out.impl().shapeRef(), DType.FLOAT64));
        System.arraycopy(v, 0, (double[]) src.impl().storage().array(), (int) src.storageOffset(), v.length);
        CopyOps.convert(src, out);
    }

    private static void writeLongs(long[] v, Tensor out) {
        if (v.length == 0) return;
        Tensor src = Tensor.of(TensorImpl.empty(out.impl().shapeRef(), DType.INT64));
        System.arraycopy(v, 0, (long[]) src.impl().storage().array(), (int) src.storageOffset(), v.length);
        CopyOps.convert(src, out);
    }
}
