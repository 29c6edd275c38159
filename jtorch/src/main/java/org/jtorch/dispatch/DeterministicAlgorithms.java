package org.jtorch.dispatch;

/**
 * The process-wide flag of {@code torch.use_deterministic_algorithms(mode, warn_only)}, kept below the op layer so that
 * op definitions and the compiler can read it (the facade sets it).
 */
public final class DeterministicAlgorithms {
    private static volatile boolean enabled;
    private static volatile boolean warnOnly;

    private DeterministicAlgorithms() {}

    /** Sets the flag and whether a nondeterministic op only warns instead of throwing. */
    public static void set(boolean mode, boolean warnOnlyMode) {
        enabled = mode;
        warnOnly = warnOnlyMode;
    }

    /** Whether ops must use deterministic algorithms. */
    public static boolean enabled() {
        return enabled;
    }

    /** Whether a nondeterministic op under the flag only warns. */
    public static boolean warnOnly() {
        return warnOnly;
    }
}
