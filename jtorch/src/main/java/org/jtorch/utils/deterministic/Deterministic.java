package org.jtorch.utils.deterministic;

import org.jtorch.dispatch.DeterministicAlgorithms;

/**
 * {@code torch.utils.deterministic}: its one setting, {@code fill_uninitialized_memory}, as a getter and a setter.
 *
 * <p>While {@code Torch.useDeterministicAlgorithms(true)} is on and this setting is true (the default),
 * {@code Torch.empty} and {@code Torch.emptyLike} fill their result with NaN (floating and complex dtypes; a complex
 * NaN has a zero imaginary part) or the dtype's largest value (integer dtypes; {@code true} for bool), as PyTorch does,
 * so that a program reading memory it never wrote gets the same, visibly wrong, values on every run.
 */
public final class Deterministic {
    private Deterministic() {}

    /** {@code torch.utils.deterministic.fill_uninitialized_memory} (default {@code true}). */
    public static boolean fillUninitializedMemory() {
        return DeterministicAlgorithms.fillUninitializedMemory();
    }

    /** Sets {@code torch.utils.deterministic.fill_uninitialized_memory}. */
    public static void setFillUninitializedMemory(boolean fill) {
        DeterministicAlgorithms.setFillUninitializedMemory(fill);
    }
}
