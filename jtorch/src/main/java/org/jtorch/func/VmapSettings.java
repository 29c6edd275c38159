package org.jtorch.func;

/** Process-wide vmap switches. */
public final class VmapSettings {
    private VmapSettings() {}

    private static volatile boolean fallbackWarning = true;

    /** {@code torch._C._functorch._set_vmap_fallback_warning_enabled}: whether the slow fallback warns. */
    public static void setFallbackWarningEnabled(boolean on) {
        fallbackWarning = on;
    }

    /** Whether the slow fallback warns (once per op). */
    public static boolean fallbackWarningEnabled() {
        return fallbackWarning;
    }
}
