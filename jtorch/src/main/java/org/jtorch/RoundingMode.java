package org.jtorch;

/** {@code rounding_mode} of {@code torch.div}: none (true division), trunc, floor. */
public enum RoundingMode {
    /** {@code rounding_mode=None}: true division, the result is floating. */
    NONE,
    /** {@code rounding_mode="trunc"}: rounds the quotient toward zero (C's integer division). */
    TRUNC,
    /** {@code rounding_mode="floor"}: rounds the quotient toward negative infinity (Python's {@code //}). */
    FLOOR
}
