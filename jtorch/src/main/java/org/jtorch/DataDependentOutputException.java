package org.jtorch;

import java.io.Serial;

/**
 * PyTorch's {@code torch._subclasses.fake_tensor.DataDependentOutputException}: Java code asked a fake tensor for its
 * values ({@code item()}, {@code toDoubleArray()}...), which a fake tensor does not have. The message names the read;
 * {@link #op()} returns it. Under graph capture this is where a trace must stop (a graph break).
 */
public class DataDependentOutputException extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String op;

    /**
     * The refusal of a read of {@code op}'s data from a fake tensor ({@code op} names it, e.g. {@code item} or
     * {@code aten::nonzero}).
     */
    public DataDependentOutputException(String op) {
        super(op + "(): the result depends on the data of a fake tensor, which has none (FakeTensorMode propagates "
                + "shapes, strides, dtypes and devices only)");
        this.op = op;
    }

    /** The data read that was refused ({@code item}, {@code toDoubleArray}...). */
    public String op() {
        return op;
    }
}
