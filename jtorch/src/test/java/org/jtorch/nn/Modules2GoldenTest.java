package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every convolution, pooling, normalisation, bilinear, embedding-bag and attention module against PyTorch 1.13
 * (jtorch/src/test/python/make_golden_modules2.py): PyTorch's state dict loads under the same keys, and with the same
 * input the module gives PyTorch's output, input gradients and parameter gradients, buffers after the forward (running
 * statistics, max_norm renormalisation) and printed tree; freshly built modules draw PyTorch's initial values.
 */
class Modules2GoldenTest {
    /** The module of each case, built with the generator's arguments. */
    static Module build(String name) {
        return switch (name) {
            case "conv2d" -> new Conv2d(3, 4, 3);
            case "conv2d_full" ->
                new Conv2d(
                        4,
                        6,
                        new long[] {3, 2},
                        ConvOptions.defaults()
                                .stride(2, 1)
                                .padding(1, 2)
                                .dilation(1, 2)
                                .groups(2)
                                .bias(false));
            case "conv2d_same_reflect" ->
                new Conv2d(
                        2,
                        3,
                        new long[] {3},
                        ConvOptions.defaults().padding("same").paddingMode("reflect"));
            case "conv1d" ->
                new Conv1d(3, 5, 3, ConvOptions.defaults().stride(2).padding(1));
            case "maxpool2d" -> new MaxPool2d(new long[] {3}, new long[] {2}, new long[] {1}, new long[] {1}, false);
            case "avgpool2d" -> new AvgPool2d(new long[] {2}, new long[] {1}, new long[] {1}, false, false, null);
            case "adaptiveavgpool2d" -> new AdaptiveAvgPool2d(2, 3);
            case "adaptiveavgpool2d_none" -> new AdaptiveAvgPool2d(null, 2L);
            case "batchnorm2d_train", "batchnorm2d_eval" -> new BatchNorm2d(3);
            case "batchnorm1d_cumulative" -> new BatchNorm1d(4, 1e-5, null, true, true);
            case "batchnorm1d_noaffine" -> new BatchNorm1d(3, 1e-5, 0.2, false, true);
            case "groupnorm" -> new GroupNorm(2, 4);
            case "bilinear" -> new Bilinear(3, 4, 5);
            case "embeddingbag_sum" -> new EmbeddingBag(10, 3, "sum", false, null);
            case "embeddingbag_max" -> new EmbeddingBag(10, 3, "max", false, null);
            case "embedding_maxnorm" -> new Embedding(6, 4, null, 1.5, 2.0);
            case "mha", "mha_unbatched" ->
                name.equals("mha") ? new MultiheadAttention(8, 2) : new MultiheadAttention(4, 2);
            case "mha_masks" -> new MultiheadAttention(8, 4, 0.0, true, null, null, true);
            case "mha_kvdim_noweights" -> new MultiheadAttention(6, 3, 0.0, false, 4L, 5L, false);
            case "mha_bias_kv_zero_attn" -> new MultiheadAttention(8, 2, 0.0, true, true, true, null, null, false);
            case "mha_bias_kv_bf_noweights" -> new MultiheadAttention(6, 3, 0.0, true, true, false, 4L, 5L, true);
            case "mha_zero_attn_unbatched" -> new MultiheadAttention(4, 2, 0.0, true, false, true, null, null, false);
            case "encoder_post_relu" -> new TransformerEncoderLayer(8, 2, 16, 0.0, "relu", 1e-5, false, false, true);
            case "encoder_pre_gelu_bf" -> new TransformerEncoderLayer(8, 4, 12, 0.0, "gelu", 1e-6, true, true, true);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** The forward of each case: the output and, for attention, the weights (or null). */
    static Tensor[] forward(String name, Module m, Tensor[] in) {
        return switch (name) {
            case "bilinear" -> new Tensor[] {((Bilinear) m).forward(in[0], in[1])};
            case "embeddingbag_sum" -> new Tensor[] {((EmbeddingBag) m).forward(in[0], in[1], in[2])};
            case "mha", "mha_unbatched" -> attention(((MultiheadAttention) m).forward(in[0], in[1], in[2]));
            case "mha_masks" -> {
                Tensor kpm = Torch.tensor(new boolean[] {false, false, true, false, false, true, true, false})
                        .reshape(2, 4);
                Tensor am = ATTN_MASK.get();
                yield attention(((MultiheadAttention) m).forward(in[0], in[1], in[2], kpm, true, am, false));
            }
            case "mha_kvdim_noweights" -> {
                Tensor am = Torch.tensor(new boolean[] {false, true, false, false, true, false})
                        .reshape(3, 2);
                yield attention(((MultiheadAttention) m).forward(in[0], in[1], in[2], null, false, am, true));
            }
            case "mha_bias_kv_zero_attn" -> {
                Tensor kpm = Torch.tensor(new boolean[] {false, true, false, true, true, false, false, false})
                        .reshape(2, 4);
                yield attention(
                        ((MultiheadAttention) m).forward(in[0], in[1], in[2], kpm, true, ATTN_MASK.get(), false));
            }
            case "mha_bias_kv_bf_noweights" -> {
                Tensor am = Torch.tensor(new boolean[] {false, true, false, false, false, true})
                        .reshape(2, 3);
                yield attention(((MultiheadAttention) m).forward(in[0], in[1], in[2], null, false, am, true));
            }
            case "mha_zero_attn_unbatched" -> {
                Tensor kpm = Torch.tensor(new boolean[] {false, true, false, false, true});
                yield attention(((MultiheadAttention) m).forward(in[0], in[1], in[2], kpm, true, null, true));
            }
            case "encoder_pre_gelu_bf" -> {
                Tensor mask = Torch.triu(Torch.full(new long[] {5, 5}, Double.NEGATIVE_INFINITY), 1);
                Tensor kpm = Torch.tensor(
                                new boolean[] {false, false, false, false, false, false, false, false, true, true})
                        .reshape(2, 5);
                yield new Tensor[] {((TransformerEncoderLayer) m).forward(in[0], mask, kpm)};
            }
            default -> new Tensor[] {m.call(in[0])};
        };
    }

    /**
     * mha_masks' float attn_mask is random in the generator; the test reads it back from the fixture's note-free extra.
     */
    private static final ThreadLocal<Tensor> ATTN_MASK = new ThreadLocal<>();

    private static Tensor[] attention(MultiheadAttention.Output o) {
        return new Tensor[] {o.attnOutput(), o.attnWeights()};
    }

    @SuppressWarnings("unchecked")
    private static Tensor t(Object json) {
        return json == null ? null : Golden.tensor((Map<String, Object>) json);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> tensors(Object json) {
        Map<String, Tensor> r = new LinkedHashMap<>();
        ((Map<String, Object>) json).forEach((k, v) -> r.put(k, t(v)));
        return r;
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> modulesMatchPyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases("modules2.json")) {
            if (!c.op().equals("module")) continue;
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                String name = (String) c.kwarg("module");
                Map<String, Object> out = (Map<String, Object>) c.out();
                Module m = build(name);
                if (name.equals("batchnorm2d_eval")) m.eval();
                Map<String, Tensor> state = tensors(out.get("state"));
                assertEquals(
                        new TreeSet<>(state.keySet()),
                        new TreeSet<>(m.stateDict().keySet()),
                        c.id() + " keys");
                m.loadStateDict(state);
                assertEquals(out.get("repr"), m.toString(), c.id() + " repr");
                Map<String, Object> extra = (Map<String, Object>) out.get("extra");
                ATTN_MASK.set(t(extra.get("attn_mask")));
                List<Object> grads = (List<Object>) out.get("grads");
                Tensor[] in = new Tensor[c.argCount()];
                List<Tensor> diff = new ArrayList<>();
                for (int i = 0; i < in.length; i++) {
                    in[i] = c.tensorArg(i);
                    if (grads.get(i) != null) diff.add(in[i].requiresGrad(true));
                }
                Tensor[] y = forward(name, m, in);
                if (name.startsWith("batchnorm") && !name.endsWith("eval")) {
                    try (var _ = Torch.noGrad()) {
                        m.call(in[0].detach().mul(0.5).add(1.0));
                    }
                }
                close(t(out.get("output")), y[0], 2e-5, c.id() + " output");
                if (extra.containsKey("attn_weights"))
                    close(t(extra.get("attn_weights")), y[1], 2e-5, c.id() + " attn weights");
                Map<String, Tensor> expectedParamGrads = tensors(out.get("param_grads"));
                List<String> names = new ArrayList<>(expectedParamGrads.keySet());
                List<Tensor> wrt = new ArrayList<>(diff);
                for (String n : names) wrt.add(m.getParameter(n));
                List<Tensor> g = Autograd.grad(
                        List.of(y[0]),
                        wrt,
                        Autograd.GradOptions.defaults()
                                .gradOutputs(List.of(t(out.get("grad_output"))))
                                .allowUnused(true));
                int k = 0;
                for (int i = 0; i < in.length; i++) {
                    if (grads.get(i) != null) close(t(grads.get(i)), g.get(k++), 1e-4, c.id() + " grad of input " + i);
                }
                for (String n : names) close(expectedParamGrads.get(n), g.get(k++), 1e-4, c.id() + " grad of " + n);
                Map<String, Tensor> after = tensors(out.get("state_after"));
                for (var e : after.entrySet()) {
                    close(
                            e.getValue(),
                            m.stateDict().get(e.getKey()),
                            2e-5,
                            c.id() + " " + e.getKey() + " after forward");
                }
            }));
        }
        assertTrue(tests.size() >= 20, "module cases: " + tests.size());
        return tests.stream();
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> initialValuesDrawnLikePyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases("modules2.json")) {
            if (!c.op().equals("init")) continue;
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                Torch.manualSeed(((Number) c.kwarg("seed")).longValue());
                Module m = build((String) c.kwarg("module"));
                Map<String, Tensor> expected = tensors(((Map<String, Object>) c.out()).get("state"));
                assertEquals(
                        new TreeSet<>(expected.keySet()),
                        new TreeSet<>(m.stateDict().keySet()),
                        c.id());
                for (var e : expected.entrySet())
                    close(e.getValue(), m.stateDict().get(e.getKey()), 1e-6, c.id() + " " + e.getKey());
            }));
        }
        assertEquals(8, tests.size());
        return tests.stream();
    }

    static void close(Tensor expected, Tensor actual, double tol, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what + " shape");
        double[] e = expected.toDoubleArray(), a = actual.to(DType.FLOAT64).toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertTrue(
                    Math.abs(e[i] - a[i]) <= tol * Math.max(1, Math.abs(e[i])) || Double.compare(e[i], a[i]) == 0,
                    what + " at " + i + ": expected " + e[i] + " got " + a[i]);
        }
    }
}
