package org.jtorch.nn.functional;

/**
 * {@code torch.nn.functional.ScalingType}: how a scale tensor of {@code F.scaled_mm} maps onto its fp8 operand (for
 * {@code mat_a} (M, K) and {@code mat_b} (K, N)).
 */
public enum ScalingType {
    /** One scale for the whole operand: one element. */
    TENSORWISE(0),
    /** One scale per output row of {@code mat_a} ((M, 1)) or per output column of {@code mat_b} ((1, N)). */
    ROWWISE(0),
    /** One scale per 16 consecutive elements along K: {@code (M, ⌈K/16⌉)} / {@code (⌈K/16⌉, N)}. */
    BLOCKWISE_1X16(16),
    /** One scale per 32 consecutive elements along K (MXFP8 with e8m0 scales). */
    BLOCKWISE_1X32(32),
    /** One scale per 128 consecutive elements along K. */
    BLOCKWISE_1X128(128),
    /**
     * One scale per 128 × 128 tile of the operand as stored: {@code (⌈M/128⌉, ⌈K/128⌉)} / {@code (⌈K/128⌉, ⌈N/128⌉)}.
     */
    BLOCKWISE_128X128(128);

    /** Elements per block along K (0 for the recipes that do not block K). */
    final int block;

    ScalingType(int block) {
        this.block = block;
    }
}
