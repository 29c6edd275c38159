package org.jtorch.kernels.cpu.simd;

import static org.jtorch.kernels.cpu.simd.FloatSimd.SPECIES;

import jdk.incubator.vector.FloatVector;

/**
 * The in-place row passes of the fused linear cross-entropy over a {@code float[]} stretch of logits: exponentiate with
 * a shift while summing, and rescale. Each is one pass with the exponential called directly, where the generic
 * {@link FloatSimd} loops would take one pass per operation.
 */
public final class CrossEntropyRowSimd {
    private CrossEntropyRowSimd() {}

    /**
     * {@code z[o+i] = exp(z[o+i] − shift)} for {@code i < n}, with the same exponential as {@link FloatSimd.Unary#EXP};
     * returns their sum, accumulated in float per lane.
     */
    public static double expShiftedSum(float[] z, int o, int n, float shift) {
        // One exponential per iteration: with several, C2 stops inlining FloatExp.exp (it is large) and the
        // vectors get boxed, several times slower (measured). The exp's latency hides the adds' anyway.
        int len = SPECIES.length(), i = 0;
        FloatVector vs = FloatVector.broadcast(SPECIES, shift), acc = FloatVector.zero(SPECIES);
        for (int bound = SPECIES.loopBound(n); i < bound; i += len) {
            FloatVector e =
                    FloatExp.exp(FloatVector.fromArray(SPECIES, z, o + i).sub(vs));
            e.intoArray(z, o + i);
            acc = acc.add(e);
        }
        float s = (float) FloatSimd.laneSum(acc);
        for (; i < n; i++) {
            float e = FloatExp.exp(z[o + i] - shift);
            z[o + i] = e;
            s += e;
        }
        return s;
    }

    /** {@code z[o+i] *= k} for {@code i < n}. */
    public static void scale(float[] z, int o, int n, float k) {
        int len = SPECIES.length(), i = 0;
        FloatVector vk = FloatVector.broadcast(SPECIES, k);
        int bound = SPECIES.loopBound(n);
        for (; i < bound; i += len)
            FloatVector.fromArray(SPECIES, z, o + i).mul(vk).intoArray(z, o + i);
        for (; i < n; i++) z[o + i] *= k;
    }
}
