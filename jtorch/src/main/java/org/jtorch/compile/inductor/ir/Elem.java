package org.jtorch.compile.inductor.ir;

import org.jtorch.DType;

/** How a buffer stores its elements: the Java array type and the conversions to and from the compute type. */
public enum Elem {
    /** bool in {@code byte[]}, 0 or 1. */
    BOOL(DType.BOOL, "byte[]", ScalarKind.BOOL),
    /** uint8 in {@code byte[]}. */
    UINT8(DType.UINT8, "byte[]", ScalarKind.LONG),
    /** int8 in {@code byte[]}. */
    INT8(DType.INT8, "byte[]", ScalarKind.LONG),
    /** int16 in {@code short[]}. */
    INT16(DType.INT16, "short[]", ScalarKind.LONG),
    /** int32 in {@code int[]}. */
    INT32(DType.INT32, "int[]", ScalarKind.LONG),
    /** int64 in {@code long[]}. */
    INT64(DType.INT64, "long[]", ScalarKind.LONG),
    /** float16 bits in {@code short[]}. */
    FLOAT16(DType.FLOAT16, "short[]", ScalarKind.FLOAT),
    /** bfloat16 bits in {@code short[]}. */
    BFLOAT16(DType.BFLOAT16, "short[]", ScalarKind.FLOAT),
    /** float32 in {@code float[]}. */
    FLOAT32(DType.FLOAT32, "float[]", ScalarKind.FLOAT),
    /** float64 in {@code double[]}. */
    FLOAT64(DType.FLOAT64, "double[]", ScalarKind.DOUBLE);

    private final DType dtype;
    private final String arrayType;
    private final ScalarKind kind;

    Elem(DType dtype, String arrayType, ScalarKind kind) {
        this.dtype = dtype;
        this.arrayType = arrayType;
        this.kind = kind;
    }

    /** The element type of {@code dtype}, or null when kernels do not handle it (complex, float8, unsigned wide). */
    public static Elem of(DType dtype) {
        for (Elem e : values()) if (e.dtype == dtype) return e;
        return null;
    }

    /** The tensor dtype. */
    public DType dtype() {
        return dtype;
    }

    /** The Java array type holding the elements ({@code float[]}). */
    public String arrayType() {
        return arrayType;
    }

    /** The type values are computed in. */
    public ScalarKind kind() {
        return kind;
    }

    /** Java source reading element {@code element} (an array access expression) as the compute type. */
    public String load(String element) {
        return switch (this) {
            case BOOL -> "(" + element + " != 0)";
            case UINT8 -> "(long) (" + element + " & 0xFF)";
            case INT8, INT16, INT32, INT64 -> "(long) " + element;
            case FLOAT16 -> "Float.float16ToFloat(" + element + ")";
            case BFLOAT16 -> "Float.intBitsToFloat(" + element + " << 16)";
            case FLOAT32, FLOAT64 -> element;
        };
    }

    /** Java source converting {@code value}, of the compute type, to the array's element type. */
    public String store(String value) {
        return switch (this) {
            case BOOL -> "(byte) (" + value + " ? 1 : 0)";
            case UINT8, INT8 -> "(byte) " + value;
            case INT16 -> "(short) " + value;
            case INT32 -> "(int) " + value;
            case INT64, FLOAT32, FLOAT64 -> value;
            case FLOAT16 -> "Float.floatToFloat16(" + value + ")";
            case BFLOAT16 -> "toBFloat16(" + value + ")";
        };
    }
}
