package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;
import org.jtorch.nn.utils.rnn.PackedSequence;

/**
 * {@code torch.nn.RNNBase}: the parameters and the layer loop shared by {@link RNN}, {@link LSTM} and {@link GRU}.
 *
 * <p>Parameters are PyTorch's, by name, shape and registration order, so state dicts port both ways: per layer
 * {@code l} and direction ({@code _reverse} for the second), {@code weight_ih_l{l}} (gates·hidden, input),
 * {@code weight_hh_l{l}} (gates·hidden, hidden or proj_size), {@code bias_ih_l{l}}, {@code bias_hh_l{l}} and, for an
 * LSTM with {@code proj_size}, {@code weight_hr_l{l}} (proj_size, hidden). Gates are stacked in PyTorch's order: i, f,
 * g, o for LSTM and r, z, n for GRU.
 *
 * <p>Each layer and direction runs as one fused node (one GEMM for the input projection of the whole sequence, then one
 * GEMM and one fused gate pass per step, and a backward through time of the same shape); dropout, when set, is applied
 * to the output of every layer but the last in training mode.
 */
public abstract class RNNBase extends Module {
    private final RecurrentKind kind;
    private final long inputSize;
    private final long hiddenSize;
    private final RecurrentSettings settings;

    @SuppressWarnings("this-escape") // registration only fills Module's own tables, as PyTorch's __init__ does
    RNNBase(RecurrentKind kind, long inputSize, long hiddenSize, RecurrentSettings s) {
        validate(inputSize, hiddenSize, s);
        this.kind = kind;
        this.inputSize = inputSize;
        this.hiddenSize = hiddenSize;
        this.settings = s;
        long gates = kind.gates * hiddenSize, real = realHiddenSize();
        DType dtype = s.resolvedDtype();
        for (int layer = 0; layer < s.numLayers(); layer++) {
            for (int direction = 0; direction < directions(); direction++) {
                long layerInput = layer == 0 ? inputSize : real * directions();
                String suffix = layer + (direction == 1 ? "_reverse" : "");
                registerParameter("weight_ih_l" + suffix, empty(dtype, gates, layerInput));
                registerParameter("weight_hh_l" + suffix, empty(dtype, gates, real));
                if (s.bias()) {
                    registerParameter("bias_ih_l" + suffix, empty(dtype, gates));
                    registerParameter("bias_hh_l" + suffix, empty(dtype, gates));
                }
                if (s.projSize() > 0) registerParameter("weight_hr_l" + suffix, empty(dtype, s.projSize(), hiddenSize));
            }
        }
        resetParameters();
    }

    private static void validate(long inputSize, long hiddenSize, RecurrentSettings s) {
        if (s.dropout() < 0 || s.dropout() > 1 || Double.isNaN(s.dropout())) {
            throw new IllegalArgumentException("dropout should be a number in range [0, 1] representing the "
                    + "probability of an element being zeroed");
        }
        if (s.dropout() > 0 && s.numLayers() == 1) {
            Warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                    + "expects num_layers greater than 1, but got dropout=" + PyRepr.of(s.dropout())
                    + " and num_layers=" + s.numLayers());
        }
        if (inputSize <= 0) throw new IllegalArgumentException("input_size must be greater than zero");
        if (hiddenSize <= 0) throw new IllegalArgumentException("hidden_size must be greater than zero");
        if (s.numLayers() <= 0) throw new IllegalArgumentException("num_layers must be greater than zero");
        if (s.projSize() < 0) {
            throw new IllegalArgumentException("proj_size should be a positive integer or zero to disable projections");
        }
        if (s.projSize() >= hiddenSize) {
            throw new IllegalArgumentException("proj_size has to be smaller than hidden_size");
        }
    }

    private static Tensor empty(DType dtype, long... shape) {
        return Torch.empty(shape, dtype, Device.CPU);
    }

    /**
     * {@code reset_parameters()}: every parameter from U(-1/√hidden_size, 1/√hidden_size), drawn from the default
     * generator in registration order, as PyTorch draws them.
     */
    public void resetParameters() {
        double stdv = 1.0 / Math.sqrt(hiddenSize);
        for (Tensor w : parameters()) Init.uniform_(w, -stdv, stdv);
    }

    /** {@code input_size}. */
    public long inputSize() {
        return inputSize;
    }

    /** {@code hidden_size}. */
    public long hiddenSize() {
        return hiddenSize;
    }

    /** {@code num_layers}. */
    public int numLayers() {
        return settings.numLayers();
    }

    /** {@code bias}. */
    public boolean bias() {
        return settings.bias();
    }

    /** {@code batch_first}. */
    public boolean batchFirst() {
        return settings.batchFirst();
    }

    /** {@code dropout}. */
    public double dropout() {
        return settings.dropout();
    }

    /** {@code bidirectional}. */
    public boolean bidirectional() {
        return settings.bidirectional();
    }

    /** {@code proj_size} (0 without projection; only an LSTM has one). */
    public long projSize() {
        return settings.projSize();
    }

    /** {@code all_weights}: per layer and direction, its parameters in registration order. */
    public List<List<Tensor>> allWeights() {
        List<List<Tensor>> all = new ArrayList<>();
        for (int layer = 0; layer < numLayers(); layer++) {
            for (int direction = 0; direction < directions(); direction++) {
                List<Tensor> group = new ArrayList<>();
                for (Tensor w : weights(layer, direction)) if (w != null) group.add(w);
                all.add(group);
            }
        }
        return all;
    }

    int directions() {
        return bidirectional() ? 2 : 1;
    }

    long realHiddenSize() {
        return projSize() > 0 ? projSize() : hiddenSize;
    }

    RecurrentKind kind() {
        return kind;
    }

    /** {@code weight_ih, weight_hh, bias_ih, bias_hh, weight_hr} of one layer and direction (absent ones null). */
    private Tensor[] weights(int layer, int direction) {
        String suffix = layer + (direction == 1 ? "_reverse" : "");
        return new Tensor[] {
            getParameter("weight_ih_l" + suffix),
            getParameter("weight_hh_l" + suffix),
            bias() ? getParameter("bias_ih_l" + suffix) : null,
            bias() ? getParameter("bias_hh_l" + suffix) : null,
            projSize() > 0 ? getParameter("weight_hr_l" + suffix) : null
        };
    }

    /** The outcome of a forward: the output (padded or the packed data) and the final states ({@code cN} for LSTM). */
    record Result(Tensor output, Tensor hN, Tensor cN) {}

    /**
     * The forward of a padded batch as PyTorch's {@code forward}: checks, unbatched input, {@code batch_first}, zero
     * initial states when {@code hx} is null. {@code cx} is used by LSTM only.
     */
    final Result forwardPadded(Tensor input, Tensor hx, Tensor cx) {
        int dim = input.dim();
        if (dim != 2 && dim != 3) {
            throw new IllegalArgumentException(kind.moduleName + ": Expected input to be 2D or 3D, got " + dim + "D "
                    + (kind == RecurrentKind.LSTM || kind == RecurrentKind.GRU ? "instead" : "tensor instead"));
        }
        boolean batched = dim == 3;
        int batchDim = batchFirst() ? 0 : 1;
        if (!batched) input = input.unsqueeze(batchDim);
        if (hx != null) {
            int want = batched ? 3 : 2;
            boolean bad = hx.dim() != want || (cx != null && cx.dim() != want);
            if (bad) throw new TorchException(hiddenDimMessage(batched, hx, cx));
            if (!batched) {
                hx = hx.unsqueeze(1);
                if (cx != null) cx = cx.unsqueeze(1);
            }
        }
        checkInput(input, 3);
        long batch = input.size(batchDim), steps = input.size(1 - batchDim);
        Tensor timeMajor = batchFirst() ? input.transpose(0, 1) : input;
        Tensor rows = timeMajor.reshape(steps * batch, inputSize);
        long[] batchSizes = new long[(int) steps];
        Arrays.fill(batchSizes, batch);
        Result r = run(rows, batchSizes, batch, hx, cx);
        Tensor output = r.output().view(steps, batch, r.output().size(1));
        if (batchFirst()) output = output.transpose(0, 1);
        if (!batched) {
            return new Result(output.squeeze(batchDim), r.hN().squeeze(1), r.cN() == null ? null : r.cN().squeeze(1));
        }
        return new Result(output, r.hN(), r.cN());
    }

    /** The forward of a packed batch: states are permuted to the sorted order and back, as PyTorch does. */
    final Result forwardPacked(PackedSequence input, Tensor hx, Tensor cx) {
        checkInput(input.data(), 2);
        long[] batchSizes = input.batchSizesArray();
        Tensor sorted = input.sortedIndices(), unsorted = input.unsortedIndices();
        if (hx != null && sorted != null) {
            hx = hx.indexSelect(1, sorted);
            if (cx != null) cx = cx.indexSelect(1, sorted);
        }
        Result r = run(input.data(), batchSizes, batchSizes.length == 0 ? 0 : batchSizes[0], hx, cx);
        if (unsorted == null) return r;
        return new Result(
                r.output(), r.hN().indexSelect(1, unsorted), r.cN() == null ? null : r.cN().indexSelect(1, unsorted));
    }

    private String hiddenDimMessage(boolean batched, Tensor hx, Tensor cx) {
        String want = batched ? "For batched 3-D input, " : "For unbatched 2-D input, ";
        if (kind == RecurrentKind.LSTM) {
            return want + "hx and cx should also be " + (batched ? "3-D" : "2-D") + " but got (" + hx.dim() + "-D, "
                    + cx.dim() + "-D) tensors";
        }
        return want + "hx should also be " + (batched ? "3-D" : "2-D") + " but got " + hx.dim() + "-D tensor";
    }

    /** {@code check_input}: dtype against the weights, rank, feature size. */
    private void checkInput(Tensor input, int expectedDim) {
        DType w = getParameter("weight_ih_l0").dtype();
        if (input.dtype() != w) {
            throw new IllegalArgumentException(
                    "RNN input dtype (torch." + input.dtype().pyName()
                            + ") does not match weight dtype (torch." + w.pyName() + "). Convert input: input.to(torch."
                            + w.pyName() + "), or convert model: model.to(torch."
                            + input.dtype().pyName() + ")");
        }
        if (input.dim() != expectedDim) {
            throw new TorchException("input must have " + expectedDim + " dimensions, got " + input.dim());
        }
        if (input.size(-1) != inputSize) {
            throw new TorchException(
                    "input.size(-1) must be equal to input_size. Expected " + inputSize + ", got " + input.size(-1));
        }
    }

    /** The layer loop over rows in packed layout, with zero states when none are given. */
    private Result run(Tensor x, long[] batchSizes, long batch, Tensor hx, Tensor cx) {
        long stacked = (long) numLayers() * directions();
        long[] hiddenShape = {stacked, batch, realHiddenSize()}, cellShape = {stacked, batch, hiddenSize};
        boolean lstm = kind == RecurrentKind.LSTM;
        if (hx == null) {
            hx = Torch.zeros(hiddenShape, x.dtype(), x.device());
            if (lstm) cx = Torch.zeros(cellShape, x.dtype(), x.device());
        }
        checkHidden(hx, hiddenShape, lstm ? "Expected hidden[0] size " : "Expected hidden size ");
        if (lstm) checkHidden(cx, cellShape, "Expected hidden[1] size ");
        Tensor layerInput = x;
        List<Tensor> hN = new ArrayList<>(), cN = new ArrayList<>();
        for (int layer = 0; layer < numLayers(); layer++) {
            List<Tensor> outputs = new ArrayList<>();
            for (int direction = 0; direction < directions(); direction++) {
                int index = layer * directions() + direction;
                Tensor[] r = RecurrentLayer.run(
                        kind,
                        batchSizes,
                        direction == 1,
                        layerInput,
                        hx.select(0, index),
                        lstm ? cx.select(0, index) : null,
                        weights(layer, direction));
                outputs.add(r[0]);
                hN.add(r[1]);
                if (lstm) cN.add(r[2]);
            }
            layerInput = outputs.size() == 1 ? outputs.get(0) : Torch.cat(outputs, 1);
            if (dropout() > 0 && isTraining() && layer < numLayers() - 1) {
                layerInput = F.dropout(layerInput, dropout(), true);
            }
        }
        return new Result(layerInput, Torch.stack(hN), lstm ? Torch.stack(cN) : null);
    }

    private static void checkHidden(Tensor h, long[] expected, String message) {
        if (!Arrays.equals(h.shape(), expected)) {
            throw new TorchException(message + PyRepr.tuple(expected) + ", got " + Arrays.toString(h.shape()));
        }
    }

    @Override
    protected String extraRepr() {
        StringBuilder s = new StringBuilder(inputSize + ", " + hiddenSize);
        if (projSize() != 0) s.append(", proj_size=").append(projSize());
        if (numLayers() != 1) s.append(", num_layers=").append(numLayers());
        if (!bias()) s.append(", bias=False");
        if (batchFirst()) s.append(", batch_first=True");
        if (dropout() != 0) s.append(", dropout=").append(PyRepr.of(dropout()));
        if (bidirectional()) s.append(", bidirectional=True");
        return s.toString();
    }
}
