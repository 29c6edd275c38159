package org.jtorch;

import java.io.Serial;

/**
 * A warning turned into an error by {@link Warnings.Action#ERROR} (Python's {@code -W error}). It is not a
 * {@link TorchException}: as in Python, where a warning raised as an exception is not a RuntimeError.
 */
public class TorchWarningException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Warnings.Category category;

    /** A warning of {@code category} turned into an error by the {@link Warnings.Action#ERROR} filter. */
    public TorchWarningException(Warnings.Category category, String message) {
        super(message);
        this.category = category;
    }

    /** The category of the warning that was raised. */
    public Warnings.Category category() {
        return category;
    }
}
