package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;

/**
 * State dicts exported by PyTorch 1.13 (jtorch/src/test/python/make_golden_nn.py): the same keys, loadable into JTorch
 * modules, giving PyTorch's outputs and reprs.
 */
class ModuleGoldenTest {
    static Module build(String name) {
        return switch (name) {
            case "linear" -> new Linear(4, 3);
            case "linear_nobias" -> new Linear(4, 3, false);
            case "layernorm" -> new LayerNorm(4);
            case "embedding" -> new Embedding(5, 3, 1L);
            case "mlp" -> new Sequential(new Linear(4, 3), new ReLU(), new Linear(3, 2));
            default -> throw new IllegalArgumentException(name);
        };
    }

    @SuppressWarnings("unchecked")
    static Map<String, Tensor> state(Golden.Case c) {
        Map<String, Tensor> sd = new LinkedHashMap<>();
        ((Map<String, Object>) ((Map<String, Object>) c.out()).get("state"))
                .forEach((k, v) -> sd.put(k, Golden.tensor((Map<String, Object>) v)));
        return sd;
    }

    @Test
    @SuppressWarnings("unchecked")
    void pyTorchStateDictsLoadAndReproduceOutputs() {
        int checked = 0;
        for (Golden.Case c : Golden.cases("nn.json")) {
            if (!c.op().equals("module")) continue;
            Module m = build((String) c.kwarg("module"));
            Map<String, Tensor> sd = state(c);
            // PyTorch's json keys are sorted; compare as sets, order is checked in ModuleTest
            assertEquals(
                    new java.util.TreeSet<>(sd.keySet()),
                    new java.util.TreeSet<>(m.stateDict().keySet()),
                    c.id());
            m.loadStateDict(sd);
            Map<String, Object> out = (Map<String, Object>) c.out();
            Tensor expected = Golden.tensor((Map<String, Object>) out.get("output"));
            Tensor got = m.call(c.tensorArg(0));
            assertArrayEquals(expected.shape(), got.shape(), c.id());
            assertArrayEquals(expected.toDoubleArray(), got.toDoubleArray(), 1e-5, c.id());
            assertEquals(out.get("repr"), m.toString(), c.id());
            checked++;
        }
        assertEquals(5, checked);
    }

    @Test
    void initialValuesDrawnLikePyTorch() {
        int checked = 0;
        for (Golden.Case c : Golden.cases("nn.json")) {
            if (!c.op().equals("init")) continue;
            Torch.manualSeed(((Number) c.kwarg("seed")).longValue());
            Module m = build((String) c.kwarg("module"));
            Map<String, Tensor> expected = state(c);
            for (var e : expected.entrySet()) {
                assertArrayEquals(
                        e.getValue().toDoubleArray(),
                        m.stateDict().get(e.getKey()).toDoubleArray(),
                        1e-6,
                        c.id() + " " + e.getKey());
            }
            checked++;
        }
        assertEquals(2, checked);
    }
}
