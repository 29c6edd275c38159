package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.TorchException;

/**
 * c10's checked conversion of a Scalar argument to a tensor's element type ({@code Scalar::to<T>()}), which ops run
 * before using a fill value or a bound, and the C++ type names that its and ATen's messages print.
 *
 * <p>The rule, as in {@code c10::overflows}: a value overflows a floating type when it is finite and beyond the largest
 * finite value (infinities and NaN convert); an integral type when it lies outside the type's range, except that a
 * negative integer may wrap into an unsigned type whose maximum is at least its magnitude ({@code -1} becomes
 * {@code 255} in uint8); bool takes any value; a complex value with a non-zero imaginary part overflows every real
 * type.
 */
final class ScalarConversion {
    private ScalarConversion() {}

    /**
     * Throws PyTorch's "value cannot be converted to type T without overflow" when {@code s} does not fit
     * {@code dtype}.
     */
    static void check(Scalar s, DType dtype) {
        if (overflows(s, dtype)) throw overflow(dtype);
    }

    /**
     * The 64-bit pattern an integral dtype stores for {@code s}: integers as they are (uint64 values above
     * Long.MAX_VALUE as their bits), floating values truncated toward zero as a C cast does.
     */
    static long toBits(Scalar s) {
        if (s.isIntegral()) return s.longValue();
        double v = s.doubleValue();
        return v >= 0x1p63 ? (long) (v - 0x1p63) ^ Long.MIN_VALUE : (long) v;
    }

    static TorchException overflow(DType dtype) {
        return new TorchException("value cannot be converted to type " + cName(dtype) + " without overflow");
    }

    private static boolean overflows(Scalar s, DType dtype) {
        if (dtype == DType.BOOL || s.kind() == Scalar.Kind.BOOL) return false;
        if (dtype.isComplex()) {
            return floatOverflows(s.doubleValue(), dtype.toReal()) || floatOverflows(s.imag(), dtype.toReal());
        }
        if (s.isComplex() && s.imag() != 0) return true;
        if (dtype.isFloatingPoint()) return floatOverflows(s.doubleValue(), dtype);
        return switch (s.kind()) {
            case FLOAT, COMPLEX -> {
                IntRange r = IntRange.of(dtype);
                yield s.doubleValue() < r.lowAsDouble() || s.doubleValue() > r.highAsDouble();
            }
            case INT -> intOverflows(s.longValue(), dtype);
            default -> IntRange.of(dtype).isAboveUnsigned(s.longValue()); // UINT: never below any range
        };
    }

    private static boolean floatOverflows(double v, DType dtype) {
        if (Double.isNaN(v)) return false;
        double max = PointwiseOps.maxFinite(dtype);
        boolean hasInfinity =
                dtype != DType.FLOAT8_E4M3FN && dtype != DType.FLOAT8_E4M3FNUZ && dtype != DType.FLOAT8_E5M2FNUZ;
        if (Double.isInfinite(v) && hasInfinity) return false;
        return v < -max || v > max;
    }

    private static boolean intOverflows(long v, DType dtype) {
        IntRange r = IntRange.of(dtype);
        if (!dtype.isSigned() && v < 0) {
            // c10 lets a negative integer wrap into an unsigned type when its magnitude fits the type.
            return dtype != DType.UINT64 && -v > r.high();
        }
        return r.isBelow(v) || r.isAbove(v);
    }

    /** The value range of an integral dtype; {@code high} holds uint64's maximum as its bit pattern. */
    record IntRange(long low, long high, boolean unsigned64) {
        static IntRange of(DType d) {
            return switch (d) {
                case BOOL -> new IntRange(0, 1, false);
                case UINT8 -> new IntRange(0, 0xFFL, false);
                case UINT16 -> new IntRange(0, 0xFFFFL, false);
                case UINT32 -> new IntRange(0, 0xFFFF_FFFFL, false);
                case UINT64 -> new IntRange(0, -1L, true);
                case INT8 -> new IntRange(Byte.MIN_VALUE, Byte.MAX_VALUE, false);
                case INT16 -> new IntRange(Short.MIN_VALUE, Short.MAX_VALUE, false);
                case INT32 -> new IntRange(Integer.MIN_VALUE, Integer.MAX_VALUE, false);
                case INT64 -> new IntRange(Long.MIN_VALUE, Long.MAX_VALUE, false);
                default -> throw new IllegalArgumentException("not an integral dtype: " + d);
            };
        }

        /** Whether a signed 64-bit value lies below the range. */
        boolean isBelow(long v) {
            return v < low;
        }

        /** Whether a signed 64-bit value lies above the range. */
        boolean isAbove(long v) {
            return !unsigned64 && v > high;
        }

        /** Whether an unsigned 64-bit value (given by its bits) lies above the range. */
        boolean isAboveUnsigned(long bits) {
            return !unsigned64 && (bits < 0 || bits > high);
        }

        double lowAsDouble() {
            return low;
        }

        /** The maximum as a double (uint64's is 2^64, the double nearest to 2^64 - 1). */
        double highAsDouble() {
            return unsigned64 ? 0x1p64 : high;
        }
    }

    /** The C++ element type as c10's conversion messages print it ({@code int8_t}, {@code at::Half}). */
    static String cName(DType d) {
        return switch (d) {
            case BOOL -> "bool";
            case UINT8 -> "uint8_t";
            case UINT16 -> "uint16_t";
            case UINT32 -> "uint32_t";
            case UINT64 -> "uint64_t";
            case INT8 -> "int8_t";
            case INT16 -> "int16_t";
            case INT32 -> "int";
            case INT64 -> "int64_t";
            case FLOAT16 -> "at::Half";
            case BFLOAT16 -> "at::BFloat16";
            case FLOAT32 -> "float";
            case FLOAT64 -> "double";
            case FLOAT8_E4M3FN -> "at::Float8_e4m3fn";
            case FLOAT8_E5M2 -> "at::Float8_e5m2";
            case FLOAT8_E4M3FNUZ -> "at::Float8_e4m3fnuz";
            case FLOAT8_E5M2FNUZ -> "at::Float8_e5m2fnuz";
            case FLOAT8_E8M0FNU -> "at::Float8_e8m0fnu";
            case COMPLEX32 -> "c10::complex<c10::Half>";
            case BCOMPLEX32 -> "c10::complex<c10::BFloat16>";
            case COMPLEX64 -> "c10::complex<float>";
            case COMPLEX128 -> "c10::complex<double>";
        };
    }

    /** A dtype as ATen prints a {@code caffe2::TypeMeta} in messages ({@code float}, {@code long int}). */
    static String typeMetaName(DType d) {
        return switch (d) {
            case UINT8 -> "unsigned char";
            case UINT16 -> "unsigned short";
            case UINT32 -> "unsigned int";
            case UINT64 -> "unsigned long";
            case INT8 -> "signed char";
            case INT16 -> "short int";
            case INT64 -> "long int";
            case FLOAT16 -> "c10::Half";
            case BFLOAT16 -> "c10::BFloat16";
            case FLOAT8_E4M3FN -> "c10::Float8_e4m3fn";
            case FLOAT8_E5M2 -> "c10::Float8_e5m2";
            case FLOAT8_E4M3FNUZ -> "c10::Float8_e4m3fnuz";
            case FLOAT8_E5M2FNUZ -> "c10::Float8_e5m2fnuz";
            case FLOAT8_E8M0FNU -> "c10::Float8_e8m0fnu";
            default -> cName(d);
        };
    }
}
