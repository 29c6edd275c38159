package org.jtorch;

import java.io.Serial;

/**
 * PyTorch's {@code torch._subclasses.fake_tensor.DynamicOutputShapeException}: an op whose output shape depends on its
 * input's values ({@code nonzero}, {@code masked_select}, {@code unique}: the ops tagged with a dynamic output shape)
 * was called on fake tensors, which carry no values to compute that shape from. {@link #op()} names the op.
 */
public class DynamicOutputShapeException extends TorchException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String op;

    /**
     * The refusal of {@code op}, whose output shape depends on its input's data, run on fake tensors ({@code op} names
     * it, e.g. {@code item} or {@code aten::nonzero}).
     */
    public DynamicOutputShapeException(String op) {
        super(op + ": the output shape depends on the input's values, which fake tensors do not have "
                + "(DynamicOutputShapeException)");
        this.op = op;
    }

    /** The op's qualified overload name, {@code aten::nonzero}. */
    public String op() {
        return op;
    }
}
