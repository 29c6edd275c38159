package org.jtorch.autograd;

import org.jtorch.TorchException;

/** {@code torch.utils.checkpoint.CheckpointError}: the recomputation did not reproduce the forward. */
public final class CheckpointError extends TorchException {
    public CheckpointError(String message) { super(message); }
}
