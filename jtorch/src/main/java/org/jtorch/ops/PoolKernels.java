package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernels of every pool ({@link PoolOps}, {@link Pool3dOps}, {@link AdaptiveMaxPoolOps}): one max kernel and
 * one average kernel over a {@link PoolPlan}, whose windows ({@link PoolWindows}) are laid out once per call. float32
 * runs in float32 ({@link PoolKernelsFloat32}, ATen's float rounding), and so do the forwards of float16 and bfloat16,
 * rounded once; their gradients round at every step as ATen's do ({@link PoolKernelsLowPrecision}); float64 is read as
 * dense float64 volumes and written through a float64 buffer; integer max pools and int64 average pools have their own
 * integer loops. Planes (N·C) are independent and run in parallel; within a plane the order is fixed, so results do not
 * depend on the thread count.
 */
final class PoolKernels {
    private PoolKernels() {}

    /** t's elements as a row-major double[] from index 0, for reading; converted or copied only when needed. */
    private static double[] dense(Tensor t) {
        return (double[])
                readable(CopyOps.to(t, DType.FLOAT64)).impl().storage().array();
    }

    /** {@link #dense} of an integer tensor as int64. */
    private static long[] denseLongs(Tensor t) {
        return (long[]) readable(CopyOps.to(t, DType.INT64)).impl().storage().array();
    }

    /** t itself when its heap array holds its elements in row-major order from index 0, else a contiguous copy. */
    static Tensor readable(Tensor t) {
        Tensor c = CopyOps.contiguous(t);
        if (c.storageOffset() != 0 || c.impl().storage().array() == null) c = CopyOps.clone(c);
        return c;
    }

    static long grain(long planeWork) {
        return Math.max(1, Parallel.GRAIN / Math.max(1, planeWork));
    }

    /**
     * Max over each window, as ATen's kernels scan it: the first maximum is kept, a NaN replaces anything before it,
     * and the index is the flat position in the input volume (the window's first position if nothing beats -inf).
     */
    static void maxForward(Tensor input, Tensor values, Tensor indices, PoolPlan p) {
        if (values.numel() == 0) return;
        if (!input.dtype().isFloatingPoint()) {
            maxForwardIntegral(input, values, indices, p);
            return;
        }
        if (input.dtype() == DType.FLOAT32 || PoolKernelsLowPrecision.handles(input.dtype())) {
            PoolKernelsFloat32.maxForward(input, values, indices, p); // a max is exact in float
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            double[] x = dense(input);
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            double[] v = new double[Math.toIntExact(p.planes() * out)];
            long[] ix = new long[v.length];
            Parallel.forRange(p.planes(), grain(Math.max(win.at().length, out)), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int o = 0; o < out; o++) {
                        int best = win.first()[o];
                        double max = Double.NEGATIVE_INFINITY;
                        for (int k = win.from()[o]; k < win.from()[o + 1]; k++) {
                            double val = x[c * volume + win.at()[k]];
                            if (val > max || Double.isNaN(val)) {
                                max = val;
                                best = win.at()[k];
                            }
                        }
                        v[c * out + o] = max;
                        ix[c * out + o] = best;
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
    private static void maxForwardIntegral(Tensor input, Tensor values, Tensor indices, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            long[] x = denseLongs(input);
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            long[] v = new long[Math.toIntExact(p.planes() * out)];
            long[] ix = new long[v.length];
            Parallel.forRange(p.planes(), grain(Math.max(win.at().length, out)), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int o = 0; o < out; o++) {
                        int best = win.first()[o];
                        long max = Long.MIN_VALUE;
                        for (int k = win.from()[o]; k < win.from()[o + 1]; k++) {
                            long val = x[c * volume + win.at()[k]];
                            if (val > max) {
                                max = val;
                                best = win.at()[k];
                            }
                        }
                        v[c * out + o] = max;
                        ix[c * out + o] = best;
                    }
                }
            });
            writeLongs(v, values);
            writeLongs(ix, indices);
        }
    }

    /**
     * Adds each gradient element at its recorded index of its input volume; an index outside the volume is an error
     * (indices passed in by hand).
     */
    static void maxBackward(String op, Tensor gradOutput, Tensor indices, Tensor gradInput, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume();
            boolean some = p.planes() * volume > 0 && out > 0;
            long[] ix = some ? checkedIndices(op, indices, p) : new long[0];
            if (gradInput.dtype() == DType.FLOAT32) {
                PoolKernelsFloat32.maxBackward(gradOutput, ix, gradInput, p);
                return;
            }
            if (PoolKernelsLowPrecision.handles(gradInput.dtype())) {
                PoolKernelsLowPrecision.maxBackward(gradOutput, ix, gradInput, p);
                return;
            }
            double[] gi = new double[Math.toIntExact(p.planes() * volume)];
            if (some) {
                double[] g = dense(gradOutput);
                Parallel.forRange(p.planes(), grain(out), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        for (int k = 0; k < out; k++) gi[(int) (c * (long) volume + ix[c * out + k])] += g[c * out + k];
                    }
                });
            }
            writeDoubles(gi, gradInput);
        }
    }

    /** indices as int64, each checked to lie within its input volume (indices may be passed in by hand). */
    private static long[] checkedIndices(String op, Tensor indices, PoolPlan p) {
        int volume = p.volume();
        long[] ix = denseLongs(indices);
        for (int k = 0; k < p.planes() * p.outVolume(); k++) {
            long at = ix[k];
            if (at < 0 || at >= volume) {
                throw new TorchException(
                        op + ": index " + at + " is out of bounds for an input plane of " + volume + " elements");
            }
        }
        return ix;
    }

    /** The average of each window, divided by the plan's divisor; an empty window is 0 (ATen's kernels). */
    static void average(Tensor input, Tensor output, PoolPlan p) {
        if (output.numel() == 0) return;
        if (input.dtype() == DType.INT64) {
            averageLong(input, output, p);
            return;
        }
        if (PoolKernelsLowPrecision.handles(input.dtype()) && PoolKernelsLowPrecision.isWholePlaneMean(p)) {
            PoolKernelsLowPrecision.wholePlaneMean(input, output, p);
            return;
        }
        if (input.dtype() == DType.FLOAT32 || PoolKernelsLowPrecision.handles(input.dtype())) {
            PoolKernelsFloat32.average(input, output, p); // half types: summed in float, rounded once, as ATen does
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            double[] x = dense(input);
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            double[] v = new double[Math.toIntExact(p.planes() * out)];
            Parallel.forRange(p.planes(), grain(volume), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int o = 0; o < out; o++) {
                        double sum = 0;
                        for (int k = win.from()[o]; k < win.from()[o + 1]; k++) sum += x[c * volume + win.at()[k]];
                        v[c * out + o] = win.empty(o) ? 0 : win.mean(sum, o);
                    }
                }
            });
            writeDoubles(v, output);
        }
    }

    /** The adjoint of {@link #average}: each gradient element, divided by its divisor, is added over its window. */
    static void averageBackward(Tensor gradOutput, Tensor gradInput, PoolPlan p) {
        if (gradInput.dtype() == DType.INT64) {
            averageBackwardLong(gradOutput, gradInput, p);
            return;
        }
        if (gradInput.dtype() == DType.FLOAT32) {
            PoolKernelsFloat32.averageBackward(gradOutput, gradInput, p);
            return;
        }
        if (PoolKernelsLowPrecision.handles(gradInput.dtype())) {
            PoolKernelsLowPrecision.averageBackward(gradOutput, gradInput, p);
            return;
        }
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            double[] gi = new double[Math.toIntExact(p.planes() * volume)];
            if (gi.length > 0 && out > 0) {
                double[] g = dense(gradOutput);
                Parallel.forRange(p.planes(), grain(volume), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        for (int o = 0; o < out; o++) {
                            double share = win.mean(g[c * out + o], o);
                            for (int k = win.from()[o]; k < win.from()[o + 1]; k++)
                                gi[c * volume + win.at()[k]] += share;
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
    private static void averageLong(Tensor input, Tensor output, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            long[] x = denseLongs(input);
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            long[] v = new long[Math.toIntExact(p.planes() * out)];
            Parallel.forRange(p.planes(), grain(volume), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    for (int o = 0; o < out; o++) {
                        long sum = 0;
                        for (int k = win.from()[o]; k < win.from()[o + 1]; k++) sum += x[c * volume + win.at()[k]];
                        v[c * out + o] = win.empty(o) ? 0 : sum / win.divisor()[o];
                    }
                }
            });
            writeLongs(v, output);
        }
    }

    /**
     * {@link #averageBackward} of int64: each gradient element, integer-divided by its divisor, added over its window.
     */
    private static void averageBackwardLong(Tensor gradOutput, Tensor gradInput, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            long[] gi = new long[Math.toIntExact(p.planes() * volume)];
            if (gi.length > 0 && out > 0) {
                long[] g = denseLongs(gradOutput);
                Parallel.forRange(p.planes(), grain(volume), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        for (int o = 0; o < out; o++) {
                            long share = win.empty(o) ? 0 : g[c * out + o] / win.divisor()[o];
                            for (int k = win.from()[o]; k < win.from()[o + 1]; k++)
                                gi[c * volume + win.at()[k]] += share;
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

    static void writeLongs(long[] v, Tensor out) {
        if (v.length == 0) return;
        Tensor src = Tensor.of(TensorImpl.empty(out.impl().shapeRef(), DType.INT64));
        System.arraycopy(v, 0, (long[]) src.impl().storage().array(), (int) src.storageOffset(), v.length);
        CopyOps.convert(src, out);
    }
}
