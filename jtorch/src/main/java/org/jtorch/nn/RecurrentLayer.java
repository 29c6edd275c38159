package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Function;
import org.jtorch.autograd.GradMode;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.RecurrentGateKernels;

/**
 * One layer and direction of a recurrent network over a whole sequence, as one autograd node with a hand-written
 * backward through time.
 *
 * <p>The sequence is in packed layout: {@code x} holds the rows of every time step one after the other, step {@code t}
 * having {@code batchSizes[t]} rows (the first rows of the batch; a padded batch is the case where every step has all
 * of them). Forward computes the input projection of all steps as one GEMM, then per step one GEMM of the previous
 * hidden state with {@code weight_hh} added into that step's slice and one fused pass over the gates
 * ({@link RecurrentGateKernels}). Backward runs the steps in the opposite order with the same structure (one fused pass
 * and one GEMM per step) and then forms the weight and input gradients of all steps as single GEMMs.
 *
 * <p>Arguments: {@code x (N, F), h0 (B, P), c0 (B, H) or null, weight_ih, weight_hh, bias_ih, bias_hh, weight_hr} (the
 * biases and the projection may be null). Outputs: {@code y (N, P), h_n (B, P)} and for LSTM {@code c_n (B, H)}. Double
 * backward is refused: the backward is not written with differentiable ops (a grad transform, which may differentiate
 * twice, gets {@link RecurrentReference} instead).
 */
final class RecurrentLayer extends Function.OnceDifferentiable {
    private final RecurrentKind kind;
    private final long[] batchSizes;
    private final boolean reverse;

    RecurrentLayer(RecurrentKind kind, long[] batchSizes, boolean reverse) {
        this.kind = kind;
        this.batchSizes = batchSizes;
        this.reverse = reverse;
    }

    /**
     * Runs the layer: {@code y, h_n} and for LSTM {@code c_n}. The fused node runs for plain eager calls on CPU float32
     * or float64 data; everything else takes {@link RecurrentReference}, the same computation op by op.
     */
    static Tensor[] run(
            RecurrentKind kind, long[] batchSizes, boolean reverse, Tensor x, Tensor h0, Tensor c0, Tensor[] weights) {
        if (!fusable(x, h0, c0, weights)) return RecurrentReference.run(kind, batchSizes, reverse, x, h0, c0, weights);
        return new RecurrentLayer(kind, batchSizes, reverse)
                .applyAll(x, h0, c0, weights[0], weights[1], weights[2], weights[3], weights[4]);
    }

    /**
     * Whether the fused node may run: no interpreter that must see the ops (its kernels are not ops), no grad transform
     * (which may differentiate the backward, which is not written with ops), and CPU data of one dtype the gate kernels
     * take.
     */
    private static boolean fusable(Tensor x, Tensor h0, Tensor c0, Tensor[] weights) {
        if (!DispatchState.isPlainEager() || DispatchState.countEntered(DispatchState.Kind.GRAD) > 0) return false;
        DType dtype = x.dtype();
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) return false;
        List<Tensor> all = new ArrayList<>(Arrays.asList(weights));
        all.add(x);
        all.add(h0);
        all.add(c0);
        for (Tensor t : all) {
            if (t != null
                    && (t.device() != Device.CPU
                            || t.dtype() != dtype
                            || !t.impl().hasData())) return false;
        }
        return true;
    }

    /** The first row of each step. */
    private long[] offsets() {
        long[] off = new long[batchSizes.length];
        for (int t = 1; t < off.length; t++) off[t] = off[t - 1] + batchSizes[t - 1];
        return off;
    }

    /** Step {@code k} of the forward order: the reverse direction reads the sequence from its end. */
    private int step(int k) {
        return reverse ? batchSizes.length - 1 - k : k;
    }

    private static Tensor empty(Tensor like, long rows, long cols) {
        return Torch.empty(new long[] {rows, cols}, like.dtype(), Device.CPU);
    }

    /** A step buffer from {@link RecurrentBuffers}: uninitialised, every element is written before it is read. */
    private static Tensor buffer(Tensor like, long rows, long cols) {
        return RecurrentBuffers.take(like.dtype(), rows, cols);
    }

    /** Whether a graph node keeps this call's saved tensors: some input needs a gradient. */
    private static boolean recordsGraph(Ctx ctx) {
        for (int i = 0; i < 8; i++) if (ctx.needsInputGrad(i)) return true;
        return false;
    }

    private static Tensor rows(Tensor t, long first, long n) {
        return t.narrow(0, first, n);
    }

    /** Rows per thread below which a batch is not split: the per-step products would become too thin. */
    private static final long MIN_ROWS_PER_THREAD = 8;

    /**
     * Runs {@code body} over batch rows {@code [lo, hi)} split across the intra-op threads. The rows' recurrences are
     * independent, so each thread runs the whole time loop for its rows: no step waits for another thread (a fork and
     * join per step cost most when another process holds a core), and the GEMMs and gate passes inside run on the
     * thread that owns the rows. Grad mode is off in every piece, as in the forward and backward that call this.
     */
    private static void byRows(long batch, Parallel.RangeBody body) {
        Runnable loop = () -> Parallel.forRange(batch, MIN_ROWS_PER_THREAD, (lo, hi) -> {
            try (GradMode.Scope _ = GradMode.set(false)) {
                body.run(lo, hi);
            }
        });
        // The threads are the row pieces: OpenBLAS stays single-threaded for the whole loop, not per product.
        if (OpenBlas.isAvailable()) OpenBlas.singleThreaded(loop);
        else loop.run();
    }

    /** Rows of step {@code t} among the batch rows {@code [lo, hi)}: those of sequences still running at {@code t}. */
    private int stepRows(int t, long lo, long hi) {
        return (int) Math.max(0, Math.min(hi, batchSizes[t]) - lo);
    }

    @Override
    protected Tensor[] forward(Ctx ctx, Object... args) {
        Tensor x = (Tensor) args[0], h0 = (Tensor) args[1], c0 = (Tensor) args[2];
        Tensor wIh = (Tensor) args[3], wHh = (Tensor) args[4], bIh = (Tensor) args[5], bHh = (Tensor) args[6];
        Tensor wHr = (Tensor) args[7];
        int h = Math.toIntExact(wHh.size(0) / kind.gates);
        long p = wHh.size(1), n = x.size(0), b = h0.size(0);
        boolean lstm = kind == RecurrentKind.LSTM, gru = kind == RecurrentKind.GRU;
        // LSTM and Elman cells only ever use b_ih + b_hh, so it is added once with the input projection; GRU's
        // b_hn sits inside r·(W_hn h + b_hn) and goes to the hidden side.
        Tensor inputBias = bIh == null ? null : gru ? bIh : bIh.add(bHh);
        long gateCols = (long) kind.gates * h;
        Tensor gates = buffer(x, n, gateCols);
        if (inputBias != null) gates.copy_(inputBias.expand(n, gateCols));
        new RecurrentWeight(wIh, true).multiply(gates, x, inputBias == null ? 0 : 1);
        Tensor hPrev = buffer(x, n, p), y = empty(x, n, p);
        Tensor hCur = empty(x, b, p).copy_(h0);
        Tensor cell = lstm ? buffer(x, n, h) : null, cPrev = lstm ? buffer(x, n, h) : null;
        Tensor cCur = lstm ? empty(x, b, h).copy_(c0) : null;
        Tensor out = lstm && wHr != null ? buffer(x, n, h) : y, hidden = gru ? buffer(x, n, 3L * h) : null;
        Tensor hiddenBias = gru && bHh != null ? bHh.contiguous() : null;
        RecurrentWeight hh = new RecurrentWeight(wHh, true), hr = wHr == null ? null : new RecurrentWeight(wHr, true);
        long[] off = offsets();
        byRows(b, (lo, hi) -> {
            for (int k = 0; k < batchSizes.length; k++) {
                int t = step(k), m = stepRows(t, lo, hi);
                if (m == 0) continue;
                long o = off[t] + lo;
                Tensor hp = rows(hPrev, o, m).copy_(rows(hCur, lo, m)), g = rows(gates, o, m), yt = rows(y, o, m);
                switch (kind) {
                    case LSTM -> {
                        Tensor cp = rows(cPrev, o, m).copy_(rows(cCur, lo, m)), ct = rows(cell, o, m);
                        Tensor rt = rows(out, o, m);
                        hh.multiply(g, hp, 1);
                        RecurrentGateKernels.lstmForward(g.impl(), cp.impl(), ct.impl(), rt.impl(), m, h);
                        if (hr != null) hr.multiply(yt, rt, 0);
                        rows(cCur, lo, m).copy_(ct);
                    }
                    case GRU -> {
                        Tensor gh = rows(hidden, o, m);
                        hh.multiply(gh, hp, 0);
                        RecurrentGateKernels.gruForward(
                                g.impl(),
                                gh.impl(),
                                hiddenBias == null ? null : hiddenBias.impl(),
                                hp.impl(),
                                yt.impl(),
                                m,
                                h);
                    }
                    case RNN_TANH, RNN_RELU -> {
                        hh.multiply(g, hp, 1);
                        RecurrentGateKernels.rnnForward(g.impl(), yt.impl(), m, h, kind == RecurrentKind.RNN_RELU);
                    }
                }
                rows(hCur, lo, m).copy_(yt);
            }
        });
        Tensor[] own = {gates, hPrev, cell, cPrev, hidden, out == y ? null : out};
        if (recordsGraph(ctx)) {
            ctx.saveForBackward(x, wIh, wHh, wHr, gates, hPrev, y, cell, cPrev, hidden, out);
            ctx.onRelease(() -> RecurrentBuffers.give(own));
        } else {
            RecurrentBuffers.give(own);
        }
        return lstm ? new Tensor[] {y, hCur, cCur} : new Tensor[] {y, hCur};
    }

    @Override
    protected Tensor[] backward(Ctx ctx, Tensor... grads) {
        Tensor[] s = ctx.savedTensors();
        Tensor x = s[0], wIh = s[1], wHh = s[2], wHr = s[3], gates = s[4], hPrev = s[5], y = s[6];
        Tensor cell = s[7], cPrev = s[8], hidden = s[9], out = s[10];
        int h = Math.toIntExact(wHh.size(0) / kind.gates);
        long p = wHh.size(1), n = x.size(0);
        boolean lstm = kind == RecurrentKind.LSTM, gru = kind == RecurrentKind.GRU;
        Tensor dY = grads[0],
                dH = buffer(x, n, p),
                dHCur = grads[1].contiguous().clone();
        long b = dHCur.size(0);
        Tensor dGates = buffer(x, n, (long) kind.gates * h);
        Tensor dCCur = lstm ? grads[2].contiguous().clone() : null;
        Tensor dOut = lstm && wHr != null ? buffer(x, b, h) : null, dHidden = gru ? buffer(x, n, 3L * h) : null;
        RecurrentWeight hh = new RecurrentWeight(wHh, false);
        RecurrentWeight hr = wHr == null ? null : new RecurrentWeight(wHr, false);
        long[] off = offsets();
        byRows(b, (lo, hi) -> {
            for (int k = batchSizes.length - 1; k >= 0; k--) {
                int t = step(k), m = stepRows(t, lo, hi);
                if (m == 0) continue;
                long o = off[t] + lo;
                Tensor dh = rows(dH, o, m).copy_(rows(dY, o, m)).add_(rows(dHCur, lo, m));
                Tensor dg = rows(dGates, o, m), g = rows(gates, o, m), dPrev = rows(dHCur, lo, m);
                switch (kind) {
                    case LSTM -> {
                        Tensor dr = hr == null ? dh : rows(dOut, lo, m);
                        if (hr != null) hr.multiply(dr, dh, 0);
                        RecurrentGateKernels.lstmBackward(
                                dr.impl(),
                                rows(dCCur, lo, m).impl(),
                                g.impl(),
                                rows(cell, o, m).impl(),
                                rows(cPrev, o, m).impl(),
                                dg.impl(),
                                m,
                                h);
                        hh.multiply(dPrev, dg, 0);
                    }
                    case GRU -> {
                        Tensor dgh = rows(dHidden, o, m);
                        RecurrentGateKernels.gruBackward(
                                dh.impl(),
                                g.impl(),
                                rows(hidden, o, m).impl(),
                                rows(hPrev, o, m).impl(),
                                dg.impl(),
                                dgh.impl(),
                                dPrev.impl(),
                                m,
                                h);
                        hh.multiply(dPrev, dgh, 1);
                    }
                    case RNN_TANH, RNN_RELU -> {
                        RecurrentGateKernels.rnnBackward(
                                dh.impl(), rows(y, o, m).impl(), dg.impl(), m, h, kind == RecurrentKind.RNN_RELU);
                        hh.multiply(dPrev, dg, 0);
                    }
                }
            }
        });
        Tensor dHiddenSide = gru ? dHidden : dGates;
        Tensor[] result = new Tensor[8];
        if (ctx.needsInputGrad(0)) result[0] = dGates.mm(wIh);
        if (ctx.needsInputGrad(1)) result[1] = dHCur;
        if (ctx.needsInputGrad(2)) result[2] = dCCur;
        if (ctx.needsInputGrad(3)) result[3] = dGates.t().mm(x);
        if (ctx.needsInputGrad(4)) result[4] = dHiddenSide.t().mm(hPrev);
        if (ctx.needsInputGrad(5) || (ctx.needsInputGrad(6) && !gru)) result[5] = dGates.sum(0);
        // LSTM and Elman cells add b_ih and b_hh to the same sum: one reduction serves both
        if (ctx.needsInputGrad(6)) result[6] = gru ? dHidden.sum(0) : result[5].clone();
        if (ctx.needsInputGrad(7)) result[7] = dH.t().mm(out);
        if (!ctx.needsInputGrad(5)) result[5] = null;
        RecurrentBuffers.give(dH, dGates, dOut, dHidden);
        return result;
    }
}
