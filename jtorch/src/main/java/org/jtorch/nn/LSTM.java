package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.nn.utils.rnn.PackedSequence;

/**
 * {@code torch.nn.LSTM}: a multi-layer long short-term memory network. Per step, with gates stacked i, f, g, o:
 * {@code c' = σ(f)·c + σ(i)·tanh(g)}, {@code h' = σ(o)·tanh(c')}, projected by {@code weight_hr} when {@code proj_size
 * > 0}. See {@link RNNBase} for parameters and layout.
 */
public final class LSTM extends RNNBase {
    /**
     * {@code (h_0, c_0)}: (num_layers·directions, batch, proj_size or hidden) and (…, hidden); unbatched: no batch dim.
     */
    public record State(Tensor h, Tensor c) {}

    /** {@code output, (h_n, c_n)}. */
    public record Output(Tensor output, Tensor hN, Tensor cN) {}

    /** {@code output, (h_n, c_n)} for a packed input: the output is packed the same way. */
    public record PackedOutput(PackedSequence output, Tensor hN, Tensor cN) {}

    /** The keyword arguments of {@code nn.LSTM}; immutable, each setter returns a copy. */
    public static final class Options {
        final RecurrentSettings settings;

        private Options(RecurrentSettings settings) {
            this.settings = settings;
        }

        /** PyTorch's defaults: one layer, biases, time-major, no dropout, one direction, no projection. */
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

        /** {@code proj_size=}: the size {@code h} is projected to (0 = none). */
        public Options projSize(long v) {
            return new Options(settings.withProjSize(v));
        }

        /** {@code dtype=} of the parameters (null = the default dtype). */
        public Options dtype(DType v) {
            return new Options(settings.withDtype(v));
        }
    }

    /** {@code LSTM(input_size, hidden_size)}. */
    public LSTM(long inputSize, long hiddenSize) {
        this(inputSize, hiddenSize, Options.defaults());
    }

    /** {@code LSTM(input_size, hidden_size, **options)}. */
    public LSTM(long inputSize, long hiddenSize, Options options) {
        super(RecurrentKind.LSTM, inputSize, hiddenSize, options.settings);
    }

    /** The output sequence for zero initial states. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, null).output();
    }

    /** {@code lstm(input, (h_0, c_0))}; a null state means zeros. */
    public Output forward(Tensor input, State state) {
        Result r = forwardPadded(input, state == null ? null : state.h(), state == null ? null : state.c());
        return new Output(r.output(), r.hN(), r.cN());
    }

    /** {@code lstm(packed, (h_0, c_0))}; a null state means zeros. */
    public PackedOutput forward(PackedSequence input, State state) {
        Result r = forwardPacked(input, state == null ? null : state.h(), state == null ? null : state.c());
        return new PackedOutput(
                new PackedSequence(r.output(), input.batchSizes(), input.sortedIndices(), input.unsortedIndices()),
                r.hN(),
                r.cN());
    }
}
