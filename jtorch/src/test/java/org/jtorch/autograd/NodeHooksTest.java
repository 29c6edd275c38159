package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.graph.Edge;
import org.jtorch.utils.hooks.RemovableHandle;
import org.junit.jupiter.api.Test;

/** Post-accumulate-grad hooks on leaves and pre/post hooks on graph nodes, as in PyTorch. */
class NodeHooksTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    @Test
    void postAccumulateGradHooksSeeTheUpdatedGrad() {
        Tensor x = leaf(1, 2);
        List<double[]> seen = new ArrayList<>();
        RemovableHandle h =
                x.registerPostAccumulateGradHook(p -> seen.add(p.grad().toDoubleArray()));
        x.mul(2L).sum().backward();
        x.mul(3L).sum().backward(); // accumulates: the hook sees 2 + 3
        assertArrayEquals(new double[] {2, 2}, seen.get(0), 0);
        assertArrayEquals(new double[] {5, 5}, seen.get(1), 0);
        h.remove();
        x.sum().backward();
        assertEquals(2, seen.size());
        // an optimizer step inside backward, the hook's intended use
        Tensor w = leaf(1, 1);
        w.registerPostAccumulateGradHook(p -> {
            try (var _ = Torch.noGrad()) {
                p.sub_(p.grad().mul(0.5));
            }
            p.setGrad(null);
        });
        w.mul(Torch.tensor(new double[] {2, 4})).sum().backward();
        assertArrayEquals(new double[] {0, -1}, w.detach().toDoubleArray(), 0);
        assertEquals(null, w.grad());
    }

    @Test
    void postAccumulateGradHooksRefuseNonLeavesAndTensorsWithoutGrad() {
        TorchException nonLeaf =
                assertThrows(TorchException.class, () -> leaf(1).mul(2L).registerPostAccumulateGradHook(p -> {}));
        assertTrue(
                nonLeaf.getMessage().contains("post accumulate grad hooks cannot be registered on non-leaf tensors"));
        TorchException noGrad = assertThrows(
                TorchException.class, () -> Torch.tensor(new double[] {1}).registerPostAccumulateGradHook(p -> {}));
        assertTrue(noGrad.getMessage().contains("cannot register a hook on a tensor that doesn't require gradient"));
    }

    @Test
    void tensorHookHandlesRemoveTheirOwnRegistration() {
        Tensor x = leaf(1, 2);
        RemovableHandle onLeaf = x.registerHook(g -> g.mul(2L));
        x.sum().backward();
        assertArrayEquals(new double[] {2, 2}, x.grad().toDoubleArray(), 0);
        onLeaf.remove();
        onLeaf.remove(); // a second remove does nothing
        x.setGrad(null);
        x.sum().backward();
        assertArrayEquals(new double[] {1, 1}, x.grad().toDoubleArray(), 0);

        // the same function registered twice around another hook: removing the second registration keeps the first,
        // so the gradient is (g * 10) + 1, not (g + 1) * 10
        Tensor w = leaf(1, 2);
        Tensor y = w.mul(3L);
        java.util.function.UnaryOperator<Tensor> times10 = g -> g.mul(10L);
        y.registerHook(times10);
        y.registerHook(g -> g.add(1L));
        RemovableHandle second = y.registerHook(times10);
        second.remove();
        y.sum().backward(null, true, false);
        assertArrayEquals(new double[] {33, 33}, w.grad().toDoubleArray(), 0);

        Tensor v = leaf(1);
        v.registerHook(times10);
        v.registerHook(g -> g.add(1L));
        v.registerHook(times10).remove();
        v.sum().backward();
        assertArrayEquals(new double[] {11}, v.grad().toDoubleArray(), 0);
    }

    @Test
    void nextFunctionsNameTheNodesTheGradientsGoTo() {
        Tensor a = leaf(1, 2);
        Tensor y = a.mul(Torch.tensor(new double[] {3, 4}));
        List<Edge<Tensor>> next = y.gradFn().nextFunctions();
        assertEquals(2, next.size());
        assertSame(a.gradAccumulator(), next.get(0).node());
        assertEquals("AccumulateGrad", next.get(0).node().name());
        assertEquals(0, next.get(0).inputNr());
        assertNull(next.get(1)); // the constant factor needs no gradient
        Tensor z = y.exp();
        assertEquals(List.of(new Edge<>(y.gradFn(), 0)), z.gradFn().nextFunctions());
        assertEquals(List.of(), a.gradAccumulator().nextFunctions());
    }

    @Test
    void nodePrehookReplacesTheOutputGradientBeforeTheNodeRuns() {
        Tensor x = leaf(1, 2);
        Tensor y = x.mul(3L);
        y.gradFn().registerPrehook(g -> new Tensor[] {g[0].mul(2L)});
        y.sum().backward();
        assertArrayEquals(new double[] {6, 6}, x.grad().toDoubleArray(), 0);
    }

    @Test
    void nodeHookSeesBothSidesAndMayReplaceTheInputGradients() {
        Tensor a = leaf(1, 2), b = leaf(3, 4);
        Tensor y = a.mul(b);
        List<Tensor[]> outputsSeen = new ArrayList<>();
        RemovableHandle h = y.gradFn().registerHook((gradInputs, gradOutputs) -> {
            outputsSeen.add(gradOutputs);
            return new Tensor[] {gradInputs[0].mul(10L), gradInputs[1]};
        });
        y.sum().backward(null, true, false);
        assertArrayEquals(new double[] {30, 40}, a.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 2}, b.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 1}, outputsSeen.get(0)[0].toDoubleArray(), 0);
        h.remove();
        a.setGrad(null);
        y.sum().backward();
        assertArrayEquals(new double[] {3, 4}, a.grad().toDoubleArray(), 0);
    }

    @Test
    void aHookReturningTheWrongNumberOfGradientsIsRefused() {
        Tensor x = leaf(1);
        Tensor y = x.mul(2L);
        y.gradFn().registerHook((gi, go) -> new Tensor[] {gi[0], gi[0]});
        TorchException e = assertThrows(TorchException.class, () -> y.sum().backward());
        assertTrue(
                e.getMessage().contains("has returned an incorrect number of values (got 2, but expected 1)"),
                e.getMessage());
    }

    /**
     * An accumulator runs as soon as its gradient is complete (PyTorch gives AccumulateGrad the largest sequence
     * number), so a layer's post-accumulate hooks fire before the layers below it run their backward: what DDP's
     * overlap of communication with backward relies on. PyTorch 2.13 prints {@code ['l3.bias', 'l3.weight', 'h2',
     * 'l2.bias', 'l2.weight', 'h1', 'l1.bias', 'l1.weight']} for the same graph (tensor hooks on h1, h2 record when
     * backward reaches them).
     */
    @Test
    void accumulatorsRunAsSoonAsTheirGradientIsComplete() {
        Torch.manualSeed(0);
        org.jtorch.nn.Linear l1 = new org.jtorch.nn.Linear(3, 4),
                l2 = new org.jtorch.nn.Linear(4, 5),
                l3 = new org.jtorch.nn.Linear(5, 2);
        List<String> events = new ArrayList<>();
        for (var named :
                List.of(java.util.Map.entry("l1", l1), java.util.Map.entry("l2", l2), java.util.Map.entry("l3", l3))) {
            named.getValue().weight().registerPostAccumulateGradHook(p -> events.add(named.getKey() + ".weight"));
            named.getValue().bias().registerPostAccumulateGradHook(p -> events.add(named.getKey() + ".bias"));
        }
        Tensor h1 = l1.call(Torch.randn(2, 3)).tanh();
        h1.registerHook(g -> {
            events.add("h1");
            return g;
        });
        Tensor h2 = l2.call(h1).tanh();
        h2.registerHook(g -> {
            events.add("h2");
            return g;
        });
        l3.call(h2).sum().backward();
        assertEquals(
                List.of("l3.bias", "l3.weight", "h2", "l2.bias", "l2.weight", "h1", "l1.bias", "l1.weight"), events);
    }
}
