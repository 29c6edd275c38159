package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.optim.Adam;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The names and printed forms a PyTorch user expects, against PyTorch 2.13's own output
 * ({@code golden/conveniences.json}, written by {@code src/test/python/make_golden_conveniences.py}): tensors printed
 * with their autograd suffix, {@code torch.Size}, {@code tolist()}, {@code x.T} and {@code load_state_dict}'s result.
 * Each fixture key names the Java expression built here the way the script builds it in Python.
 */
class ConveniencesGoldenTest {
    private static final Map<String, Object> GOLDEN = Golden.fixture("conveniences.json");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(String name) {
        return (Map<String, Object>) GOLDEN.get(name);
    }

    private static Tensor leaf(double... values) {
        return Torch.tensor(values).to(DType.FLOAT32).requiresGrad(true);
    }

    /** The script's cases, in Java. */
    private static Map<String, Supplier<Tensor>> reprCases() {
        Map<String, Supplier<Tensor>> c = new LinkedHashMap<>();
        c.put("leaf", () -> leaf(1, 2, 3));
        c.put("leaf_float64", () -> Torch.tensor(new double[] {1, 2}).requiresGrad(true));
        c.put("mul_scalar", () -> leaf(1, 2, 3).mul(2.0));
        c.put("mul_tensor", () -> {
            Tensor x = leaf(1, 2, 3);
            return x.mul(x);
        });
        c.put("sum", () -> leaf(1, 2, 3).sum());
        c.put("mean", () -> leaf(1, 2, 3).mean());
        c.put("exp", () -> leaf(1, 2, 3).exp());
        c.put("view", () -> leaf(1, 2, 3).view(3, 1));
        c.put("mm", () -> {
            Tensor m = leaf(1, 2, 3, 4).detach().view(2, 2).requiresGrad(true);
            return m.mm(m);
        });
        c.put("to_float64", () -> leaf(1, 2, 3).to(DType.FLOAT64));
        c.put("add_inplace", () -> leaf(1, 2, 3).mul(1.0).add_(1.0));
        c.put("T", () -> leaf(1, 2, 3, 4).detach().view(2, 2).requiresGrad(true).T());
        c.put("detached", () -> leaf(1, 2, 3).mul(2.0).detach());
        c.put("empty_leaf", () -> Torch.zeros(0).requiresGrad(true));
        c.put("meta_leaf", () -> Torch.empty(new long[] {2, 3}, DType.FLOAT32, Device.META)
                .requiresGrad(true));
        c.put("long_line_float64", () -> {
            double[] v = new double[17];
            for (int i = 0; i < v.length; i++) v[i] = i / 7.0;
            return Torch.tensor(v).requiresGrad(true).mul(3.0);
        });
        c.put("no_grad_mul", () -> {
            Tensor x = leaf(1, 2, 3);
            try (var _ = Torch.noGrad()) {
                return x.mul(2.0);
            }
        });
        return c;
    }

    @TestFactory
    Stream<DynamicTest> tensorsPrintTheirAutogradSuffixAsPyTorchDoes() {
        Map<String, Object> expected = section("repr");
        Map<String, Supplier<Tensor>> cases = reprCases();
        assertEquals(expected.keySet(), cases.keySet(), "every fixture case has its Java counterpart");
        return cases.entrySet().stream()
                .map(e -> DynamicTest.dynamicTest(
                        e.getKey(),
                        () -> assertEquals(
                                expected.get(e.getKey()), e.getValue().get().toString())));
    }

    @Test
    void sizePrintsAsTorchSizeAndShapeStaysAnArray() {
        Map<String, Object> expected = section("size");
        assertEquals(expected.get("2x3"), Torch.ones(2, 3).size().toString());
        assertEquals(
                expected.get("scalar"),
                Torch.tensor(new double[] {1}).view().size().toString());
        assertEquals(expected.get("vector"), Torch.ones(5).size().toString());
        Size s = Torch.ones(2, 3).size();
        assertArrayEquals(new long[] {2, 3}, Torch.ones(2, 3).shape());
        assertEquals(Size.of(2, 3), s);
        assertNotEquals(Size.of(3, 2), s);
        assertEquals(3, s.get(-1));
        assertEquals(6, s.numel());
        assertEquals(2, s.length());
        assertThrows(IndexOutOfBoundsException.class, () -> s.get(2));
    }

    @Test
    void tolistNestsOneListPerDimension() {
        Map<String, Object> expected = section("tolist");
        assertEquals(expected.get("int_matrix"), Torch.arange(6).view(2, 3).tolist());
        assertEquals(
                expected.get("float_vector"),
                Torch.tensor(new float[] {0.5f, -1.25f}).tolist());
        assertEquals(
                expected.get("bool_vector"),
                Torch.tensor(new boolean[] {true, false}).tolist());
        assertEquals(
                expected.get("scalar"), Torch.tensor(new double[] {2.5}).view().tolist());
        assertEquals(expected.get("empty_rows"), Torch.zeros(2, 0).tolist());
    }

    @Test
    void capitalTReversesTheDimensionsAndWarnsOnceOffMatrices() {
        Map<String, Object> expected = section("T");
        Tensor t;
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            t = Torch.arange(24).view(2, 3, 4).T();
            assertEquals(1, rec.records().size());
            assertEquals(
                    Warnings.Category.USER_WARNING, rec.records().getFirst().category());
        }
        assertEquals(expected.get("shape"), toList(t.shape()));
        assertEquals(expected.get("data"), t.reshape(-1).tolist());
    }

    private static List<Long> toList(long[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }

    private static final class Two extends Module {
        Two() {
            register("a", new Linear(2, 2));
        }
    }

    @Test
    void loadStateDictResultPrintsAsPyTorchsIncompatibleKeys() {
        Map<String, Object> expected = section("incompatible_keys");
        Two model = new Two();
        Map<String, Tensor> state = model.stateDict();
        assertEquals(expected.get("all_matched"), model.loadStateDict(state).toString());
        Map<String, Tensor> partial = new LinkedHashMap<>();
        partial.put("a.weight", state.get("a.weight"));
        partial.put("b", Torch.zeros(1));
        assertEquals(
                expected.get("missing_and_unexpected"),
                model.loadStateDict(partial, false).toString());
    }

    @Test
    void dtypeConversionsNamedAfterPyTorchsMethods() {
        Tensor i = Torch.arange(3);
        assertEquals(DType.FLOAT32, i.toFloat().dtype());
        assertEquals(DType.FLOAT64, i.toDouble().dtype());
        assertEquals(DType.INT32, i.toInt().dtype());
        assertEquals(DType.FLOAT16, i.half().dtype());
        assertEquals(DType.BFLOAT16, i.bfloat16().dtype());
        assertEquals(List.of(false, true, true), i.bool().tolist());
        assertEquals(List.of(0L, 1L, 2L), i.toFloat().add(0.5).toLong().tolist());
        Tensor f = Torch.ones(2);
        assertSame(f, f.toFloat(), "as in PyTorch, no copy when the dtype is already float32");
    }

    @Test
    void arangeWithADtypeAndAdamWithALearningRate() {
        Tensor a = Torch.arange(12, DType.FLOAT32);
        assertEquals(DType.FLOAT32, a.dtype());
        assertEquals(66.0, a.sum().item());
        assertEquals(12, a.numel());
        // Adam's first step moves every parameter by lr against the sign of its gradient (m̂/√v̂ = g/|g|).
        Tensor p = Torch.tensor(new double[] {1.0, -2.0}).requiresGrad(true);
        Adam adam = new Adam(List.of(p), 1e-2);
        p.mul(Torch.tensor(new double[] {3.0, -5.0})).sum().backward();
        adam.step();
        assertArrayEquals(new double[] {1.0 - 1e-2, -2.0 + 1e-2}, p.detach().toDoubleArray(), 1e-7);
    }
}
