package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API loops over contiguous {@code float[]} ranges. The only package that imports {@code jdk.incubator.vector}
 * (still incubating in JDK 25).
 *
 * <p>Assumptions: arrays are heap {@code float[]}; ranges are contiguous; each loop runs the vector body up to
 * {@code SPECIES.loopBound(n)} then a scalar tail with the same formula (the scalar twin, also used as the test
 * oracle). The species is {@code SPECIES_PREFERRED} (512-bit on AVX-512), or the width given by
 * {@code -Djtorch.simd.bits=128|256|512}.
 */
public final class FloatSimd {
    private FloatSimd() {}

    static final VectorSpecies<Float> SPECIES = chooseSpecies();

    static {
        // before any loop of the package has run often enough to be compiled
        VectorInlining.install();
    }

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
    public static int lanes() {
        return SPECIES.length();
    }

    /** Binary ops with a vector form. */
    public enum Binary {
        ADD,
        SUB,
        MUL,
        DIV,
        MAX,
        MIN,
        /** {@code gelu_backward(grad=a, self=b)}, exact (erf) form. */
        GELU_BACKWARD,
        /** {@code gelu_backward(grad=a, self=b, approximate='tanh')}. */
        GELU_TANH_BACKWARD,
        /**
         * {@code threshold_backward(grad=a, self=b, threshold=0)}: relu's backward; NaN in self passes the gradient, as
         * ATen's.
         */
        RELU_BACKWARD;

        /** The scalar twin of the vector form in {@link FloatLoops.Formulas}. */
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
                case RELU_BACKWARD -> b <= 0f ? 0f : a;
            };
        }
    }

    /**
     * Unary ops with a vector form. Only operations whose every step is an IEEE-exact add, multiply, divide or square
     * root are here (exp is {@link FloatExp}'s polynomial), so the vector body, the scalar tail and the strided path
     * give identical bits; transcendental functions without such a form (log, tanh, sin...) use the scalar double path
     * instead. GELU's erf is {@link FloatErf}'s polynomial.
     */
    public enum Unary {
        EXP,
        NEG,
        ABS,
        SQRT,
        RELU,
        SIGMOID,
        SQUARE,
        RECIPROCAL,
        RSQRT,
        SILU,
        GELU,
        GELU_TANH;

        /**
         * The scalar twin: the same float operations as the vector form in {@link FloatLoops.Formulas}, in the same
         * order.
         */
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
    }

    /** {@code out[o+i] = op(a[ai+i], b[bi+i])} for {@code i < n}. */
    public static void binary(Binary op, float[] a, int ai, float[] b, int bi, float[] out, int o, int n) {
        int i =
                switch (op) {
                    case ADD -> FloatLoops.add(a, ai, b, bi, out, o, n);
                    case SUB -> FloatLoops.sub(a, ai, b, bi, out, o, n);
                    case MUL -> FloatLoops.mul(a, ai, b, bi, out, o, n);
                    case DIV -> FloatLoops.div(a, ai, b, bi, out, o, n);
                    case MAX -> FloatLoops.max(a, ai, b, bi, out, o, n);
                    case MIN -> FloatLoops.min(a, ai, b, bi, out, o, n);
                    case GELU_BACKWARD -> FloatLoops.geluBackward(a, ai, b, bi, out, o, n);
                    case GELU_TANH_BACKWARD -> FloatLoops.geluTanhBackward(a, ai, b, bi, out, o, n);
                    case RELU_BACKWARD -> FloatLoops.reluBackward(a, ai, b, bi, out, o, n);
                };
        for (; i < n; i++) out[o + i] = op.apply(a[ai + i], b[bi + i]);
    }

    /** {@code out[o+i] = op(a[ai+i], b)}: the second operand broadcast from one value. */
    public static void binaryScalarRight(Binary op, float[] a, int ai, float b, float[] out, int o, int n) {
        int i =
                switch (op) {
                    case ADD -> FloatLoops.add(a, ai, b, out, o, n);
                    case SUB -> FloatLoops.sub(a, ai, b, out, o, n);
                    case MUL -> FloatLoops.mul(a, ai, b, out, o, n);
                    case DIV -> FloatLoops.div(a, ai, b, out, o, n);
                    case MAX -> FloatLoops.max(a, ai, b, out, o, n);
                    case MIN -> FloatLoops.min(a, ai, b, out, o, n);
                    case GELU_BACKWARD -> FloatLoops.geluBackward(a, ai, b, out, o, n);
                    case GELU_TANH_BACKWARD -> FloatLoops.geluTanhBackward(a, ai, b, out, o, n);
                    case RELU_BACKWARD -> FloatLoops.reluBackward(a, ai, b, out, o, n);
                };
        for (; i < n; i++) out[o + i] = op.apply(a[ai + i], b);
    }

    /** {@code out[o+i] = op(a, b[bi+i])}: the first operand broadcast from one value. */
    public static void binaryScalarLeft(Binary op, float a, float[] b, int bi, float[] out, int o, int n) {
        int i =
                switch (op) {
                    case ADD -> FloatLoops.add(a, b, bi, out, o, n);
                    case SUB -> FloatLoops.sub(a, b, bi, out, o, n);
                    case MUL -> FloatLoops.mul(a, b, bi, out, o, n);
                    case DIV -> FloatLoops.div(a, b, bi, out, o, n);
                    case MAX -> FloatLoops.max(a, b, bi, out, o, n);
                    case MIN -> FloatLoops.min(a, b, bi, out, o, n);
                    case GELU_BACKWARD -> FloatLoops.geluBackward(a, b, bi, out, o, n);
                    case GELU_TANH_BACKWARD -> FloatLoops.geluTanhBackward(a, b, bi, out, o, n);
                    case RELU_BACKWARD -> FloatLoops.reluBackward(a, b, bi, out, o, n);
                };
        for (; i < n; i++) out[o + i] = op.apply(a, b[bi + i]);
    }

    /** {@code out[o+i] = op(x[xi+i])}. */
    public static void unary(Unary op, float[] x, int xi, float[] out, int o, int n) {
        int i =
                switch (op) {
                    case EXP -> FloatLoops.exp(x, xi, out, o, n);
                    case NEG -> FloatLoops.neg(x, xi, out, o, n);
                    case ABS -> FloatLoops.abs(x, xi, out, o, n);
                    case SQRT -> FloatLoops.sqrt(x, xi, out, o, n);
                    case RELU -> FloatLoops.relu(x, xi, out, o, n);
                    case SIGMOID -> FloatLoops.sigmoid(x, xi, out, o, n);
                    case SQUARE -> FloatLoops.square(x, xi, out, o, n);
                    case RECIPROCAL -> FloatLoops.reciprocal(x, xi, out, o, n);
                    case RSQRT -> FloatLoops.rsqrt(x, xi, out, o, n);
                    case SILU -> FloatLoops.silu(x, xi, out, o, n);
                    case GELU -> FloatLoops.gelu(x, xi, out, o, n);
                    case GELU_TANH -> FloatLoops.geluTanh(x, xi, out, o, n);
                };
        for (; i < n; i++) out[o + i] = op.apply(x[xi + i]);
    }

    /**
     * Sum of {@code x[xi .. xi+n)} accumulated in float across four vector accumulators (pairwise-like error growth),
     * returned as double for the caller's block combination.
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
        double s = laneSum(acc0.add(acc1).add(acc2.add(acc3)));
        for (; i < n; i++) s += x[xi + i];
        return s;
    }

    /** Σ a[ai+i]·b[bi+i] accumulated in float across four vector accumulators, as {@link #sum}. */
    public static double dot(float[] a, int ai, float[] b, int bi, int n) {
        int i = 0;
        int len = SPECIES.length();
        FloatVector acc0 = FloatVector.zero(SPECIES), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        int bound4 = n - n % (4 * len);
        for (; i < bound4; i += 4 * len) {
            acc0 = FloatVector.fromArray(SPECIES, a, ai + i).fma(FloatVector.fromArray(SPECIES, b, bi + i), acc0);
            acc1 = FloatVector.fromArray(SPECIES, a, ai + i + len)
                    .fma(FloatVector.fromArray(SPECIES, b, bi + i + len), acc1);
            acc2 = FloatVector.fromArray(SPECIES, a, ai + i + 2 * len)
                    .fma(FloatVector.fromArray(SPECIES, b, bi + i + 2 * len), acc2);
            acc3 = FloatVector.fromArray(SPECIES, a, ai + i + 3 * len)
                    .fma(FloatVector.fromArray(SPECIES, b, bi + i + 3 * len), acc3);
        }
        int bound = SPECIES.loopBound(n);
        for (; i < bound; i += len)
            acc0 = FloatVector.fromArray(SPECIES, a, ai + i).fma(FloatVector.fromArray(SPECIES, b, bi + i), acc0);
        double s = laneSum(acc0.add(acc1).add(acc2.add(acc3)));
        for (; i < n; i++) s += a[ai + i] * b[bi + i];
        return s;
    }

    /**
     * The sum of a vector's lanes in a fixed order (lane 0 first, in double). Not {@code reduceLanes(ADD)}: its
     * compiled form adds the lanes in another order than its interpreted one, so a sum's last bits could change as the
     * code warmed up, and a result differ between two runs of the same reduction.
     */
    static double laneSum(FloatVector v) {
        double s = 0;
        for (int i = 0; i < SPECIES.length(); i++) s += v.lane(i);
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
