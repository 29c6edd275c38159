package org.jtorch.func;

import java.util.Set;

/**
 * Ops whose vmap is refused by design besides those tagged DYNAMIC_OUTPUT_SHAPE: they read data to size their output.
 */
final class VmapOpDbLists {
    private VmapOpDbLists() {}

    /** Composites that read a batched tensor's values (as PyTorch raises, "data-dependent control flow"). */
    static final Set<String> DATA_DEPENDENT = Set.of(
            "bincount",
            "one_hot",
            "repeat_interleave.Tensor",
            "repeat_interleave.self_Tensor",
            "count_nonzero.dim_IntList");
}
