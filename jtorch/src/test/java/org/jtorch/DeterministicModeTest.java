package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.testing.Golden;
import org.jtorch.utils.deterministic.Deterministic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Torch.useDeterministicAlgorithms} against PyTorch 2.13 ({@code make_golden_determinism.py}): {@code put_}
 * without {@code accumulate}, the CPU op of PyTorch's list JTorch has, raises PyTorch's error before any argument check
 * (or warns with {@code warnOnly}), in forward and backward; with {@code accumulate} it runs. {@code empty} and
 * {@code emptyLike} fill NaN, the largest integer or true under the flag with {@code fill_uninitialized_memory}. The
 * same fixture pins {@code put}/{@code put_} themselves: values, gradients and errors.
 */
class DeterministicModeTest {
    @AfterEach
    void restore() {
        Torch.useDeterministicAlgorithms(false);
        Deterministic.setFillUninitializedMemory(true);
    }

    static Stream<Golden.Case> cases() {
        return Golden.cases("determinism.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        if (c.out() instanceof Map<?, ?> m && m.containsKey("warning")) {
            checkWarning(c, (String) m.get("warning"));
            return;
        }
        if (c.id().endsWith("/uint64")) {
            checkUint64Max(c);
            return;
        }
        Golden.check(c, List.of(), true, () -> run(c));
    }

    /**
     * uint64's largest value, 2^64 - 1, is beyond the fixture reader's longs (it reads it as the double 2^64): its
     * elements must have all 64 bits set.
     */
    @SuppressWarnings("unchecked")
    private static void checkUint64Max(Golden.Case c) {
        Map<String, Object> expected = (Map<String, Object>) ((List<Object>) c.out()).get(0);
        for (Object v : (List<Object>) expected.get("data")) assertEquals(0x1p64, ((Number) v).doubleValue());
        Tensor got = (Tensor) ((List<?>) run(c)).get(0);
        assertEquals(DType.UINT64, got.dtype());
        for (long bits : got.toLongArray()) assertEquals(-1L, bits, c.id());
    }

    private static Object run(Golden.Case c) {
        return switch (c.op()) {
            case "put" -> put(c);
            case "put_" -> {
                if (c.has("warn_only")) Torch.useDeterministicAlgorithms(true, (Boolean) c.kwarg("warn_only"));
                yield List.of(putInPlace(c));
            }
            case "empty" -> {
                Torch.useDeterministicAlgorithms(true);
                yield List.of(comparable(Torch.empty(new long[] {2, 3}, (DType) c.kwarg("dtype"), Device.CPU)));
            }
            case "empty_like" -> {
                Tensor like = c.tensorArg(0);
                Torch.useDeterministicAlgorithms(true);
                yield List.of(comparable(Torch.emptyLike(like)));
            }
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    private static List<Tensor> put(Golden.Case c) {
        Tensor self = c.tensorArg(0), index = c.tensorArg(1), source = c.tensorArg(2);
        boolean accumulate = (Boolean) c.kwarg("accumulate");
        if (!self.isFloatingPoint()) return List.of(self.put(index, source, accumulate));
        self.requiresGrad(true);
        source.requiresGrad(true);
        Tensor out = self.put(index, source, accumulate);
        c.tensorArg(3).mul(out).sum().backward();
        return List.of(out.detach(), self.grad(), source.grad());
    }

    private static Tensor putInPlace(Golden.Case c) {
        Tensor self = c.tensorArg(0);
        if (Boolean.TRUE.equals(c.kwarg("transpose_self"))) {
            self = self.t().contiguous().t();
            assertFalse(self.isContiguous());
        }
        return self.put_(c.tensorArg(1), c.tensorArg(2), (Boolean) c.kwarg("accumulate"));
    }

    /** The fixture stores float8 results as float32 (their values are exact there). */
    private static Tensor comparable(Tensor t) {
        return t.dtype().isFloat8() ? t.to(DType.FLOAT32) : t;
    }

    private static void checkWarning(Golden.Case c, String message) {
        try (WarningRecorder w = Warnings.catchWarnings()) {
            run(c);
            assertEquals(1, w.records().size(), c.id() + ": one warning");
            assertEquals(Warnings.Category.USER_WARNING, w.records().get(0).category());
            assertEquals(message, w.records().get(0).message());
        }
    }

    @Test
    void putBackwardAlertsAsPyTorchsDoes() {
        // derivatives.yaml writes put's self gradient with put(accumulate=False): PyTorch's backward raises too
        Tensor x = Torch.randn(5).requiresGrad(true), s = Torch.randn(2).requiresGrad(true);
        Tensor y = x.put(Torch.tensor(new long[] {0, 1}), s);
        Torch.useDeterministicAlgorithms(true);
        TorchException e = assertThrows(TorchException.class, () -> y.sum().backward());
        assertTrue(e.getMessage().startsWith("put_ does not have a deterministic implementation"), e.getMessage());
    }

    @Test
    void metaTensorsDoNotAlert() {
        // PyTorch's meta kernel of put_ computes no values, so it has nothing nondeterministic to report
        Torch.useDeterministicAlgorithms(true);
        Tensor meta = Torch.zeros(new long[] {5}, DType.FLOAT32, Device.META);
        Tensor index = Torch.zeros(new long[] {2}, DType.INT64, Device.META);
        Tensor source = Torch.zeros(new long[] {2}, DType.FLOAT32, Device.META);
        assertArrayEquals(new long[] {5}, meta.put_(index, source).shape());
    }

    @Test
    void flagsReadBack() {
        assertFalse(Torch.areDeterministicAlgorithmsEnabled());
        Torch.useDeterministicAlgorithms(true, true);
        assertTrue(Torch.areDeterministicAlgorithmsEnabled());
        assertTrue(Torch.isDeterministicAlgorithmsWarnOnlyEnabled());
        Torch.useDeterministicAlgorithms(true);
        assertFalse(Torch.isDeterministicAlgorithmsWarnOnlyEnabled());
        assertTrue(Deterministic.fillUninitializedMemory(), "PyTorch's default");
    }

    @Test
    void emptyIsNotFilledWithoutBothFlags() {
        // PyTorch leaves the memory alone then; JTorch's fresh storage is zeroed
        assertEquals(0.0, Torch.empty(3).sum().item());
        Torch.useDeterministicAlgorithms(true);
        Deterministic.setFillUninitializedMemory(false);
        assertEquals(0.0, Torch.empty(3).sum().item());
        assertEquals(
                0L,
                Torch.emptyLike(Torch.ones(new long[] {3}, DType.INT64)).sum().longItem());
        Deterministic.setFillUninitializedMemory(true);
        assertTrue(Double.isNaN(Torch.empty(3).sum().item()));
    }
}
