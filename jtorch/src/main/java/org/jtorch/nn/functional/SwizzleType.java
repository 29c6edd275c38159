package org.jtorch.nn.functional;

/**
 * {@code torch.nn.functional.SwizzleType}: the memory layout of a block-scale tensor. {@link #SWIZZLE_32_4_4} is
 * NVIDIA's tiled layout (128 × 4 tiles of the scale matrix stored as 32 × 16 blocks); on the CPU it is only undone.
 */
public enum SwizzleType {
    /** {@code SwizzleType.NO_SWIZZLE}: the scales are stored row-major, one per block. */
    NO_SWIZZLE,
    /** {@code SwizzleType.SWIZZLE_32_4_4}: NVIDIA's tiled block-scale layout. */
    SWIZZLE_32_4_4
}
