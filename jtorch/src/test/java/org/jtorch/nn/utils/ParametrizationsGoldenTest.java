package org.jtorch.nn.utils;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code parametrizations.weight_norm} and {@code spectral_norm} against PyTorch 2.13 ({@code golden/parametrize.json},
 * written by {@code src/test/python/make_golden_parametrize.py}): from the same initial state (and, for spectral norm,
 * the same seed for u and v) the state-dict keys in order, the registered originals, the outputs of successive training
 * forwards, the gradients of every parameter, the power-iteration buffers, the evaluation output, and the layout and
 * value after {@code remove_parametrizations} are PyTorch's.
 */
class ParametrizationsGoldenTest {
    private static final Map<String, Object> GOLDEN = Golden.fixture("parametrize.json");

    private static Module build(String id) {
        Module m = id.contains("conv") ? new Conv2d(2, 3, id.startsWith("spectral") ? 3 : 2) : null;
        if (m == null) m = id.startsWith("spectral") ? new Linear(5, 4) : new Linear(4, 3);
        return m.toDouble();
    }

    private static Consumer<Module> parametrization(String id) {
        return switch (id) {
            case "weight_norm_linear_dim0", "weight_norm_conv_dim0" -> Parametrizations::weightNorm;
            case "weight_norm_linear_dim1" -> m -> Parametrizations.weightNorm(m, "weight", 1);
            case "weight_norm_linear_none" -> m -> Parametrizations.weightNorm(m, "weight", null);
            case "spectral_norm_linear", "spectral_norm_conv" -> Parametrizations::spectralNorm;
            case "spectral_norm_linear_dim1_2iter" -> m -> Parametrizations.spectralNorm(m, "weight", 2, 1e-12, 1);
            default -> throw new IllegalArgumentException(id);
        };
    }

    private static long seed(String id) {
        return switch (id) {
            case "spectral_norm_linear" -> 7;
            case "spectral_norm_linear_dim1_2iter" -> 8;
            case "spectral_norm_conv" -> 9;
            default -> 0;
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> tensors(Object json) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        ((Map<String, Object>) json).forEach((k, v) -> out.put(k, (Tensor) Golden.decode(v)));
        return out;
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> parametrizedModulesMatchPyTorch() {
        return ((List<Map<String, Object>>) GOLDEN.get("cases"))
                .stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> check(c)));
    }

    @SuppressWarnings("unchecked")
    private static void check(Map<String, Object> c) {
        String id = (String) c.get("id");
        Module m = build(id);
        m.loadStateDict(tensors(c.get("initial")));
        Torch.manualSeed(seed(id));
        parametrization(id).accept(m);
        Map<String, Object> registered = (Map<String, Object>) c.get("registered");
        assertEquals(registered.get("keys"), new ArrayList<>(m.stateDict().keySet()), id + " keys");
        assertEquals(
                registered.get("parameters"),
                new ArrayList<>(m.namedParameters().keySet()),
                id + " parameters");
        assertState(id + " registered", tensors(registered.get("state")), m.stateDict());
        Tensor x = (Tensor) Golden.decode(c.get("x"));
        List<Object> outputs = (List<Object>) c.get("outputs");
        for (int i = 0; i < outputs.size(); i++) {
            m.zeroGrad();
            Tensor out = m.call(x);
            Tensor go = Torch.linspace(-1, 1, out.numel(), DType.FLOAT64).view(out.shape());
            out.mul(go).sum().backward();
            assertClose(id + " output " + i, (Tensor) Golden.decode(outputs.get(i)), out);
        }
        Map<String, Tensor> grads = tensors(c.get("grads"));
        grads.forEach(
                (k, g) -> assertClose(id + " grad " + k, g, m.getParameter(k).grad()));
        assertState(id + " after forwards", tensors(c.get("after")), m.stateDict());
        m.eval();
        try (var _ = Torch.noGrad()) {
            assertClose(id + " eval", (Tensor) Golden.decode(c.get("eval")), m.call(x));
        }
        m.train();
        // Removal reads the weight once more, in training mode: spectral norm's power iteration runs once more, as in
        // PyTorch, so the weight must not be read here before.
        Parametrize.removeParametrizations(m, "weight");
        Map<String, Object> removed = (Map<String, Object>) c.get("removed");
        assertEquals(removed.get("keys"), new ArrayList<>(m.stateDict().keySet()), id + " keys after remove");
        assertState(id + " removed", tensors(removed.get("state")), m.stateDict());
        assertFalse(Parametrize.isParametrized(m));
        assertEquals(2, m.parameters().size());
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
                    Math.abs(e[i] - a[i]) <= 1e-12 + 1e-9 * Math.abs(e[i]),
                    where + "[" + i + "]: expected " + e[i] + " but was " + a[i]);
        }
    }

    /** A parametrization with a right inverse (PyTorch's documentation example): symmetric matrices. */
    static final class Symmetric extends Module implements Parametrize.RightInverse {
        @Override
        public Tensor forward(Tensor x) {
            return x.triu().add(x.triu(1).mT());
        }

        @Override
        public Tensor rightInverse(Tensor a) {
            return a.triu();
        }
    }

    @Test
    void aOneTensorParametrizationKeepsTheOriginalObjectAndAssignsThroughTheRightInverse() {
        Linear m = new Linear(3, 3);
        Tensor weight = m.weight();
        Parametrize.registerParametrization(m, "weight", new Symmetric());
        assertSame(weight, m.getParameter("parametrizations.weight.original"));
        assertEquals(
                List.of("bias", "parametrizations.weight.original"),
                new ArrayList<>(m.stateDict().keySet()));
        Tensor w = m.weight();
        assertArrayEquals(w.toDoubleArray(), w.mT().contiguous().toDoubleArray());
        Tensor a = Torch.tensor(new float[][] {{1, 2, 3}, {2, 4, 5}, {3, 5, 6}});
        Parametrize.assign(m, "weight", a);
        assertArrayEquals(a.toDoubleArray(), m.weight().toDoubleArray());
        try (var _ = Parametrize.cached()) {
            assertSame(m.weight(), m.weight(), "computed once within cached()");
        }
        assertFalse(m.weight() == m.weight(), "computed on each read outside cached()");
        Parametrize.removeParametrizations(m, "weight", false);
        assertSame(weight, m.weight(), "the original object is the parameter again");
        assertArrayEquals(a.triu().toDoubleArray(), m.weight().toDoubleArray());
        assertEquals(List.of("bias", "weight"), new ArrayList<>(m.stateDict().keySet()));
    }

    @Test
    void refusedRegistrationsAndRemovalsSayWhy() {
        Linear m = new Linear(3, 2);
        TorchException missing = assertThrows(
                TorchException.class, () -> Parametrize.registerParametrization(m, "nope", new Symmetric()));
        assertTrue(missing.getMessage().contains("with name 'nope'"), missing.getMessage());
        Module transpose = new Module() {
            @Override
            public Tensor forward(Tensor x) {
                return x.t();
            }
        };
        TorchException shape =
                assertThrows(TorchException.class, () -> Parametrize.registerParametrization(m, "weight", transpose));
        assertTrue(shape.getMessage().contains("may not change the shape"), shape.getMessage());
        assertFalse(Parametrize.isParametrized(m), "a refused registration leaves the module as it was");
        Parametrizations.weightNorm(m);
        TorchException multi =
                assertThrows(TorchException.class, () -> Parametrize.removeParametrizations(m, "weight", false));
        assertTrue(multi.getMessage().contains("sequence of tensors"), multi.getMessage());
        assertThrows(TorchException.class, () -> Parametrize.removeParametrizations(m, "bias"));
    }
}
