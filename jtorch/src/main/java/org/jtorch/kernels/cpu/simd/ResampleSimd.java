package org.jtorch.kernels.cpu.simd;

import static org.jtorch.kernels.cpu.simd.FloatSimd.SPECIES;

import jdk.incubator.vector.FloatVector;

/**
 * Vector loops of a resampling whose weights repeat with the output phase (an integer scale factor): the rows of
 * {@code F.interpolate}'s linear modes. Each loop computes what its scalar form computes, with the same roundings (a
 * multiply and an add per term, no fused multiply-add), so the two agree bit for bit.
 */
public final class ResampleSimd {
    private ResampleSimd() {}

    /** Lane indexes that interleave two vectors' first halves (lanes 0, V, 1, V+1, …) for two-vector selects. */
    private static final float[] ZIP_LOW = zip(0);

    /** The same for the second halves. */
    private static final float[] ZIP_HIGH = zip(SPECIES.length() / 2);

    private static float[] zip(int from) {
        int lanes = SPECIES.length();
        float[] z = new float[lanes];
        for (int n = 0; n < lanes; n++) z[n] = n % 2 == 0 ? from + n / 2 : lanes + from + n / 2;
        return z;
    }

    /**
     * The two phases of a ×2 linear row, interleaved: for j in [0, n), {@code dst[d + 2j] = a0·x[xa + j] + a1·x[xa + j
     * + 1]} and {@code dst[d + 2j + 1] = b0·x[xb + j] + b1·x[xb + j + 1]}: contiguous loads, the two blends zipped into
     * consecutive outputs.
     */
    public static void blendPairs(
            float[] x, int xa, float a0, float a1, int xb, float b0, float b1, float[] dst, int d, int n) {
        int lanes = SPECIES.length();
        if (n < lanes) {
            for (int j = 0; j < n; j++) {
                dst[d + 2 * j] = a0 * x[xa + j] + a1 * x[xa + j + 1];
                dst[d + 2 * j + 1] = b0 * x[xb + j] + b1 * x[xb + j + 1];
            }
            return;
        }
        FloatVector zl = FloatVector.fromArray(SPECIES, ZIP_LOW, 0), zh = FloatVector.fromArray(SPECIES, ZIP_HIGH, 0);
        FloatVector va0 = FloatVector.broadcast(SPECIES, a0), va1 = FloatVector.broadcast(SPECIES, a1);
        FloatVector vb0 = FloatVector.broadcast(SPECIES, b0), vb1 = FloatVector.broadcast(SPECIES, b1);
        // the last vector ends at n, overlapping the one before: it writes the same values again
        for (int j = 0, last = n - lanes; ; j = Math.min(j + lanes, last)) {
            FloatVector even = FloatVector.fromArray(SPECIES, x, xa + j)
                    .mul(va0)
                    .add(FloatVector.fromArray(SPECIES, x, xa + j + 1).mul(va1));
            FloatVector odd = FloatVector.fromArray(SPECIES, x, xb + j)
                    .mul(vb0)
                    .add(FloatVector.fromArray(SPECIES, x, xb + j + 1).mul(vb1));
            zl.selectFrom(even, odd).intoArray(dst, d + 2 * j);
            zh.selectFrom(even, odd).intoArray(dst, d + 2 * j + lanes);
            if (j == last) break;
        }
    }

    /**
     * One output row of a two-tap pass over whole rows: {@code dst[d + i] = w0·x[r0 + i] + w1·x[r1 + i]} for i in [0,
     * n), with the scalar loop's multiply and add per term: bit for bit the scalar loop.
     */
    public static void blendRows(float[] x, int r0, float w0, int r1, float w1, float[] dst, int d, int n) {
        int lanes = SPECIES.length(), i = 0;
        FloatVector v0 = FloatVector.broadcast(SPECIES, w0), v1 = FloatVector.broadcast(SPECIES, w1);
        for (int bound = SPECIES.loopBound(n); i < bound; i += lanes) {
            FloatVector.fromArray(SPECIES, x, r0 + i)
                    .mul(v0)
                    .add(FloatVector.fromArray(SPECIES, x, r1 + i).mul(v1))
                    .intoArray(dst, d + i);
        }
        for (; i < n; i++) dst[d + i] = w0 * x[r0 + i] + w1 * x[r1 + i];
    }

    /**
     * One term of an adjoint pass over whole rows: {@code dst[d + i] += w·x[r + i]} for i in [0, n), with the scalar
     * loop's multiply and add.
     */
    public static void addScaledRow(float[] x, int r, float w, float[] dst, int d, int n) {
        int lanes = SPECIES.length(), i = 0;
        FloatVector vw = FloatVector.broadcast(SPECIES, w);
        for (int bound = SPECIES.loopBound(n); i < bound; i += lanes) {
            FloatVector.fromArray(SPECIES, dst, d + i)
                    .add(FloatVector.fromArray(SPECIES, x, r + i).mul(vw))
                    .intoArray(dst, d + i);
        }
        for (; i < n; i++) dst[d + i] += w * x[r + i];
    }
}
