package org.jtorch.internal;

import org.jtorch.DType;
import org.jtorch.TorchTypeException;

/**
 * The default floating dtype ({@code torch.get_default_dtype}), held apart from {@code Torch} so that the value types
 * that need it ({@code Scalar}) do not depend on the facade that reaches every layer.
 */
public final class DefaultDtype {
    private DefaultDtype() {}

    private static volatile DType current = DType.FLOAT32;

    public static DType get() {
        return current;
    }

    /** {@code torch.set_default_dtype}: only floating dtypes are allowed. */
    public static void set(DType d) {
        if (d != DType.FLOAT32 && d != DType.FLOAT64 && d != DType.FLOAT16 && d != DType.BFLOAT16) {
            throw new TorchTypeException("only floating-point types are supported as the default type");
        }
        current = d;
    }
}
