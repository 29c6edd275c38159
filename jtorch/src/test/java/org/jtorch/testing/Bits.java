package org.jtorch.testing;

import java.util.Arrays;
import org.jtorch.Tensor;

/** Exact comparisons: a tensor's values as the bits of their doubles, so that equal arrays mean bitwise equal. */
public final class Bits {
    private Bits() {}

    /** The raw bits of every element of {@code t} (widened to double, which is exact), in row-major order. */
    public static long[] bits(Tensor t) {
        return Arrays.stream(t.detach().toDoubleArray())
                .mapToLong(Double::doubleToRawLongBits)
                .toArray();
    }
}
