package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.RandomOps;
import org.jtorch.ops.ReductionOps;
import org.junit.jupiter.api.Test;

/** Graphs built and edited by hand: printing, lint, erase and replace, and the two passes. */
class GraphTest {
    private static Tensor x() {
        return Torch.tensor(new double[] {0.5, -1.0, 2.0});
    }

    private static Tensor y() {
        return Torch.tensor(new double[] {1.5, 4.0, -3.0});
    }

    @Test
    void aHandBuiltGraphPrintsLintsAndRuns() {
        Graph g = new Graph();
        Node a = g.placeholder("x");
        Node b = g.placeholder("y");
        Node sum = g.callFunction(PointwiseOps.ADD, a, b, 2.0);
        Node sin = g.callFunction(PointwiseOps.SIN, sum);
        g.output(sin);
        g.lint();
        assertEquals("""
                class GraphModule(torch.nn.Module):
                    def forward(self, x, y):
                        add = torch.ops.aten.add.Tensor(x, y, alpha=2.0)
                        sin = torch.ops.aten.sin.default(add)
                        return (sin,)
                """, g.toString());
        Tensor[] out = new GraphModule(g, Map.of()).call(x(), y());
        assertArrayEquals(Torch.add(x(), y(), 2.0).sin().toDoubleArray(), out[0].toDoubleArray());
    }

    @Test
    void argumentsEqualToTheirDefaultAreNotPrinted() {
        Graph g = new Graph();
        Node a = g.placeholder("x");
        g.output(g.callFunction(PointwiseOps.ADD, a, a, 1L));
        assertTrue(g.toString().contains("torch.ops.aten.add.Tensor(x, x)\n"), g.toString());
    }

    @Test
    void lintFindsMalformedGraphs() {
        Graph noOutput = new Graph();
        noOutput.placeholder("x");
        assertLintFails(noOutput, "0 output nodes");

        Graph arity = new Graph();
        arity.output(arity.callFunction(PointwiseOps.HYPOT, arity.placeholder("x")));
        assertLintFails(arity, "aten::hypot takes 2 to 2 arguments, got 1");

        Graph type = new Graph();
        Node x = type.placeholder("x");
        type.output(type.callFunction(PointwiseOps.HYPOT, x, "other"));
        assertLintFails(type, "argument other of type Tensor cannot be String");

        Graph order = new Graph();
        Node p = order.placeholder("x");
        Node later = order.callFunction(PointwiseOps.SIN, p);
        order.output(later);
        try (var _ = order.insertingBefore(later)) {
            order.callFunction(PointwiseOps.NEG, later);
        }
        assertLintFails(order, "node neg: uses sin before it is defined");

        Graph twoOutputs = new Graph();
        Node q = twoOutputs.placeholder("x");
        twoOutputs.output(q);
        twoOutputs.output(q);
        assertLintFails(twoOutputs, "the output is not the last node");

        Graph getitem = new Graph();
        Node r = getitem.placeholder("x");
        getitem.output(getitem.getitem(r, 0));
        assertLintFails(getitem, "reads an output of x, which calls no op");

        Graph beyond = new Graph();
        Node max = beyond.callFunction(ReductionOps.MAX_DIM, beyond.placeholder("x"), 0L, false);
        beyond.output(beyond.getitem(max, 2));
        assertLintFails(beyond, "reads output 2 of max, which has 2");
    }

    private static void assertLintFails(Graph g, String fault) {
        IllegalStateException e = assertThrows(IllegalStateException.class, g::lint);
        assertTrue(e.getMessage().contains(fault), e.getMessage());
    }

    @Test
    void insertReplaceAndErase() {
        Graph g = new Graph();
        Node a = g.placeholder("x");
        Node sin = g.callFunction(PointwiseOps.SIN, a);
        Node out = g.output(sin);
        Node cos;
        try (var _ = g.insertingAfter(sin)) {
            cos = g.callFunction(PointwiseOps.COS, a);
        }
        assertEquals(List.of(a, sin, cos, out), g.nodes());
        IllegalStateException used = assertThrows(IllegalStateException.class, () -> g.erase(sin));
        assertTrue(used.getMessage().contains("still used by [output]"), used.getMessage());
        assertEquals(1, sin.replaceAllUsesWith(cos));
        assertEquals(List.of(cos), out.args());
        assertEquals(List.of(out), cos.users());
        g.erase(sin);
        assertEquals(List.of(cos), a.users());
        g.lint();
        assertArrayEquals(x().cos().toDoubleArray(), new GraphModule(g, Map.of()).call(x())[0].toDoubleArray());
    }

    @Test
    void deadCodeEliminationRemovesUnusedChainsAndKeepsRandomOps() {
        Graph g = new Graph();
        Node a = g.placeholder("x");
        Node unusedSin = g.callFunction(PointwiseOps.SIN, a);
        g.callFunction(PointwiseOps.NEG, unusedSin);
        Node draw = g.callFunction(RandomOps.RAND, new long[] {3}, null, DType.FLOAT64, null);
        Node used = g.callFunction(PointwiseOps.COS, a);
        g.output(used);
        g.lint();
        assertEquals(2, DeadCodeElimination.run(g), "neg, then the sin only neg used");
        assertEquals(
                List.of("x", "rand", "cos", "output"),
                g.nodes().stream().map(Node::name).toList());
        assertTrue(g.nodes().contains(draw), "an unused draw still advances the generator");
        assertEquals(0, DeadCodeElimination.run(g));
    }

    @Test
    void commonSubexpressionEliminationMergesPureCallsOnly() {
        Graph g = new Graph();
        Node a = g.placeholder("x");
        Node s1 = g.callFunction(PointwiseOps.ADD, a, a, 1L);
        Node s2 = g.callFunction(PointwiseOps.ADD, a, a, 1L);
        Node s3 = g.callFunction(PointwiseOps.ADD, a, a, 1.0); // a float alpha: another call
        Node r1 = g.callFunction(RandomOps.RAND, new long[] {3}, null, DType.FLOAT64, null);
        Node r2 = g.callFunction(RandomOps.RAND, new long[] {3}, null, DType.FLOAT64, null);
        Node m1 = g.callFunction(PointwiseOps.MUL, s1, r1);
        Node m2 = g.callFunction(PointwiseOps.MUL, s2, r2);
        Node m3 = g.callFunction(PointwiseOps.MUL, s3, s2);
        g.output(m1, m2, m3);
        g.lint();
        Torch.manualSeed(3);
        Tensor[] before = new GraphModule(g, Map.of()).call(x());
        assertEquals(1, CommonSubexpressionElimination.run(g), "s2 into s1; the two draws stay apart");
        assertEquals(List.of(s1, r2), m2.args());
        assertEquals(List.of(s3, s1), m3.args());
        assertTrue(g.nodes().contains(r2));
        g.lint();
        Torch.manualSeed(3);
        Tensor[] after = new GraphModule(g, Map.of()).call(x());
        for (int i = 0; i < before.length; i++) assertArrayEquals(before[i].toDoubleArray(), after[i].toDoubleArray());
    }

    @Test
    void commonSubexpressionEliminationLeavesMutatingGraphsAlone() {
        GraphModule gm = Fx.makeFx(
                in -> {
                    Tensor before = in[0].sin();
                    in[0].add_(in[0]);
                    return new Tensor[] {before, in[0].sin()};
                },
                x());
        assertEquals(0, CommonSubexpressionElimination.run(gm.graph()), gm.printReadable());
    }
}
