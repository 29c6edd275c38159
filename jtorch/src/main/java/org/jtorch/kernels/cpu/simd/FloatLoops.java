package org.jtorch.kernels.cpu.simd;

import static org.jtorch.kernels.cpu.simd.FloatSimd.SPECIES;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * The vector bodies of {@link FloatSimd}'s loops: one loop per op and operand shape, each returning the index where the
 * scalar tail starts.
 *
 * <p>Why one loop per op rather than one loop with a switch: C2 keeps a vector in a register only when its whole
 * computation is inlined into the loop and no vector value crosses a merge point. A shared loop calling a per-op switch
 * stopped meeting both once a process had used several ops (the switch method, compiled on its own, grew past the size
 * C2 still inlines), and every vector was then boxed: measured 1.3-3.7 ns per element instead of 0.07-0.13. The
 * formulas themselves are defined once, in {@link Formulas}.
 */
final class FloatLoops {
    private FloatLoops() {}

    static int add(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.add(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int add(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.add(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int add(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.add(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int sub(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.sub(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int sub(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.sub(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int sub(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.sub(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int mul(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.mul(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int mul(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.mul(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int mul(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.mul(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int div(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.div(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int div(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.div(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int div(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.div(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int max(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.max(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int max(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.max(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int max(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.max(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int min(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.min(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int min(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.min(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int min(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.min(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int geluTanhBackward(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.geluTanhBackward(
                            FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int geluTanhBackward(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.geluTanhBackward(FloatVector.fromArray(SPECIES, a, ai + i), vb)
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int geluTanhBackward(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.geluTanhBackward(va, FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int reluBackward(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.reluBackward(FloatVector.fromArray(SPECIES, a, ai + i), FloatVector.fromArray(SPECIES, b, bi + i))
                    .intoArray(out, o + i);
        }
        return i;
    }

    static int reluBackward(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.reluBackward(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        return i;
    }

    static int reluBackward(float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.reluBackward(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int exp(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.exp(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int neg(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.neg(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int abs(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.abs(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int sqrt(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.sqrt(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int relu(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.relu(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int sigmoid(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.sigmoid(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int square(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.square(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int reciprocal(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.reciprocal(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int rsqrt(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.rsqrt(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int silu(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.silu(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    static int geluTanh(float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            Formulas.geluTanh(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        return i;
    }

    // ---- exact GELU and its derivative: the exponential in a pass of its own ----------------------------
    //
    // With erf's exponential inlined, the loop body outgrew C2's inlining budget and every vector was boxed
    // (~5 ns per element). Here each block first gets e = exp(-x²/2) through the EXP loop (a call C2 keeps
    // separate), then the rest of the formula reads it; the values are those of the scalar twins.

    /** Elements per block: the exponentials of one block stay in L1 between the two passes. */
    private static final int ERF_BLOCK = 1024;

    /** {@code e[i] = exp(-x[xi+i]²/2)} for a block whose length is a multiple of the vector length. */
    private static void expArguments(float[] x, int xi, float[] e, int len) {
        for (int i = 0; i < len; i += SPECIES.length())
            FloatGelu.expArgument(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(e, i);
        FloatSimd.unary(FloatSimd.Unary.EXP, e, 0, e, 0, len);
    }

    static int gelu(float[] x, int xi, float[] out, int o, int n) {
        int bound = SPECIES.loopBound(n);
        float[] e = new float[Math.min(bound, ERF_BLOCK)];
        for (int b = 0; b < bound; b += ERF_BLOCK) {
            int len = Math.min(ERF_BLOCK, bound - b);
            expArguments(x, xi + b, e, len);
            geluGivenExp(x, xi + b, e, out, o + b, len);
        }
        return bound;
    }

    // The second passes are methods of their own: C2 compiles them before the block loops that call them (they
    // run per block), and does not inline code that big, so each keeps a compilation unit of its own.
    private static void geluGivenExp(float[] x, int xi, float[] e, float[] out, int o, int len) {
        for (int i = 0; i < len; i += SPECIES.length()) {
            FloatGelu.gelu(FloatVector.fromArray(SPECIES, x, xi + i), FloatVector.fromArray(SPECIES, e, i))
                    .intoArray(out, o + i);
        }
    }

    /** gelu_backward with grad a and self b, both arrays. */
    static int geluBackward(float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int bound = SPECIES.loopBound(n);
        float[] e = new float[Math.min(bound, ERF_BLOCK)];
        for (int k = 0; k < bound; k += ERF_BLOCK) {
            int len = Math.min(ERF_BLOCK, bound - k);
            expArguments(b, bi + k, e, len);
            geluBackwardGivenExp(a, ai + k, b, bi + k, e, out, o + k, len);
        }
        return bound;
    }

    private static void geluBackwardGivenExp(
            float[] a, int ai, float[] b, int bi, float[] e, float[] out, int o, int len) {
        for (int i = 0; i < len; i += SPECIES.length()) {
            FloatGelu.backward(
                            FloatVector.fromArray(SPECIES, a, ai + i),
                            FloatVector.fromArray(SPECIES, b, bi + i),
                            FloatVector.fromArray(SPECIES, e, i))
                    .intoArray(out, o + i);
        }
    }

    /** gelu_backward with an array grad and one self value. */
    static int geluBackward(float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        FloatVector vb = FloatVector.broadcast(SPECIES, b),
                ve = FloatVector.broadcast(SPECIES, FloatExp.exp(FloatGelu.expArgument(b)));
        for (int bound = SPECIES.loopBound(n); i < bound; i += SPECIES.length()) {
            FloatGelu.backward(FloatVector.fromArray(SPECIES, a, ai + i), vb, ve)
                    .intoArray(out, o + i);
        }
        return i;
    }

    /** gelu_backward with one grad value and an array self. */
    static int geluBackward(float a, float[] b, int bi, float[] out, int o, int n) {
        int bound = SPECIES.loopBound(n);
        float[] e = new float[Math.min(bound, ERF_BLOCK)];
        for (int k = 0; k < bound; k += ERF_BLOCK) {
            int len = Math.min(ERF_BLOCK, bound - k);
            expArguments(b, bi + k, e, len);
            geluBackwardGivenExp(a, b, bi + k, e, out, o + k, len);
        }
        return bound;
    }

    private static void geluBackwardGivenExp(float a, float[] b, int bi, float[] e, float[] out, int o, int len) {
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (int i = 0; i < len; i += SPECIES.length()) {
            FloatGelu.backward(va, FloatVector.fromArray(SPECIES, b, bi + i), FloatVector.fromArray(SPECIES, e, i))
                    .intoArray(out, o + i);
        }
    }

    /**
     * The vector form of each op, the same float operations in the same order as its scalar twin in {@link FloatSimd}.
     */
    static final class Formulas {
        private Formulas() {}

        static FloatVector add(FloatVector a, FloatVector b) {
            return a.add(b);
        }

        static FloatVector sub(FloatVector a, FloatVector b) {
            return a.sub(b);
        }

        static FloatVector mul(FloatVector a, FloatVector b) {
            return a.mul(b);
        }

        static FloatVector div(FloatVector a, FloatVector b) {
            return a.div(b);
        }

        static FloatVector max(FloatVector a, FloatVector b) {
            return a.max(b);
        } // propagates NaN like torch.maximum

        static FloatVector min(FloatVector a, FloatVector b) {
            return a.min(b);
        } // propagates NaN like torch.maximum

        static FloatVector geluTanhBackward(FloatVector a, FloatVector b) {
            return FloatGelu.tanhBackward(a, b);
        }

        static FloatVector reluBackward(FloatVector a, FloatVector b) {
            return a.blend(0f, b.compare(VectorOperators.LE, 0f));
        }

        static FloatVector exp(FloatVector x) {
            return FloatExp.exp(x);
        }

        static FloatVector neg(FloatVector x) {
            return x.neg();
        }

        static FloatVector abs(FloatVector x) {
            return x.abs();
        }

        static FloatVector sqrt(FloatVector x) {
            return x.sqrt();
        }
        // max(x, 0) would turn NaN into 0; blend keeps NaN as torch.relu does.
        static FloatVector relu(FloatVector x) {
            return x.blend(0f, x.compare(VectorOperators.LT, 0f));
        }

        static FloatVector sigmoid(FloatVector x) {
            return x.broadcast(1f).div(FloatExp.exp(x.neg()).add(1f));
        }

        static FloatVector square(FloatVector x) {
            return x.mul(x);
        }

        static FloatVector reciprocal(FloatVector x) {
            return x.broadcast(1f).div(x);
        }

        static FloatVector rsqrt(FloatVector x) {
            return x.broadcast(1f).div(x.sqrt());
        }

        static FloatVector silu(FloatVector x) {
            return x.div(FloatExp.exp(x.neg()).add(1f));
        }

        static FloatVector geluTanh(FloatVector x) {
            return FloatGelu.geluTanh(x);
        }
    }
}
