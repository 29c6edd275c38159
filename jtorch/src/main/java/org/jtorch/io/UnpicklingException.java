package org.jtorch.io;

import java.io.Serial;
import org.jtorch.TorchException;

/**
 * Python's {@code pickle.UnpicklingError}: the pickle in a checkpoint is malformed or names a global that the
 * weights-only loader refuses ("Weights only load failed. ...").
 */
public class UnpicklingException extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A pickle that cannot be read (or is refused by {@code weights_only}), described by {@code message}. */
    public UnpicklingException(String message) {
        super(message);
    }
}
