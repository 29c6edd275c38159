package org.jtorch.ops;

/**
 * A {@link PoolPlan}'s windows laid out once per call, shared by every plane: window {@code o} reads the input volume's
 * flat positions {@code at[from[o]]} up to {@code at[from[o + 1]]} (exclusive), so the kernels' inner loops are a
 * gather whatever the pool's rank, kind or dilation.
 *
 * @param first per window, the position a max pool records when no element beats -inf (ATen's starting index)
 * @param divisor per window, an average pool's divisor
 * @param axisDivisors for an adaptive plan ({@link PoolPlan#adaptive}), per window its depth, height and width (three
 *     entries a window), by which {@link #mean} divides in turn; null otherwise
 */
record PoolWindows(int[] at, int[] from, int[] first, long[] divisor, long[] axisDivisors) {

    boolean empty(int o) {
        return from[o] == from[o + 1];
    }

    /** {@code sum} (a window sum, or a gradient element) divided by window o's divisor, in float64. */
    double mean(double sum, int o) {
        if (axisDivisors == null) return sum / divisor[o];
        return sum / axisDivisors[3 * o] / axisDivisors[3 * o + 1] / axisDivisors[3 * o + 2];
    }

    /** {@link #mean(double, int)} in float32, each division rounded to float as ATen's float kernels round it. */
    float mean(float sum, int o) {
        if (axisDivisors == null) return sum / divisor[o];
        return sum / axisDivisors[3 * o] / axisDivisors[3 * o + 1] / axisDivisors[3 * o + 2];
    }

    /**
     * When every window reads the same taps relative to its first position (no window clipped by padding or by ceil
     * mode), those offsets, in the windows' scan order; else null. The first offset is 0, and a window's starting index
     * ({@link #first}) is then its first position.
     */
    int[] uniformShifts() {
        int out = first.length;
        if (out == 0) return null;
        int taps = from[1] - from[0];
        if (taps == 0) return null;
        int[] shift = new int[taps];
        for (int k = 0; k < taps; k++) shift[k] = at[k] - at[0];
        for (int o = 0; o < out; o++) {
            int start = from[o];
            if (from[o + 1] - start != taps || first[o] != at[start]) return null;
            for (int k = 1; k < taps; k++) if (at[start + k] - at[start] != shift[k]) return null;
        }
        return shift;
    }

    static PoolWindows of(PoolPlan p) {
        PoolPlan.Axis d = p.d(), h = p.h(), w = p.w();
        int out = p.outVolume(), hw = Math.toIntExact(h.size() * w.size()), width = Math.toIntExact(w.size());
        int[] from = new int[out + 1], first = new int[out];
        long[] divisor = new long[out];
        long[] axisDivisors = p.adaptive() ? new long[3 * out] : null;
        long total = 0;
        for (int i = 0, o = 0; i < d.out(); i++) {
            for (int j = 0; j < h.out(); j++) {
                for (int k = 0; k < w.out(); k++, o++) {
                    total += (long) d.count(i) * h.count(j) * w.count(k);
                    from[o + 1] = Math.toIntExact(total);
                    first[o] = d.start()[i] * hw + h.start()[j] * width + w.start()[k];
                    divisor[o] = p.divisor(i, j, k);
                    if (axisDivisors != null) {
                        axisDivisors[3 * o] = d.count(i);
                        axisDivisors[3 * o + 1] = h.count(j);
                        axisDivisors[3 * o + 2] = w.count(k);
                    }
                }
            }
        }
        int[] at = new int[from[out]];
        int n = 0;
        for (int i = 0; i < d.out(); i++) {
            for (int j = 0; j < h.out(); j++) {
                for (int k = 0; k < w.out(); k++) {
                    for (int z = d.start()[i]; z < d.end()[i]; z += d.step()) {
                        for (int y = h.start()[j]; y < h.end()[j]; y += h.step()) {
                            for (int x = w.start()[k]; x < w.end()[k]; x += w.step()) at[n++] = z * hw + y * width + x;
                        }
                    }
                }
            }
        }
        return new PoolWindows(at, from, first, divisor, axisDivisors);
    }
}
