package org.jtorch;

import java.io.Serial;

/** PyTorch's {@code RuntimeError}: an op was called with arguments it cannot handle. */
public class TorchException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public TorchException(String message) {
        super(message);
    }

    public TorchException(String message, Throwable cause) {
        super(message, cause);
    }
}
