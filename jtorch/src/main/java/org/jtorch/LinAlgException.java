package org.jtorch;

import java.io.Serial;

/**
 * PyTorch's {@code torch.linalg.LinAlgError} (a {@code RuntimeError}): a factorisation failed on the values of its
 * input, e.g. a matrix that is singular or not positive-definite. The message names the batch element and LAPACK's
 * failure position, as PyTorch's does.
 */
public class LinAlgException extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failed decomposition or solve described by {@code message}. */
    public LinAlgException(String message) {
        super(message);
    }
}
