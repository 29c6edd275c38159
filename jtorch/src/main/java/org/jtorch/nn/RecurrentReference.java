package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * One layer and direction of a recurrent network written step by step with differentiable tensor ops, the way PyTorch's
 * CPU {@code _rnn_impl} composes the cells: the definition {@link RecurrentLayer} fuses. It runs wherever the fused
 * node cannot: under an interpreter that must see every op (vmap, forward AD, tracing, fake tensors, DebugMode,
 * autocast) or a grad transform (which may differentiate twice), on the meta device, and in dtypes the gate kernels do
 * not take. Arguments and results are {@link RecurrentLayer#run}'s.
 */
final class RecurrentReference {
    private RecurrentReference() {}

    static Tensor[] run(
            RecurrentKind kind, long[] batchSizes, boolean reverse, Tensor x, Tensor h0, Tensor c0, Tensor[] w) {
        Tensor wIh = w[0], wHh = w[1], bIh = w[2], bHh = w[3], wHr = w[4];
        long h = wHh.size(0) / kind.gates;
        Tensor input = x.matmul(wIh.t());
        if (bIh != null) input = input.add(bIh);
        long[] off = new long[batchSizes.length];
        for (int t = 1; t < off.length; t++) off[t] = off[t - 1] + batchSizes[t - 1];
        Tensor[] outputs = new Tensor[batchSizes.length];
        Tensor hCur = h0, cCur = c0;
        for (int k = 0; k < batchSizes.length; k++) {
            int t = reverse ? batchSizes.length - 1 - k : k;
            long m = batchSizes[t];
            Tensor hp = hCur.narrow(0, 0, m), g = input.narrow(0, off[t], m);
            Tensor hidden = hp.matmul(wHh.t());
            if (bHh != null) hidden = hidden.add(bHh);
            Tensor hNew;
            switch (kind) {
                case LSTM -> {
                    Tensor gates = g.add(hidden);
                    Tensor c = gate(gates, 1, h)
                            .sigmoid()
                            .mul(cCur.narrow(0, 0, m))
                            .add(gate(gates, 0, h)
                                    .sigmoid()
                                    .mul(gate(gates, 2, h).tanh()));
                    hNew = gate(gates, 3, h).sigmoid().mul(c.tanh());
                    if (wHr != null) hNew = hNew.matmul(wHr.t());
                    cCur = merge(c, cCur);
                }
                case GRU -> {
                    Tensor r = gate(g, 0, h).add(gate(hidden, 0, h)).sigmoid();
                    Tensor z = gate(g, 1, h).add(gate(hidden, 1, h)).sigmoid();
                    Tensor n = gate(g, 2, h).add(r.mul(gate(hidden, 2, h))).tanh();
                    hNew = z.neg().add(1).mul(n).add(z.mul(hp));
                }
                case RNN_TANH -> hNew = g.add(hidden).tanh();
                case RNN_RELU -> hNew = g.add(hidden).relu();
                default -> throw new IllegalStateException(kind.name());
            }
            outputs[t] = hNew;
            hCur = merge(hNew, hCur);
        }
        Tensor y = Torch.cat(Arrays.asList(outputs));
        return cCur == null ? new Tensor[] {y, hCur} : new Tensor[] {y, hCur, cCur};
    }

    private static Tensor gate(Tensor gates, int index, long h) {
        return gates.narrow(1, index * h, h);
    }

    /** The state with its first rows replaced by a step's result (the rows of finished sequences keep theirs). */
    private static Tensor merge(Tensor stepRows, Tensor state) {
        long m = stepRows.size(0), b = state.size(0);
        if (m == b) return stepRows;
        List<Tensor> parts = new ArrayList<>(List.of(stepRows, state.narrow(0, m, b - m)));
        return Torch.cat(parts);
    }
}
