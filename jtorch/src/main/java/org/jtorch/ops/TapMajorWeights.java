package org.jtorch.ops;

/**
 * A transposed convolution's weight ([C_x, C_y/groups, kh, kw], C_x the input's channels, C_y the output's) laid out
 * tap by tap: {@code [kh·kw][groups][C_y/groups][C_x/groups]}, so that each tap of each group is one row-major matrix
 * (rows: output channels, columns: input channels) for {@link SubPixelForward} and {@link SubPixelBackward}.
 *
 * @param cx input channels per group
 * @param cy output channels per group
 * @param kh kernel rows
 * @param kw kernel columns
 */
record TapMajorWeights(int groups, int cx, int cy, int kh, int kw) {

    static TapMajorWeights of(ConvOps.Geometry g) {
        int groups = (int) g.groups();
        return new TapMajorWeights(groups, (int) g.cout() / groups, (int) g.cin() / groups, (int) g.kh(), (int) g.kw());
    }

    /** Kernel taps. */
    int taps() {
        return kh * kw;
    }

    /** The tap of kernel row {@code ki}, column {@code kj}. */
    int tap(int ki, int kj) {
        return ki * kw + kj;
    }

    /** Elements of the weight. */
    int size() {
        return groups * cx * cy * taps();
    }

    /** Where tap {@code tap} of group {@code group} starts in the tap-major layout (rows {@code cx} apart). */
    int at(int tap, int group) {
        return (tap * groups + group) * cy * cx;
    }

    /** Where element (group, input channel o, output channel c, tap) is in the weight's own layout. */
    private int own(int group, int o, int c, int tap) {
        return ((group * cx + o) * cy + c) * taps() + tap;
    }

    /** The weight at {@code from} in {@code w}, tap-major. */
    Object pack(Object w, int from) {
        Object r = SubPixelFrame.zeros(w, size());
        for (int tap = 0; tap < taps(); tap++) {
            for (int gr = 0; gr < groups; gr++) {
                for (int c = 0; c < cy; c++) {
                    int to = at(tap, gr) + c * cx;
                    for (int o = 0; o < cx; o++) {
                        if (w instanceof float[] f) ((float[]) r)[to + o] = f[from + own(gr, o, c, tap)];
                        else ((double[]) r)[to + o] = ((double[]) w)[from + own(gr, o, c, tap)];
                    }
                }
            }
        }
        return r;
    }

    /**
     * Writes the sum of {@code count} tap-major weights (consecutive in {@code parts}, summed in their order) into
     * {@code dst} at {@code to}, in the weight's own layout.
     */
    void unpackSum(Object parts, int count, Object dst, int to) {
        int size = size();
        for (int tap = 0; tap < taps(); tap++) {
            for (int gr = 0; gr < groups; gr++) {
                for (int c = 0; c < cy; c++) {
                    int from = at(tap, gr) + c * cx;
                    for (int o = 0; o < cx; o++) {
                        int at = to + own(gr, o, c, tap);
                        if (parts instanceof float[] f) {
                            float s = 0f;
                            for (int i = 0; i < count; i++) s += f[i * size + from + o];
                            ((float[]) dst)[at] = s;
                        } else {
                            double[] d = (double[]) parts;
                            double s = 0;
                            for (int i = 0; i < count; i++) s += d[i * size + from + o];
                            ((double[]) dst)[at] = s;
                        }
                    }
                }
            }
        }
    }
}
