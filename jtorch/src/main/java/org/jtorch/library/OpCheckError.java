package org.jtorch.library;

import java.io.Serial;
import org.jtorch.TorchException;

/** A failed {@link Library#opcheck} check; the message names the check ({@code test_schema}, ...) and the op. */
public final class OpCheckError extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    OpCheckError(String check, CustomOp op, String detail, Throwable cause) {
        super("opcheck: " + check + " failed for " + op.qualifiedName() + ": " + detail, cause);
    }
}
