package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.ShapeOps;
import org.junit.jupiter.api.Test;

/** {@link Decompositions}: the core set, in-place calls of table ops, and composites written into graphs by hand. */
class DecompositionsTest {
    private static Tensor x() {
        return Torch.arange(6).to(DType.FLOAT32).mul(0.7).sub(2.0).view(2, 3);
    }

    private static List<String> targets(GraphModule gm) {
        return gm.graph().nodes().stream()
                .filter(n -> n.op().equals("call_function"))
                .map(Node::target)
                .toList();
    }

    @Test
    void theCoreSetHoldsKernelOpsOutsideTheTable() {
        assertTrue(Decompositions.isCore("aten.mul.Tensor"));
        assertTrue(Decompositions.isCore("aten.slice.Tensor"));
        assertFalse(Decompositions.isCore("aten.silu.default"), "a key of the table");
        assertFalse(Decompositions.isCore("aten.reshape.default"), "a composite");
        assertFalse(Decompositions.isCore("aten.no_such_op.default"));
    }

    @Test
    void anInPlaceCallOfATableOpBecomesTheRuleAndACopyIntoItsTensor() {
        Function<Tensor[], Tensor[]> fn = in -> {
            Dispatcher.callOut(PointwiseOps.SQUARE, new Tensor[] {in[0]}, in[0]);
            return new Tensor[] {in[0].add(1.0)};
        };
        Tensor eagerInput = x();
        Tensor eager = fn.apply(new Tensor[] {eagerInput})[0];
        GraphModule d = Decompositions.decompose(Fx.makeFx(fn, x()), Decompositions.coreAtenDecompositions(), x());
        assertEquals(List.of("aten.mul.Tensor", "aten._to_copy.out", "aten.add.Tensor"), targets(d));
        Tensor input = x();
        Tensor out = d.call(input)[0];
        assertArrayEquals(eager.toDoubleArray(), out.toDoubleArray());
        assertArrayEquals(eagerInput.toDoubleArray(), input.toDoubleArray());
    }

    @Test
    void aCompositeNodeIsReplacedByTheOpsItRunsAndATableOpInsideItByItsRule() {
        Graph g = new Graph();
        Node a = g.placeholder("x");
        a.setMeta(TensorMeta.of(x()));
        Node flat = g.callFunction(ShapeOps.RESHAPE, a, new long[] {6});
        g.output(g.callFunction(PointwiseOps.SILU, flat));
        GraphModule gm = new GraphModule(g, java.util.Map.of());
        GraphModule d = Decompositions.decompose(gm, Decompositions.coreAtenDecompositions(), x());
        assertEquals(List.of("aten.view.default", "aten.sigmoid.default", "aten.mul.Tensor"), targets(d));
        Tensor eager = x().reshape(6).mul(x().reshape(6).sigmoid());
        assertArrayEquals(eager.toDoubleArray(), d.call(x())[0].toDoubleArray());
    }
}
