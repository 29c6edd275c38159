package org.jtorch.nn;

/** The four cells of PyTorch's {@code RNNBase} modes, with their gate counts (rows of {@code weight_ih} per unit). */
enum RecurrentKind {
    LSTM(4, "LSTM"),
    GRU(3, "GRU"),
    RNN_TANH(1, "RNN"),
    RNN_RELU(1, "RNN");

    final int gates;
    /** The module name PyTorch's messages start with. */
    final String moduleName;

    RecurrentKind(int gates, String moduleName) {
        this.gates = gates;
        this.moduleName = moduleName;
    }
}
