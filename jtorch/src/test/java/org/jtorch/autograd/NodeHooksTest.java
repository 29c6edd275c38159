package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Post-accumulate-grad hooks on leaves and pre-/post-hooks on graph nodes, with PyTorch's order and effects. */
class NodeHooksTest {
    private static Tensor leaf(double... v) { return Torch.tensor(v).requiresGrad(true); }

    @Test
    void postAccumulateGradHookSeesTheUpdatedGrad() {
        Tensor x = leaf(1, 2);
        List<double[]> seen = new ArrayList<>();
        RemovableHandle h = x.registerPostAccumulateGradHook(t -> seen.add(t.grad().toDoubleArray()));
        x.mul(3.0).sum().backward();
        x.mul(2.0).sum().backward();
        assertEquals(2, seen.size());
        assertArrayEquals(new double[] {3, 3}, seen.get(0));
        assertArrayEquals(new double[] {5, 5}, seen.get(1), "after accumulation, not the incoming gradient");
        h.remove();
        x.sum().backward();
        assertEquals(2, seen.size(), "removed");
    }

    @Test
    void postAccumulateGradHookCanStepTheParameter() {
        // the fused-optimizer pattern: update the leaf in place and drop its grad inside backward
        Tensor w = leaf(1, 1);
        w.registerPostAccumulateGradHook(t -> {
            try (var off = Torch.noGrad()) {
                t.sub_(t.grad().mul(0.5));
            }
            t.setGrad(null);
        });
        w.mul(Torch.tensor(new double[] {2, 4})).sum().backward();
        assertArrayEquals(new double[] {0, -1}, w.toDoubleArray());
        assertNull(w.grad());
    }

    @Test
    void postAccumulateGradHookIsForLeavesThatRequireGrad() {
        Tensor x = leaf(1, 2);
        TorchException e = assertThrows(TorchException.class, () -> x.mul(2.0).registerPostAccumulateGradHook(t -> { }));
        assertEquals("post accumulate grad hooks cannot be registered on non-leaf tensors", e.getMessage());
        assertThrows(TorchException.class, () -> Torch.tensor(new double[] {1}).registerPostAccumulateGradHook(t -> { }));
    }

    @Test
    void postAccumulateGradHookDoesNotRunForAutogradGrad() {
        Tensor x = leaf(1, 2);
        List<Tensor> seen = new ArrayList<>();
        x.registerPostAccumulateGradHook(seen::add);
        Autograd.grad(x.sum(), x, false);
        assertTrue(seen.isEmpty(), "grad() accumulates into no leaf");
    }

    @Test
    void nodePrehookReplacesTheGradientOutputs() {
        Tensor x = leaf(1, 2);
        Tensor y = x.mul(x);
        List<String> order = new ArrayList<>();
        y.registerHook(g -> { order.add("tensor"); return g.mul(10.0); });
        y.retainGrad();
        RemovableHandle h = y.gradFn().registerPrehook(gs -> {
            order.add("node-pre");
            assertArrayEquals(new double[] {10, 10}, gs.get(0).toDoubleArray(), "after the tensor hook");
            return List.of(gs.get(0).add(1.0));
        });
        y.sum().backward();
        assertEquals(List.of("tensor", "node-pre"), order);
        assertArrayEquals(new double[] {22, 44}, x.grad().toDoubleArray(), "2x * 11");
        assertArrayEquals(new double[] {11, 11}, y.grad().toDoubleArray(), "retain_grad sees the final gradient");
        h.close();
    }

    @Test
    void nodePostHookSeesInputsAndOutputsAndMayReplaceInputs() {
        Tensor x = leaf(1, 2), z = leaf(3, 4);
        Tensor y = x.mul(z);
        List<List<Tensor>> seen = new ArrayList<>();
        y.gradFn().registerHook((gradInputs, gradOutputs) -> {
            seen.add(gradInputs);
            seen.add(gradOutputs);
            return List.of(gradInputs.get(0).neg(), gradInputs.get(1));
        });
        y.sum().backward();
        assertArrayEquals(new double[] {3, 4}, seen.get(0).get(0).toDoubleArray());
        assertArrayEquals(new double[] {1, 2}, seen.get(0).get(1).toDoubleArray());
        assertArrayEquals(new double[] {1, 1}, seen.get(1).get(0).toDoubleArray());
        assertArrayEquals(new double[] {-3, -4}, x.grad().toDoubleArray());
        assertArrayEquals(new double[] {1, 2}, z.grad().toDoubleArray());
    }

    @Test
    void aHookReturningTheWrongNumberOfGradientsIsRefused() {
        Tensor x = leaf(1, 2);
        Tensor y = x.mul(2.0);
        y.gradFn().registerHook((in, out) -> List.of());
        TorchException e = assertThrows(TorchException.class, () -> y.sum().backward());
        assertTrue(e.getMessage().contains("hook returned 0 gradients, expected 1"), e.getMessage());
    }
}
