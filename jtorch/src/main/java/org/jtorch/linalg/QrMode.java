package org.jtorch.linalg;

/** {@code mode} of {@code torch.linalg.qr}: reduced (Q m x k), complete (Q m x m), or R only. */
public enum QrMode {
    REDUCED,
    COMPLETE,
    R;

    /** PyTorch's string for the mode. */
    public String pyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
