package org.jtorch.nn;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.init.Init;

/**
 * {@code torch.nn.RNNCellBase}: the parameters of one recurrent step, {@code weight_ih} (gates·hidden, input),
 * {@code weight_hh} (gates·hidden, hidden), {@code bias_ih}, {@code bias_hh}, named and ordered as PyTorch's. A step
 * runs as the fused one-step case of the recurrent layers' kernel.
 */
public abstract class RNNCellBase extends Module {
    private final RecurrentKind kind;
    private final long inputSize;
    private final long hiddenSize;
    private final boolean bias;

    @SuppressWarnings("this-escape") // registration only fills Module's own tables, as PyTorch's __init__ does
    RNNCellBase(RecurrentKind kind, long inputSize, long hiddenSize, boolean bias, DType dtype) {
        this.kind = kind;
        this.inputSize = inputSize;
        this.hiddenSize = hiddenSize;
        this.bias = bias;
        DType d = dtype == null ? Torch.getDefaultDtype() : dtype;
        long gates = kind.gates * hiddenSize;
        registerParameter("weight_ih", Torch.empty(new long[] {gates, inputSize}, d, Device.CPU));
        registerParameter("weight_hh", Torch.empty(new long[] {gates, hiddenSize}, d, Device.CPU));
        registerParameter("bias_ih", bias ? Torch.empty(new long[] {gates}, d, Device.CPU) : null);
        registerParameter("bias_hh", bias ? Torch.empty(new long[] {gates}, d, Device.CPU) : null);
        resetParameters();
    }

    /** {@code reset_parameters()}: every parameter from U(-1/√hidden_size, 1/√hidden_size), in registration order. */
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

    /** {@code bias}. */
    public boolean bias() {
        return bias;
    }

    /**
     * One step: {@code h'} (and for LSTM {@code c'}) from {@code input} (batch, input) or (input) and the state (null =
     * zeros), with PyTorch's checks.
     */
    final Tensor[] step(Tensor input, Tensor hx, Tensor cx) {
        String name = getClass().getSimpleName();
        if (input.dim() != 1 && input.dim() != 2) {
            throw new IllegalArgumentException(
                    name + ": Expected input to be 1D or 2D, got " + input.dim() + "D instead");
        }
        checkStateRank(name, hx, kind == RecurrentKind.LSTM ? "hx[0]" : "hidden");
        checkStateRank(name, cx, "hx[1]");
        boolean batched = input.dim() == 2;
        if (!batched) {
            input = input.unsqueeze(0);
            if (hx != null) hx = hx.unsqueeze(0);
            if (cx != null) cx = cx.unsqueeze(0);
        }
        long batch = input.size(0);
        if (hx == null) hx = Torch.zeros(new long[] {batch, hiddenSize}, input.dtype(), input.device());
        if (kind == RecurrentKind.LSTM && cx == null)
            cx = Torch.zeros(new long[] {batch, hiddenSize}, input.dtype(), input.device());
        checkInputs(input, hx, "hx");
        if (cx != null) checkInputs(input, cx, "cx");
        Tensor[] weights = {
            getParameter("weight_ih"), getParameter("weight_hh"), getParameter("bias_ih"), getParameter("bias_hh"), null
        };
        Tensor[] r = RecurrentLayer.run(kind, new long[] {batch}, false, input, hx, cx, weights);
        Tensor h = r[1], c = kind == RecurrentKind.LSTM ? r[2] : null;
        if (!batched) {
            h = h.squeeze(0);
            if (c != null) c = c.squeeze(0);
        }
        return new Tensor[] {h, c};
    }

    private static void checkStateRank(String name, Tensor state, String what) {
        if (state != null && state.dim() != 1 && state.dim() != 2) {
            throw new IllegalArgumentException(
                    name + ": Expected " + what + " to be 1D or 2D, got " + state.dim() + "D instead");
        }
    }

    /** ATen's {@code check_rnn_cell_forward_input} and {@code check_rnn_cell_forward_hidden}. */
    private void checkInputs(Tensor input, Tensor state, String what) {
        if (input.size(1) != inputSize) {
            throw new TorchException(
                    "input has inconsistent input_size: got " + input.size(1) + " expected " + inputSize);
        }
        if (input.size(0) != state.size(0)) {
            throw new TorchException(
                    "Input batch size " + input.size(0) + " doesn't match hidden0 batch size " + state.size(0));
        }
        if (state.size(1) != hiddenSize) {
            throw new TorchException(
                    "hidden0 has inconsistent hidden_size: got " + state.size(1) + ", expected " + hiddenSize);
        }
        DType w = getParameter("weight_ih").dtype();
        if (input.dtype() != w || state.dtype() != w) {
            throw new TorchException("expected " + what + " and input of dtype " + w.pyName() + ", got "
                    + Arrays.asList(input.dtype().pyName(), state.dtype().pyName()));
        }
    }

    @Override
    protected String extraRepr() {
        String s = inputSize + ", " + hiddenSize;
        if (!bias) s += ", bias=False";
        if (kind == RecurrentKind.RNN_RELU) s += ", nonlinearity=relu";
        return s;
    }
}
