package org.jtorch.compile.inductor.ir;

/**
 * The Java type a kernel computes a value in: float16, bfloat16 and float32 compute in {@code float} (as ATen's
 * {@code opmath_t}), float64 in {@code double}, integers in {@code long}, bool in {@code boolean}.
 */
public enum ScalarKind {
    /** {@code boolean}. */
    BOOL("boolean"),
    /** {@code long}: every integer dtype. */
    LONG("long"),
    /** {@code float}: float16, bfloat16, float32. */
    FLOAT("float"),
    /** {@code double}: float64. */
    DOUBLE("double");

    private final String javaType;

    ScalarKind(String javaType) {
        this.javaType = javaType;
    }

    /** The Java primitive type's name. */
    public String javaType() {
        return javaType;
    }

    /** Whether values of this kind are floating point. */
    public boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }
}
