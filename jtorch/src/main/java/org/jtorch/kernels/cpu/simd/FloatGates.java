package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * The gate nonlinearities of the recurrent kernels, in place over contiguous {@code float[]} ranges: the logistic
 * sigmoid {@code 1/(1 + e^-x)} and Cephes' {@code tanhf} (its odd polynomial below |x| = 0.625, where {@code 1 -
 * 2/(e^2x + 1)} would cancel, written {@code x·(1 + z·P(z))} so that -0 keeps its sign; that formula above it; within 3
 * ulp), both on {@link FloatExp}. The vector loops and their scalar tails perform the same IEEE operations in the same
 * order, so an element's value does not depend on where a row is split.
 */
public final class FloatGates {
    private FloatGates() {}

    private static final float T0 = -5.70498872745E-3f,
            T1 = 2.06390887954E-2f,
            T2 = -5.37397155531E-2f,
            T3 = 1.33314422036E-1f,
            T4 = -3.33332819422E-1f;
    private static final float POLY_LIMIT = 0.625f;

    /** {@code a[off, off + n) = sigmoid(a[off, off + n))}. */
    public static void sigmoid(float[] a, int off, int n) {
        int i = 0;
        for (int bound = FloatSimd.SPECIES.loopBound(n); i < bound; i += FloatSimd.SPECIES.length()) {
            sigmoid(FloatVector.fromArray(FloatSimd.SPECIES, a, off + i)).intoArray(a, off + i);
        }
        for (; i < n; i++) a[off + i] = sigmoid(a[off + i]);
    }

    /** {@code a[off, off + n) = tanh(a[off, off + n))}. */
    public static void tanh(float[] a, int off, int n) {
        int i = 0;
        for (int bound = FloatSimd.SPECIES.loopBound(n); i < bound; i += FloatSimd.SPECIES.length()) {
            tanh(FloatVector.fromArray(FloatSimd.SPECIES, a, off + i)).intoArray(a, off + i);
        }
        for (; i < n; i++) a[off + i] = tanh(a[off + i]);
    }

    static float sigmoid(float x) {
        return 1f / (FloatExp.exp(-x) + 1f);
    }

    static FloatVector sigmoid(FloatVector x) {
        return x.broadcast(1f).div(FloatExp.exp(x.neg()).add(1f));
    }

    static float tanh(float x) {
        float ax = Math.abs(x);
        if (ax < POLY_LIMIT) {
            float z = x * x;
            return x * (((((T0 * z + T1) * z + T2) * z + T3) * z + T4) * z + 1f);
        }
        return Math.copySign(1f - 2f / (FloatExp.exp(ax + ax) + 1f), x);
    }

    static FloatVector tanh(FloatVector x) {
        FloatVector ax = x.abs();
        FloatVector z = x.mul(x);
        FloatVector poly = z.mul(T0)
                .add(T1)
                .mul(z)
                .add(T2)
                .mul(z)
                .add(T3)
                .mul(z)
                .add(T4)
                .mul(z)
                .add(1f)
                .mul(x);
        FloatVector big =
                x.broadcast(1f).sub(x.broadcast(2f).div(FloatExp.exp(ax.add(ax)).add(1f)));
        // copysign: the magnitude's bits with x's sign bit
        FloatVector signed = big.reinterpretAsInts()
                .or(x.reinterpretAsInts().and(0x80000000))
                .reinterpretAsFloats();
        VectorMask<Float> small = ax.compare(VectorOperators.LT, POLY_LIMIT);
        return signed.blend(poly, small);
    }
}
