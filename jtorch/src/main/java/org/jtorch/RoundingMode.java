package org.jtorch;

/** {@code rounding_mode} of {@code torch.div}: none (true division), trunc, floor. */
public enum RoundingMode {
    NONE,
    TRUNC,
    FLOOR
}
