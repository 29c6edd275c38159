package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Tensor;

/** {@code torch.nn.GRUCell}: one GRU step; gates stacked r, z, n as in {@link GRU}. */
public final class GRUCell extends RNNCellBase {
    /** {@code GRUCell(input_size, hidden_size)}. */
    public GRUCell(long inputSize, long hiddenSize) {
        this(inputSize, hiddenSize, true, null);
    }

    /** {@code GRUCell(input_size, hidden_size, bias, dtype=dtype)}; a null dtype means the default dtype. */
    public GRUCell(long inputSize, long hiddenSize, boolean bias, DType dtype) {
        super(RecurrentKind.GRU, inputSize, hiddenSize, bias, dtype);
    }

    /** {@code h'} from a zero state. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, null);
    }

    /** {@code h' = cell(input, h)}; a null state means zeros. */
    public Tensor forward(Tensor input, Tensor hx) {
        return step(input, hx, null)[0];
    }
}
