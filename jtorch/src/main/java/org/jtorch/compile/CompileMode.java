package org.jtorch.compile;

/**
 * {@code torch.compile(mode=...)}: how hard the backend works for speed. On the CPU there are no CUDA graphs, so the
 * two "reduce overhead" modes and the two "max autotune" modes differ only by name, as they do in PyTorch's CPU builds.
 */
public enum CompileMode {
    /** {@code "default"}: a balance of compile time and speed. */
    DEFAULT,
    /** {@code "reduce-overhead"}: cut per-call overhead (CUDA graphs in PyTorch; none on the CPU). */
    REDUCE_OVERHEAD,
    /** {@code "max-autotune"}: spend compile time choosing kernel configurations. */
    MAX_AUTOTUNE,
    /** {@code "max-autotune-no-cudagraphs"}: {@link #MAX_AUTOTUNE} without CUDA graphs. */
    MAX_AUTOTUNE_NO_CUDAGRAPHS;

    /** The name PyTorch spells: {@code "reduce-overhead"}. */
    public String pyName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
