package org.jtorch;

import java.io.Serial;

/** PyTorch's {@code RuntimeError}: an op was called with arguments it cannot handle. */
public class TorchException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failure described by {@code message}, as PyTorch raises {@code RuntimeError(message)}. */
    public TorchException(String message) {
        super(message);
    }

    /** A failure described by {@code message}, caused by {@code cause} (Python's {@code raise ... from cause}). */
    public TorchException(String message, Throwable cause) {
        super(message, cause);
    }
}
