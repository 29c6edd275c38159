package org.jtorch.kernels.cpu;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;
import org.jtorch.kernels.cpu.simd.FloatSimd;

/**
 * The scalar formulas of pointwise ops, one per compute domain. A {@code null} formula means the op does not support
 * that domain; the op's meta rule rejects such dtypes before a kernel runs.
 */
public final class Fns {
    private Fns() {}

    /** A complex formula writing {@code (re, im)} into {@code out[0..1]}. */
    @FunctionalInterface
    public interface ComplexUnary {
        void apply(double re, double im, double[] out);
    }

    @FunctionalInterface
    public interface ComplexBinary {
        void apply(double ar, double ai, double br, double bi, double[] out);
    }

    @FunctionalInterface
    public interface DoubleTernary {
        double apply(double a, double b, double c);
    }

    @FunctionalInterface
    public interface LongTernary {
        long apply(long a, long b, long c);
    }

    @FunctionalInterface
    public interface ComplexTernary {
        void apply(double ar, double ai, double br, double bi, double cr, double ci, double[] out);
    }

    /**
     * @param d floating domain
     * @param l bool/integral domain (signed 64-bit arithmetic; narrower types wrap at the store)
     * @param lu uint64 when it differs from {@code l} (ordering, division), else {@code null}
     * @param c complex domain
     * @param simd the float32 vector loop, if any
     */
    public record Unary(
            DoubleUnaryOperator d, LongUnaryOperator l, LongUnaryOperator lu, ComplexUnary c, FloatSimd.Unary simd) {}

    public record Binary(
            DoubleBinaryOperator d,
            LongBinaryOperator l,
            LongBinaryOperator lu,
            ComplexBinary c,
            FloatSimd.Binary simd) {}

    /** @param simd the float32 vector loop, if any */
    public record Ternary(DoubleTernary d, LongTernary l, ComplexTernary c, FloatTernaryLoop simd) {
        public Ternary(DoubleTernary d, LongTernary l, ComplexTernary c) {
            this(d, l, c, null);
        }
    }

    /**
     * The float32 vector loop of a ternary op, run over {@code n} elements where the first two operands are dense and
     * the third is dense too, or a single value read at {@code ci} when {@code singleThird} (lerp's scalar weight). It
     * must give the bits of the op's float formula, so a result does not depend on which path an element took.
     */
    public record FloatTernaryLoop(boolean singleThird, Body body) {
        /** The loop itself: {@code out[o + i] = f(a[ai + i], b[bi + i], c[ci (+ i)])} for {@code i < n}. */
        @FunctionalInterface
        public interface Body {
            void run(float[] a, int ai, float[] b, int bi, float[] c, int ci, float[] out, int o, int n);
        }
    }
}
