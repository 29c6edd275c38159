package org.jtorch.compile;

/**
 * {@code torch.compile(mode=...)}: how hard the backend works for speed. On the CPU there are no CUDA graphs; the two
 * "max autotune" modes differ only by name, as they do in PyTorch's CPU builds.
 */
public enum CompileMode {
    /** {@code "default"}: a balance of compile time and speed. */
    DEFAULT,
    /**
     * {@code "reduce-overhead"}: cut per-call overhead, the CPU analogue of CUDA graphs. Each compiled graph keeps the
     * storage of its outputs as well as of its intermediates between calls, so a steady-state call of the
     * {@code "inductor"} backend's kernels allocates no tensor storage (extern calls such as matrix products allocate
     * their results as eager ops do; the backward graph's gradients are new on each call, since autograd may keep one
     * as a leaf's {@code .grad}). As with CUDA graphs, a call's outputs are overwritten by the next call: reading a
     * tensor returned by an earlier call (or a view of it) afterwards throws a {@code TorchException} saying so;
     * {@code clone()} an output to keep it. A call that takes an earlier call's output as input writes new storage.
     */
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
