package org.jtorch;

import java.io.Serial;

/** PyTorch's {@code TypeError} (e.g. ordering complex numbers). */
public class TorchTypeException extends IllegalArgumentException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** An argument of the wrong type or dtype, described by {@code message} (Python's {@code TypeError}). */
    public TorchTypeException(String message) {
        super(message);
    }
}
