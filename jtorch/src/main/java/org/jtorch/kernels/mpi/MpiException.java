package org.jtorch.kernels.mpi;

import java.io.Serial;
import org.jtorch.TorchException;

/** An MPI call returned an error code (communicators are set to {@code MPI_ERRORS_RETURN}, so errors come back). */
public final class MpiException extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int code;
    private final String errorString;

    MpiException(String function, int code, String errorString) {
        super(function + " failed: " + errorString + " (MPI error " + code + ")");
        this.code = code;
        this.errorString = errorString;
    }

    /** The MPI error code. */
    public int code() {
        return code;
    }

    /** MPI's own description of the error ({@code MPI_Error_string}). */
    public String errorString() {
        return errorString;
    }
}
