package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.nn.utils.rnn.PackedSequence;

/**
 * {@code torch.nn.GRU}: a multi-layer gated recurrent unit network. Per step, with gates stacked r, z, n: {@code n =
 * tanh(W_in x + b_in + r·(W_hn h + b_hn))}, {@code h' = (1 - z)·n + z·h}. See {@link RNNBase} for parameters and
 * layout.
 */
public final class GRU extends RNNBase {
    /** {@code h_0}: (num_layers·directions, batch, hidden); unbatched: no batch dim. */
    public record State(Tensor h) {}

    /** {@code output, h_n}. */
    public record Output(Tensor output, Tensor hN) {}

    /** {@code output, h_n} for a packed input: the output is packed the same way. */
    public record PackedOutput(PackedSequence output, Tensor hN) {}

    /** The keyword arguments of {@code nn.GRU}; immutable, each setter returns a copy. */
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

        /** {@code dtype=} of the parameters (null = the default dtype). */
        public Options dtype(DType v) {
            return new Options(settings.withDtype(v));
        }
    }

    /** {@code GRU(input_size, hidden_size)}. */
    public GRU(long inputSize, long hiddenSize) {
        this(inputSize, hiddenSize, Options.defaults());
    }

    /** {@code GRU(input_size, hidden_size, **options)}. */
    public GRU(long inputSize, long hiddenSize, Options options) {
        super(RecurrentKind.GRU, inputSize, hiddenSize, options.settings);
    }

    /** The output sequence for a zero initial state. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, null).output();
    }

    /** {@code gru(input, h_0)}; a null state means zeros. */
    public Output forward(Tensor input, State state) {
        Result r = forwardPadded(input, state == null ? null : state.h(), null);
        return new Output(r.output(), r.hN());
    }

    /** {@code gru(packed, h_0)}; a null state means zeros. */
    public PackedOutput forward(PackedSequence input, State state) {
        Result r = forwardPacked(input, state == null ? null : state.h(), null);
        return new PackedOutput(
                new PackedSequence(r.output(), input.batchSizes(), input.sortedIndices(), input.unsortedIndices()),
                r.hN());
    }
}
