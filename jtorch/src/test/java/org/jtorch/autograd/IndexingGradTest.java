package org.jtorch.autograd;

import static org.jtorch.autograd.GradCases.assertGrad;
import static org.jtorch.autograd.GradCases.gradOf;
import static org.jtorch.autograd.GradCases.layouts;
import static org.jtorch.autograd.GradCases.leaf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Index;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.ScatterOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Backward rules of advanced indexing (index, index_put, masked_select/masked_scatter, take, take_along_dim) and of the
 * scatter family (gather, scatter, scatter_add, scatter_reduce, index_select, index_add, index_copy, index_fill):
 * gradcheck and gradgradcheck (float64) with duplicate indices where the op accumulates, non-contiguous inputs,
 * in-place forms, then closed forms.
 */
class IndexingGradTest {
    private record Op(String name, Function<Tensor, Tensor> fn, long[]... shapes) {}

    private static long[] s(long... shape) {
        return shape;
    }

    private static Tensor idx(long... v) {
        return Torch.tensor(v);
    }

    private static Tensor idx(long[][] v) {
        return Torch.tensor(v);
    }

    private static Tensor mask(boolean... m) {
        return Torch.tensor(m);
    }

    private static Tensor in(int salt, long... shape) {
        return leaf(shape, salt);
    }

    /** Ops of one float input (index tensors are constants), run over the layouts of each shape. */
    private static List<Op> ops() {
        List<Op> ops = new ArrayList<>();
        // Duplicate and negative positions: their gradients add up.
        Tensor dup = idx(2, 0, 2, -1, 0);
        ops.add(new Op("x[[2, 0, 2, -1, 0]]", x -> IndexingOps.index(x, Index.of(dup)), s(4), s(4, 3)));
        ops.add(new Op("x[:, [2, 0, 2, -1, 0]]", x -> IndexingOps.index(x, Index.ALL, Index.of(dup)), s(3, 4)));
        ops.add(new Op(
                "x[rows, cols] (adjacent, broadcast)",
                x -> IndexingOps.index(x, Index.of(idx(new long[][] {{0}, {2}, {0}})), Index.of(idx(1, 3, 1))),
                s(3, 4),
                s(3, 4, 2)));
        ops.add(new Op(
                "x[rows, :, cols] (not adjacent)",
                x -> IndexingOps.index(x, Index.of(idx(1, 0, 1)), Index.ALL, Index.of(idx(0, 3, 0))),
                s(2, 3, 4)));
        ops.add(new Op("x[mask]", x -> IndexingOps.index(x, Index.of(mask(true, false, true))), s(3), s(3, 4)));
        ops.add(new Op(
                "x[1:, None, [0, 0]]",
                x -> IndexingOps.index(x, Index.slice(1, null), Index.NONE, Index.indices(0, 0)),
                s(3, 4)));
        ops.add(new Op("x[...] (alias)", x -> IndexingOps.index(x, Index.ELLIPSIS), s(3, 4)));
        ops.add(new Op(
                "index.Tensor with an absent entry",
                x -> IndexingOps.INDEX.call1(x, new Tensor[] {null, idx(3, 1, 3)}),
                s(3, 4)));
        ops.add(new Op(
                "index_put accumulate into x",
                x -> IndexingOps.indexPut(
                        x, new Tensor[] {dup}, Torch.full(s(5), 0.5, DType.FLOAT64, org.jtorch.Device.CPU), true),
                s(4)));
        ops.add(new Op(
                "index_put overwrites x",
                x -> IndexingOps.indexPut(
                        x,
                        new Tensor[] {idx(2, 0)},
                        Torch.full(s(2, 3), 0.5, DType.FLOAT64, org.jtorch.Device.CPU),
                        false),
                s(4, 3)));
        ops.add(new Op(
                "masked_select (broadcast mask)",
                x -> IndexingOps.maskedSelect(x, mask(true, false, true, true)),
                s(4),
                s(3, 4)));
        ops.add(new Op("take", x -> IndexingOps.take(x, idx(new long[][] {{0, 5}, {-1, 5}})), s(3, 4)));
        ops.add(new Op(
                "take_along_dim(dim 1)",
                x -> IndexingOps.takeAlongDim(x, idx(new long[][] {{3, 0, 3}, {1, 1, 2}, {0, 2, 2}}), 1),
                s(3, 4)));
        // Without dim the input is viewed flat, which (as in PyTorch) needs a layout that a view can flatten.
        ops.add(new Op("take_along_dim(flat)", x -> IndexingOps.takeAlongDim(x, idx(0, 7, 7, 2)), s(8)));
        // ---- one-index-per-line family ----
        Tensor gatherIndex = idx(new long[][] {{0, 2, 2}, {1, 0, 0}});
        ops.add(new Op("gather(0)", x -> ScatterOps.gather(x, 0, gatherIndex), s(3, 4)));
        ops.add(new Op("gather(1)", x -> ScatterOps.gather(x, 1, gatherIndex), s(3, 4)));
        ops.add(new Op(
                "gather of a 0-d tensor", x -> ScatterOps.gather(x, 0, Torch.scalarTensor(0L, DType.INT64)), s()));
        ops.add(new Op("scatter(value)", x -> ScatterOps.scatter(x, 1, gatherIndex, 2.5), s(3, 4)));
        ops.add(new Op("index_select(0)", x -> ScatterOps.indexSelect(x, 0, idx(2, 0, 2)), s(3), s(3, 4)));
        ops.add(new Op(
                "index_select(-1, int32)",
                x -> ScatterOps.indexSelect(x, -1, idx(1, 1, 3).to(DType.INT32)),
                s(3, 4)));
        ops.add(new Op("index_fill(1)", x -> ScatterOps.indexFill(x, 1, idx(0, -1, 0), 7.0), s(3, 4)));
        return ops;
    }

    @TestFactory
    Stream<DynamicTest> gradcheckAndGradgradcheckOverLayouts() {
        return ops().stream().flatMap(op -> Stream.of(op.shapes())
                .flatMap(shape -> layouts(shape).stream())
                .flatMap(layout -> GradCases.checks(op.name(), layout, op.fn())));
    }

    @TestFactory
    Stream<DynamicTest> severalInputs() {
        Tensor dup = idx(2, 0, 2, -1, 0);
        Tensor rows = idx(new long[][] {{0, 2, 2, 1}, {1, 0, 2, 2}});
        Tensor once = idx(new long[][] {{0, 2, 1, 1}, {1, 0, 2, 0}}); // no place reached twice within a column
        return Stream.of(
                        GradCases.checks(
                                "index_put(accumulate) self and values",
                                xs -> IndexingOps.indexPut(xs.get(0), new Tensor[] {dup}, xs.get(1), true),
                                in(1, 4, 3),
                                in(2, 5, 3)),
                        GradCases.checks(
                                "index_put(overwrite) self and broadcast values",
                                xs -> IndexingOps.indexPut(
                                        xs.get(0), new Tensor[] {idx(2, 0), idx(1, 1)}, xs.get(1), false),
                                in(1, 4, 3),
                                in(2, 1)),
                        GradCases.checks(
                                "x[mask] = v in place on a copy",
                                xs -> {
                                    Tensor y = xs.get(0).mul(1.0);
                                    return IndexingOps.indexPut_(
                                            y, new Index[] {Index.mask(true, false, true)}, xs.get(1));
                                },
                                in(1, 3, 2),
                                in(2, 2, 2)),
                        GradCases.checks(
                                "x[mask] = one value (masked_fill path)",
                                xs -> {
                                    Tensor y = xs.get(0).mul(1.0);
                                    return IndexingOps.indexPut_(
                                            y,
                                            new Tensor[] {mask(false, true, true)},
                                            xs.get(1).reshape(1));
                                },
                                in(1, 3, 2),
                                in(2)),
                        GradCases.checks(
                                "index_put_ accumulate on a transposed copy",
                                xs -> IndexingOps.indexPut_(
                                        xs.get(0).t().mul(1.0), new Tensor[] {idx(1, 1), idx(0, 2)}, xs.get(1), true),
                                in(1, 3, 2),
                                in(2, 2)),
                        GradCases.checks(
                                "masked_scatter self and source",
                                xs -> IndexingOps.maskedScatter(xs.get(0), mask(true, false, true), xs.get(1)),
                                in(1, 2, 3),
                                in(2, 2, 4)),
                        GradCases.checks(
                                "masked_scatter of a transposed self",
                                xs -> IndexingOps.maskedScatter(
                                        xs.get(0).t(),
                                        mask(true, false, false, false, true, true)
                                                .reshape(3, 2),
                                        xs.get(1)),
                                in(1, 2, 3),
                                in(2, 3)),
                        GradCases.checks(
                                "gather of a transposed input",
                                xs -> ScatterOps.gather(xs.get(0).t(), 0, rows),
                                in(1, 4, 3)),
                        GradCases.checks(
                                "scatter(src) self and src",
                                xs -> ScatterOps.scatter(xs.get(0), 0, once, xs.get(1)),
                                in(1, 3, 4),
                                in(2, 2, 4)),
                        GradCases.checks(
                                "scatter(src) with src larger than index",
                                xs -> ScatterOps.scatter(xs.get(0), 1, idx(new long[][] {{3, 0}, {1, 2}}), xs.get(1)),
                                in(1, 3, 4),
                                in(2, 3, 5)),
                        GradCases.checks(
                                "scatter_add self and src (duplicates)",
                                xs -> ScatterOps.scatterAdd(xs.get(0), 0, rows, xs.get(1)),
                                in(1, 3, 4),
                                in(2, 2, 4)),
                        GradCases.checks(
                                "scatter_add with src larger than index",
                                xs -> ScatterOps.scatterAdd(xs.get(0), 0, rows, xs.get(1)),
                                in(1, 3, 4),
                                in(2, 3, 5)),
                        GradCases.checks(
                                "scatter_add_ in place on a copy of a strided view",
                                xs -> xs.get(0)
                                        .slice(1, 0L, null, 2)
                                        .mul(1.0)
                                        .scatterAdd_(0, rows, xs.get(1).t()),
                                in(1, 3, 8),
                                in(2, 4, 2)),
                        GradCases.checks(
                                "index_add self and source, alpha 2.5 (duplicates)",
                                xs -> ScatterOps.indexAdd(xs.get(0), 0, idx(2, 0, 2), xs.get(1), 2.5),
                                in(1, 3, 4),
                                in(2, 3, 4)),
                        GradCases.checks(
                                "index_add along dim 1 with a repeated index",
                                xs -> ScatterOps.indexAdd(xs.get(0), 1, idx(3, 3), xs.get(1)),
                                in(1, 3, 4),
                                in(2, 3, 2)),
                        GradCases.checks(
                                "index_add_ in place on a copy",
                                xs -> xs.get(0)
                                        .mul(1.0)
                                        .indexAdd_(1, idx(1, 1), xs.get(1).t()),
                                in(1, 3, 4),
                                in(2, 2, 3)),
                        GradCases.checks(
                                "index_copy self and source",
                                xs -> ScatterOps.indexCopy(xs.get(0), 1, idx(3, 0), xs.get(1)),
                                in(1, 3, 4),
                                in(2, 3, 2)),
                        GradCases.checks(
                                "index_copy of a 0-d source",
                                xs -> ScatterOps.indexCopy(xs.get(0), 0, idx(2), xs.get(1)),
                                in(1, 4),
                                in(2)),
                        GradCases.checks(
                                "index_fill with a 0-d tensor value (repeated, negative positions)",
                                xs -> ScatterOps.indexFill(xs.get(0), 1, idx(0, 3, -1, 0), xs.get(1)),
                                in(1, 3, 4),
                                in(2)),
                        GradCases.checks(
                                "take of a transposed input",
                                xs -> IndexingOps.take(xs.get(0).t(), idx(0, 0, 5, -2)),
                                in(1, 2, 3)))
                .flatMap(t -> t);
    }

    /** Complex operands through real leaves (see ComplexGradTest): scaling and product rules must conjugate. */
    @TestFactory
    Stream<DynamicTest> complexOperands() {
        Tensor re = GradCases.leaf(0.3, -0.5, 0.6, 1.1, -0.8), im = GradCases.leaf(0.4, 0.2, -0.3, 0.7, 0.25);
        Function<List<Tensor>, Tensor> f = xs -> {
            Tensor z = Torch.complex(xs.get(0), xs.get(1));
            Tensor head = z.narrow(0, 0, 2), tail = z.narrow(0, 2, 3);
            Tensor parts = JoinOps.cat(
                    List.of(
                            ScatterOps.indexAdd(head, 0, idx(1, 1, 0), tail, Scalar.complex(0.5, -2)),
                            ScatterOps.scatterReduce(head, 0, idx(0, 0, 1), tail, "prod"),
                            ScatterOps.scatterReduce(head, 0, idx(1, 0, 1), tail, "mean", false),
                            ScatterOps.gather(z, 0, idx(4, 4, 1)),
                            IndexingOps.index(z, Index.indices(3, 0, 3)),
                            IndexingOps.maskedScatter(head, mask(false, true), tail)),
                    0);
            return ComplexOps.viewAsReal(parts);
        };
        return GradCases.checks(
                "complex index_add(alpha), scatter_reduce(prod, mean), gather, index, masked_scatter", f, re, im);
    }

    // ---- scatter_reduce ---------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> scatterReduce() {
        Tensor rows = idx(new long[][] {{0, 2, 2, 1}, {1, 0, 2, 2}, {0, 0, 1, 2}});
        List<Stream<DynamicTest>> out = new ArrayList<>();
        for (String reduce : new String[] {"sum", "mean", "prod", "amax", "amin"}) {
            for (boolean includeSelf : new boolean[] {true, false}) {
                String name = "scatter_reduce(" + reduce + ", include_self=" + includeSelf + ")";
                out.add(GradCases.checks(
                        name,
                        xs -> ScatterOps.scatterReduce(xs.get(0), 0, rows, xs.get(1), reduce, includeSelf),
                        in(1, 3, 4),
                        in(2, 3, 4)));
                out.add(GradCases.checks(
                        name + " with src larger than index, transposed src",
                        xs -> ScatterOps.scatterReduce(
                                xs.get(0),
                                0,
                                idx(new long[][] {{2, 2}, {0, 2}}),
                                xs.get(1).t(),
                                reduce,
                                includeSelf),
                        in(1, 3, 2),
                        in(2, 3, 3)));
            }
        }
        out.add(GradCases.checks(
                "scatter_reduce_(prod) in place on a copy",
                xs -> xs.get(0).mul(1.0).scatterReduce_(1, idx(new long[][] {{1, 1}, {0, 2}}), xs.get(1), "prod"),
                in(1, 2, 3),
                in(2, 2, 2)));
        return out.stream().flatMap(t -> t);
    }

    /** A float64 leaf with the given values. */
    private static Tensor values(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    @Test
    void scatterReduceProdGradientWithZeros() {
        // Place 0 gets self 2 and src [0, 3]; place 1 gets self 0 and src [5]; place 2 gets src [0, 0].
        Tensor self = values(2, 0, 4), src = values(0, 3, 5, 0, 0);
        Tensor index = idx(0, 0, 1, 2, 2);
        List<Tensor> g = Autograd.grad(
                List.of(ScatterOps.scatterReduce(self, 0, index, src, "prod").sum()),
                List.of(self, src),
                Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {0, 5, 0}, g.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {6, 0, 0, 0, 0}, g.get(1).toDoubleArray(), 0);
        // Without the gradient's graph the same first-order values come out; with it, the two zeros that meet
        // make the second order unsupported, loudly.
        Tensor gSrc = Autograd.grad(
                        List.of(ScatterOps.scatterReduce(self, 0, index, src, "prod")
                                .sum()),
                        List.of(src),
                        Autograd.GradOptions.defaults().createGraph(true))
                .get(0);
        assertArrayEquals(new double[] {6, 0, 0, 0, 0}, gSrc.toDoubleArray(), 0);
        TorchException e = assertThrows(TorchException.class, () -> Autograd.grad(gSrc.sum(), src, false));
        assertTrue(e.getMessage().contains("Double backward is unsupported for src when >1 zeros"), e.getMessage());
    }

    @TestFactory
    Stream<DynamicTest> scatterReduceProdWithOneZeroPerPlaceIsTwiceDifferentiable() {
        return GradCases.checks(
                "scatter_reduce(prod) with a zero in self and one in src",
                xs -> ScatterOps.scatterReduce(
                        xs.get(0).mul(Torch.tensor(new double[] {1, 0, 1})),
                        0,
                        idx(0, 0, 1, 2),
                        xs.get(1).mul(Torch.tensor(new double[] {1, 0, 1, 1})),
                        "prod"),
                in(1, 3),
                in(2, 4));
    }

    @Test
    void scatterReduceAmaxSharesTiesEvenly() {
        // Place 0: self 5 ties src 5; place 1: src 2 and 2 tie above self 1.
        Tensor self = values(5, 1), src = values(5, 2, 2);
        Tensor index = idx(0, 1, 1);
        List<Tensor> g = Autograd.grad(
                List.of(ScatterOps.scatterReduce(self, 0, index, src, "amax").sum()),
                List.of(self, src),
                Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {0.5, 0}, g.get(0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0.5, 0.5, 0.5}, g.get(1).toDoubleArray(), 0);
        // Without include_self a reached self value is no candidate even when it equals the result: src 5
        // gets all of place 0 (PyTorch would count self and give src 0.5).
        Tensor src2 = values(5, 2);
        Tensor r = ScatterOps.scatterReduce(values(5, 1), 0, idx(0, 0), src2, "amax", false);
        assertArrayEquals(
                new double[] {1, 0}, Autograd.grad(r.sum(), src2, false).toDoubleArray(), 0);
    }

    @Test
    void scatterReduceMeanDividesByTheCounts() {
        Tensor self = values(1, 2, 3), src = values(4, 5, 6);
        Tensor index = idx(0, 0, 2);
        List<Tensor> g = Autograd.grad(
                List.of(ScatterOps.scatterReduce(self, 0, index, src, "mean").sum()),
                List.of(self, src),
                Autograd.GradOptions.defaults());
        assertArrayEquals(new double[] {1 / 3.0, 1, 0.5}, g.get(0).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {1 / 3.0, 1 / 3.0, 0.5}, g.get(1).toDoubleArray(), 1e-15);
    }

    // ---- closed forms -----------------------------------------------------------------------------

    private static Tensor weights(long... shape) {
        int n = (int) org.jtorch.internal.Shapes.numel(shape);
        double[] w = new double[n];
        for (int i = 0; i < n; i++) w[i] = i + 1;
        return Torch.tensor(w, DType.FLOAT64, n).reshape(shape);
    }

    @Test
    void duplicateIndicesAccumulate() {
        Tensor x = Torch.zeros(s(4), DType.FLOAT64).requiresGrad(true);
        Tensor dup = idx(2, 0, 2, -1, 0);
        // Output k reads x[dup[k]]: x[0] gets w1 + w4, x[2] gets w0 + w2, x[3] gets w3.
        double[] expected = {2 + 5, 0, 1 + 3, 4};
        assertGrad(expected, gradOf(t -> IndexingOps.index(t, Index.of(dup)), x, weights(5)));
        assertGrad(expected, gradOf(t -> IndexingOps.take(t, dup), x, weights(5)));
        assertGrad(expected, gradOf(t -> ScatterOps.indexSelect(t, 0, idx(2, 0, 2, 3, 0)), x, weights(5)));
        assertGrad(expected, gradOf(t -> ScatterOps.gather(t, 0, idx(2, 0, 2, 3, 0)), x, weights(5)));
        assertEquals(
                "IndexBackward0", IndexingOps.index(x, Index.of(dup)).gradFn().name());
    }

    @Test
    void overwritingOpsCutTheGradientOfOverwrittenPlaces() {
        Tensor x = Torch.zeros(s(2, 3), DType.FLOAT64).requiresGrad(true);
        Tensor w = weights(2, 3);
        assertGrad(
                new double[] {0, 2, 3, 4, 0, 6},
                gradOf(t -> ScatterOps.scatter(t, 1, idx(new long[][] {{0}, {1}}), 9.0), x, w));
        assertGrad(new double[] {1, 0, 3, 4, 0, 6}, gradOf(t -> ScatterOps.indexFill(t, 1, idx(1), 9.0), x, w));
        assertGrad(
                new double[] {0, 0, 0, 4, 5, 6},
                gradOf(t -> IndexingOps.indexPut(t, new Tensor[] {idx(0)}, Torch.zeros(s(3), DType.FLOAT64)), x, w));
        // The mask broadcasts over the rows: column 1 of both rows is overwritten.
        assertGrad(
                new double[] {1, 0, 3, 4, 0, 6},
                gradOf(
                        t -> IndexingOps.maskedScatter(t, mask(false, true, false), Torch.zeros(s(2), DType.FLOAT64)),
                        x,
                        w));
    }

    @Test
    void sourceGradientsAreTheGradientAtTheWrittenPlaces() {
        Tensor w = weights(2, 3);
        Tensor src = Torch.zeros(s(2, 2), DType.FLOAT64).requiresGrad(true);
        // src[i][j] lands at out[i][index[i][j]].
        assertGrad(
                new double[] {3, 1, 5, 5},
                gradOf(
                        t -> ScatterOps.scatterAdd(
                                Torch.zeros(s(2, 3), DType.FLOAT64), 1, idx(new long[][] {{2, 0}, {1, 1}}), t),
                        src,
                        w));
        Tensor source = Torch.zeros(s(5), DType.FLOAT64).requiresGrad(true);
        // masked_scatter takes source elements in order for the masked places; unused ones get 0.
        assertGrad(
                new double[] {2, 5, 0, 0, 0},
                gradOf(
                        t -> IndexingOps.maskedScatter(
                                Torch.zeros(s(2, 3), DType.FLOAT64), mask(false, true, false), t),
                        source,
                        w));
        Tensor value = Torch.scalarTensor(0.0, DType.FLOAT64).requiresGrad(true);
        // index_fill's value: each filled column once, however often the index names it.
        assertGrad(
                new double[] {1 + 4 + 3 + 6},
                gradOf(
                        t -> ScatterOps.indexFill(Torch.zeros(s(2, 3), DType.FLOAT64), 1, idx(0, 2, -1, 0), t),
                        value,
                        w));
        Tensor alphaSource = Torch.zeros(s(2, 3), DType.FLOAT64).requiresGrad(true);
        // index_add(alpha=2): source row i lands on row index[i] (PyTorch refuses a source slice that only broadcasts).
        assertGrad(
                new double[] {2 * 4, 2 * 5, 2 * 6, 2 * 1, 2 * 2, 2 * 3},
                gradOf(
                        t -> ScatterOps.indexAdd(Torch.zeros(s(2, 3), DType.FLOAT64), 0, idx(1, 0), t, 2L),
                        alphaSource,
                        w));
    }

    @Test
    void anInPlaceAccumulatingPutPassesTheGradientThrough() {
        Tensor x = in(1, 3);
        Tensor y = x.mul(1.0);
        Tensor index = idx(0, 0);
        IndexingOps.indexPut_(
                y, new Tensor[] {index}, Torch.full(s(2), 1.0, DType.FLOAT64, org.jtorch.Device.CPU), true);
        y.mul(weights(3)).sum().backward();
        assertArrayEquals(new double[] {1, 2, 3}, x.grad().toDoubleArray(), 0);
    }
}
