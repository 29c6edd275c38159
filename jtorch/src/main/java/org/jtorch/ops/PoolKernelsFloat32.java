package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.MaxPoolSimd;
import org.jtorch.storage.TensorImpl;

/**
 * {@link PoolKernels}' loops for float32 input, which read and write float32 directly (no float64 copy of the input, no
 * float64 buffer for the result) and round as ATen's CPU kernels do for {@code float}: window sums and the adjoint's
 * accumulations in float32 (ATen's accumulation type of float is float), each sum divided by the window's divisor as a
 * float ({@code sum / kd / kh / kw} for adaptive pools, see {@link PoolWindows#mean(float, int)}), and a max pool's
 * gradient added element by element into a float32 input gradient, in output order.
 */
final class PoolKernelsFloat32 {
    private PoolKernelsFloat32() {}

    /** t's elements as a row-major float[] from index 0, for reading; converted or copied only when needed. */
    static float[] dense(Tensor t) {
        return (float[]) PoolKernels.readable(CopyOps.to(t, DType.FLOAT32))
                .impl()
                .storage()
                .array();
    }

    /**
     * {@link PoolKernels#maxForward} of float32 input: the same scan, compared in float32 (exact). When every window
     * reads the same taps (no padding or ceil mode clips one), each plane's windows are scanned
     * {@link MaxPoolSimd#lanes()} at a time: gathers within one plane, whose rows the cache already holds, and the
     * maxima stored contiguously. Otherwise whole groups of planes are scanned side by side
     * ({@link #planesSideBySide}). The results go straight into fresh dense outputs rather than through buffers copied
     * after.
     */
    static void maxForward(Tensor input, Tensor values, Tensor indices, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            float[] x = dense(input);
            int volume = p.volume(), out = p.outVolume(), n = Math.toIntExact(p.planes() * out);
            PoolWindows win = PoolWindows.of(p);
            float[] direct = denseFloats(values, x);
            long[] directIx = denseLongs(indices);
            float[] v = direct == null ? new float[n] : direct;
            long[] ix = directIx == null ? new long[n] : directIx;
            int vo = direct == null ? 0 : (int) values.storageOffset();
            int io = directIx == null ? 0 : (int) indices.storageOffset();
            int lanes = MaxPoolSimd.lanes(), planes = (int) p.planes();
            int[] shift = win.uniformShifts();
            if (shift != null) {
                // padding windows past the last start at position 0, which every plane has
                int[] start = Arrays.copyOf(win.first(), Math.ceilDiv(out, lanes) * lanes);
                Parallel.forRange(planes, PoolKernels.grain((long) shift.length * out), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        MaxPoolSimd.maxWindows(x, c * volume, start, shift, out, v, vo + c * out, ix, io + c * out);
                    }
                });
            } else {
                planesSideBySide(x, win, v, vo, ix, io, volume, out, planes);
            }
            if (direct == null) write(v, values);
            if (directIx == null) PoolKernels.writeLongs(ix, indices);
        }
    }

    /**
     * Windows that differ from one another (clipped by padding or ceil mode): whole groups of {@link MaxPoolSimd#lanes}
     * planes scanned side by side, the rest one by one.
     */
    private static void planesSideBySide(
            float[] x, PoolWindows win, float[] v, int vo, long[] ix, int io, int volume, int out, int planes) {
        int lanes = MaxPoolSimd.lanes(), groups = planes / lanes;
        int work = Math.max(win.at().length, out);
        Parallel.forRange(groups, PoolKernels.grain((long) work * lanes), (g0, g1) -> {
            for (int g = (int) g0; g < g1; g++) {
                int c = g * lanes;
                MaxPoolSimd.maxPlanes(
                        x, c * volume, volume, win.at(), win.from(), win.first(), v, vo + c * out, ix, io + c * out);
            }
        });
        Parallel.forRange(planes - groups * lanes, PoolKernels.grain(work), (c0, c1) -> {
            for (int c = groups * lanes + (int) c0; c < groups * lanes + c1; c++) {
                int base = c * volume;
                for (int o = 0; o < out; o++) {
                    int best = win.first()[o];
                    float max = Float.NEGATIVE_INFINITY;
                    for (int k = win.from()[o]; k < win.from()[o + 1]; k++) {
                        float val = x[base + win.at()[k]];
                        if (val > max || Float.isNaN(val)) {
                            max = val;
                            best = win.at()[k];
                        }
                    }
                    v[vo + c * out + o] = max;
                    ix[io + c * out + o] = best;
                }
            }
        });
    }

    /** The array of a dense float32 heap tensor (a fresh output) that is not the input's {@code x}, else null. */
    private static float[] denseFloats(Tensor t, float[] x) {
        return t.dtype() == DType.FLOAT32
                        && t.isContiguous()
                        && t.impl().storage().array() instanceof float[] a
                        && a != x
                ? a
                : null;
    }

    /** The array of a dense int64 heap tensor (a fresh output), else null. */
    private static long[] denseLongs(Tensor t) {
        return t.dtype() == DType.INT64
                        && t.isContiguous()
                        && t.impl().storage().array() instanceof long[] a
                ? a
                : null;
    }

    /**
     * {@link PoolKernels#maxBackward} into a float32 gradient, accumulated in float32; indices already checked. Each
     * plane of a fresh dense output is zeroed and then receives its gradients while it is in cache, rather than going
     * through a zeroed buffer copied after.
     */
    static void maxBackward(Tensor gradOutput, long[] ix, Tensor gradInput, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume(), n = Math.toIntExact(p.planes() * volume);
            float[] g = n > 0 && out > 0 ? dense(gradOutput) : null;
            float[] direct = denseFloats(gradInput, g);
            float[] gi = direct == null ? new float[n] : direct;
            int base = direct == null ? 0 : (int) gradInput.storageOffset();
            Parallel.forRange(p.planes(), PoolKernels.grain((long) volume + out), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    int at = base + c * volume;
                    if (direct != null) Arrays.fill(gi, at, at + volume, 0f);
                    if (g == null) continue;
                    for (int k = 0; k < out; k++) gi[(int) (at + ix[c * out + k])] += g[c * out + k];
                }
            });
            if (direct == null) write(gi, gradInput);
        }
    }

    /** {@link PoolKernels#average} of float32 input: float32 window sums, each divided as a float. */
    static void average(Tensor input, Tensor output, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            float[] x = dense(input);
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            float[] v = new float[Math.toIntExact(p.planes() * out)];
            Parallel.forRange(p.planes(), PoolKernels.grain(volume), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    int base = c * volume;
                    for (int o = 0; o < out; o++) {
                        float sum = 0;
                        for (int k = win.from()[o]; k < win.from()[o + 1]; k++) sum += x[base + win.at()[k]];
                        v[c * out + o] = win.empty(o) ? 0 : win.mean(sum, o);
                    }
                }
            });
            write(v, output);
        }
    }

    /** {@link PoolKernels#averageBackward} into a float32 gradient: each share a float, added in float32. */
    static void averageBackward(Tensor gradOutput, Tensor gradInput, PoolPlan p) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            float[] gi = new float[Math.toIntExact(p.planes() * volume)];
            if (gi.length > 0 && out > 0) {
                float[] g = dense(gradOutput);
                Parallel.forRange(p.planes(), PoolKernels.grain(volume), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        int base = c * volume;
                        for (int o = 0; o < out; o++) {
                            float share = win.mean(g[c * out + o], o);
                            for (int k = win.from()[o]; k < win.from()[o + 1]; k++) gi[base + win.at()[k]] += share;
                        }
                    }
                });
            }
            write(gi, gradInput);
        }
    }

    /**
     * Copies v into out: straight into its array when out is a dense float32 tensor on the heap (a fresh output), else
     * through a float32 buffer converted into it.
     */
    static void write(float[] v, Tensor out) {
        if (v.length == 0) return;
        if (out.dtype() == DType.FLOAT32
                && out.isContiguous()
                && out.impl().storage().array() instanceof float[] dst) {
            System.arraycopy(v, 0, dst, (int) out.storageOffset(), v.length);
            return;
        }
        Tensor src = Tensor.of(TensorImpl.empty(out.impl().shapeRef(), DType.FLOAT32));
        System.arraycopy(v, 0, (float[]) src.impl().storage().array(), (int) src.storageOffset(), v.length);
        CopyOps.convert(src, out);
    }
}
