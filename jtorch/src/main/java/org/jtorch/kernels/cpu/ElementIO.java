package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.jtorch.DType;
import org.jtorch.storage.LowPrecision;

/**
 * Reads and writes single elements of any dtype in a storage segment, converting to and from the three compute domains:
 * {@code double} (floating dtypes), {@code long} (bool and integral dtypes) and complex (a {@code double} pair).
 * Indices are in elements, not bytes.
 *
 * <p>This is the generic, strided path; contiguous float32/float64 loops use the arrays directly. Storage is
 * little-endian (as PyTorch writes it and x86 lays it out). Conversions follow C casts as ATen does them:
 * reduced-precision floats round once from float (PyTorch's {@code Half(float)}), integers wrap to their width, any
 * non-zero becomes {@code true}.
 */
public abstract sealed class ElementIO {
    static final ValueLayout.OfByte I8 = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final ElementIO[] BY_DTYPE = new ElementIO[DType.values().length];

    static {
        for (DType d : DType.values()) BY_DTYPE[d.ordinal()] = create(d);
    }

    /** The accessor for a dtype (shared, stateless). */
    public static ElementIO of(DType dtype) {
        return BY_DTYPE[dtype.ordinal()];
    }

    private static ElementIO create(DType d) {
        return switch (d) {
            case BOOL -> new Bool();
            case UINT8 -> new Int(d, 8, false);
            case INT8 -> new Int(d, 8, true);
            case UINT16 -> new Int(d, 16, false);
            case INT16 -> new Int(d, 16, true);
            case UINT32 -> new Int(d, 32, false);
            case INT32 -> new Int(d, 32, true);
            case UINT64 -> new Int(d, 64, false);
            case INT64 -> new Int(d, 64, true);
            case FLOAT32 -> new Float32();
            case FLOAT64 -> new Float64();
            case FLOAT16, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2, FLOAT8_E4M3FNUZ, FLOAT8_E5M2FNUZ, FLOAT8_E8M0FNU ->
                new Reduced(d);
            case COMPLEX32, BCOMPLEX32, COMPLEX64, COMPLEX128 -> new Complex(d);
        };
    }

    public abstract double getDouble(MemorySegment s, long i);

    public abstract void setDouble(MemorySegment s, long i, double v);

    public abstract long getLong(MemorySegment s, long i);

    public abstract void setLong(MemorySegment s, long i, long v);

    /** Imaginary part; zero for real dtypes. */
    public double getImag(MemorySegment s, long i) {
        return 0;
    }

    /** Writes a complex value; real dtypes keep the real part (PyTorch warns and drops the imaginary part). */
    public void setComplex(MemorySegment s, long i, double re, double im) {
        setDouble(s, i, re);
    }

    /** C's float→int64 cast as x86 performs it: out of range (and NaN) is the "integer indefinite" INT64_MIN. */
    public static long doubleToLongC(double v) {
        // C's float→int cast is undefined out of range; x86 yields the "integer indefinite" value.
        if (Double.isNaN(v) || v >= 0x1p63 || v < -0x1p63) return Long.MIN_VALUE;
        return (long) v;
    }

    /** C's float→int32 cast as x86 performs it: out of range (and NaN) is the "integer indefinite" INT_MIN. */
    public static int doubleToIntC(double v) {
        return v > -0x1p31 - 1 && v < 0x1p31 ? (int) v : Integer.MIN_VALUE;
    }

    static final class Bool extends ElementIO {
        @Override
        public double getDouble(MemorySegment s, long i) {
            return s.get(I8, i) != 0 ? 1 : 0;
        }

        @Override
        public void setDouble(MemorySegment s, long i, double v) {
            s.set(I8, i, (byte) (v != 0 ? 1 : 0));
        }

        @Override
        public long getLong(MemorySegment s, long i) {
            return s.get(I8, i) != 0 ? 1 : 0;
        }

        @Override
        public void setLong(MemorySegment s, long i, long v) {
            s.set(I8, i, (byte) (v != 0 ? 1 : 0));
        }

        @Override
        public void setComplex(MemorySegment s, long i, double re, double im) {
            s.set(I8, i, (byte) (re != 0 || im != 0 ? 1 : 0));
        }
    }

    static final class Int extends ElementIO {
        private final int bits;
        private final boolean signed;

        Int(DType d, int bits, boolean signed) {
            this.bits = bits;
            this.signed = signed;
        }

        @Override
        public long getLong(MemorySegment s, long i) {
            return switch (bits) {
                case 8 -> signed ? s.get(I8, i) : s.get(I8, i) & 0xFFL;
                case 16 -> signed ? s.getAtIndex(I16, i) : s.getAtIndex(I16, i) & 0xFFFFL;
                case 32 -> signed ? s.getAtIndex(I32, i) : s.getAtIndex(I32, i) & 0xFFFFFFFFL;
                default -> s.getAtIndex(I64, i);
            };
        }

        @Override
        public void setLong(MemorySegment s, long i, long v) {
            switch (bits) {
                case 8 -> s.set(I8, i, (byte) v);
                case 16 -> s.setAtIndex(I16, i, (short) v);
                case 32 -> s.setAtIndex(I32, i, (int) v);
                default -> s.setAtIndex(I64, i, v);
            }
        }

        @Override
        public double getDouble(MemorySegment s, long i) {
            long v = getLong(s, i);
            if (bits == 64 && !signed && v < 0) return unsignedToDouble(v);
            return v;
        }

        @Override
        public void setDouble(MemorySegment s, long i, double v) {
            if (bits == 64 && !signed && v >= 0x1p63) {
                setLong(s, i, v >= 0x1p64 ? Long.MIN_VALUE : (long) (v - 0x1p63) ^ Long.MIN_VALUE);
            } else if (bits < 32 || (bits == 32 && signed)) {
                // x86 converts to int32 (cvttsd2si) and narrows that: NaN, infinities and values outside int32 become
                // INT_MIN (0 once narrowed), 70000 becomes 4464 in int16, as PyTorch's CPU casts give
                setLong(s, i, doubleToIntC(v));
            } else {
                setLong(s, i, doubleToLongC(v));
            }
        }
    }

    static double unsignedToDouble(long v) {
        double d = (double) (v >>> 1) * 2.0;
        return d + (v & 1);
    }

    static final class Float32 extends ElementIO {
        @Override
        public double getDouble(MemorySegment s, long i) {
            return s.getAtIndex(F32, i);
        }

        @Override
        public void setDouble(MemorySegment s, long i, double v) {
            s.setAtIndex(F32, i, (float) v);
        }

        @Override
        public long getLong(MemorySegment s, long i) {
            return doubleToLongC(s.getAtIndex(F32, i));
        }

        @Override
        public void setLong(MemorySegment s, long i, long v) {
            s.setAtIndex(F32, i, (float) v);
        }
    }

    static final class Float64 extends ElementIO {
        @Override
        public double getDouble(MemorySegment s, long i) {
            return s.getAtIndex(F64, i);
        }

        @Override
        public void setDouble(MemorySegment s, long i, double v) {
            s.setAtIndex(F64, i, v);
        }

        @Override
        public long getLong(MemorySegment s, long i) {
            return doubleToLongC(s.getAtIndex(F64, i));
        }

        @Override
        public void setLong(MemorySegment s, long i, long v) {
            s.setAtIndex(F64, i, (double) v);
        }
    }

    /** float16, bfloat16 and the float8 formats: stored narrow, computed in float. */
    static final class Reduced extends ElementIO {
        private final DType d;

        Reduced(DType d) {
            this.d = d;
        }

        @Override
        public double getDouble(MemorySegment s, long i) {
            return switch (d) {
                case FLOAT16 -> LowPrecision.halfToFloat(s.getAtIndex(I16, i));
                case BFLOAT16 -> LowPrecision.bfloat16ToFloat(s.getAtIndex(I16, i));
                case FLOAT8_E4M3FN -> LowPrecision.e4m3fnToFloat(s.get(I8, i));
                case FLOAT8_E5M2 -> LowPrecision.e5m2ToFloat(s.get(I8, i));
                case FLOAT8_E4M3FNUZ -> LowPrecision.e4m3fnuzToFloat(s.get(I8, i));
                case FLOAT8_E5M2FNUZ -> LowPrecision.e5m2fnuzToFloat(s.get(I8, i));
                default -> LowPrecision.e8m0fnuToFloat(s.get(I8, i));
            };
        }

        @Override
        public void setDouble(MemorySegment s, long i, double v) {
            float f = (float) v;
            switch (d) {
                case FLOAT16 -> s.setAtIndex(I16, i, LowPrecision.floatToHalf(f));
                case BFLOAT16 -> s.setAtIndex(I16, i, LowPrecision.floatToBFloat16(f));
                case FLOAT8_E4M3FN -> s.set(I8, i, LowPrecision.floatToE4m3fn(f));
                case FLOAT8_E5M2 -> s.set(I8, i, LowPrecision.floatToE5m2(f));
                case FLOAT8_E4M3FNUZ -> s.set(I8, i, LowPrecision.floatToE4m3fnuz(f));
                case FLOAT8_E5M2FNUZ -> s.set(I8, i, LowPrecision.floatToE5m2fnuz(f));
                default -> s.set(I8, i, LowPrecision.floatToE8m0fnu(f));
            }
        }

        @Override
        public long getLong(MemorySegment s, long i) {
            return doubleToLongC(getDouble(s, i));
        }

        @Override
        public void setLong(MemorySegment s, long i, long v) {
            setDouble(s, i, (double) v);
        }
    }

    /** Interleaved (re, im) pairs; element i occupies slots 2i and 2i+1. */
    static final class Complex extends ElementIO {
        private final DType d;

        Complex(DType d) {
            this.d = d;
        }

        private double slot(MemorySegment s, long k) {
            return switch (d) {
                case COMPLEX64 -> s.getAtIndex(F32, k);
                case COMPLEX128 -> s.getAtIndex(F64, k);
                case COMPLEX32 -> LowPrecision.halfToFloat(s.getAtIndex(I16, k));
                default -> LowPrecision.bfloat16ToFloat(s.getAtIndex(I16, k));
            };
        }

        private void setSlot(MemorySegment s, long k, double v) {
            switch (d) {
                case COMPLEX64 -> s.setAtIndex(F32, k, (float) v);
                case COMPLEX128 -> s.setAtIndex(F64, k, v);
                case COMPLEX32 -> s.setAtIndex(I16, k, LowPrecision.floatToHalf((float) v));
                default -> s.setAtIndex(I16, k, LowPrecision.floatToBFloat16((float) v));
            }
        }

        @Override
        public double getDouble(MemorySegment s, long i) {
            return slot(s, 2 * i);
        }

        @Override
        public double getImag(MemorySegment s, long i) {
            return slot(s, 2 * i + 1);
        }

        @Override
        public void setDouble(MemorySegment s, long i, double v) {
            setComplex(s, i, v, 0);
        }

        @Override
        public void setComplex(MemorySegment s, long i, double re, double im) {
            setSlot(s, 2 * i, re);
            setSlot(s, 2 * i + 1, im);
        }

        @Override
        public long getLong(MemorySegment s, long i) {
            return doubleToLongC(getDouble(s, i));
        }

        @Override
        public void setLong(MemorySegment s, long i, long v) {
            setComplex(s, i, v, 0);
        }
    }
}
