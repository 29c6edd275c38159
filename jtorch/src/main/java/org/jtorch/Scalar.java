package org.jtorch;

import org.jtorch.internal.DefaultDtype;

/**
 * A Java number passed where PyTorch takes a {@code Scalar}: a "weak" operand for type promotion (an int scalar never
 * widens an int32 tensor, a float scalar turns an int tensor into the default float dtype). Integers keep their exact
 * 64-bit value; {@code uint64} values above {@link Long#MAX_VALUE} are carried as their two's-complement bits with
 * {@link Kind#UINT}.
 */
public record Scalar(Kind kind, long longValue, double doubleValue, double imag) {

    /** The category of a scalar, which drives promotion. */
    public enum Kind {
        /** A Python {@code bool}. */
        BOOL,
        /** A Python {@code int}: a signed 64-bit integer. */
        INT,
        /** An unsigned 64-bit integer (a {@code uint64} value), carried as its two's-complement bits. */
        UINT,
        /** A Python {@code float}: a double. */
        FLOAT,
        /** A Python {@code complex}: two doubles. */
        COMPLEX
    }

    /** A {@code bool} scalar, as PyTorch wraps {@code True}/{@code False} in a {@code c10::Scalar}. */
    public static Scalar of(boolean b) {
        return new Scalar(Kind.BOOL, b ? 1 : 0, b ? 1 : 0, 0);
    }

    /** An {@code int} scalar. */
    public static Scalar of(long v) {
        return new Scalar(Kind.INT, v, v, 0);
    }

    /** A {@code float} scalar. */
    public static Scalar of(double v) {
        return new Scalar(Kind.FLOAT, (long) v, v, 0);
    }

    /** A {@code complex} scalar {@code re + im·j}. */
    public static Scalar complex(double re, double im) {
        return new Scalar(Kind.COMPLEX, (long) re, re, im);
    }

    /** An unsigned 64-bit value given by its bits. */
    public static Scalar ofUnsigned(long bits) {
        return new Scalar(Kind.UINT, bits, bits >= 0 ? bits : Math.scalb((double) (bits >>> 1), 1) + (bits & 1), 0);
    }

    /** From a boxed Java number ({@link Integer}, {@link Long}, {@link Double}, {@link Float}, {@link Boolean}...). */
    public static Scalar of(Object o) {
        return switch (o) {
            case Scalar s -> s;
            case Boolean b -> of(b.booleanValue());
            case Double d -> of(d.doubleValue());
            case Float f -> of(f.doubleValue());
            case Long l -> of(l.longValue());
            case Integer i -> of(i.longValue());
            case Short s -> of(s.longValue());
            case Byte b -> of(b.longValue());
            default ->
                throw new TorchTypeException(
                        "expected a number, got " + o.getClass().getSimpleName());
        };
    }

    /** Whether this is a bool, int or uint scalar ({@code c10::Scalar::isIntegral(true)}). */
    public boolean isIntegral() {
        return kind == Kind.BOOL || kind == Kind.INT || kind == Kind.UINT;
    }

    /** Whether this is a float scalar ({@code c10::Scalar::isFloatingPoint()}). */
    public boolean isFloatingPoint() {
        return kind == Kind.FLOAT;
    }

    /** Whether this is a complex scalar ({@code c10::Scalar::isComplex()}). */
    public boolean isComplex() {
        return kind == Kind.COMPLEX;
    }

    /** The dtype PyTorch gives this scalar when it must become a tensor on its own. */
    public DType defaultDType() {
        return switch (kind) {
            case BOOL -> DType.BOOL;
            case INT -> DType.INT64;
            case UINT -> DType.UINT64;
            case FLOAT -> DefaultDtype.get();
            case COMPLEX -> DefaultDtype.get().toComplex();
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case BOOL -> longValue != 0 ? "True" : "False";
            case INT -> Long.toString(longValue);
            case UINT -> Long.toUnsignedString(longValue);
            case FLOAT -> Double.toString(doubleValue);
            case COMPLEX -> "(" + doubleValue + (imag < 0 ? "" : "+") + imag + "j)";
        };
    }
}
