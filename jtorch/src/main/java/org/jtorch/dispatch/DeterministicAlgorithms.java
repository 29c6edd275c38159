package org.jtorch.dispatch;

import org.jtorch.TorchException;
import org.jtorch.Warnings;

/**
 * The process-wide state of {@code torch.use_deterministic_algorithms(mode, warn_only)} and of
 * {@code torch.utils.deterministic.fill_uninitialized_memory}, kept below the op layer so that op definitions, the
 * creation ops and the compiler can read it (the facade sets it).
 *
 * <p>JTorch's CPU kernels are deterministic whatever the flag says (reductions and scatters use a fixed order that does
 * not depend on the thread count); the flag decides what PyTorch's CPU build decides: whether an op without a
 * deterministic implementation raises or warns ({@link #alertNotDeterministic}), and whether {@code empty} outputs are
 * filled.
 */
public final class DeterministicAlgorithms {
    private static volatile boolean enabled;
    private static volatile boolean warnOnly;
    private static volatile boolean fillUninitializedMemory = true;

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

    /** {@code torch.utils.deterministic.fill_uninitialized_memory} (default true). */
    public static boolean fillUninitializedMemory() {
        return fillUninitializedMemory;
    }

    /** Sets {@code torch.utils.deterministic.fill_uninitialized_memory}. */
    public static void setFillUninitializedMemory(boolean fill) {
        fillUninitializedMemory = fill;
    }

    /** Whether uninitialized outputs ({@code empty}, {@code empty_like}) are filled: both flags are on. */
    public static boolean fillsUninitializedMemory() {
        return enabled && fillUninitializedMemory;
    }

    /**
     * ATen's {@code Context::alertNotDeterministic(caller)}: with deterministic algorithms on, raises PyTorch's error
     * naming {@code caller} (the kernel without a deterministic implementation), or, with {@code warn_only}, warns with
     * PyTorch's message; does nothing when the flag is off.
     */
    public static void alertNotDeterministic(String caller) {
        if (!enabled) return;
        if (warnOnly) {
            Warnings.warn(
                    Warnings.Category.USER_WARNING,
                    caller + " does not have a deterministic implementation, but you set "
                            + "'torch.use_deterministic_algorithms(True, warn_only=True)'. You can file an issue at "
                            + "https://github.com/pytorch/pytorch/issues to help us prioritize adding deterministic "
                            + "support for this operation.");
        } else {
            throw new TorchException(caller + " does not have a deterministic implementation, but you set "
                    + "'torch.use_deterministic_algorithms(True)'. You can turn off determinism just for this "
                    + "operation, or you can use the 'warn_only=True' option, if that's acceptable for your "
                    + "application. You can also file an issue at https://github.com/pytorch/pytorch/issues to help "
                    + "us prioritize adding deterministic support for this operation.");
        }
    }
}
