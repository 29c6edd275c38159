package org.jtorch.export;

import org.jtorch.TorchException;

/**
 * The range of values a symbolic size may take ({@code torch.utils._sympy.value_ranges.ValueRanges}): from {@code min}
 * to {@code max} inclusive, {@code max} {@link Long#MAX_VALUE} for no upper bound ({@code int_oo}).
 *
 * @param min the smallest value
 * @param max the largest value, {@link Long#MAX_VALUE} when unbounded
 */
public record ValueRange(long min, long max) {
    /** Checks {@code min ≤ max}. */
    public ValueRange {
        if (min > max) throw new TorchException("ValueRange: min " + min + " is above max " + max);
    }

    /** Whether {@code value} lies in the range. */
    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** As PyTorch prints it: {@code VR[1, 1024]}, {@code VR[2, int_oo]}. */
    @Override
    public String toString() {
        return "VR[" + min + ", " + (max == Long.MAX_VALUE ? "int_oo" : String.valueOf(max)) + "]";
    }
}
