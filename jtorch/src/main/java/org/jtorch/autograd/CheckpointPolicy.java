package org.jtorch.autograd;

/**
 * {@code torch.utils.checkpoint.CheckpointPolicy}: what selective checkpointing does with one op's outputs. In eager
 * mode {@code MUST_*} and {@code PREFER_*} behave alike; only a compiler could override a preference.
 */
public enum CheckpointPolicy {
    MUST_SAVE,
    PREFER_SAVE,
    MUST_RECOMPUTE,
    PREFER_RECOMPUTE;

    /** Whether the outputs are cached in forward and reused in recompute. */
    public boolean saves() {
        return this == MUST_SAVE || this == PREFER_SAVE;
    }
}
