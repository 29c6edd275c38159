package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.utils.rnn.PackedSequence;
import org.jtorch.nn.utils.rnn.Rnn;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code nn.RNN/LSTM/GRU}, their cells and {@code nn.utils.rnn} against PyTorch 2.13 ({@code golden/rnn.json}, written
 * by {@code src/test/python/make_golden_rnn.py}): the same seed gives the same parameters (and state-dict keys, in
 * order); loading PyTorch's state dict and running the recorded input gives PyTorch's outputs, final states and
 * gradients w.r.t. the input, the initial states and every parameter, for padded, unbatched and packed input; the
 * packing utilities and the refused arguments give PyTorch's results and messages.
 */
class RecurrentGoldenTest {
    private static final Map<String, Object> GOLDEN = root();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> root() {
        return (Map<String, Object>) ((List<Object>) Golden.fixture("rnn.json").get("cases")).get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> section(String name) {
        return (List<Map<String, Object>>) GOLDEN.get(name);
    }

    private static Tensor t(Object json) {
        return (Tensor) Golden.decode(json);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> tensors(Object json) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        ((Map<String, Object>) json).forEach((k, v) -> out.put(k, t(v)));
        return out;
    }

    /** Float32 results are compared at float32 accuracy over a few steps, float64 ones tightly. */
    static void assertClose(Tensor expected, Tensor actual, String what) {
        assertNotNull(actual, what + " missing");
        assertArrayEquals(expected.shape(), actual.shape(), what + " shape");
        assertEquals(expected.dtype(), actual.dtype(), what + " dtype");
        boolean single = expected.dtype() == DType.FLOAT32;
        double rtol = single ? 2e-4 : 1e-10, atol = single ? 2e-5 : 1e-12;
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            double tol = atol + rtol * Math.abs(e[i]);
            if (Math.abs(e[i] - a[i]) > tol) {
                throw new AssertionError(what + "[" + i + "]: expected " + e[i] + ", got " + a[i]);
            }
        }
    }

    private static int integer(Map<String, Object> m, String key, int dflt) {
        Object v = m.get(key);
        return v == null ? dflt : ((Number) v).intValue();
    }

    private static boolean flag(Map<String, Object> m, String key) {
        return Boolean.TRUE.equals(m.get(key));
    }

    @SuppressWarnings("unchecked")
    private static RNNBase build(Map<String, Object> c) {
        Map<String, Object> o = (Map<String, Object>) c.get("options");
        long in = ((Number) c.get("input_size")).longValue(), hidden = ((Number) c.get("hidden_size")).longValue();
        int layers = integer(o, "num_layers", 1);
        boolean bias = !Boolean.FALSE.equals(o.get("bias")), bf = flag(o, "batch_first"), bi = flag(o, "bidirectional");
        return switch ((String) c.get("kind")) {
            case "LSTM" ->
                new LSTM(
                        in,
                        hidden,
                        LSTM.Options.defaults()
                                .numLayers(layers)
                                .bias(bias)
                                .batchFirst(bf)
                                .bidirectional(bi)
                                .projSize(integer(o, "proj_size", 0)));
            case "GRU" ->
                new GRU(
                        in,
                        hidden,
                        GRU.Options.defaults()
                                .numLayers(layers)
                                .bias(bias)
                                .batchFirst(bf)
                                .bidirectional(bi));
            default ->
                new RNN(
                        in,
                        hidden,
                        RNN.Options.defaults()
                                .numLayers(layers)
                                .bias(bias)
                                .batchFirst(bf)
                                .bidirectional(bi)
                                .nonlinearity(
                                        o.getOrDefault("nonlinearity", "tanh").toString()));
        };
    }

    @SuppressWarnings("unchecked")
    private static void checkInitAndLoad(Module m, Map<String, Object> c) {
        Map<String, Tensor> expected = tensors(c.get("state_dict"));
        assertEquals(c.get("keys"), new ArrayList<>(m.stateDict().keySet()));
        // The same seed draws PyTorch's parameters: compared in float32 before any conversion, exactly.
        if ("float32".equals(c.get("dtype"))) {
            expected.forEach((k, v) ->
                    assertArrayEquals(v.toDoubleArray(), m.stateDict().get(k).toDoubleArray(), k));
        }
        if ("float64".equals(c.get("dtype"))) m.toDouble();
        var keys = m.loadStateDict(expected);
        assertTrue(keys.missingKeys().isEmpty() && keys.unexpectedKeys().isEmpty());
        assertEquals(c.get("repr"), m.toString());
    }

    @TestFactory
    Stream<DynamicTest> modules() {
        return section("modules").stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> module(c)));
    }

    @SuppressWarnings("unchecked")
    private static void module(Map<String, Object> c) {
        Torch.manualSeed(((Number) c.get("seed")).longValue());
        RNNBase m = build(c);
        checkInitAndLoad(m, c);
        Map<String, Object> o = (Map<String, Object>) c.get("options");
        boolean bf = flag(o, "batch_first"), lstm = m instanceof LSTM;
        Tensor x = t(c.get("input")).requiresGrad(true);
        Tensor h0 = c.containsKey("h0") ? t(c.get("h0")).requiresGrad(true) : null;
        Tensor c0 = c.containsKey("c0") ? t(c.get("c0")).requiresGrad(true) : null;
        Tensor out, hN, cN = null;
        if (c.containsKey("lengths")) {
            List<Object> len = (List<Object>) c.get("lengths");
            long[] lengths =
                    len.stream().mapToLong(v -> ((Number) v).longValue()).toArray();
            PackedSequence packed = Rnn.packPaddedSequence(x, Torch.tensor(lengths), bf, flag(c, "enforce_sorted"));
            PackedSequence result;
            if (m instanceof LSTM l) {
                var r = l.forward(packed, h0 == null ? null : new LSTM.State(h0, c0));
                result = r.output();
                hN = r.hN();
                cN = r.cN();
            } else if (m instanceof GRU g) {
                var r = g.forward(packed, h0 == null ? null : new GRU.State(h0));
                result = r.output();
                hN = r.hN();
            } else {
                var r = ((RNN) m).forward(packed, h0 == null ? null : new RNN.State(h0));
                result = r.output();
                hN = r.hN();
            }
            assertClose(t(c.get("packed_data")), result.data(), "packed data");
            Rnn.Padded padded = Rnn.padPackedSequence(result, bf, 0.0, null);
            out = padded.output();
            assertArrayEquals(
                    t(c.get("out_lengths")).toLongArray(), padded.lengths().toLongArray());
        } else if (m instanceof LSTM l) {
            var r = l.forward(x, h0 == null ? null : new LSTM.State(h0, c0));
            out = r.output();
            hN = r.hN();
            cN = r.cN();
        } else if (m instanceof GRU g) {
            var r = g.forward(x, h0 == null ? null : new GRU.State(h0));
            out = r.output();
            hN = r.hN();
        } else {
            var r = ((RNN) m).forward(x, h0 == null ? null : new RNN.State(h0));
            out = r.output();
            hN = r.hN();
        }
        assertClose(t(c.get("output")), out, "output");
        assertClose(t(c.get("h_n")), hN, "h_n");
        Tensor loss =
                out.mul(t(c.get("w_out"))).sum().add(hN.mul(t(c.get("w_h"))).sum());
        if (lstm) {
            assertClose(t(c.get("c_n")), cN, "c_n");
            loss = loss.add(cN.mul(t(c.get("w_c"))).sum());
        }
        loss.backward();
        checkGrads(c, m, x, h0, c0, "h0", "c0");
    }

    private static void checkGrads(
            Map<String, Object> c, Module m, Tensor x, Tensor h, Tensor cell, String hName, String cName) {
        Map<String, Tensor> grads = tensors(c.get("grads"));
        assertClose(grads.get("input"), x.grad(), "grad input");
        if (h != null) assertClose(grads.get(hName), h.grad(), "grad " + hName);
        if (cell != null) assertClose(grads.get(cName), cell.grad(), "grad " + cName);
        m.namedParameters().forEach((k, p) -> assertClose(grads.get(k), p.grad(), "grad " + k));
    }

    @TestFactory
    Stream<DynamicTest> cells() {
        return section("cells").stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> cell(c)));
    }

    private static void cell(Map<String, Object> c) {
        Torch.manualSeed(((Number) c.get("seed")).longValue());
        long in = ((Number) c.get("input_size")).longValue(), hidden = ((Number) c.get("hidden_size")).longValue();
        boolean bias = flag(c, "bias");
        RNNCellBase m =
                switch ((String) c.get("kind")) {
                    case "LSTMCell" -> new LSTMCell(in, hidden, bias, null);
                    case "GRUCell" -> new GRUCell(in, hidden, bias, null);
                    default -> new RNNCell(in, hidden, bias, (String) c.get("nonlinearity"), null);
                };
        checkInitAndLoad(m, c);
        Tensor x = t(c.get("input")).requiresGrad(true);
        Tensor h = c.containsKey("h") ? t(c.get("h")).requiresGrad(true) : null;
        Tensor cell = c.containsKey("c") ? t(c.get("c")).requiresGrad(true) : null;
        Tensor loss;
        if (m instanceof LSTMCell l) {
            LSTM.State s = l.forward(x, h == null ? null : new LSTM.State(h, cell));
            assertClose(t(c.get("h1")), s.h(), "h'");
            assertClose(t(c.get("c1")), s.c(), "c'");
            loss = s.h().mul(t(c.get("w_h")))
                    .sum()
                    .add(s.c().mul(t(c.get("w_c"))).sum());
        } else {
            Tensor h1 = m instanceof GRUCell g ? g.forward(x, h) : ((RNNCell) m).forward(x, h);
            assertClose(t(c.get("h1")), h1, "h'");
            loss = h1.mul(t(c.get("w_h"))).sum();
        }
        loss.backward();
        checkGrads(c, m, x, h, cell, "h", "c");
    }

    @TestFactory
    Stream<DynamicTest> utils() {
        return section("utils").stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> util(c)));
    }

    @SuppressWarnings("unchecked")
    private static void util(Map<String, Object> c) {
        switch ((String) c.get("op")) {
            case "pad_sequence" -> {
                List<Tensor> seqs = ((List<Object>) c.get("sequences"))
                        .stream().map(RecurrentGoldenTest::t).toList();
                Tensor out = Rnn.padSequence(
                        seqs, flag(c, "batch_first"), ((Number) c.get("padding_value")).doubleValue(), (String)
                                c.get("padding_side"));
                assertClose(t(c.get("out")), out, "padded");
            }
            case "pack_padded_sequence" -> {
                long[] lengths = ((List<Object>) c.get("lengths"))
                        .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
                PackedSequence p = Rnn.packPaddedSequence(
                        t(c.get("input")), Torch.tensor(lengths), flag(c, "batch_first"), flag(c, "enforce_sorted"));
                assertClose(t(c.get("data")), p.data(), "data");
                assertArrayEquals(
                        t(c.get("batch_sizes")).toLongArray(), p.batchSizes().toLongArray());
                assertArrayEquals(
                        t(c.get("sorted_indices")).toLongArray(),
                        p.sortedIndices().toLongArray());
                assertArrayEquals(
                        t(c.get("unsorted_indices")).toLongArray(),
                        p.unsortedIndices().toLongArray());
                Rnn.Padded back = Rnn.padPackedSequence(p, false, 7.0, 6L);
                assertClose(t(c.get("padded")), back.output(), "padded");
                assertArrayEquals(
                        t(c.get("padded_lengths")).toLongArray(), back.lengths().toLongArray());
            }
            case "pack_sequence" -> {
                List<Tensor> seqs = ((List<Object>) c.get("sequences"))
                        .stream().map(RecurrentGoldenTest::t).toList();
                PackedSequence p = Rnn.packSequence(seqs, true);
                assertClose(t(c.get("data")), p.data(), "data");
                assertArrayEquals(
                        t(c.get("batch_sizes")).toLongArray(), p.batchSizes().toLongArray());
                List<Tensor> back = Rnn.unpackSequence(p);
                for (int i = 0; i < seqs.size(); i++) assertClose(seqs.get(i), back.get(i), "unpacked " + i);
            }
            default -> throw new AssertionError("unknown op " + c.get("op"));
        }
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> errors() {
        Map<String, Object> errors = (Map<String, Object>) GOLDEN.get("errors");
        Tensor x = Torch.randn(5, 3, 4);
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("lstm_4d", () -> new LSTM(4, 6).forward(Torch.randn(1, 5, 3, 4)));
        calls.put("rnn_4d", () -> new RNN(4, 6).forward(Torch.randn(1, 5, 3, 4)));
        calls.put("gru_4d", () -> new GRU(4, 6).forward(Torch.randn(1, 5, 3, 4)));
        calls.put("input_size", () -> new LSTM(5, 6).forward(x));
        calls.put("dtype", () -> new GRU(4, 6).forward(x.to(DType.FLOAT64)));
        calls.put("hidden_size", () -> new GRU(4, 6, GRU.Options.defaults().numLayers(2))
                .forward(x, new GRU.State(Torch.zeros(1, 3, 6))));
        calls.put("lstm_hidden0", () -> new LSTM(4, 6, LSTM.Options.defaults().projSize(2))
                .forward(x, new LSTM.State(Torch.zeros(1, 3, 6), Torch.zeros(1, 3, 6))));
        calls.put("lstm_hidden1", () -> new LSTM(4, 6)
                .forward(x, new LSTM.State(Torch.zeros(1, 3, 6), Torch.zeros(1, 3, 5))));
        calls.put("hx_rank", () -> new RNN(4, 6).forward(x, new RNN.State(Torch.zeros(3, 6))));
        calls.put("lstm_hx_rank", () -> new LSTM(4, 6)
                .forward(x.select(0, 0), new LSTM.State(Torch.zeros(1, 3, 6), Torch.zeros(1, 3, 6))));
        calls.put("proj_too_big", () -> new LSTM(4, 6, LSTM.Options.defaults().projSize(6)));
        calls.put("dropout_range", () -> new LSTM(4, 6, LSTM.Options.defaults().dropout(1.5)));
        calls.put("hidden_zero", () -> new GRU(4, 0));
        calls.put("nonlinearity", () -> new RNN(4, 6, RNN.Options.defaults().nonlinearity("sigmoid")));
        calls.put("cell_3d", () -> new LSTMCell(4, 6).forward(x));
        calls.put("cell_input_size", () -> new GRUCell(5, 6).forward(x.select(0, 0)));
        calls.put("cell_batch", () -> new RNNCell(4, 6).forward(x.select(0, 0), Torch.zeros(2, 6)));
        calls.put("cell_hidden_size", () -> new RNNCell(4, 6).forward(x.select(0, 0), Torch.zeros(3, 5)));
        calls.put("pack_unsorted", () -> Rnn.packPaddedSequence(x, new long[] {1, 3, 2}));
        calls.put("pack_zero_length", () -> Rnn.packPaddedSequence(x, new long[] {3, 2, 0}));
        calls.put("pack_lengths_count", () -> Rnn.packPaddedSequence(x, new long[] {3, 2}));
        calls.put(
                "total_length",
                () -> Rnn.padPackedSequence(Rnn.packPaddedSequence(x, new long[] {5, 2, 1}), false, 0.0, 3L));
        assertEquals(errors.keySet(), calls.keySet());
        return calls.entrySet().stream()
                .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
                    Map<String, Object> want = (Map<String, Object>) errors.get(e.getKey());
                    Class<? extends Throwable> type = "ValueError".equals(want.get("type"))
                            ? IllegalArgumentException.class
                            : TorchException.class;
                    Throwable thrown = assertThrows(type, e.getValue());
                    assertEquals(want.get("message"), thrown.getMessage());
                }));
    }
}
