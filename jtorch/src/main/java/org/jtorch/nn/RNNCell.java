package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Tensor;

/** {@code torch.nn.RNNCell}: one Elman step, {@code h' = tanh(W_ih x + b_ih + W_hh h + b_hh)} (or relu). */
public final class RNNCell extends RNNCellBase {
    /** {@code RNNCell(input_size, hidden_size)}: tanh, with biases. */
    public RNNCell(long inputSize, long hiddenSize) {
        this(inputSize, hiddenSize, true, "tanh", null);
    }

    /**
     * {@code RNNCell(input_size, hidden_size, bias, nonlinearity, dtype=dtype)}; {@code nonlinearity} is "tanh" or
     * "relu", a null dtype means the default dtype.
     */
    public RNNCell(long inputSize, long hiddenSize, boolean bias, String nonlinearity, DType dtype) {
        super(kindOf(nonlinearity), inputSize, hiddenSize, bias, dtype);
    }

    private static RecurrentKind kindOf(String nonlinearity) {
        return switch (nonlinearity) {
            case "tanh" -> RecurrentKind.RNN_TANH;
            case "relu" -> RecurrentKind.RNN_RELU;
            default -> throw new IllegalArgumentException("Unknown nonlinearity: " + nonlinearity);
        };
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
