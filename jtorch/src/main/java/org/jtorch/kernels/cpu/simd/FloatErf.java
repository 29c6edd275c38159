package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * {@code erff} from IEEE add/multiply/divide and {@link FloatExp}, in a vector form and a scalar twin with the same
 * operations in the same order (so every path gives the same bits).
 *
 * <p>Two pieces, fitted for this class (weighted least squares on Chebyshev nodes, relative error): for |z| &lt; 0.5,
 * {@code erf(z) = z·P(z²)} (degree 4); for |z| ≥ 0.5, {@code erfc(a) = exp(-a²)·t·Q(t)} with {@code t = 1/(1 + a)}
 * (degree 9), the form of Abramowitz–Stegun 7.1.26 with enough terms for float. Splitting at 0.5 keeps {@code 1 - erfc}
 * and {@code 1 + erf(-a)} free of cancellation. Against double erf over a dense sweep of [-10, 10] the result is within
 * 3 ulp; the tail {@code erfc} is within 5e-6 relative for a ≤ 9 (limited by rounding a² to float before exp).
 *
 * <p>{@link #onePlusErf} keeps the left tail accurate: {@code 1 + erf(z)} for z ≤ -0.5 is {@code erfc(-z)} itself, with
 * no cancellation, which is what GELU's {@code 0.5·x·(1 + erf(x/√2))} needs for negative x.
 */
final class FloatErf {
    private FloatErf() {}

    /** Where the two pieces meet: below it erf(z) = z·P(z²); at and above, erf = 1 - erfc. */
    private static final float SPLIT = 0.5f;

    private static final float P0 = 1.128379225730896f,
            P1 = -0.37612614035606384f,
            P2 = 0.11282918602228165f,
            P3 = -0.02676265873014927f,
            P4 = 0.004728139843791723f;
    private static final float Q0 = 0.564189612865448f,
            Q1 = 0.5641801357269287f,
            Q2 = 0.28269895911216736f,
            Q3 = -0.2970297932624817f,
            Q4 = -0.5190281271934509f,
            Q5 = -1.4556257724761963f,
            Q6 = 7.061662197113037f,
            Q7 = -10.40249252319336f,
            Q8 = 7.198220729827881f,
            Q9 = -2.0060362815856934f;

    /** erf(z) for |z| &lt; SPLIT. */
    private static float small(float z) {
        float s = z * z;
        return z * ((((P4 * s + P3) * s + P2) * s + P1) * s + P0);
    }

    /** erfc(a) for a ≥ SPLIT (NaN stays NaN, +∞ gives 0), given {@code expNegSquare = exp(-a²)}. */
    private static float tail(float a, float expNegSquare) {
        float t = 1f / (a + 1f);
        float q = ((((((((Q9 * t + Q8) * t + Q7) * t + Q6) * t + Q5) * t + Q4) * t + Q3) * t + Q2) * t + Q1) * t + Q0;
        return expNegSquare * (t * q);
    }

    static float erf(float z) {
        float a = Math.abs(z);
        if (a < SPLIT) return small(z);
        float r = 1f - tail(a, FloatExp.exp(-(a * a)));
        return z < 0 ? -r : r;
    }

    /** 1 + erf(z), accurate in relative terms for negative z too. */
    static float onePlusErf(float z) {
        return onePlusErf(z, FloatExp.exp(-(z * z)));
    }

    /** 1 + erf(z) given {@code expNegSquare = exp(-z²)} (GELU computes that exponential in a pass of its own). */
    static float onePlusErf(float z, float expNegSquare) {
        float a = Math.abs(z);
        if (a < SPLIT) return 1f + small(z);
        float e = tail(a, expNegSquare);
        return z < 0 ? e : 2f - e;
    }

    private static FloatVector small(FloatVector z) {
        FloatVector s = z.mul(z);
        return z.mul(s.mul(P4).add(P3).mul(s).add(P2).mul(s).add(P1).mul(s).add(P0));
    }

    private static FloatVector tail(FloatVector a, FloatVector expNegSquare) {
        FloatVector t = a.broadcast(1f).div(a.add(1f));
        FloatVector q = t.mul(Q9)
                .add(Q8)
                .mul(t)
                .add(Q7)
                .mul(t)
                .add(Q6)
                .mul(t)
                .add(Q5)
                .mul(t)
                .add(Q4)
                .mul(t)
                .add(Q3)
                .mul(t)
                .add(Q2)
                .mul(t)
                .add(Q1)
                .mul(t)
                .add(Q0);
        return expNegSquare.mul(t.mul(q));
    }

    /** 1 + erf(z) given {@code expNegSquare = exp(-z²)}, the vector twin of {@link #onePlusErf(float, float)}. */
    static FloatVector onePlusErf(FloatVector z, FloatVector expNegSquare) {
        FloatVector a = z.abs();
        VectorMask<Float> inner = a.compare(VectorOperators.LT, SPLIT);
        FloatVector near = small(z).add(1f);
        // no early return when every lane is inner: the result would merge two vector values, which C2 boxes
        FloatVector e = tail(a, expNegSquare);
        FloatVector r = e.broadcast(2f).sub(e).blend(e, z.compare(VectorOperators.LT, 0f));
        return r.blend(near, inner);
    }
}
