package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.LowPrecision;

/**
 * {@link PoolKernels}' loops where ATen's CPU kernels compute float16 and bfloat16 in the element type itself
 * ({@code scalar_t}, each operation done in float and rounded back): the input gradients of every pool (a max pool's
 * gradient added element by element at the recorded indices, an average pool's share {@code grad / divisor} rounded and
 * added over its window, an adaptive pool's share divided axis by axis with a rounding after each division), and the
 * forward of {@code adaptive_avg_pool3d}, whose window sums and divisions also round at every step. Values are kept as
 * floats that always hold a value of the element type, so each step is ATen's {@code float} operation followed by
 * {@link #round}. The other forwards accumulate in float and round once ({@link PoolKernelsFloat32}). Planes run in
 * parallel, each in ATen's order (outputs in row-major order, windows in row-major order).
 */
final class PoolKernelsLowPrecision {
    private PoolKernelsLowPrecision() {}

    /** Whether ATen's kernels compute {@code d} in the element type (float16 and bfloat16). */
    static boolean handles(DType d) {
        return d == DType.FLOAT16 || d == DType.BFLOAT16;
    }

    /** {@code v} rounded to {@code d} (float16 or bfloat16) and read back as a float. */
    static float round(float v, DType d) {
        return d == DType.FLOAT16
                ? LowPrecision.halfToFloat(LowPrecision.floatToHalf(v))
                : LowPrecision.bfloat16ToFloat(LowPrecision.floatToBFloat16(v));
    }

    /** A max pool's input gradient: each output's gradient added at its index, rounding after every addition. */
    static void maxBackward(Tensor gradOutput, long[] ix, Tensor gradInput, PoolPlan p) {
        DType d = gradInput.dtype();
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume();
            float[] gi = new float[Math.toIntExact(p.planes() * volume)];
            if (gi.length > 0 && out > 0) {
                float[] g = PoolKernelsFloat32.dense(gradOutput);
                Parallel.forRange(p.planes(), PoolKernels.grain(out), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        for (int k = 0; k < out; k++) {
                            int at = (int) (c * (long) volume + ix[c * out + k]);
                            gi[at] = round(gi[at] + g[c * out + k], d);
                        }
                    }
                });
            }
            PoolKernelsFloat32.write(gi, gradInput);
        }
    }

    /** An average pool's input gradient: each share rounded, then added over its window with a rounding each time. */
    static void averageBackward(Tensor gradOutput, Tensor gradInput, PoolPlan p) {
        DType d = gradInput.dtype();
        boolean wholePlane = isWholePlaneMean(p);
        try (var _ = DispatchState.gradEnabled(false)) {
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            float[] gi = new float[Math.toIntExact(p.planes() * volume)];
            if (gi.length > 0 && out > 0) {
                float[] g = PoolKernelsFloat32.dense(gradOutput);
                Parallel.forRange(p.planes(), PoolKernels.grain(volume), (c0, c1) -> {
                    for (int c = (int) c0; c < c1; c++) {
                        int base = c * volume;
                        for (int o = 0; o < out; o++) {
                            float share = wholePlane ? round(g[c] / volume, d) : mean(win, g[c * out + o], o, d);
                            for (int k = win.from()[o]; k < win.from()[o + 1]; k++) {
                                int at = base + win.at()[k];
                                gi[at] = round(gi[at] + share, d);
                            }
                        }
                    }
                });
            }
            PoolKernelsFloat32.write(gi, gradInput);
        }
    }

    /**
     * Whether ATen computes this pool as a mean over the whole plane: an adaptive average to a single output element
     * ({@code adaptive_avg_pool2d/3d} to 1 x 1 (x 1) call {@code mean}), whose gradient is {@code grad / numel} rounded
     * once, and whose forward sums in float and divides once.
     */
    static boolean isWholePlaneMean(PoolPlan p) {
        return p.adaptive() && p.outVolume() == 1;
    }

    /** The forward of {@link #isWholePlaneMean} pools: a float sum over the plane divided by its size, rounded once. */
    static void wholePlaneMean(Tensor input, Tensor output, PoolPlan p) {
        if (output.numel() == 0) return;
        try (var _ = DispatchState.gradEnabled(false)) {
            float[] x = PoolKernelsFloat32.dense(input);
            int volume = p.volume();
            float[] v = new float[Math.toIntExact(p.planes())];
            Parallel.forRange(p.planes(), PoolKernels.grain(volume), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    float sum = 0;
                    for (int k = 0; k < volume; k++) sum += x[c * volume + k];
                    v[c] = sum / volume;
                }
            });
            PoolKernelsFloat32.write(v, output); // the conversion into the element type is the one rounding
        }
    }

    /** {@code adaptive_avg_pool3d}'s forward: window sums rounded at every addition, then each division rounded. */
    static void adaptiveAverage3d(Tensor input, Tensor output, PoolPlan p) {
        if (output.numel() == 0) return;
        DType d = input.dtype();
        try (var _ = DispatchState.gradEnabled(false)) {
            float[] x = PoolKernelsFloat32.dense(input);
            int volume = p.volume(), out = p.outVolume();
            PoolWindows win = PoolWindows.of(p);
            float[] v = new float[Math.toIntExact(p.planes() * out)];
            Parallel.forRange(p.planes(), PoolKernels.grain(volume), (c0, c1) -> {
                for (int c = (int) c0; c < c1; c++) {
                    int base = c * volume;
                    for (int o = 0; o < out; o++) {
                        float sum = 0;
                        for (int k = win.from()[o]; k < win.from()[o + 1]; k++)
                            sum = round(sum + x[base + win.at()[k]], d);
                        v[c * out + o] = mean(win, sum, o, d);
                    }
                }
            });
            PoolKernelsFloat32.write(v, output);
        }
    }

    /**
     * {@code value} divided by window o's divisor in the element type: an adaptive window's extents one at a time, a
     * rounding after each division; otherwise the divisor, itself converted to the element type first (ATen divides a
     * {@code Half} by an {@code int64_t} as by {@code Half(divisor)}).
     */
    private static float mean(PoolWindows win, float value, int o, DType d) {
        if (win.axisDivisors() == null) return round(value / round(win.divisor()[o], d), d);
        float r = value;
        for (int axis = 0; axis < 3; axis++) r = round(r / win.axisDivisors()[3 * o + axis], d);
        return r;
    }
}
