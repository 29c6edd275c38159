package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.debug.DebugMode;
import org.jtorch.func.Func;
import org.jtorch.io.Serialization;
import org.jtorch.nn.utils.rnn.PackedSequence;
import org.jtorch.nn.utils.rnn.Rnn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recurrent layers beyond the golden values: the fused backward against finite differences in float64 (inputs,
 * initial states and every parameter at once), dropout between layers only and only in training, the refused double
 * backward, and a state dict surviving save and load.
 */
class RecurrentTest {
    /**
     * Gradcheck of {@code run} w.r.t. the module's parameters and {@code extra} tensors at once: the parameters are
     * substituted, so the check sees one function of all its inputs.
     */
    private static void gradcheckAll(Module m, List<Tensor> extra, Function<List<Tensor>, Tensor> run) {
        m.toDouble();
        Map<String, Tensor> named = m.namedParameters();
        List<String> names = new ArrayList<>(named.keySet());
        List<Tensor> inputs = new ArrayList<>(extra);
        for (String n : names) inputs.add(named.get(n).detach().clone().requiresGrad(true));
        Function<List<Tensor>, Tensor> fn = xs -> {
            Map<String, Tensor> params = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) params.put(names.get(i), xs.get(extra.size() + i));
            try (AutoCloseable _ = m.substituteTensors(params)) {
                return run.apply(xs.subList(0, extra.size()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        assertTrue(GradCheck.check(fn, inputs, GradCheck.Options.defaults()));
    }

    private static Tensor leaf(long... shape) {
        return Torch.randn(shape).to(DType.FLOAT64).requiresGrad(true);
    }

    /** Output, h_n and c_n as one vector, so every output's Jacobian is checked. */
    private static Tensor flat(Tensor... parts) {
        List<Tensor> flat = new ArrayList<>();
        for (Tensor p : parts) flat.add(p.reshape(-1));
        return Torch.cat(flat);
    }

    @Test
    void lstmWithProjectionTwoLayersBidirectionalGradcheck() {
        Torch.manualSeed(0);
        LSTM lstm = new LSTM(
                2, 3, LSTM.Options.defaults().numLayers(2).bidirectional(true).projSize(2));
        gradcheckAll(lstm, List.of(leaf(3, 2, 2), leaf(4, 2, 2), leaf(4, 2, 3)), xs -> {
            var r = lstm.forward(xs.get(0), new LSTM.State(xs.get(1), xs.get(2)));
            return flat(r.output(), r.hN(), r.cN());
        });
    }

    @Test
    void gruAndReluRnnGradcheck() {
        Torch.manualSeed(1);
        GRU gru = new GRU(2, 3, GRU.Options.defaults().bidirectional(true).batchFirst(true));
        gradcheckAll(gru, List.of(leaf(2, 3, 2), leaf(2, 2, 3)), xs -> {
            var r = gru.forward(xs.get(0), new GRU.State(xs.get(1)));
            return flat(r.output(), r.hN());
        });
        RNN rnn = new RNN(2, 3, RNN.Options.defaults().numLayers(2).nonlinearity("relu"));
        gradcheckAll(rnn, List.of(leaf(3, 2, 2), leaf(2, 2, 3)), xs -> {
            var r = rnn.forward(xs.get(0), new RNN.State(xs.get(1)));
            return flat(r.output(), r.hN());
        });
    }

    @Test
    void packedUnsortedLstmGradcheck() {
        Torch.manualSeed(2);
        LSTM lstm = new LSTM(2, 3, LSTM.Options.defaults().bidirectional(true));
        gradcheckAll(lstm, List.of(leaf(4, 3, 2), leaf(2, 3, 3), leaf(2, 3, 3)), xs -> {
            PackedSequence packed = Rnn.packPaddedSequence(xs.get(0), Torch.tensor(new long[] {2, 4, 1}), false, false);
            var r = lstm.forward(packed, new LSTM.State(xs.get(1), xs.get(2)));
            return flat(Rnn.padPackedSequence(r.output()).output(), r.hN(), r.cN());
        });
    }

    @Test
    void cellsGradcheck() {
        Torch.manualSeed(3);
        LSTMCell lstm = new LSTMCell(2, 3);
        gradcheckAll(lstm, List.of(leaf(2, 2), leaf(2, 3), leaf(2, 3)), xs -> {
            LSTM.State s = lstm.forward(xs.get(0), new LSTM.State(xs.get(1), xs.get(2)));
            return flat(s.h(), s.c());
        });
        GRUCell gru = new GRUCell(2, 3);
        gradcheckAll(gru, List.of(leaf(2, 2), leaf(2, 3)), xs -> gru.forward(xs.get(0), xs.get(1)));
        RNNCell rnn = new RNNCell(2, 3);
        gradcheckAll(rnn, List.of(leaf(2, 2), leaf(2, 3)), xs -> rnn.forward(xs.get(0), xs.get(1)));
    }

    @Test
    void dropoutAppliesBetweenLayersInTrainingOnly() {
        Torch.manualSeed(4);
        LSTM lstm = new LSTM(3, 4, LSTM.Options.defaults().numLayers(2).dropout(1.0));
        LSTM plain = new LSTM(3, 4, LSTM.Options.defaults().numLayers(2));
        plain.loadStateDict(lstm.stateDict());
        Tensor a = Torch.randn(5, 2, 3), b = Torch.randn(5, 2, 3);
        // Training: dropout(p=1) zeroes the first layer's output, so the second layer sees zeros whatever the input;
        // the first layer's own final state is untouched (dropout acts on its output, between the layers).
        LSTM.Output ta = lstm.forward(a, null), tb = lstm.forward(b, null);
        assertArrayEquals(ta.output().toDoubleArray(), tb.output().toDoubleArray());
        LSTM.Output reference = plain.forward(a, null);
        assertArrayEquals(
                reference.hN().select(0, 0).toDoubleArray(),
                ta.hN().select(0, 0).toDoubleArray());
        assertFalse(java.util.Arrays.equals(
                reference.output().toDoubleArray(), ta.output().toDoubleArray()));
        // Evaluation: no dropout at all.
        lstm.eval();
        assertArrayEquals(
                reference.output().toDoubleArray(),
                lstm.forward(a, null).output().toDoubleArray());
    }

    @Test
    void dropoutIsNeverAppliedAfterTheLastLayer() {
        Torch.manualSeed(5);
        GRU gru;
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            gru = new GRU(3, 4, GRU.Options.defaults().dropout(0.5));
            assertEquals(
                    "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                            + "num_layers greater than 1, but got dropout=0.5 and num_layers=1",
                    rec.records().get(0).message());
        }
        Tensor x = Torch.randn(4, 2, 3);
        Tensor train = gru.forward(x);
        gru.eval();
        assertArrayEquals(gru.forward(x).toDoubleArray(), train.toDoubleArray());
    }

    @Test
    void doubleBackwardIsRefused() {
        Torch.manualSeed(6);
        RNN rnn = new RNN(2, 3);
        Tensor x = Torch.randn(3, 1, 2).requiresGrad(true);
        Tensor g = Autograd.grad(rnn.forward(x).square().sum(), x, true);
        TorchException e = assertThrows(TorchException.class, () -> g.sum().backward());
        assertTrue(e.getMessage().contains("once_differentiable"), e.getMessage());
    }

    @Test
    void stateDictSurvivesSaveAndLoad(@TempDir Path dir) {
        Torch.manualSeed(7);
        LSTM lstm = new LSTM(
                3, 5, LSTM.Options.defaults().numLayers(2).bidirectional(true).projSize(2));
        Path file = dir.resolve("lstm.pt");
        Serialization.save(lstm.stateDict(), file);
        LSTM copy = new LSTM(
                3, 5, LSTM.Options.defaults().numLayers(2).bidirectional(true).projSize(2));
        copy.loadStateDict(file);
        Tensor x = Torch.randn(4, 2, 3);
        assertArrayEquals(lstm.forward(x).toDoubleArray(), copy.forward(x).toDoubleArray());
        assertEquals(
                List.of(2L, 5L),
                List.of(
                        lstm.getParameter("weight_hr_l1_reverse").shape()[0],
                        lstm.getParameter("weight_hr_l1_reverse").shape()[1]));
    }

    @Test
    void outputLayoutFollowsBatchFirst() {
        Torch.manualSeed(8);
        GRU timeMajor = new GRU(3, 4, GRU.Options.defaults().bidirectional(true));
        GRU batchMajor =
                new GRU(3, 4, GRU.Options.defaults().bidirectional(true).batchFirst(true));
        batchMajor.loadStateDict(timeMajor.stateDict());
        Tensor x = Torch.randn(5, 2, 3);
        GRU.Output a = timeMajor.forward(x, null), b = batchMajor.forward(x.transpose(0, 1), null);
        assertArrayEquals(new long[] {2, 5, 8}, b.output().shape());
        assertArrayEquals(a.output().transpose(0, 1).toDoubleArray(), b.output().toDoubleArray(), 1e-6);
        assertArrayEquals(a.hN().toDoubleArray(), b.hN().toDoubleArray(), 1e-6);
    }

    @Test
    void opByOpPathUnderAnInterpreterMatchesTheFusedNode() throws Exception {
        Torch.manualSeed(9);
        LSTM lstm = new LSTM(
                3, 4, LSTM.Options.defaults().numLayers(2).bidirectional(true).projSize(2));
        lstm.toDouble();
        Tensor x = Torch.randn(5, 2, 3).to(DType.FLOAT64);
        PackedSequence packed = Rnn.packPaddedSequence(x, Torch.tensor(new long[] {5, 3}), false, true);
        LSTM.Output fused = lstm.forward(x, null);
        LSTM.PackedOutput fusedPacked = lstm.forward(packed, null);
        LSTM.Output reference;
        LSTM.PackedOutput referencePacked;
        // DebugMode sees every op, so the layers run op by op (the fused node's kernels are not ops).
        try (DebugMode d = DebugMode.open(false)) {
            reference = lstm.forward(x, null);
            referencePacked = lstm.forward(packed, null);
            assertTrue(d.log().contains("aten::sigmoid"), "the op-by-op path ran");
        }
        assertArrayEquals(fused.output().toDoubleArray(), reference.output().toDoubleArray(), 1e-12);
        assertArrayEquals(fused.hN().toDoubleArray(), reference.hN().toDoubleArray(), 1e-12);
        assertArrayEquals(fused.cN().toDoubleArray(), reference.cN().toDoubleArray(), 1e-12);
        assertArrayEquals(
                fusedPacked.output().data().toDoubleArray(),
                referencePacked.output().data().toDoubleArray(),
                1e-12);
        assertArrayEquals(fusedPacked.hN().toDoubleArray(), referencePacked.hN().toDoubleArray(), 1e-12);
    }

    @Test
    void vmapOverUnbatchedSequencesEqualsALoop() {
        Torch.manualSeed(10);
        GRU gru = new GRU(3, 4, GRU.Options.defaults().bidirectional(true));
        Tensor xs = Torch.randn(3, 5, 3);
        Tensor batched = Func.vmap(gru::forward).apply(xs);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(
                    gru.forward(xs.select(0, i)).toDoubleArray(),
                    batched.select(0, i).toDoubleArray(),
                    1e-5);
        }
    }

    @Test
    void metaInputsGiveShapes() {
        LSTM lstm =
                new LSTM(3, 6, LSTM.Options.defaults().numLayers(2).projSize(4).batchFirst(true));
        lstm.to(Device.META);
        LSTM.Output out = lstm.forward(Torch.empty(new long[] {2, 7, 3}, DType.FLOAT32, Device.META), null);
        assertEquals(Device.META, out.output().device());
        assertArrayEquals(new long[] {2, 7, 4}, out.output().shape());
        assertArrayEquals(new long[] {2, 2, 4}, out.hN().shape());
        assertArrayEquals(new long[] {2, 2, 6}, out.cN().shape());
    }

    @Test
    void bfloat16RunsOpByOp() {
        Torch.manualSeed(11);
        RNN rnn = new RNN(3, 4);
        Tensor x = Torch.randn(5, 2, 3);
        Tensor expected = rnn.forward(x);
        rnn.bfloat16();
        Tensor out = rnn.forward(x.to(DType.BFLOAT16));
        assertEquals(DType.BFLOAT16, out.dtype());
        assertArrayEquals(expected.toDoubleArray(), out.toDoubleArray(), 0.05);
    }

    /**
     * The float32 fused node (its per-step products on the panel kernel where the machine has 512-bit vectors, its step
     * buffers reused from call to call) against the op-by-op path, over several calls: a second backward through a
     * retained graph, after another call of the layer in between, must still read the first call's saved buffers.
     */
    @Test
    void float32BuffersReusedAcrossCallsMatchTheOpByOpPath() throws Exception {
        Torch.manualSeed(13);
        long[] lengths = new long[40];
        for (int i = 0; i < lengths.length; i++) lengths[i] = 1 + (i * 5) % 7;
        Tensor x = Torch.randn(7, 40, 6);
        for (RNNBase m : List.<RNNBase>of(
                new LSTM(6, 32, LSTM.Options.defaults().numLayers(2).bidirectional(true)),
                new LSTM(6, 32, LSTM.Options.defaults().projSize(8)),
                new GRU(6, 32, GRU.Options.defaults().numLayers(2)))) {
            List<double[]> reference;
            try (DebugMode _ = DebugMode.open(false)) {
                reference = runWithGrads(m, x, lengths);
            }
            for (int call = 0; call < 3; call++) {
                List<double[]> fused = runWithGrads(m, x, lengths);
                for (int i = 0; i < fused.size(); i++) assertArrayEquals(reference.get(i), fused.get(i), 2e-4);
            }
            Tensor in = x.detach().clone().requiresGrad(true);
            Tensor loss = sumOfSquares(m, in);
            Tensor first = Autograd.grad(
                            List.of(loss),
                            List.of(in),
                            Autograd.GradOptions.defaults().retainGraph(true))
                    .get(0);
            try (var _ = Torch.noGrad()) {
                sumOfSquares(m, x.mul(2)); // takes buffers while the graph above still holds its own
            }
            sumOfSquares(m, x.mul(3)).backward(); // frees its buffers for reuse
            Tensor second = Autograd.grad(List.of(loss), List.of(in), Autograd.GradOptions.defaults())
                    .get(0);
            assertArrayEquals(first.toDoubleArray(), second.toDoubleArray(), 0);
        }
    }

    private static Tensor sumOfSquares(RNNBase m, Tensor x) {
        Tensor out = m instanceof LSTM l
                ? l.forward(x, null).output()
                : ((GRU) m).forward(x, null).output();
        return out.square().sum();
    }

    /** Output, final states and the gradients of a fixed loss w.r.t. the input and every parameter. */
    private static List<double[]> runWithGrads(RNNBase m, Tensor x, long[] lengths) {
        Tensor in = x.detach().clone().requiresGrad(true);
        m.zeroGrad();
        PackedSequence packed = Rnn.packPaddedSequence(in, Torch.tensor(lengths), false, false);
        Tensor data, hN, cN = null;
        if (m instanceof LSTM l) {
            LSTM.PackedOutput r = l.forward(packed, null);
            data = r.output().data();
            hN = r.hN();
            cN = r.cN();
        } else {
            GRU.PackedOutput r = ((GRU) m).forward(packed, null);
            data = r.output().data();
            hN = r.hN();
        }
        Tensor loss = data.square().sum().add(hN.mul(3).sum());
        if (cN != null) loss = loss.add(cN.sin().sum());
        loss.backward();
        List<double[]> all = new ArrayList<>(
                List.of(data.toDoubleArray(), hN.toDoubleArray(), in.grad().toDoubleArray()));
        if (cN != null) all.add(cN.toDoubleArray());
        for (Tensor p : m.parameters()) all.add(p.grad().toDoubleArray());
        return all;
    }

    @Test
    void rowsSplitAcrossThreadsMatchTheOpByOpPath() throws Exception {
        Torch.manualSeed(12);
        long[] lengths = new long[40];
        for (int i = 0; i < lengths.length; i++) lengths[i] = 1 + (i * 7) % 9;
        Tensor x = Torch.randn(9, 40, 3).to(DType.FLOAT64);
        for (RNNBase m : List.<RNNBase>of(
                new LSTM(
                        3,
                        5,
                        LSTM.Options.defaults().numLayers(2).bidirectional(true).projSize(2)),
                new GRU(3, 5, GRU.Options.defaults().bidirectional(true)))) {
            m.toDouble();
            List<double[]> fused = runWithGrads(m, x, lengths), reference;
            try (DebugMode _ = DebugMode.open(false)) {
                reference = runWithGrads(m, x, lengths);
            }
            for (int i = 0; i < fused.size(); i++) assertArrayEquals(reference.get(i), fused.get(i), 1e-10);
        }
    }
}
