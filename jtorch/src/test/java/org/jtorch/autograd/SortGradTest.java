package org.jtorch.autograd;

import static org.jtorch.autograd.GradCases.assertGrad;
import static org.jtorch.autograd.GradCases.gradOf;
import static org.jtorch.autograd.GradCases.layouts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ValuesIndices;
import org.jtorch.ops.SearchOps;
import org.jtorch.ops.SortOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Backward rules of the order ops whose values are differentiable (sort, msort, topk, kthvalue, cummax, cummin):
 * gradcheck and gradgradcheck (float64, distinct values so that no tie sits at a kink) over arguments and layouts,
 * closed forms, and the ops whose outputs are integers or counts.
 */
class SortGradTest {
    private record Op(String name, Function<Tensor, Tensor> fn, long[]... shapes) {}

    private static long[] s(long... shape) {
        return shape;
    }

    private static List<Op> ops() {
        List<Op> ops = new ArrayList<>();
        long[][] shapes = {s(5), s(3, 4), s(2, 3, 4)};
        ops.add(new Op("sort()", x -> SortOps.sort(x).values(), s(), s(5), s(3, 4)));
        ops.add(new Op("sort(0, descending)", x -> SortOps.sort(x, 0, true).values(), shapes));
        ops.add(new Op("sort(1)", x -> SortOps.sort(x, 1).values(), s(3, 4), s(2, 3, 4)));
        ops.add(new Op("msort", SortOps::msort, shapes));
        ops.add(new Op("topk(2)", x -> SortOps.topk(x, 2).values(), shapes));
        ops.add(new Op("topk(2, 0, smallest)", x -> SortOps.topk(x, 2, 0, false).values(), shapes));
        ops.add(new Op("topk(0)", x -> SortOps.topk(x, 0).values(), s(3, 4)));
        ops.add(new Op(
                "kthvalue(1) of a 0-d tensor", x -> SortOps.kthvalue(x, 1).values(), s()));
        for (boolean keep : new boolean[] {false, true}) {
            ops.add(new Op(
                    "kthvalue(2, -1" + (keep ? ", keepdim)" : ")"),
                    x -> SortOps.kthvalue(x, 2, -1, keep).values(),
                    shapes));
            ops.add(new Op(
                    "kthvalue(3, 0" + (keep ? ", keepdim)" : ")"),
                    x -> SortOps.kthvalue(x, 3, 0, keep).values(),
                    s(5),
                    s(3, 4)));
        }
        for (long dim : new long[] {0, -1}) {
            ops.add(new Op("cummax(" + dim + ")", x -> SortOps.cummax(x, dim).values(), shapes));
            ops.add(new Op("cummin(" + dim + ")", x -> SortOps.cummin(x, dim).values(), shapes));
        }
        ops.add(new Op("cummax of a 0-d tensor", x -> SortOps.cummax(x, 0).values(), s()));
        return ops;
    }

    @TestFactory
    Stream<DynamicTest> gradcheckAndGradgradcheckOverArgumentsAndLayouts() {
        return ops().stream().flatMap(op -> Stream.of(op.shapes())
                .flatMap(shape -> layouts(shape).stream())
                .flatMap(layout -> GradCases.checks(op.name(), layout, op.fn())));
    }

    private static Tensor weights(long n) {
        double[] w = new double[(int) n];
        for (int i = 0; i < n; i++) w[i] = i + 1;
        return Torch.tensor(w);
    }

    @Test
    void valuesSendTheirGradientToWhereTheyCameFrom() {
        Tensor x = Torch.tensor(new double[] {3, 1, 2}).requiresGrad(true);
        // sort: [1, 2, 3] from positions [1, 2, 0].
        assertGrad(new double[] {3, 1, 2}, gradOf(t -> SortOps.sort(t).values(), x, weights(3)));
        assertGrad(new double[] {1, 3, 2}, gradOf(t -> SortOps.sort(t, 0, true).values(), x, weights(3)));
        // topk(2): [3, 2] from positions [0, 2].
        assertGrad(new double[] {1, 0, 2}, gradOf(t -> SortOps.topk(t, 2).values(), x, weights(2)));
        // kthvalue(2): 2 at position 2.
        assertGrad(
                new double[] {0, 0, 5},
                gradOf(t -> SortOps.kthvalue(t, 2).values(), x, Torch.scalarTensor(5.0, DType.FLOAT64)));
        // cummax of [1, 3, 2, 4]: [1, 3, 3, 4] from positions [0, 1, 1, 3], so position 1 collects two.
        Tensor y = Torch.tensor(new double[] {1, 3, 2, 4}).requiresGrad(true);
        assertGrad(
                new double[] {1, 2 + 3, 0, 4}, gradOf(t -> SortOps.cummax(t, 0).values(), y, weights(4)));
        // cummin: [1, 1, 1, 1], all from position 0.
        assertGrad(
                new double[] {1 + 2 + 3 + 4, 0, 0, 0},
                gradOf(t -> SortOps.cummin(t, 0).values(), y, weights(4)));
        assertEquals("SortBackward0", SortOps.sort(x).values().gradFn().name());
    }

    @Test
    void integerAndCountingOutputsDoNotRequireGrad() {
        Tensor x = Torch.tensor(new double[] {3, 1, 2, 1}).requiresGrad(true);
        ValuesIndices sorted = SortOps.sort(x);
        assertFalse(sorted.indices().requiresGrad());
        assertFalse(SortOps.topk(x, 2).indices().requiresGrad());
        assertFalse(SortOps.cummax(x, 0).indices().requiresGrad());
        assertFalse(SortOps.argsort(x).requiresGrad());
        Tensor boundaries = Torch.tensor(new double[] {0, 1.5, 2.5}).requiresGrad(true);
        assertFalse(SearchOps.searchsorted(boundaries, x).requiresGrad());
        assertFalse(SearchOps.bucketize(x, boundaries).requiresGrad());
        // histc and bincount count: their outputs are floating but carry no gradient, as in PyTorch's histc.
        Tensor hist = SearchOps.histc(x, 3);
        assertFalse(hist.requiresGrad());
        assertNull(hist.gradFn());
        assertFalse(SearchOps.bincount(Torch.tensor(new long[] {0, 2, 2}), x.narrow(0, 0, 3))
                .requiresGrad());
        assertFalse(SortOps.unique(x).requiresGrad());
        assertFalse(SortOps.uniqueConsecutive(x).requiresGrad());
    }
}
