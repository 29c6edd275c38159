package org.jtorch.autograd;

import static org.jtorch.autograd.GradCases.assertGrad;
import static org.jtorch.autograd.GradCases.gradOf;
import static org.jtorch.autograd.GradCases.layouts;
import static org.jtorch.autograd.GradCases.leaf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.BackwardOps;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.ShapeOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Backward rules of diagonal, as_strided, cat, tril/triu, flip, roll, repeat and vdot: gradcheck and gradgradcheck
 * (float64) over their arguments and layouts, then closed forms.
 */
class ShapeGradTest {
    private record Op(String name, Function<Tensor, Tensor> fn, long[]... shapes) {}

    private static long[] s(long... shape) {
        return shape;
    }

    private static List<Op> ops() {
        List<Op> ops = new ArrayList<>();
        long[][] matrices = {s(3, 4), s(2, 3, 4)};
        for (long offset : new long[] {0, 1, -1, 5}) {
            ops.add(new Op("diagonal(" + offset + ")", x -> x.diagonal(offset), matrices));
            ops.add(new Op("diagonal(" + offset + ", -1, 0)", x -> ShapeOps.diagonal(x, offset, -1, 0), matrices));
        }
        ops.add(new Op("diagonal(1, 1, 2)", x -> ShapeOps.diagonal(x, 1, 1, 2), s(2, 3, 4)));
        for (long k : new long[] {-1, 0, 2}) {
            ops.add(new Op("tril(" + k + ")", x -> x.tril(k), matrices));
            ops.add(new Op("triu(" + k + ")", x -> x.triu(k), matrices));
        }
        ops.add(new Op("flip(0)", x -> x.flip(0), s(5), s(3, 4)));
        ops.add(new Op("flip(0, -1)", x -> x.flip(0, -1), matrices));
        ops.add(new Op("flip()", x -> x.flip(), s(3, 4)));
        ops.add(new Op("roll(2)", x -> x.roll(2), s(5), s(3, 4)));
        ops.add(new Op("roll(-7)", x -> x.roll(-7), s(3, 4)));
        ops.add(new Op("roll(1, 0)", x -> x.roll(1, 0), s(5), s(3, 4)));
        ops.add(new Op("roll([1, -2], [0, -1])", x -> x.roll(new long[] {1, -2}, new int[] {0, -1}), matrices));
        ops.add(new Op("roll([1, 2], [0, 0])", x -> x.roll(new long[] {1, 2}, new int[] {0, 0}), s(5), s(3, 4)));
        ops.add(new Op("repeat(2)", x -> x.repeat(2), s(5)));
        ops.add(new Op("repeat(2, 1)", x -> x.repeat(2, 1), s(3, 4)));
        ops.add(new Op("repeat(1, 2, 3)", x -> x.repeat(1, 2, 3), s(3, 4)));
        ops.add(new Op("repeat(2, 1, 1, 2)", x -> x.repeat(2, 1, 1, 2), s(2, 3, 4)));
        ops.add(new Op("repeat(0, 2)", x -> x.repeat(0, 2), s(3, 4)));
        ops.add(new Op("repeat() of a 0-d tensor", x -> x.repeat(), s()));
        // as_strided addresses storage: the inputs are made contiguous first so that every position read
        // belongs to the input (positions of the storage outside the input get no gradient, as in PyTorch).
        ops.add(new Op("as_strided([3, 3], [3, 1], 1)", x -> x.contiguous().asStrided(s(3, 3), s(3, 1), 1), matrices));
        ops.add(new Op(
                "as_strided windows [4, 3], [2, 1]", x -> x.contiguous().asStrided(s(4, 3), s(2, 1), 0), matrices));
        ops.add(new Op(
                "as_strided stride 0 [2, 3], [0, 1]", x -> x.contiguous().asStrided(s(2, 3), s(0, 1), 2), matrices));
        ops.add(new Op(
                "as_strided of a strided view",
                x -> x.contiguous().slice(0, 0L, null, 2).asStrided(s(2, 2), s(4, 2)),
                s(10)));
        ops.add(new Op(
                "as_strided keeps the offset",
                x -> x.contiguous().narrow(0, 1, 1).asStrided(s(2, 2), s(1, 2)),
                matrices));
        ops.add(new Op(
                "as_strided of an expanded input",
                x -> x.contiguous().expand(2, 5).asStrided(s(2, 5), s(0, 1)),
                s(5)));
        ops.add(new Op(
                "as_strided of an expanded input, partial",
                x -> x.contiguous().expand(3, 5).asStrided(s(4), s(1), 1),
                s(5)));
        ops.add(new Op(
                "as_strided of a transposed view", x -> x.contiguous().t().asStrided(s(3), s(5)), s(5, 3)));
        return ops;
    }

    @TestFactory
    Stream<DynamicTest> gradcheckAndGradgradcheckOverArgumentsAndLayouts() {
        return ops().stream().flatMap(op -> Stream.of(op.shapes())
                .flatMap(shape -> layouts(shape).stream())
                .flatMap(layout -> GradCases.checks(op.name(), layout, op.fn())));
    }

    private static Tensor in(int salt, long... shape) {
        return GradCases.leaf(shape, salt);
    }

    @TestFactory
    Stream<DynamicTest> severalInputs() {
        return Stream.of(
                        GradCases.checks("cat(dim 0)", xs -> JoinOps.cat(xs, 0), in(1, 2, 3), in(2, 1, 3), in(3, 3, 3)),
                        GradCases.checks(
                                "cat(dim -1) of transposed views",
                                xs -> JoinOps.cat(List.of(xs.get(0).t(), xs.get(1)), -1),
                                in(1, 4, 2),
                                in(2, 2, 3)),
                        GradCases.checks(
                                "cat(dim 1) skipping a 1-d empty input",
                                xs -> JoinOps.cat(List.of(xs.get(0), xs.get(1), xs.get(2)), 1),
                                in(1, 2, 2),
                                in(2, 0),
                                in(3, 2, 3)),
                        GradCases.checks("cat of a single input", xs -> JoinOps.cat(xs, 0), in(1, 4)),
                        GradCases.checks("stack(dim 1)", xs -> JoinOps.stack(xs, 1), in(1, 2, 3), in(2, 2, 3)),
                        GradCases.checks("vdot", xs -> xs.get(0).vdot(xs.get(1)), in(1, 5), in(2, 5)),
                        GradCases.checks(
                                "vdot of strided views",
                                xs -> xs.get(0)
                                        .slice(0, 0L, null, 2)
                                        .vdot(xs.get(1).select(1, 1)),
                                in(1, 6),
                                in(2, 3, 2)),
                        GradCases.checks("vdot(x, x)", xs -> xs.get(0).vdot(xs.get(0)), in(1, 4)))
                .flatMap(t -> t);
    }

    private static Tensor asReal(Tensor t) {
        return t.isComplex() ? ComplexOps.viewAsReal(t) : t;
    }

    /** Complex operands through real leaves (see ComplexGradTest): vdot must conjugate its first argument. */
    @TestFactory
    Stream<DynamicTest> complexOperands() {
        Tensor re = leaf(0.3, -0.5, 0.6, 1.1, -0.8, 0.45), im = leaf(0.4, 0.2, -0.3, 0.7, 0.25, -0.9);
        Tensor re2 = leaf(-0.7, 0.4, 0.9, 0.2, 0.6, -1.3), im2 = leaf(0.5, -0.6, 0.35, -0.1, 0.8, 0.15);
        Function<List<Tensor>, Tensor> vdot =
                xs -> asReal(Torch.complex(xs.get(0), xs.get(1)).vdot(Torch.complex(xs.get(2), xs.get(3))));
        Function<List<Tensor>, Tensor> shapes = xs -> {
            Tensor z = Torch.complex(xs.get(0), xs.get(1)).reshape(2, 3);
            Tensor parts = JoinOps.cat(
                    List.of(
                            z.diagonal(1),
                            z.flip(1).reshape(-1),
                            z.roll(1, 1).tril().reshape(-1),
                            z.repeat(1, 2).reshape(-1),
                            z.asStrided(s(2, 2), s(1, 2), 1).reshape(-1)),
                    0);
            return asReal(parts);
        };
        return Stream.of(
                        GradCases.checks("complex vdot", vdot, re, im, re2, im2),
                        GradCases.checks("complex diagonal, flip, roll, tril, repeat, as_strided, cat", shapes, re, im))
                .flatMap(t -> t);
    }

    // ---- closed forms -----------------------------------------------------------------------------

    private static Tensor weights(long... shape) {
        int n = (int) org.jtorch.internal.Shapes.numel(shape);
        double[] w = new double[n];
        for (int i = 0; i < n; i++) w[i] = i + 1;
        return Torch.tensor(w, DType.FLOAT64, n).reshape(shape);
    }

    @Test
    void diagonalGradientLandsOnTheDiagonal() {
        Tensor x = Torch.zeros(s(3, 4), DType.FLOAT64).requiresGrad(true);
        assertGrad(new double[] {0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3}, gradOf(t -> t.diagonal(1), x, weights(3)));
        assertGrad(new double[] {0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0}, gradOf(t -> t.diagonal(-1), x, weights(2)));
        assertEquals("DiagonalBackward0", x.diagonal().gradFn().name());
    }

    @Test
    void asStridedGradientSumsOverlappingWindowsAndSharesOverlappingInputs() {
        Tensor x = Torch.zeros(s(5), DType.FLOAT64).requiresGrad(true);
        // Windows [0,1,2], [2,3,4]: position 2 is read twice.
        assertGrad(new double[] {1, 2, 3 + 4, 5, 6}, gradOf(t -> t.asStrided(s(2, 3), s(2, 1)), x, weights(2, 3)));
        // An expanded input has each element twice; each gets half of its position's sum, and expand adds them back.
        assertGrad(new double[] {0, 1, 2, 0, 0}, gradOf(t -> t.expand(2, 5).asStrided(s(2), s(1), 1), x, weights(2)));
        // A view's storage offset: position 3 of the storage is element 2 of x[1:].
        assertGrad(
                new double[] {0, 0, 0, 7, 0},
                gradOf(t -> t.narrow(0, 1, 4).asStrided(s(), s(), 3), x, Torch.scalarTensor(7.0, DType.FLOAT64)));
    }

    @Test
    void asStridedTransferIsItsOwnAdjointWithGeometriesSwapped() {
        Tensor src = weights(2, 3);
        Tensor out = BackwardOps.asStridedTransfer(src, s(2, 3), s(2, 1), 0, s(5), s(1), 0);
        assertArrayEquals(new double[] {1, 2, 7, 5, 6}, out.toDoubleArray(), 0);
        Tensor back = BackwardOps.asStridedTransfer(out, s(5), s(1), 0, s(2, 3), s(2, 1), 0);
        assertArrayEquals(new double[] {1, 2, 7, 7, 5, 6}, back.toDoubleArray(), 0);
    }

    @Test
    void catGradientIsSplitBackBySizes() {
        Tensor a = leaf(1, 2), b = leaf(3, 4, 5);
        Tensor empty = Torch.zeros(s(0), DType.FLOAT64).requiresGrad(true);
        JoinOps.cat(List.of(a, empty, b)).mul(weights(5)).sum().backward();
        assertArrayEquals(new double[] {1, 2}, a.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {3, 4, 5}, b.grad().toDoubleArray(), 0);
    }

    @Test
    void copyingShapeOpsRouteEachGradientBack() {
        Tensor x = Torch.zeros(s(2, 3), DType.FLOAT64).requiresGrad(true);
        assertGrad(new double[] {1, 0, 0, 4, 5, 0}, gradOf(t -> t.tril(), x, weights(2, 3)));
        assertGrad(new double[] {0, 2, 3, 0, 0, 6}, gradOf(t -> t.triu(1), x, weights(2, 3)));
        assertGrad(new double[] {6, 5, 4, 3, 2, 1}, gradOf(t -> t.flip(0, 1), x, weights(2, 3)));
        // roll(1, dim 1): out[:, j] = in[:, j-1], so in[:, j] gets w[:, j+1].
        assertGrad(new double[] {2, 3, 1, 5, 6, 4}, gradOf(t -> t.roll(1, 1), x, weights(2, 3)));
        assertGrad(new double[] {6, 1, 2, 3, 4, 5}, gradOf(t -> t.roll(-1), x, weights(2, 3)));
        // Rolling back must not negate the shift itself (Long.MIN_VALUE has no negation).
        long equivalent = Math.floorMod(Long.MIN_VALUE, 3);
        assertGrad(
                gradOf(t -> t.roll(equivalent, 1), x, weights(2, 3)),
                gradOf(t -> t.roll(Long.MIN_VALUE, 1), x, weights(2, 3)));
        // repeat(2, 2): every element appears in four tiles.
        Tensor w = weights(4, 6);
        double[] expected = new double[6];
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 6; c++) expected[(r % 2) * 3 + c % 3] += w.toDoubleArray()[r * 6 + c];
        assertGrad(expected, gradOf(t -> t.repeat(2, 2), x, w));
    }

    @Test
    void vdotConjugatesTheFirstArgument() {
        Tensor a = leaf(1, 2, 3), b = leaf(4, 5, 6);
        MatmulOps.vdot(a, b).mul(2.0).backward();
        assertArrayEquals(new double[] {8, 10, 12}, a.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {2, 4, 6}, b.grad().toDoubleArray(), 0);
    }
}
