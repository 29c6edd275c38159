package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.nn.utils.rnn.PackedSequence;

/**
 * {@code torch.nn.RNN}: a multi-layer Elman network, {@code h' = tanh(W_ih x + b_ih + W_hh h + b_hh)} (or relu with
 * {@code nonlinearity("relu")}). See {@link RNNBase} for parameters and layout.
 */
public final class RNN extends RNNBase {
    /** {@code h_0}: (num_layers·directions, batch, hidden); unbatched: no batch dim. */
    public record State(Tensor h) {}

    /** {@code output, h_n}. */
    public record Output(Tensor output, Tensor hN) {}

    /** {@code output, h_n} for a packed input: the output is packed the same way. */
    public record PackedOutput(PackedSequence output, Tensor hN) {}

    /** The keyword arguments of {@code nn.RNN}; immutable, each setter returns a copy. */
    public static final class Options {
        final RecurrentSettings settings;

        private Options(RecurrentSettings settings) {
            this.settings = settings;
        }

        /** PyTorch's defaults: one layer, biases, time-major, no dropout, one direction. */
        public static Options defaults() {
            return new Options(RecurrentSettings.defaults());
        }

        /** {@code num_layers=}. */
        public Options numLayers(int v) {
            return new Options(settings.withNumLayers(v));
        }

        /** {@code bias=}. */
        public Options bias(boolean v) {
            return new Options(settings.withBias(v));
        }

        /** {@code batch_first=}: input and output as (batch, seq, feature). */
        public Options batchFirst(boolean v) {
            return new Options(settings.withBatchFirst(v));
        }

        /** {@code dropout=}: applied to the output of every layer but the last, in training mode. */
        public Options dropout(double v) {
            return new Options(settings.withDropout(v));
        }

        /** {@code bidirectional=}. */
        public Options bidirectional(boolean v) {
            return new Options(settings.withBidirectional(v));
        }

        /** {@code nonlinearity=}: "tanh" (default) or "relu". */
        public Options nonlinearity(String v) {
            if (!v.equals("tanh") && !v.equals("relu")) {
                throw new IllegalArgumentException("Unknown nonlinearity '" + v + "'. Select from 'tanh' or 'relu'.");
            }
            return new Options(settings.withNonlinearity(v));
        }

        /** {@code dtype=} of the parameters (null = the default dtype). */
        public Options dtype(DType v) {
            return new Options(settings.withDtype(v));
        }
    }

    /** {@code RNN(input_size, hidden_size)}. */
    public RNN(long inputSize, long hiddenSize) {
        this(inputSize, hiddenSize, Options.defaults());
    }

    /** {@code RNN(input_size, hidden_size, **options)}. */
    public RNN(long inputSize, long hiddenSize, Options options) {
        super(
                options.settings.nonlinearity().equals("relu") ? RecurrentKind.RNN_RELU : RecurrentKind.RNN_TANH,
                inputSize,
                hiddenSize,
                options.settings);
    }

    /** {@code nonlinearity}: "tanh" or "relu". */
    public String nonlinearity() {
        return kind() == RecurrentKind.RNN_RELU ? "relu" : "tanh";
    }

    /** The output sequence for a zero initial state. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, null).output();
    }

    /** {@code rnn(input, h_0)}; a null state means zeros. */
    public Output forward(Tensor input, State state) {
        Result r = forwardPadded(input, state == null ? null : state.h(), null);
        return new Output(r.output(), r.hN());
    }

    /** {@code rnn(packed, h_0)}; a null state means zeros. */
    public PackedOutput forward(PackedSequence input, State state) {
        Result r = forwardPacked(input, state == null ? null : state.h(), null);
        return new PackedOutput(
                new PackedSequence(r.output(), input.batchSizes(), input.sortedIndices(), input.unsortedIndices()),
                r.hN());
    }
}
