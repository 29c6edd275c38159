package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code torch.isclose} and {@code torch.allclose} against PyTorch 2.13
 * (jtorch/src/test/python/make_golden_isclose.py): bool results element for element, allclose's answers, and errors in
 * PyTorch's words; every case through both the {@code Torch} and the {@code Tensor} forms.
 */
class CloseGoldenTest {
    private static double tolerance(Golden.Case c, String name) {
        return Golden.number(c.kwarg(name));
    }

    private static Object call(Golden.Case c, Tensor a, Tensor b, boolean viaTensor) {
        double rtol = tolerance(c, "rtol"), atol = tolerance(c, "atol");
        boolean equalNan = (Boolean) c.kwarg("equal_nan");
        return switch (c.op()) {
            case "isclose" ->
                viaTensor ? a.isclose(b, rtol, atol, equalNan) : Torch.isclose(a, b, rtol, atol, equalNan);
            case "allclose" ->
                viaTensor ? a.allclose(b, rtol, atol, equalNan) : Torch.allclose(a, b, rtol, atol, equalNan);
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    private static void run(Golden.Case c, boolean viaTensor) {
        Tensor a = c.tensorArg(0), b = c.tensorArg(1);
        DType before = Torch.getDefaultDtype();
        if (c.has("default_dtype")) Torch.setDefaultDtype(Golden.dtype((String) c.kwarg("default_dtype")));
        try {
            if (c.op().equals("allclose") && !c.expectsError()) {
                assertEquals(c.out(), call(c, a, b, viaTensor), c.id());
            } else {
                Golden.check(c, List.of(), true, () -> call(c, a, b, viaTensor));
            }
        } finally {
            Torch.setDefaultDtype(before);
        }
    }

    @TestFactory
    Stream<DynamicTest> matchesPyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases("isclose.json")) {
            tests.add(DynamicTest.dynamicTest(c.id(), () -> run(c, false)));
            tests.add(DynamicTest.dynamicTest(c.id() + " (Tensor method)", () -> run(c, true)));
        }
        return tests.stream();
    }

    @Test
    void defaultsArePyTorchs() {
        // 1 vs 1 + 1.5e-5: within rtol = 1e-05 of |other| only if other is the larger; 1e-8 is atol's whole margin
        Tensor a = Torch.tensor(new double[] {1.0, 0.0, 0.0}),
                b = Torch.tensor(new double[] {1.0 + 0.9e-5, 0.9e-8, 2e-8});
        assertArrayEquals(new long[] {1, 1, 0}, Torch.isclose(a, b).toLongArray());
        assertArrayEquals(new long[] {1, 1, 0}, a.isclose(b).toLongArray());
        assertFalse(Torch.allclose(a, b));
        assertTrue(a.narrow(0, 0, 2).allclose(b.narrow(0, 0, 2)));
    }

    @Test
    void resultIsBoolAndOutsideTheGraph() {
        Tensor a = Torch.tensor(new double[] {1.0, 2.0}).requiresGrad(true);
        Tensor out = Torch.isclose(a, a.detach());
        assertEquals(DType.BOOL, out.dtype());
        assertFalse(out.requiresGrad());
    }

    @Test
    void metaTensorsGiveTheBroadcastShape() {
        Tensor a = Torch.zeros(new long[] {2, 1, 3}, DType.FLOAT32, Device.META);
        Tensor b = Torch.zeros(new long[] {4, 1}, DType.FLOAT32, Device.META);
        Tensor out = Torch.isclose(a, b, 0.1, 0.1, true);
        assertArrayEquals(new long[] {2, 4, 3}, out.shape());
        assertEquals(DType.BOOL, out.dtype());
        assertEquals(Device.META, out.device());
    }

    @Test
    void errorsNameTheArgument() {
        Tensor a = Torch.ones(2);
        TorchException e = assertThrows(TorchException.class, () -> Torch.isclose(a, a, 0.0, -2.5, false));
        assertEquals("atol must be greater than or equal to zero, but got -2.5", e.getMessage());
        Tensor wide = Torch.ones(2).to(DType.FLOAT64);
        e = assertThrows(TorchException.class, () -> Torch.allclose(a, wide));
        assertEquals("Float did not match Double", e.getMessage());
    }
}
