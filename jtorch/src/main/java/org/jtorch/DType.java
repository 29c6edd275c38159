package org.jtorch;

/**
 * Element types of PyTorch 2.15 (all but the quantized ones).
 *
 * <p>Each dtype has a storage kind (the Java primitive array that holds it on the heap), an item size in bytes, and a
 * category (bool &lt; integral &lt; floating &lt; complex) used by type promotion. Half-precision, bfloat16 and the
 * 8-bit float formats are stored natively and computed in float, as PyTorch does on CPU; complex values are interleaved
 * (re, im) pairs.
 */
public enum DType {
    /** {@code torch.bool}: one byte per element, 0 or 1. */
    BOOL("bool", 1, Category.BOOL, StorageKind.BYTE, "Bool"),
    /** {@code torch.uint8}: unsigned 8-bit integers. */
    UINT8("uint8", 1, Category.INTEGRAL, StorageKind.BYTE, "Byte"),
    /** {@code torch.uint16}: unsigned 16-bit integers (PyTorch's limited-support unsigned type). */
    UINT16("uint16", 2, Category.INTEGRAL, StorageKind.SHORT, "UInt16"),
    /** {@code torch.uint32}: unsigned 32-bit integers (PyTorch's limited-support unsigned type). */
    UINT32("uint32", 4, Category.INTEGRAL, StorageKind.INT, "UInt32"),
    /** {@code torch.uint64}: unsigned 64-bit integers (PyTorch's limited-support unsigned type). */
    UINT64("uint64", 8, Category.INTEGRAL, StorageKind.LONG, "UInt64"),
    /** {@code torch.int8}: signed 8-bit integers. */
    INT8("int8", 1, Category.INTEGRAL, StorageKind.BYTE, "Char"),
    /** {@code torch.int16} ({@code torch.short}): signed 16-bit integers. */
    INT16("int16", 2, Category.INTEGRAL, StorageKind.SHORT, "Short"),
    /** {@code torch.int32} ({@code torch.int}): signed 32-bit integers. */
    INT32("int32", 4, Category.INTEGRAL, StorageKind.INT, "Int"),
    /** {@code torch.int64} ({@code torch.long}): signed 64-bit integers, the dtype of integer tensors and indices. */
    INT64("int64", 8, Category.INTEGRAL, StorageKind.LONG, "Long"),
    /** {@code torch.float16} ({@code torch.half}): IEEE half precision, 5 exponent and 10 mantissa bits. */
    FLOAT16("float16", 2, Category.FLOATING, StorageKind.SHORT, "Half"),
    /** {@code torch.bfloat16}: brain floating point, float32's 8 exponent bits and 7 mantissa bits. */
    BFLOAT16("bfloat16", 2, Category.FLOATING, StorageKind.SHORT, "BFloat16"),
    /** {@code torch.float32} ({@code torch.float}): single precision, the default dtype. */
    FLOAT32("float32", 4, Category.FLOATING, StorageKind.FLOAT, "Float"),
    /** {@code torch.float64} ({@code torch.double}): double precision. */
    FLOAT64("float64", 8, Category.FLOATING, StorageKind.DOUBLE, "Double"),
    /** {@code torch.float8_e4m3fn}: 8-bit float, 4 exponent and 3 mantissa bits, finite only (no infinities). */
    FLOAT8_E4M3FN("float8_e4m3fn", 1, Category.FLOATING, StorageKind.BYTE, "Float8_e4m3fn"),
    /** {@code torch.float8_e5m2}: 8-bit float, 5 exponent and 2 mantissa bits, with infinities and NaN. */
    FLOAT8_E5M2("float8_e5m2", 1, Category.FLOATING, StorageKind.BYTE, "Float8_e5m2"),
    /** {@code torch.float8_e4m3fnuz}: the e4m3 variant with no infinities, no negative zero and a single NaN. */
    FLOAT8_E4M3FNUZ("float8_e4m3fnuz", 1, Category.FLOATING, StorageKind.BYTE, "Float8_e4m3fnuz"),
    /** {@code torch.float8_e5m2fnuz}: the e5m2 variant with no infinities, no negative zero and a single NaN. */
    FLOAT8_E5M2FNUZ("float8_e5m2fnuz", 1, Category.FLOATING, StorageKind.BYTE, "Float8_e5m2fnuz"),
    /** {@code torch.float8_e8m0fnu}: 8 exponent bits, no mantissa and no sign: a power of two (block scales). */
    FLOAT8_E8M0FNU("float8_e8m0fnu", 1, Category.FLOATING, StorageKind.BYTE, "Float8_e8m0fnu"),
    /** {@code torch.complex32} ({@code torch.chalf}): complex of two float16 parts. */
    COMPLEX32("complex32", 4, Category.COMPLEX, StorageKind.SHORT, "ComplexHalf"),
    /** A complex of two bfloat16 parts (PyTorch's {@code ComplexBFloat16}, which has no {@code torch.} dtype name). */
    BCOMPLEX32("bcomplex32", 4, Category.COMPLEX, StorageKind.SHORT, "ComplexBFloat16"),
    /** {@code torch.complex64} ({@code torch.cfloat}): complex of two float32 parts. */
    COMPLEX64("complex64", 8, Category.COMPLEX, StorageKind.FLOAT, "ComplexFloat"),
    /** {@code torch.complex128} ({@code torch.cdouble}): complex of two float64 parts. */
    COMPLEX128("complex128", 16, Category.COMPLEX, StorageKind.DOUBLE, "ComplexDouble");

    /** PyTorch's aliases. */
    public static final DType FLOAT = FLOAT32,
            DOUBLE = FLOAT64,
            HALF = FLOAT16,
            LONG = INT64,
            INT = INT32,
            SHORT = INT16,
            CFLOAT = COMPLEX64,
            CDOUBLE = COMPLEX128,
            CHALF = COMPLEX32;

    /** Type-promotion category, ordered. */
    public enum Category {
        /** Booleans, the lowest category. */
        BOOL,
        /** Signed and unsigned integers. */
        INTEGRAL,
        /** Real floating point ({@code torch.is_floating_point}). */
        FLOATING,
        /** Complex numbers ({@code torch.is_complex}), the highest category. */
        COMPLEX
    }

    /** The Java primitive array kind that backs heap storage of this dtype. */
    public enum StorageKind {
        /** Backed by {@code byte[]} (bool, 8-bit integers and floats). */
        BYTE,
        /** Backed by {@code short[]} (16-bit integers, float16, bfloat16, complex32's parts). */
        SHORT,
        /** Backed by {@code int[]} (32-bit integers). */
        INT,
        /** Backed by {@code long[]} (64-bit integers). */
        LONG,
        /** Backed by {@code float[]} (float32 and complex64's parts). */
        FLOAT,
        /** Backed by {@code double[]} (float64 and complex128's parts). */
        DOUBLE
    }

    private final String pyName;
    private final int itemSize;
    private final Category category;
    private final StorageKind storageKind;
    private final String cppName;

    DType(String pyName, int itemSize, Category category, StorageKind storageKind, String cppName) {
        this.pyName = pyName;
        this.itemSize = itemSize;
        this.category = category;
        this.storageKind = storageKind;
        this.cppName = cppName;
    }

    /** Name as PyTorch prints it after {@code torch.} ({@code float32}, {@code bfloat16}). */
    public String pyName() {
        return pyName;
    }

    /** Scalar-type name as ATen's error messages spell it ({@code Float}, {@code ComplexDouble}). */
    public String cppName() {
        return cppName;
    }

    /**
     * The short name PyTorch's printouts use ({@code torch.utils._dtype_abbrs}): {@code f32}, {@code i64}, {@code b8};
     * bcomplex32, which PyTorch's table lacks, is {@code bc32}.
     */
    public String abbreviation() {
        return switch (this) {
            case BOOL -> "b8";
            case UINT8 -> "u8";
            case UINT16 -> "u16";
            case UINT32 -> "u32";
            case UINT64 -> "u64";
            case INT8 -> "i8";
            case INT16 -> "i16";
            case INT32 -> "i32";
            case INT64 -> "i64";
            case FLOAT16 -> "f16";
            case BFLOAT16 -> "bf16";
            case FLOAT32 -> "f32";
            case FLOAT64 -> "f64";
            case FLOAT8_E4M3FN -> "f8e4m3fn";
            case FLOAT8_E5M2 -> "f8e5m2";
            case FLOAT8_E4M3FNUZ -> "f8e4m3fnuz";
            case FLOAT8_E5M2FNUZ -> "f8e5m2fnuz";
            case FLOAT8_E8M0FNU -> "f8e8m0fnu";
            case COMPLEX32 -> "c32";
            case BCOMPLEX32 -> "bc32";
            case COMPLEX64 -> "c64";
            case COMPLEX128 -> "c128";
        };
    }

    /** Bytes per element ({@code torch.dtype.itemsize}). */
    public int itemSize() {
        return itemSize;
    }

    /** The type-promotion category of this dtype. */
    public Category category() {
        return category;
    }

    /** The primitive array kind that backs this dtype's heap storage. */
    public StorageKind storageKind() {
        return storageKind;
    }

    /** Number of primitive array slots per element: 2 for complex, else 1. */
    public int slotsPerElement() {
        return category == Category.COMPLEX ? 2 : 1;
    }

    /** {@code dtype.is_floating_point}: a real floating dtype (float8s, float16, bfloat16, float32, float64). */
    public boolean isFloatingPoint() {
        return category == Category.FLOATING;
    }

    /** {@code dtype.is_complex}. */
    public boolean isComplex() {
        return category == Category.COMPLEX;
    }

    /** Whether this is an integer dtype, bool counted only if {@code includeBool} ({@code c10::isIntegralType}). */
    public boolean isIntegral(boolean includeBool) {
        return category == Category.INTEGRAL || (includeBool && category == Category.BOOL);
    }

    /** {@code dtype.is_signed}: whether the dtype represents negative values (bool and the uints do not). */
    public boolean isSigned() {
        return switch (this) {
            case BOOL, UINT8, UINT16, UINT32, UINT64, FLOAT8_E8M0FNU -> false;
            default -> true;
        };
    }

    /** The float8 formats: promotion with any other dtype is refused. */
    public boolean isFloat8() {
        return switch (this) {
            case FLOAT8_E4M3FN, FLOAT8_E5M2, FLOAT8_E4M3FNUZ, FLOAT8_E5M2FNUZ, FLOAT8_E8M0FNU -> true;
            default -> false;
        };
    }

    /** uint16/uint32/uint64: PyTorch's "barebones" unsigned types with restricted promotion. */
    public boolean isBarebonesUnsigned() {
        return this == UINT16 || this == UINT32 || this == UINT64;
    }

    /** Stored in fewer bits than it is computed in (half, bfloat16, float8, half complex). */
    public boolean isReducedPrecision() {
        return this == FLOAT16 || this == BFLOAT16 || isFloat8() || this == COMPLEX32 || this == BCOMPLEX32;
    }

    /** Real counterpart of a complex dtype ({@code complex64 → float32}); other dtypes map to themselves. */
    public DType toReal() {
        return switch (this) {
            case COMPLEX32 -> FLOAT16;
            case BCOMPLEX32 -> BFLOAT16;
            case COMPLEX64 -> FLOAT32;
            case COMPLEX128 -> FLOAT64;
            default -> this;
        };
    }

    /** Complex counterpart of a floating dtype ({@code bfloat16 → bcomplex32}, 2.14 rule). */
    public DType toComplex() {
        return switch (this) {
            case FLOAT16 -> COMPLEX32;
            case BFLOAT16 -> BCOMPLEX32;
            case FLOAT32 -> COMPLEX64;
            case FLOAT64 -> COMPLEX128;
            case COMPLEX32, BCOMPLEX32, COMPLEX64, COMPLEX128 -> this;
            default -> throw new TorchException("toComplex: no complex dtype corresponds to " + this);
        };
    }

    /** Bits of the value range for integral dtypes (8 for bool is not meaningful). */
    public int bits() {
        return itemSize * 8;
    }

    @Override
    public String toString() {
        return "torch." + pyName;
    }
}
