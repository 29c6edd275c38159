package org.jtorch.compile;

import java.io.Serial;
import org.jtorch.TorchException;

/**
 * {@code torch._dynamo.exc.Unsupported}: the function compiled with {@code fullGraph(true)} did something that ends a
 * graph (read a tensor's data into Java, called an op whose output shape depends on data). The message names the
 * operation and the Java call site; {@link #operation()} and {@link #callSite()} return them.
 */
public class Unsupported extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final String callSite;

    /**
     * A graph break at {@code operation} (e.g. {@code item}), called at {@code callSite}
     * ({@code Class.method(File:line)}).
     */
    public Unsupported(String operation, String callSite, Throwable cause) {
        super(
                "Unsupported: graph break on " + operation + " at " + callSite + " with fullGraph=true: "
                        + cause.getMessage(),
                cause);
        this.operation = operation;
        this.callSite = callSite;
    }

    /** The operation that ended the graph ({@code item}, {@code toDoubleArray}, {@code aten::nonzero}...). */
    public String operation() {
        return operation;
    }

    /** Where the compiled function called it: {@code Class.method(File.java:line)}. */
    public String callSite() {
        return callSite;
    }
}
