package org.jtorch.autograd;

/**
 * {@code torch.utils.checkpoint.CheckpointPolicy}: what selective checkpointing does with one op's outputs. In eager
 * mode {@code MUST_*} and {@code PREFER_*} behave alike; only a compiler could override a preference.
 */
public enum CheckpointPolicy {
    /** {@code CheckpointPolicy.MUST_SAVE}: save the output, even where a compiler would recompute it. */
    MUST_SAVE,
    /** {@code CheckpointPolicy.PREFER_SAVE}: save the output; a compiler may still choose to recompute it. */
    PREFER_SAVE,
    /** {@code CheckpointPolicy.MUST_RECOMPUTE}: recompute the output in backward, even under a compiler. */
    MUST_RECOMPUTE,
    /** {@code CheckpointPolicy.PREFER_RECOMPUTE}: recompute the output in backward; a compiler may save it instead. */
    PREFER_RECOMPUTE;

    /** Whether the outputs are cached in forward and reused in recompute. */
    public boolean saves() {
        return this == MUST_SAVE || this == PREFER_SAVE;
    }
}
