package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Torch;

/** The keyword arguments {@code RNNBase} takes, shared by the options of {@link RNN}, {@link LSTM} and {@link GRU}. */
record RecurrentSettings(
        int numLayers,
        boolean bias,
        boolean batchFirst,
        double dropout,
        boolean bidirectional,
        long projSize,
        String nonlinearity,
        DType dtype) {
    static RecurrentSettings defaults() {
        return new RecurrentSettings(1, true, false, 0.0, false, 0, "tanh", null);
    }

    RecurrentSettings withNumLayers(int v) {
        return new RecurrentSettings(v, bias, batchFirst, dropout, bidirectional, projSize, nonlinearity, dtype);
    }

    RecurrentSettings withBias(boolean v) {
        return new RecurrentSettings(numLayers, v, batchFirst, dropout, bidirectional, projSize, nonlinearity, dtype);
    }

    RecurrentSettings withBatchFirst(boolean v) {
        return new RecurrentSettings(numLayers, bias, v, dropout, bidirectional, projSize, nonlinearity, dtype);
    }

    RecurrentSettings withDropout(double v) {
        return new RecurrentSettings(numLayers, bias, batchFirst, v, bidirectional, projSize, nonlinearity, dtype);
    }

    RecurrentSettings withBidirectional(boolean v) {
        return new RecurrentSettings(numLayers, bias, batchFirst, dropout, v, projSize, nonlinearity, dtype);
    }

    RecurrentSettings withProjSize(long v) {
        return new RecurrentSettings(numLayers, bias, batchFirst, dropout, bidirectional, v, nonlinearity, dtype);
    }

    RecurrentSettings withNonlinearity(String v) {
        return new RecurrentSettings(numLayers, bias, batchFirst, dropout, bidirectional, projSize, v, dtype);
    }

    RecurrentSettings withDtype(DType v) {
        return new RecurrentSettings(numLayers, bias, batchFirst, dropout, bidirectional, projSize, nonlinearity, v);
    }

    /** The parameters' dtype: the one asked for, else the default dtype at construction. */
    DType resolvedDtype() {
        return dtype == null ? Torch.getDefaultDtype() : dtype;
    }
}
