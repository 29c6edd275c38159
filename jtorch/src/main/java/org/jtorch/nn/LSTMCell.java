package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Tensor;

/** {@code torch.nn.LSTMCell}: one LSTM step; gates stacked i, f, g, o as in {@link LSTM}. */
public final class LSTMCell extends RNNCellBase {
    /** {@code LSTMCell(input_size, hidden_size)}. */
    public LSTMCell(long inputSize, long hiddenSize) {
        this(inputSize, hiddenSize, true, null);
    }

    /** {@code LSTMCell(input_size, hidden_size, bias, dtype=dtype)}; a null dtype means the default dtype. */
    public LSTMCell(long inputSize, long hiddenSize, boolean bias, DType dtype) {
        super(RecurrentKind.LSTM, inputSize, hiddenSize, bias, dtype);
    }

    /** {@code h'} from zero states. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, null).h();
    }

    /** {@code (h', c') = cell(input, (h, c))}; a null state means zeros. */
    public LSTM.State forward(Tensor input, LSTM.State state) {
        Tensor[] r = step(input, state == null ? null : state.h(), state == null ? null : state.c());
        return new LSTM.State(r[0], r[1]);
    }
}
