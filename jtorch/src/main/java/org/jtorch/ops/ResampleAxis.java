package org.jtorch.ops;

/**
 * How one spatial dim of an upsampling is read: output position {@code o} is the weighted sum of input positions
 * {@code idx[o·taps + t]} with weights {@code w[o·taps + t]}, {@code t < taps}. Every mode of {@code F.interpolate} is
 * such a table per dim (nearest: one tap of weight 1; linear: two; cubic: four), so one separable kernel serves them
 * all and its adjoint is the backward. The tables follow ATen's CPU index arithmetic ({@code UpSample.h}): nearest
 * modes in float, the others in the op's compute precision ({@code single}: float32, whose roundings are reproduced).
 *
 * @param in the input size along the dim
 * @param out the output size along the dim
 * @param taps input positions per output position
 * @param idx the input positions, {@code out·taps} of them
 * @param w their weights in float64
 * @param wf the same weights in float32
 */
record ResampleAxis(int in, int out, int taps, int[] idx, double[] w, float[] wf) {

    /** The interpolation modes of the upsample ops. */
    enum Mode {
        NEAREST,
        NEAREST_EXACT,
        LINEAR,
        CUBIC
    }

    /** ATen's bicubic constant. */
    private static final double CUBIC_A = -0.75;

    /** Whether the table copies its input unchanged (the pass can be skipped). */
    boolean identity() {
        if (in != out || taps != 1) return false;
        for (int o = 0; o < out; o++) if (idx[o] != o || w[o] != 1) return false;
        return true;
    }

    /**
     * The table of {@code mode} from {@code in} to {@code out} positions; {@code scale} is the user's scale factor
     * (output over input) or null, {@code alignCorners} matters for linear and cubic only.
     */
    static ResampleAxis of(Mode mode, int in, int out, boolean alignCorners, Double scale, boolean single) {
        int taps =
                switch (mode) {
                    case NEAREST, NEAREST_EXACT -> 1;
                    case LINEAR -> 2;
                    case CUBIC -> 4;
                };
        int[] idx = new int[out * taps];
        double[] w = new double[out * taps];
        switch (mode) {
            case NEAREST, NEAREST_EXACT -> nearest(mode == Mode.NEAREST_EXACT, in, out, scale, idx, w);
            case LINEAR -> linear(in, out, alignCorners, scale, single, idx, w);
            case CUBIC -> cubic(in, out, alignCorners, scale, single, idx, w);
        }
        float[] wf = new float[w.length];
        for (int i = 0; i < w.length; i++) wf[i] = (float) w[i];
        return new ResampleAxis(in, out, taps, idx, w, wf);
    }

    /**
     * {@code nearest_idx}/{@code nearest_exact_idx}: {@code floor(o·s)} or {@code floor((o + ½)·s)}, s the float32
     * ratio in/out (or 1/scale), capped at the last input.
     */
    private static void nearest(boolean exact, int in, int out, Double scale, int[] idx, double[] w) {
        float s = scale != null && scale > 0 ? (float) (1.0 / scale) : (float) in / out;
        for (int o = 0; o < out; o++) {
            // ATen: floorf(dst * scale) in float; the exact form multiplies (dst + 0.5) in double, then rounds to float
            float src = exact ? (float) ((o + 0.5) * s) : (float) o * s;
            idx[o] = (int) Math.min((long) Math.floor(src), in - 1);
            w[o] = 1;
        }
    }

    /** {@code area_pixel_compute_scale}: the step between source positions of consecutive outputs. */
    private static double areaScale(int in, int out, boolean alignCorners, Double scale, boolean single) {
        if (alignCorners) return out > 1 ? round(single, (double) (in - 1) / (out - 1)) : 0;
        return scale != null && scale > 0 ? round(single, 1.0 / scale) : round(single, (double) in / out);
    }

    /**
     * {@code area_pixel_compute_source_index}: the source position of output {@code o}; half-pixel centres unless the
     * corners are aligned, clamped at zero except for cubic.
     */
    private static double sourceIndex(double scale, int o, boolean alignCorners, boolean cubic, boolean single) {
        if (alignCorners) return round(single, scale * o);
        // float32: PyTorch 2.13's CPU build contracts scale·(o + ½) − ½ into one fused multiply-add (one rounding)
        double src = single ? Math.fma((float) scale, (float) (o + 0.5), -0.5f) : scale * (o + 0.5) - 0.5;
        return !cubic && src < 0 ? 0 : src;
    }

    private static void linear(
            int in, int out, boolean alignCorners, Double scale, boolean single, int[] idx, double[] w) {
        double step = areaScale(in, out, alignCorners, scale, single);
        for (int o = 0; o < out; o++) {
            double real = sourceIndex(step, o, alignCorners, false, single);
            int i0 = (int) Math.min((long) Math.floor(real), in - 1);
            double lambda = Math.min(Math.max(round(single, real - i0), 0), 1);
            idx[2 * o] = i0;
            idx[2 * o + 1] = i0 + (i0 < in - 1 ? 1 : 0);
            w[2 * o] = round(single, 1 - lambda);
            w[2 * o + 1] = lambda;
        }
    }

    private static void cubic(
            int in, int out, boolean alignCorners, Double scale, boolean single, int[] idx, double[] w) {
        double step = areaScale(in, out, alignCorners, scale, single);
        for (int o = 0; o < out; o++) {
            double real = sourceIndex(step, o, alignCorners, true, single);
            int i0 = (int) Math.min((long) Math.floor(real), in - 1);
            double t = Math.min(Math.max(round(single, real - i0), 0), 1);
            // get_cubic_upsample_coefficients: the Keys kernel at distances 1+t, t, 1-t, 2-t
            double[] c = {
                round(single, far(t + 1)), round(single, near(t)), round(single, near(1 - t)), round(single, far(2 - t))
            };
            for (int k = 0; k < 4; k++) {
                idx[4 * o + k] = Math.min(Math.max(i0 - 1 + k, 0), in - 1);
                w[4 * o + k] = c[k];
            }
        }
    }

    /** {@code cubic_convolution1}: the kernel for distances in [0, 1]. */
    private static double near(double x) {
        return ((CUBIC_A + 2) * x - (CUBIC_A + 3)) * x * x + 1;
    }

    /** {@code cubic_convolution2}: the kernel for distances in [1, 2]. */
    private static double far(double x) {
        return ((CUBIC_A * x - 5 * CUBIC_A) * x + 8 * CUBIC_A) * x - 4 * CUBIC_A;
    }

    private static double round(boolean single, double v) {
        return single ? (float) v : v;
    }
}
