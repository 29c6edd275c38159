package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * GELU and its derivative in float, as ATen's GeluKernel spells them, with two rewrites that only remove cancellation:
 * {@code 1 + erf(z)} is {@link FloatErf#onePlusErf}, and with {@code e = exp(-2|u|)} (never overflowing) {@code (1 +
 * tanh u)/2 = 1/(1+e)} for u ≥ 0 and {@code e/(1+e)} for u &lt; 0, and {@code 1 - tanh² u = 4e/(1+e)²}. Vector forms
 * and scalar twins perform the same operations in the same order.
 */
final class FloatGelu {
    private FloatGelu() {}

    private static final float SQRT1_2 = (float) Math.sqrt(0.5);
    /** 1/√(2π), the normal density's constant. */
    private static final float PDF = (float) (1 / Math.sqrt(2 * Math.PI));
    /** √(2/π) and 0.044715: the tanh approximation's constants. */
    private static final float BETA = (float) Math.sqrt(2 / Math.PI), KAPPA = 0.044715f;

    /*
     * The exact forms need e = exp(-z²) with z = x/√2 (erf's tail and, for the derivative, the normal density
     * φ(x) = e/√(2π)). The vector forms take e as an argument: FloatLoops computes it in a pass of its own,
     * because with the exponential inlined, the loop exceeded C2's inlining budget and every vector was boxed.
     */

    /** The argument of the exponential the exact forms need: -z² with z = x/√2. */
    static float expArgument(float x) {
        float z = x * SQRT1_2;
        return -(z * z);
    }

    static FloatVector expArgument(FloatVector x) {
        FloatVector z = x.mul(SQRT1_2);
        return z.mul(z).neg();
    }

    /** x·Φ(x) = 0.5·x·(1 + erf(x/√2)). */
    static float gelu(float x) {
        return x * 0.5f * FloatErf.onePlusErf(x * SQRT1_2, FloatExp.exp(expArgument(x)));
    }

    /** {@link #gelu(float)} given {@code e = exp(expArgument(x))}. */
    static FloatVector gelu(FloatVector x, FloatVector e) {
        return x.mul(0.5f).mul(FloatErf.onePlusErf(x.mul(SQRT1_2), e));
    }

    /** g·(Φ(x) + x·φ(x)). */
    static float backward(float g, float x) {
        float e = FloatExp.exp(expArgument(x));
        float cdf = 0.5f * FloatErf.onePlusErf(x * SQRT1_2, e);
        float pdf = e * PDF;
        return g * (cdf + x * pdf);
    }

    /** {@link #backward(float, float)} given {@code e = exp(expArgument(x))}. */
    static FloatVector backward(FloatVector g, FloatVector x, FloatVector e) {
        FloatVector cdf = FloatErf.onePlusErf(x.mul(SQRT1_2), e).mul(0.5f);
        FloatVector pdf = e.mul(PDF);
        return g.mul(cdf.add(x.mul(pdf)));
    }

    /** 0.5·x·(1 + tanh(β(x + κx³))). */
    static float geluTanh(float x) {
        float u = BETA * (x + KAPPA * (x * x * x));
        float e = FloatExp.exp(-2f * Math.abs(u));
        float half = (u < 0 ? e : 1f) / (1f + e);
        return x * half;
    }

    static FloatVector geluTanh(FloatVector x) {
        FloatVector u = x.mul(x).mul(x).mul(KAPPA).add(x).mul(BETA);
        FloatVector e = FloatExp.exp(u.abs().mul(-2f));
        FloatVector half =
                e.broadcast(1f).blend(e, u.compare(VectorOperators.LT, 0f)).div(e.add(1f));
        return x.mul(half);
    }

    /** g·(0.5·(1 + t) + 0.5·x·(1 - t²)·β(1 + 3κx²)) with t = tanh(β(x + κx³)). */
    static float tanhBackward(float g, float x) {
        float sq = x * x;
        float u = BETA * (x + KAPPA * (sq * x));
        float e = FloatExp.exp(-2f * Math.abs(u));
        float d = 1f + e;
        float half = (u < 0 ? e : 1f) / d;
        float sech2 = 4f * e / (d * d);
        float slope = BETA * (1f + 3f * KAPPA * sq);
        return g * (half + 0.5f * x * sech2 * slope);
    }

    static FloatVector tanhBackward(FloatVector g, FloatVector x) {
        FloatVector sq = x.mul(x);
        FloatVector u = sq.mul(x).mul(KAPPA).add(x).mul(BETA);
        FloatVector e = FloatExp.exp(u.abs().mul(-2f));
        FloatVector d = e.add(1f);
        VectorMask<Float> neg = u.compare(VectorOperators.LT, 0f);
        FloatVector half = e.broadcast(1f).blend(e, neg).div(d);
        FloatVector sech2 = e.mul(4f).div(d.mul(d));
        FloatVector slope = sq.mul(3f * KAPPA).add(1f).mul(BETA);
        return g.mul(half.add(x.mul(0.5f).mul(sech2).mul(slope)));
    }
}
