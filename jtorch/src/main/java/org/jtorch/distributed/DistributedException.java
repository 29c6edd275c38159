package org.jtorch.distributed;

import java.io.Serial;
import org.jtorch.TorchException;

/**
 * A collective or point-to-point call failed (PyTorch's {@code DistBackendError}): MPI returned an error, a peer did
 * not take part within the process group's timeout, or the call's arguments were wrong. The message names the call,
 * this process's rank and, for MPI errors, MPI's own error string.
 */
public class DistributedException extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}. */
    public DistributedException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause}. */
    public DistributedException(String message, Throwable cause) {
        super(message, cause);
    }
}
