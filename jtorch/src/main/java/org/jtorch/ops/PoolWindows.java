package org.jtorch.ops;

/**
 * A {@link PoolPlan}'s windows laid out once per call, shared by every plane: window {@code o} reads the input volume's
 * flat positions {@code at[from[o]]} up to {@code at[from[o + 1]]} (exclusive), so the kernels' inner loops are a
 * gather whatever the pool's rank, kind or dilation.
 *
 * @param first per window, the position a max pool records when no element beats -inf (ATen's starting index)
 * @param divisor per window, an average pool's divisor
 */
record PoolWindows(int[] at, int[] from, int[] first, long[] divisor) {

    boolean empty(int o) {
        return from[o] == from[o + 1];
    }

    static PoolWindows of(PoolPlan p) {
        PoolPlan.Axis d = p.d(), h = p.h(), w = p.w();
        int out = p.outVolume(), hw = Math.toIntExact(h.size() * w.size()), width = Math.toIntExact(w.size());
        int[] from = new int[out + 1], first = new int[out];
        long[] divisor = new long[out];
        long total = 0;
        for (int i = 0, o = 0; i < d.out(); i++) {
            for (int j = 0; j < h.out(); j++) {
                for (int k = 0; k < w.out(); k++, o++) {
                    total += (long) d.count(i) * h.count(j) * w.count(k);
                    from[o + 1] = Math.toIntExact(total);
                    first[o] = d.start()[i] * hw + h.start()[j] * width + w.start()[k];
                    divisor[o] = p.divisor(i, j, k);
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
        return new PoolWindows(at, from, first, divisor);
    }
}
