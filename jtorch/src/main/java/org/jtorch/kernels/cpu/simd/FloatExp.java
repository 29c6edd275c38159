package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * {@code expf} built from IEEE add/multiply only (Cephes' range reduction and degree-6 polynomial, ≤ 2 ulp), in a
 * vector form and a scalar twin that perform the same operations in the same order.
 *
 * <p>Why not {@code VectorOperators.EXP}: its compiled form (an SVML intrinsic) and its interpreted fallback round
 * differently, so the same element could change value as code warms up, and the scalar tail differed from the vector
 * body, which made results depend on where the thread split fell. With plain arithmetic every element gets the same
 * bits in every path.
 */
final class FloatExp {
    private FloatExp() {}

    private static final float LOG2E = 1.44269504088896341f;
    private static final float LN2_HI = 0.693359375f; // few bits: n * LN2_HI is exact for |n| ≤ 150
    private static final float LN2_LO = -2.12194440e-4f;
    /** 1.5 · 2^23: adding it rounds to the nearest integer, left in the low mantissa bits. */
    private static final float ROUND = 12582912f;

    private static final int ROUND_BITS = 0x4B400000;
    /**
     * Inputs above HI are clamped to HI first (NaN passes, as no comparison holds for it), whose result is +∞ through
     * the two-factor scaling, so one branch-free sequence serves every lane; below LO the result rounds to 0, which is
     * blended in at the end. Why branch-free: a fast path for all-ordinary vectors made the vector form a merge of two
     * paths, which C2 compiles whole into every loop once any caller (softmax over masked -inf entries) takes the
     * special one; loops then outgrew C2's inlining budget and boxed every vector. For ordinary results the two
     * scalings give the same bits as one.
     */
    private static final float LO = -104.5f, HI = 89f;

    private static final float P0 = 1.9875691500E-4f,
            P1 = 1.3981999507E-3f,
            P2 = 8.3334519073E-3f,
            P3 = 4.1665795894E-2f,
            P4 = 1.6666665459E-1f,
            P5 = 5.0000001201E-1f;

    static float exp(float x) {
        if (x < LO) return 0f; // as the vector form, without the slow underflowing scaling
        float xc = x > HI ? HI : x;
        float t = xc * LOG2E + ROUND;
        int n = Float.floatToRawIntBits(t) - ROUND_BITS;
        float fn = t - ROUND;
        float r = xc - fn * LN2_HI - fn * LN2_LO;
        float p = ((((P0 * r + P1) * r + P2) * r + P3) * r + P4) * r + P5;
        float y = p * (r * r) + r + 1f;
        // 2^n in two factors so that neither is subnormal: n runs from -151 (at LO) to 128 (at HI)
        int n1 = n >> 1, n2 = n - n1;
        return y * Float.intBitsToFloat((n1 + 127) << 23) * Float.intBitsToFloat((n2 + 127) << 23);
    }

    static FloatVector exp(FloatVector x) {
        // Lanes below LO get 0 at the end; until then they compute exp(0), because scaling their clamped value down to
        // 0 took the processor's slow path for results below the normal range (a microcode assist of ~100 cycles per
        // instruction), which made a softmax over masked -inf scores several times slower.
        var under = x.compare(VectorOperators.LT, LO);
        FloatVector xc = x.blend(0f, under);
        xc = xc.blend(HI, xc.compare(VectorOperators.GT, HI));
        FloatVector t = xc.mul(LOG2E).add(ROUND);
        IntVector n = t.reinterpretAsInts().sub(ROUND_BITS);
        FloatVector y = poly(reduce(xc, t.sub(ROUND)));
        IntVector n1 = n.lanewise(VectorOperators.ASHR, 1);
        IntVector n2 = n.sub(n1);
        return y.mul(n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                .mul(n2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                .blend(0f, under);
    }

    /** r = x - n ln2, in two steps (Cody-Waite). */
    private static FloatVector reduce(FloatVector x, FloatVector fn) {
        return x.sub(fn.mul(LN2_HI)).sub(fn.mul(LN2_LO));
    }

    /** exp(r) for |r| ≤ ln2/2. */
    private static FloatVector poly(FloatVector r) {
        FloatVector p = r.mul(P0)
                .add(P1)
                .mul(r)
                .add(P2)
                .mul(r)
                .add(P3)
                .mul(r)
                .add(P4)
                .mul(r)
                .add(P5);
        return p.mul(r.mul(r)).add(r).add(1f);
    }
}
