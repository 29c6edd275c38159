package org.jtorch.nn.functional;

import java.util.List;
import org.jtorch.Tensor;

/**
 * The scales of one {@code F.scaled_mm} operand: one or more scale tensors with their recipes (several = multi-level
 * scaling, e.g. a per-block scale times a global tensor-wise scale; they multiply) and the scales' memory layout.
 */
public record ScaleSpec(List<Tensor> scales, List<ScalingType> recipes, SwizzleType swizzle) {

    /** Copies the lists; there must be as many recipes as scales, and at least one. */
    public ScaleSpec {
        scales = List.copyOf(scales);
        recipes = List.copyOf(recipes);
        if (swizzle == null) swizzle = SwizzleType.NO_SWIZZLE;
        if (scales.isEmpty() || scales.size() != recipes.size()) {
            throw new IllegalArgumentException(
                    "scaled_mm: expected as many scale recipes as scales (at least one), but got " + scales.size()
                            + " scales and " + recipes.size() + " recipes");
        }
    }

    /** One scale tensor with its recipe, not swizzled. */
    public static ScaleSpec of(Tensor scale, ScalingType recipe) {
        return new ScaleSpec(List.of(scale), List.of(recipe), null);
    }

    /** {@code TENSORWISE}: one scale for the whole operand. */
    public static ScaleSpec tensorwise(Tensor scale) {
        return of(scale, ScalingType.TENSORWISE);
    }

    /** {@code ROWWISE}: one scale per output row (mat_a) or column (mat_b). */
    public static ScaleSpec rowwise(Tensor scale) {
        return of(scale, ScalingType.ROWWISE);
    }

    /** Copy with {@code swizzle}. */
    public ScaleSpec withSwizzle(SwizzleType s) {
        return new ScaleSpec(scales, recipes, s);
    }
}
