package org.jtorch;

/**
 * {@code torch.cdist}'s {@code compute_mode}: whether the Euclidean distance (p = 2) is computed through a matrix
 * product, {@code sqrt(max(|a|² - 2 a·b + |b|², 0))}, which is fast for many points but can give small nonzero
 * distances (≈1e-4 in float32) between identical points.
 */
public enum CdistComputeMode {
    /** The matrix product when either point set has more than 25 points (PyTorch's default). */
    USE_MM_FOR_EUCLID_DIST_IF_NECESSARY("use_mm_for_euclid_dist_if_necessary"),
    /** Always the matrix product (for p = 2). */
    USE_MM_FOR_EUCLID_DIST("use_mm_for_euclid_dist"),
    /** Never the matrix product. */
    DONOT_USE_MM_FOR_EUCLID_DIST("donot_use_mm_for_euclid_dist");

    private final String pyName;

    CdistComputeMode(String pyName) {
        this.pyName = pyName;
    }

    /** PyTorch's string for this mode. */
    public String pyName() {
        return pyName;
    }

    /** Parses PyTorch's string; anything else is the ValueError {@code torch.cdist} raises. */
    public static CdistComputeMode of(String name) {
        for (CdistComputeMode m : values()) if (m.pyName.equals(name)) return m;
        throw new IllegalArgumentException(name + " is not a valid value for compute_mode");
    }
}
