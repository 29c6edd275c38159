package org.jtorch.autograd;

import java.io.Serial;
import org.jtorch.TorchException;

/** {@code torch.utils.checkpoint.CheckpointError}: the recomputation did not reproduce the forward. */
public final class CheckpointError extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A recomputation that differs from the forward, described by {@code message}. */
    public CheckpointError(String message) {
        super(message);
    }
}
