package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * {@code expf} built from IEEE add/multiply only (Cephes' range reduction and degree-6 polynomial,
 * ≤ 2 ulp), in a vector form and a scalar twin that perform the same operations in the same order.
 *
 * <p>Why not {@code VectorOperators.EXP}: its compiled form (an SVML intrinsic) and its interpreted
 * fallback round differently, so the same element could change value as code warms up, and the
 * scalar tail differed from the vector body, which made results depend on where the thread split
 * fell. With plain arithmetic every element gets the same bits in every path.
 */
final class FloatExp {
    private FloatExp() {}

    private static final float LOG2E = 1.44269504088896341f;
    private static final float LN2_HI = 0.693359375f; // few bits: n * LN2_HI is exact for |n| ≤ 150
    private static final float LN2_LO = -2.12194440e-4f;
    /** 1.5 · 2^23: adding it rounds to the nearest integer, left in the low mantissa bits. */
    private static final float ROUND = 12582912f;
    private static final int ROUND_BITS = 0x4B400000;
    private static final float OVERFLOW = 88.72283935546875f;
    private static final float UNDERFLOW = -103.972084f;
    /** Inside [FAST_LO, FAST_HI] the result is normal and 2^n is a normal float: one scaling suffices. */
    private static final float FAST_LO = -87f, FAST_HI = 88f;
    private static final float P0 = 1.9875691500E-4f, P1 = 1.3981999507E-3f, P2 = 8.3334519073E-3f,
            P3 = 4.1665795894E-2f, P4 = 1.6666665459E-1f, P5 = 5.0000001201E-1f;

    static float exp(float x) {
        if (x != x) return x;
        if (x > OVERFLOW) return Float.POSITIVE_INFINITY;
        if (x < UNDERFLOW) return 0f;
        float t = x * LOG2E + ROUND;
        int n = Float.floatToRawIntBits(t) - ROUND_BITS;
        float fn = t - ROUND;
        float r = x - fn * LN2_HI - fn * LN2_LO;
        float p = ((((P0 * r + P1) * r + P2) * r + P3) * r + P4) * r + P5;
        float y = p * (r * r) + r + 1f;
        // 2^n in two factors so that neither is subnormal (n reaches -150 near the underflow bound)
        int n1 = n >> 1, n2 = n - n1;
        return y * Float.intBitsToFloat((n1 + 127) << 23) * Float.intBitsToFloat((n2 + 127) << 23);
    }

    static FloatVector exp(FloatVector x) {
        VectorMask<Float> fast = x.compare(VectorOperators.GE, FAST_LO).and(x.compare(VectorOperators.LE, FAST_HI));
        if (fast.allTrue()) { // the common case: no special lanes, no subnormal results
            FloatVector t = x.mul(LOG2E).add(ROUND);
            IntVector n = t.reinterpretAsInts().sub(ROUND_BITS);
            FloatVector r = reduce(x, t.sub(ROUND));
            return poly(r).mul(n.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
        }
        VectorMask<Float> nan = x.test(VectorOperators.IS_NAN);
        VectorMask<Float> over = x.compare(VectorOperators.GT, OVERFLOW);
        VectorMask<Float> under = x.compare(VectorOperators.LT, UNDERFLOW);
        FloatVector xc = x.blend(0f, nan.or(over).or(under));
        FloatVector t = xc.mul(LOG2E).add(ROUND);
        IntVector n = t.reinterpretAsInts().sub(ROUND_BITS);
        FloatVector y = poly(reduce(xc, t.sub(ROUND)));
        IntVector n1 = n.lanewise(VectorOperators.ASHR, 1);
        IntVector n2 = n.sub(n1);
        FloatVector s1 = n1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        FloatVector s2 = n2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        FloatVector result = y.mul(s1).mul(s2);
        return result.blend(Float.POSITIVE_INFINITY, over).blend(0f, under).blend(x, nan);
    }

    /** r = x - n ln2, in two steps (Cody-Waite). */
    private static FloatVector reduce(FloatVector x, FloatVector fn) {
        return x.sub(fn.mul(LN2_HI)).sub(fn.mul(LN2_LO));
    }

    /** exp(r) for |r| ≤ ln2/2. */
    private static FloatVector poly(FloatVector r) {
        FloatVector p = r.mul(P0).add(P1).mul(r).add(P2).mul(r).add(P3).mul(r).add(P4).mul(r).add(P5);
        return p.mul(r.mul(r)).add(r).add(1f);
    }
}
