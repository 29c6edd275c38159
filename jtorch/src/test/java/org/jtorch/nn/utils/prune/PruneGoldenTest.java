package org.jtorch.nn.utils.prune;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.optim.SGD;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code torch.nn.utils.prune} against PyTorch 2.13 ({@code golden/prune.json}, written by
 * {@code src/test/python/make_golden_prune.py}): from the same initial weights, the same masks (L1 with fractions,
 * counts, half-to-even rounding and importance scores, random pruning on the same seed, Ln structured, iterative
 * pruning through the container, global pruning), the same {@code weight_orig}/{@code weight_mask} layout and
 * state-dict keys, the same outputs and gradients through the forward pre-hook, and the layout after {@code remove}.
 */
class PruneGoldenTest {
    private static final Map<String, Object> GOLDEN = Golden.fixture("prune.json");

    private static List<Module> build(String id) {
        return switch (id) {
            case "l1_half_to_even" -> List.of(new Linear(5, 2));
            case "ln_structured_conv", "ln_structured_then_ln_inf" -> List.of(new Conv2d(3, 4, 2));
            case "global_l1", "global_after_l1" -> List.of(new Linear(5, 4), new Linear(5, 3));
            default -> List.of(new Linear(5, 4));
        };
    }

    private static Consumer<List<Module>> steps(String id) {
        return switch (id) {
            case "l1_fraction" -> ms -> Prune.l1Unstructured(ms.get(0), "weight", 0.3);
            case "l1_count_then_l1" ->
                ms -> {
                    Prune.l1Unstructured(ms.get(0), "weight", 3L);
                    Prune.l1Unstructured(ms.get(0), "weight", 0.5);
                };
            case "l1_half_to_even" -> ms -> Prune.l1Unstructured(ms.get(0), "weight", 0.25);
            case "l1_importance" ->
                ms -> {
                    Torch.manualSeed(5);
                    Prune.l1Unstructured(ms.get(0), "weight", 7L, Torch.rand(4, 5));
                };
            case "random" ->
                ms -> {
                    Torch.manualSeed(3);
                    Prune.randomUnstructured(ms.get(0), "weight", 0.4);
                };
            case "ln_structured_conv" -> ms -> Prune.lnStructured(ms.get(0), "weight", 0.5, 2, 0);
            case "ln_structured_then_ln_inf" ->
                ms -> {
                    Prune.lnStructured(ms.get(0), "weight", 1L, 2, 0);
                    Prune.lnStructured(ms.get(0), "weight", 0.5, Double.POSITIVE_INFINITY, 0);
                };
            case "ln_structured_l1_dim1" -> ms -> Prune.lnStructured(ms.get(0), "weight", 2L, 1, 1);
            case "l1_then_structured" ->
                ms -> {
                    Prune.l1Unstructured(ms.get(0), "weight", 4L);
                    Prune.lnStructured(ms.get(0), "weight", 1L, 2, 0);
                };
            case "global_l1" -> ms -> Prune.globalUnstructured(targets(ms), () -> new L1Unstructured(0.4));
            case "global_after_l1" ->
                ms -> {
                    Prune.l1Unstructured(ms.get(0), "weight", 5L);
                    Prune.globalUnstructured(targets(ms), () -> new L1Unstructured(12L));
                };
            default -> throw new IllegalArgumentException(id);
        };
    }

    private static List<Prune.Target> targets(List<Module> ms) {
        return List.of(new Prune.Target(ms.get(0), "weight"), new Prune.Target(ms.get(1), "weight"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> tensors(Object json) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        ((Map<String, Object>) json).forEach((k, v) -> out.put(k, (Tensor) Golden.decode(v)));
        return out;
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> masksLayoutAndGradientsArePyTorchs() {
        return ((List<Map<String, Object>>) GOLDEN.get("cases"))
                .stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> check(c)));
    }

    @SuppressWarnings("unchecked")
    private static void check(Map<String, Object> c) {
        String id = (String) c.get("id");
        List<Module> modules = build(id);
        List<Object> initial = (List<Object>) c.get("initial");
        for (int i = 0; i < modules.size(); i++) modules.get(i).loadStateDict(tensors(initial.get(i)));
        steps(id).accept(modules);
        Tensor x = (Tensor) Golden.decode(c.get("x"));
        List<Map<String, Object>> pruned = (List<Map<String, Object>>) c.get("pruned");
        List<Map<String, Object>> removed = (List<Map<String, Object>>) c.get("removed");
        for (int i = 0; i < modules.size(); i++) {
            Module m = modules.get(i);
            String where = id + " module " + i;
            Map<String, Object> p = pruned.get(i);
            assertEquals(p.get("keys"), new ArrayList<>(m.stateDict().keySet()), where + " keys");
            assertEquals(
                    p.get("parameters"), new ArrayList<>(m.namedParameters().keySet()), where + " parameters");
            assertEquals(p.get("is_pruned"), Prune.isPruned(m), where + " is_pruned");
            assertState(where, tensors(p.get("state")), m.stateDict());
            m.zeroGrad();
            Tensor out = m.call(x);
            out.sum().backward();
            assertClose(where + " output", (Tensor) Golden.decode(p.get("output")), out);
            tensors(p.get("grads"))
                    .forEach((k, g) -> assertClose(
                            where + " grad " + k, g, m.getParameter(k).grad()));
            Tensor orig = m.getParameter("weight_orig");
            Prune.remove(m, "weight");
            assertSame(orig, m.getParameter("weight"), where + ": weight_orig becomes the parameter weight");
            assertEquals(
                    removed.get(i).get("keys"), new ArrayList<>(m.stateDict().keySet()), where + " keys after remove");
            assertState(where + " removed", tensors(removed.get(i).get("state")), m.stateDict());
        }
    }

    private static void assertState(String where, Map<String, Tensor> expected, Map<String, Tensor> actual) {
        assertEquals(new TreeSet<>(expected.keySet()), new TreeSet<>(actual.keySet()), where);
        expected.forEach((k, e) -> assertClose(where + " " + k, e, actual.get(k)));
    }

    private static void assertClose(String where, Tensor expected, Tensor actual) {
        assertEquals(expected.dtype(), actual.dtype(), where + ": dtype");
        assertArrayEquals(expected.shape(), actual.shape(), where + ": shape");
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertTrue(
                    Math.abs(e[i] - a[i]) <= 1e-6 + 1e-5 * Math.abs(e[i]),
                    where + "[" + i + "]: expected " + e[i] + " but was " + a[i]);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void refusedArgumentsRaisePyTorchsMessages() {
        Map<String, Object> errors = (Map<String, Object>) GOLDEN.get("errors");
        assertEquals(
                errors.get("amount_fraction"),
                assertThrows(TorchException.class, () -> Prune.l1Unstructured(new Linear(2, 2), "weight", 1.5))
                        .getMessage());
        Linear m = new Linear(2, 2);
        assertEquals(
                errors.get("amount_count"),
                assertThrows(TorchException.class, () -> Prune.l1Unstructured(m, "weight", 5L))
                        .getMessage());
        assertEquals(List.of("bias", "weight"), new ArrayList<>(m.stateDict().keySet()), "re-registered, as PyTorch");
        assertEquals(
                errors.get("structured_1d"),
                assertThrows(TorchException.class, () -> Prune.lnStructured(new Linear(2, 2), "bias", 1L, 2, 0))
                        .getMessage());
        assertEquals(
                errors.get("remove_unpruned"),
                assertThrows(TorchException.class, () -> Prune.remove(new Linear(2, 2), "weight"))
                        .getMessage());
    }

    @Test
    void anOptimizerBuiltBeforePruningKeepsTrainingTheSameParameter() {
        Linear m = new Linear(4, 3);
        Tensor weight = m.weight();
        SGD opt = new SGD(m.parameters(), SGD.Options.defaults().lr(0.1));
        Prune.l1Unstructured(m, "weight", 6L);
        assertSame(weight, m.getParameter("weight_orig"));
        m.call(Torch.ones(2, 4)).sum().backward();
        opt.step();
        Tensor mask = m.getBuffer("weight_mask");
        double[] w = m.weight().toDoubleArray(), k = mask.toDoubleArray();
        for (int i = 0; i < w.length; i++)
            if (k[i] == 0) assertEquals(0.0, Math.abs(w[i]), "pruned elements stay zero");
    }
}
