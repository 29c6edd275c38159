package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code nn.Transformer} and {@code nn.TransformerDecoder} against PyTorch 2.13 ({@code make_golden_transformer.py}):
 * PyTorch's state dict loads under its own key names and in its order (and comes back out unchanged), and the outputs
 * and gradients with causal, boolean, additive and key-padding masks, post- and pre-norm, sequence- and batch-first,
 * relu and gelu, match; so does {@code generate_square_subsequent_mask}.
 */
class TransformerGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("transformer.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        if (c.op().equals("generate_square_subsequent_mask")) {
            long sz = ((Number) c.kwarg("sz")).longValue();
            Golden.check(c, List.of(), true, () -> List.of(Transformer.generateSquareSubsequentMask(sz)));
            return;
        }
        Golden.check(c, List.of(), false, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        Map<String, Tensor> state = stateDict(c);
        Module model = build(c);
        model.to(DType.FLOAT64);
        model.loadStateDict(state);
        // the keys are PyTorch's, in its order, and the values come back as loaded
        LinkedHashMap<String, Tensor> back = model.stateDict();
        assertEquals(List.copyOf(state.keySet()), List.copyOf(back.keySet()));
        for (var e : state.entrySet())
            assertEquals(0, back.get(e.getKey()).sub(e.getValue()).abs().max().item());
        Tensor a = c.tensorArg(1), b = c.tensorArg(2);
        if (c.expectsError()) return ((Transformer) model).forward(a, b);
        a.requiresGrad(true);
        b.requiresGrad(true);
        Map<String, Tensor> m = masks(c);
        Tensor out = model instanceof Transformer t
                ? t.forward(
                        a,
                        b,
                        m.get("src_mask"),
                        m.get("tgt_mask"),
                        m.get("memory_mask"),
                        m.get("src_key_padding_mask"),
                        m.get("tgt_key_padding_mask"),
                        m.get("memory_key_padding_mask"))
                : ((TransformerDecoder) model)
                        .forward(
                                a,
                                b,
                                m.get("tgt_mask"),
                                m.get("memory_mask"),
                                m.get("tgt_key_padding_mask"),
                                m.get("memory_key_padding_mask"));
        out.mul(c.tensorArg(3)).sum().backward();
        Tensor param = model.namedParameters().get((String) c.kwarg("grad_param"));
        return new ArrayList<>(List.of(out.detach(), a.grad(), b.grad(), param.grad()));
    }

    private static Module build(Golden.Case c) {
        long d = num(c, "d_model"), heads = num(c, "nhead"), ff = num(c, "dim_feedforward");
        String act = (String) c.kwarg("activation");
        boolean batchFirst = (Boolean) c.kwarg("batch_first"), normFirst = (Boolean) c.kwarg("norm_first");
        if (c.op().equals("Transformer")) {
            return new Transformer(
                    d,
                    heads,
                    (int) num(c, "num_encoder_layers"),
                    (int) num(c, "num_decoder_layers"),
                    ff,
                    0.0,
                    act,
                    1e-5,
                    batchFirst,
                    normFirst,
                    true);
        }
        var layer = new TransformerDecoderLayer(d, heads, ff, 0.0, act, 1e-5, batchFirst, normFirst, true);
        Module norm = (Boolean) c.kwarg("norm") ? new LayerNorm(d) : null;
        return new TransformerDecoder(layer, (int) num(c, "num_layers"), norm);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> stateDict(Golden.Case c) {
        Map<String, Tensor> state = new LinkedHashMap<>();
        for (Object pair : (List<Object>) c.arg(0)) {
            List<Object> kv = (List<Object>) pair;
            state.put((String) kv.get(0), (Tensor) kv.get(1));
        }
        return state;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> masks(Golden.Case c) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (var e : ((Map<String, Object>) c.kwargs().get("masks")).entrySet()) {
            out.put(e.getKey(), (Tensor) Golden.decode(e.getValue()));
        }
        return out;
    }

    private static long num(Golden.Case c, String name) {
        return ((Number) c.kwarg(name)).longValue();
    }

    @Test
    void stackedLayersStartAsCopiesOfTheGivenLayer() {
        var layer = new TransformerDecoderLayer(8, 2, 16, 0.0, "relu", 1e-5, false, false, true);
        var decoder = new TransformerDecoder(layer, 3);
        Map<String, Tensor> original = layer.stateDict(), all = decoder.stateDict();
        for (int i = 0; i < 3; i++) {
            for (var e : original.entrySet()) {
                Tensor copy = all.get("layers." + i + "." + e.getKey());
                assertEquals(0, copy.sub(e.getValue()).abs().max().item(), e.getKey());
            }
        }
    }
}
