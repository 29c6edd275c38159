package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API loops over contiguous {@code float[]} ranges. The only package that imports
 * {@code jdk.incubator.vector} (still incubating in JDK 25).
 *
 * <p>Assumptions: arrays are heap {@code float[]}; ranges are contiguous; each loop runs the vector
 * body up to {@code SPECIES.loopBound(n)} then a scalar tail with the same formula (the scalar twin,
 * also used as the test oracle). The species is {@code SPECIES_PREFERRED} (512-bit on AVX-512), or the
 * width given by {@code -Djtorch.simd.bits=128|256|512}.
 */
public final class FloatSimd {
    private FloatSimd() {}

    static final VectorSpecies<Float> SPECIES = chooseSpecies();

    private static VectorSpecies<Float> chooseSpecies() {
        String bits = System.getProperty("jtorch.simd.bits");
        if (bits == null) return FloatVector.SPECIES_PREFERRED;
        return switch (bits) {
            case "128" -> FloatVector.SPECIES_128;
            case "256" -> FloatVector.SPECIES_256;
            case "512" -> FloatVector.SPECIES_512;
            default -> throw new IllegalArgumentException("jtorch.simd.bits must be 128, 256 or 512, got " + bits);
        };
    }

    /** Lane count of the chosen species. */
    public static int lanes() { return SPECIES.length(); }

    /** Binary ops with a vector form. */
    public enum Binary {
        ADD, SUB, MUL, DIV, MAX, MIN,
        /** {@code gelu_backward(grad=a, self=b)}, exact (erf) form. */
        GELU_BACKWARD,
        /** {@code gelu_backward(grad=a, self=b, approximate='tanh')}. */
        GELU_TANH_BACKWARD;

        /** The scalar twin of {@link #vector}. */
        public float apply(float a, float b) {
            return switch (this) {
                case ADD -> a + b;
                case SUB -> a - b;
                case MUL -> a * b;
                case DIV -> a / b;
                case MAX -> Float.isNaN(a) || Float.isNaN(b) ? Float.NaN : Math.max(a, b);
                case MIN -> Float.isNaN(a) || Float.isNaN(b) ? Float.NaN : Math.min(a, b);
                case GELU_BACKWARD -> FloatGelu.backward(a, b);
                case GELU_TANH_BACKWARD -> FloatGelu.tanhBackward(a, b);
            };
        }

        FloatVector vector(FloatVector a, FloatVector b) {
            return switch (this) {
                case ADD -> a.add(b);
                case SUB -> a.sub(b);
                case MUL -> a.mul(b);
                case DIV -> a.div(b);
                case MAX -> a.max(b); // propagates NaN like torch.maximum
                case MIN -> a.min(b);
                case GELU_BACKWARD -> FloatGelu.backward(a, b);
                case GELU_TANH_BACKWARD -> FloatGelu.tanhBackward(a, b);
            };
        }
    }

    /**
     * Unary ops with a vector form. Only operations whose every step is an IEEE-exact add, multiply,
     * divide or square root are here (exp is {@link FloatExp}'s polynomial), so the vector body, the
     * scalar tail and the strided path give identical bits; transcendental functions without such a
     * form (log, tanh, sin...) use the scalar double path instead. GELU's erf is {@link FloatErf}'s polynomial.
     */
    public enum Unary {
        EXP, NEG, ABS, SQRT, RELU, SIGMOID, SQUARE, RECIPROCAL, RSQRT, SILU, GELU, GELU_TANH;

        /** The scalar twin: the same float operations as {@link #vector}, in the same order. */
        public float apply(float x) {
            return switch (this) {
                case EXP -> FloatExp.exp(x);
                case NEG -> -x;
                case ABS -> Math.abs(x);
                case SQRT -> (float) Math.sqrt(x); // a correctly rounded float sqrt
                case RELU -> x > 0 || Float.isNaN(x) ? x : 0f;
                case SIGMOID -> 1f / (FloatExp.exp(-x) + 1f);
                case SQUARE -> x * x;
                case RECIPROCAL -> 1f / x;
                case RSQRT -> 1f / (float) Math.sqrt(x);
                case SILU -> x / (FloatExp.exp(-x) + 1f);
                case GELU -> FloatGelu.gelu(x);
                case GELU_TANH -> FloatGelu.geluTanh(x);
            };
        }

        FloatVector vector(FloatVector x) {
            return switch (this) {
                case EXP -> FloatExp.exp(x);
                case NEG -> x.neg();
                case ABS -> x.abs();
                case SQRT -> x.sqrt();
                // max(x, 0) would turn NaN into 0; blend keeps NaN as torch.relu does.
                case RELU -> x.blend(0f, x.compare(VectorOperators.LT, 0f));
                case SIGMOID -> x.broadcast(1f).div(FloatExp.exp(x.neg()).add(1f));
                case SQUARE -> x.mul(x);
                case RECIPROCAL -> x.broadcast(1f).div(x);
                case RSQRT -> x.broadcast(1f).div(x.sqrt());
                case SILU -> x.div(FloatExp.exp(x.neg()).add(1f));
                case GELU -> FloatGelu.gelu(x);
                case GELU_TANH -> FloatGelu.geluTanh(x);
            };
        }
    }

    /** {@code out[o+i] = op(a[ai+i], b[bi+i])} for {@code i < n}. */
    public static void binary(Binary op, float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        int bound = SPECIES.loopBound(n);
        for (; i < bound; i += SPECIES.length()) {
            FloatVector va = FloatVector.fromArray(SPECIES, a, ai + i);
            FloatVector vb = FloatVector.fromArray(SPECIES, b, bi + i);
            op.vector(va, vb).intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = op.apply(a[ai + i], b[bi + i]);
    }

    /** {@code out[o+i] = op(a[ai+i], b)}: the second operand broadcast from one value. */
    public static void binaryScalarRight(Binary op, float[] a, int ai, float b, float[] out, int o, int n) {
        int i = 0;
        int bound = SPECIES.loopBound(n);
        FloatVector vb = FloatVector.broadcast(SPECIES, b);
        for (; i < bound; i += SPECIES.length()) {
            op.vector(FloatVector.fromArray(SPECIES, a, ai + i), vb).intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = op.apply(a[ai + i], b);
    }

    /** {@code out[o+i] = op(a, b[bi+i])}: the first operand broadcast from one value. */
    public static void binaryScalarLeft(Binary op, float a, float[] b, int bi, float[] out, int o, int n) {
        int i = 0;
        int bound = SPECIES.loopBound(n);
        FloatVector va = FloatVector.broadcast(SPECIES, a);
        for (; i < bound; i += SPECIES.length()) {
            op.vector(va, FloatVector.fromArray(SPECIES, b, bi + i)).intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = op.apply(a, b[bi + i]);
    }

    /** {@code out[o+i] = op(x[xi+i])}. */
    public static void unary(Unary op, float[] x, int xi, float[] out, int o, int n) {
        int i = 0;
        int bound = SPECIES.loopBound(n);
        for (; i < bound; i += SPECIES.length()) {
            op.vector(FloatVector.fromArray(SPECIES, x, xi + i)).intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = op.apply(x[xi + i]);
    }

    /**
     * Sum of {@code x[xi .. xi+n)} accumulated in float across four vector accumulators (pairwise-like
     * error growth), returned as double for the caller's block combination.
     */
    public static double sum(float[] x, int xi, int n) {
        int i = 0;
        int len = SPECIES.length();
        FloatVector acc0 = FloatVector.zero(SPECIES), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        int bound4 = n - n % (4 * len);
        for (; i < bound4; i += 4 * len) {
            acc0 = acc0.add(FloatVector.fromArray(SPECIES, x, xi + i));
            acc1 = acc1.add(FloatVector.fromArray(SPECIES, x, xi + i + len));
            acc2 = acc2.add(FloatVector.fromArray(SPECIES, x, xi + i + 2 * len));
            acc3 = acc3.add(FloatVector.fromArray(SPECIES, x, xi + i + 3 * len));
        }
        int bound = SPECIES.loopBound(n);
        for (; i < bound; i += len) acc0 = acc0.add(FloatVector.fromArray(SPECIES, x, xi + i));
        double s = acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) s += x[xi + i];
        return s;
    }

    /** Maximum (NaN-propagating) of a non-empty range. */
    public static float max(float[] x, int xi, int n) {
        int i = 0;
        float m = Float.NEGATIVE_INFINITY;
        int bound = SPECIES.loopBound(n);
        if (bound > 0) {
            FloatVector acc = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
            for (; i < bound; i += SPECIES.length()) acc = acc.max(FloatVector.fromArray(SPECIES, x, xi + i));
            m = acc.reduceLanes(VectorOperators.MAX);
        }
        for (; i < n; i++) m = Binary.MAX.apply(m, x[xi + i]);
        return m;
    }
}
