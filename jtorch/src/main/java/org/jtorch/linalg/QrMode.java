package org.jtorch.linalg;

/** {@code mode} of {@code torch.linalg.qr}: reduced (Q m x k), complete (Q m x m), or R only. */
public enum QrMode {
    /** {@code mode="reduced"}: Q is m × k and R is k × n, for k = min(m, n). */
    REDUCED,
    /** {@code mode="complete"}: Q is m × m and R is m × n. */
    COMPLETE,
    /** {@code mode="r"}: only R (k × n); Q is returned empty. */
    R;

    /** PyTorch's string for the mode. */
    public String pyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
