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

    public record Ternary(DoubleTernary d, LongTernary l, ComplexTernary c) {}
}
