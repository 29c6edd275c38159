package org.jtorch.storage;

import org.jtorch.TorchException;
import org.jtorch.Warnings;

/**
 * ATen's internal-overlap rules for in-place writes: a tensor whose elements share memory locations (a stride-0 dim of
 * size above 1, as {@code expand} makes) cannot be written element by element.
 */
public final class InternalOverlap {
    private InternalOverlap() {}

    /** Whether several elements of {@code t} share one memory location. */
    public static boolean has(TensorImpl t) {
        long[] shape = t.shapeRef(), strides = t.strideRef();
        for (int i = 0; i < shape.length; i++) if (shape[i] > 1 && strides[i] == 0) return true;
        return false;
    }

    /** ATen's {@code assert_no_internal_overlap}, for ops that refuse to write an expanded tensor in place. */
    public static void check(TensorImpl t) {
        if (has(t)) {
            throw new TorchException(
                    "unsupported operation: more than one element of the written-to tensor refers to a single "
                            + "memory location. Please clone() the tensor before performing the operation.");
        }
    }

    /** PyTorch's deprecation warning for in-place indexing ops that still accept an expanded tensor. */
    public static void warn(String op, String example, TensorImpl t) {
        if (has(t)) {
            Warnings.warn(
                    Warnings.Category.USER_WARNING,
                    "Use of " + op + " on expanded tensors is deprecated. Please clone() the "
                            + "tensor before performing this operation. This also applies to advanced indexing e.g. "
                            + example);
        }
    }
}
