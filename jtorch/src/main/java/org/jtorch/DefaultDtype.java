package org.jtorch;

/**
 * The default floating dtype ({@code torch.get_default_dtype}), held apart from {@link Torch} so that the value types
 * that need it ({@link Scalar}) do not depend on the facade that reaches every layer.
 */
final class DefaultDtype {
    private DefaultDtype() {}

    private static volatile DType current = DType.FLOAT32;

    static DType get() {
        return current;
    }

    /** {@code torch.set_default_dtype}: only floating dtypes are allowed. */
    static void set(DType d) {
        if (d != DType.FLOAT32 && d != DType.FLOAT64 && d != DType.FLOAT16 && d != DType.BFLOAT16) {
            throw new TorchTypeException("only floating-point types are supported as the default type");
        }
        current = d;
    }
}
