package org.jtorch.ops;

/**
 * The geometry of one pooling call, as every pooling kernel reads it: {@code planes} independent volumes (N·C) of depth
 * × height × width, and per spatial axis the input positions each output position reads. A 2-d pool is a 3-d one of
 * unit depth, so one max kernel and one average kernel serve the sliding, adaptive, 2-d and 3-d pools alike.
 *
 * @param countIncludePad average pools: the divisor counts the padding ({@link Axis#padded})
 * @param divisorOverride average pools: a fixed divisor, or null
 * @param adaptive average pools: divide each window's sum by its depth, then its height, then its width, one rounding
 *     each, as ATen's adaptive kernels do ({@code sum / kd / kh / kw}), rather than once by their product
 */
record PoolPlan(long planes, Axis d, Axis h, Axis w, boolean countIncludePad, Long divisorOverride, boolean adaptive) {

    /** A plan of max pools (no divisor). */
    static PoolPlan max(long planes, Axis d, Axis h, Axis w) {
        return new PoolPlan(planes, d, h, w, false, null, false);
    }

    /** A plan of sliding average pools. */
    static PoolPlan average(long planes, Axis d, Axis h, Axis w, boolean countIncludePad, Long divisorOverride) {
        return new PoolPlan(planes, d, h, w, countIncludePad, divisorOverride, false);
    }

    /** A plan of adaptive average pools: each window's mean over its clipped extent, divided axis by axis. */
    static PoolPlan adaptiveAverage(long planes, Axis d, Axis h, Axis w) {
        return new PoolPlan(planes, d, h, w, false, null, true);
    }

    /** Elements of one input volume. */
    int volume() {
        return Math.toIntExact(d.size() * h.size() * w.size());
    }

    /** Elements of one output volume. */
    int outVolume() {
        return Math.toIntExact((long) d.out() * h.out() * w.out());
    }

    /** The divisor of output position (i, j, k) of an average pool: the override, the padded or the clipped extent. */
    long divisor(int i, int j, int k) {
        if (divisorOverride != null) return divisorOverride;
        if (countIncludePad) return d.padded()[i] * h.padded()[j] * w.padded()[k];
        return (long) d.count(i) * h.count(j) * w.count(k);
    }

    /**
     * One spatial axis: output position {@code i} reads input positions {@code start[i], start[i] + step, ...} below
     * {@code end[i]} (already clipped to the input), and its window spans {@code padded[i]} positions counting padding.
     *
     * @param size the input's extent along the axis
     */
    record Axis(long size, int[] start, int[] end, int step, long[] padded) {
        /** The axis of a missing spatial dim: one position, read by one output position. */
        static final Axis UNIT = new Axis(1, new int[] {0}, new int[] {1}, 1, new long[] {1});

        int out() {
            return start.length;
        }

        /** Positions output position {@code i} reads (its window clipped to the input). */
        int count(int i) {
            return Math.max(0, (end[i] - start[i] + step - 1) / step);
        }

        /**
         * A max pool's windows, as ATen's kernels scan them: from {@code i·stride − pad} every {@code dilation} up to
         * the window's end or the input's; the first position is the first in range, even past the end when the whole
         * window is out of range (ATen records it as the index all the same).
         */
        static Axis sliding(long in, long kernel, long stride, long pad, long dilation, long out) {
            int n = Math.toIntExact(out);
            int[] start = new int[n], end = new int[n];
            long[] padded = new long[n];
            for (int i = 0; i < n; i++) {
                long s = i * stride - pad, first = s;
                if (first < 0) first += Math.ceilDiv(-first, dilation) * dilation;
                start[i] = Math.toIntExact(first);
                end[i] = (int) Math.min(s + (kernel - 1) * dilation + 1, in);
                padded[i] = kernel;
            }
            return new Axis(in, start, end, Math.toIntExact(dilation), padded);
        }

        /**
         * An average pool's windows: from {@code i·stride − pad}, {@code kernel} long but not past the end padding
         * (their padded extent), clipped to the input (ATen's avg_pool kernels).
         */
        static Axis averaging(long in, long kernel, long stride, long pad, long out) {
            int n = Math.toIntExact(out);
            int[] start = new int[n], end = new int[n];
            long[] padded = new long[n];
            for (int i = 0; i < n; i++) {
                long s = i * stride - pad, e = Math.min(s + kernel, in + pad);
                padded[i] = e - s;
                start[i] = (int) Math.max(s, 0);
                end[i] = (int) Math.min(e, in);
            }
            return new Axis(in, start, end, 1, padded);
        }

        /** An adaptive pool's windows: [floor(i·in/out), ceil((i+1)·in/out)). */
        static Axis adaptive(long in, long out) {
            int n = Math.toIntExact(out);
            int[] start = new int[n], end = new int[n];
            long[] extent = new long[n];
            for (int i = 0; i < n; i++) {
                start[i] = (int) Math.floorDiv(i * in, out);
                end[i] = (int) -Math.floorDiv(-(i + 1) * in, out);
                extent[i] = end[i] - start[i];
            }
            return new Axis(in, start, end, 1, extent);
        }
    }
}
