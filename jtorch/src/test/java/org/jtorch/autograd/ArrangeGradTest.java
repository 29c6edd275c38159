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
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.ArrangeOps.PadMode;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.EinsumOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.PadBackwardOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Backward rules of pad (every mode, and pad_backward, its reflect/replicate/circular gradient), diag_embed and
 * repeat_interleave, plus the composites of the family (diff, diag, einsum, tensordot): gradcheck and gradgradcheck
 * (float64) over arguments and layouts, then closed forms.
 */
class ArrangeGradTest {
    private record Op(String name, Function<Tensor, Tensor> fn, long[]... shapes) {}

    private static long[] s(long... shape) {
        return shape;
    }

    private static Tensor in(int salt, long... shape) {
        return leaf(shape, salt);
    }

    private static Op pad(PadMode mode, long[] pad, long[]... shapes) {
        return new Op(
                "pad(" + mode.pyName() + ", " + java.util.Arrays.toString(pad) + ")",
                x -> ArrangeOps.pad(x, pad, mode),
                shapes);
    }

    private static List<Op> ops() {
        List<Op> ops = new ArrayList<>();
        ops.add(pad(PadMode.CONSTANT, s(1, 2), s(3, 4), s(2, 3, 4)));
        ops.add(pad(PadMode.CONSTANT, s(1, -1, 2, 0), s(3, 4)));
        ops.add(pad(PadMode.CONSTANT, s(1, 0, 0, 2, 1, 1), s(2, 3, 4)));
        ops.add(pad(PadMode.CONSTANT, s(), s(3)));
        ops.add(new Op("pad(constant, value 1.5)", x -> ArrangeOps.pad(x, s(2, 1), 1.5), s(3, 4)));
        for (PadMode mode : new PadMode[] {PadMode.REFLECT, PadMode.REPLICATE, PadMode.CIRCULAR}) {
            ops.add(pad(mode, s(2, 1), s(2, 5), s(2, 3, 5)));
            ops.add(pad(mode, s(1, 2, 3, 1), s(1, 4, 5), s(2, 2, 4, 5)));
            ops.add(pad(mode, s(1, 2, 1, 1, 2, 0), s(1, 3, 3, 4)));
        }
        ops.add(pad(PadMode.REPLICATE, s(4, 3), s(2, 2)));
        ops.add(pad(PadMode.REPLICATE, s(-1, 2, 0, 3), s(1, 3, 4)));
        ops.add(pad(PadMode.CIRCULAR, s(1, -2), s(2, 5)));
        ops.add(pad(PadMode.REFLECT, s(-1, 3), s(2, 5)));
        ops.add(new Op("diag_embed()", ArrangeOps::diagEmbed, s(3), s(2, 3)));
        ops.add(new Op("diag_embed(1)", x -> ArrangeOps.diagEmbed(x, 1), s(2, 3)));
        ops.add(new Op("diag_embed(-2, 0, 2)", x -> ArrangeOps.diagEmbed(x, -2, 0, 2), s(2, 3)));
        ops.add(new Op("diag_embed(0, -1, 0)", x -> ArrangeOps.diagEmbed(x, 0, -1, 0), s(2, 3)));
        ops.add(new Op(
                "repeat_interleave([2, 0, 3], 0)",
                x -> ArrangeOps.repeatInterleave(x, Torch.tensor(new long[] {2, 0, 3}), 0),
                s(3),
                s(3, 4)));
        ops.add(new Op(
                "repeat_interleave([1, 2, 0, 3] int32, -1)",
                x -> ArrangeOps.repeatInterleave(
                        x, Torch.tensor(new long[] {1, 2, 0, 3}).to(DType.INT32), -1),
                s(3, 4)));
        ops.add(new Op(
                "repeat_interleave(flattened)",
                x -> ArrangeOps.repeatInterleave(x, Torch.tensor(new long[] {1, 2, 0, 3, 1, 1})),
                s(2, 3)));
        ops.add(new Op(
                "repeat_interleave(0-d repeats 2, 1, output_size 8)",
                x -> ArrangeOps.repeatInterleave(x, Torch.scalarTensor(2L, DType.INT64), 1, 8L),
                s(3, 4)));
        ops.add(new Op("repeat_interleave(int 3, 0)", x -> ArrangeOps.repeatInterleave(x, 3, 0), s(2, 3)));
        ops.add(new Op("repeat_interleave(int 2)", x -> ArrangeOps.repeatInterleave(x, 2), s(2, 3)));
        ops.add(new Op("diff()", ArrangeOps::diff, s(5), s(3, 4)));
        ops.add(new Op("diff(2, 0)", x -> ArrangeOps.diff(x, 2, 0), s(4, 3)));
        ops.add(new Op("diag(vector, 1)", x -> ArrangeOps.diag(x, 1), s(3)));
        ops.add(new Op("diag(matrix, -1)", x -> ArrangeOps.diag(x, -1), s(3, 4)));
        ops.add(new Op("einsum(ii->i)", x -> EinsumOps.einsum("ii->i", x), s(3, 3)));
        ops.add(new Op("einsum(ii)", x -> EinsumOps.einsum("ii", x), s(3, 3)));
        ops.add(new Op("einsum(...ij->...j)", x -> EinsumOps.einsum("...ij->...j", x), s(3, 4), s(2, 3, 4)));
        ops.add(new Op("einsum(bij->jb)", x -> EinsumOps.einsum("bij->jb", x), s(2, 3, 4)));
        return ops;
    }

    @TestFactory
    Stream<DynamicTest> gradcheckAndGradgradcheckOverArgumentsAndLayouts() {
        return ops().stream().flatMap(op -> Stream.of(op.shapes())
                .flatMap(shape -> layouts(shape).stream())
                .flatMap(layout -> GradCases.checks(op.name(), layout, op.fn())));
    }

    @TestFactory
    Stream<DynamicTest> severalInputs() {
        return Stream.of(
                        GradCases.checks(
                                "diff with prepend and append",
                                xs -> ArrangeOps.diff(xs.get(0), 1, 1, xs.get(1), xs.get(2)),
                                in(1, 2, 3),
                                in(2, 2, 1),
                                in(3, 2, 2)),
                        GradCases.checks(
                                "einsum(ij,jk->ik)",
                                xs -> EinsumOps.einsum("ij,jk->ik", xs.get(0), xs.get(1)),
                                in(1, 2, 3),
                                in(2, 3, 4)),
                        GradCases.checks(
                                "einsum(bij,bjk->bik) of a transposed operand",
                                xs -> EinsumOps.einsum(
                                        "bij,bjk->bik", xs.get(0), xs.get(1).transpose(1, 2)),
                                in(1, 2, 2, 3),
                                in(2, 2, 4, 3)),
                        GradCases.checks(
                                "einsum(i,i->)",
                                xs -> EinsumOps.einsum("i,i->", xs.get(0), xs.get(1)),
                                in(1, 4),
                                in(2, 4)),
                        GradCases.checks(
                                "einsum(ij,ij,j->i)",
                                xs -> EinsumOps.einsum("ij,ij,j->i", xs.get(0), xs.get(1), xs.get(2)),
                                in(1, 2, 3),
                                in(2, 2, 3),
                                in(3, 3)),
                        GradCases.checks(
                                "tensordot(dims 1)",
                                xs -> EinsumOps.tensordot(xs.get(0), xs.get(1), 1),
                                in(1, 2, 3),
                                in(2, 3, 2)),
                        GradCases.checks(
                                "tensordot([0, 2], [1, 0])",
                                xs -> EinsumOps.tensordot(xs.get(0), xs.get(1), new int[] {0, 2}, new int[] {1, 0}),
                                in(1, 2, 3, 4),
                                in(2, 4, 2, 5)))
                .flatMap(t -> t);
    }

    /** Complex operands through real leaves (see ComplexGradTest). */
    @TestFactory
    Stream<DynamicTest> complexOperands() {
        Tensor re = GradCases.leaf(0.3, -0.5, 0.6, 1.1, -0.8, 0.45),
                im = GradCases.leaf(0.4, 0.2, -0.3, 0.7, 0.25, -0.9);
        Function<List<Tensor>, Tensor> f = xs -> {
            Tensor z = Torch.complex(xs.get(0), xs.get(1)).reshape(2, 3);
            Tensor parts = JoinOps.cat(
                    List.of(
                            ArrangeOps.pad(z, s(2, 1), PadMode.REFLECT).reshape(-1),
                            ArrangeOps.pad(z, s(1, 2), PadMode.CIRCULAR).reshape(-1),
                            ArrangeOps.pad(z, s(1, -1), 0.0).reshape(-1),
                            ArrangeOps.diagEmbed(z, 1).reshape(-1),
                            ArrangeOps.repeatInterleave(z, Torch.tensor(new long[] {2, 0, 1}), 1)
                                    .reshape(-1)),
                    0);
            return ComplexOps.viewAsReal(parts);
        };
        return GradCases.checks("complex pad(reflect, circular, constant), diag_embed, repeat_interleave", f, re, im);
    }

    /** pad_backward on its own: its backward is pad, so gradcheck and gradgradcheck see both directions. */
    @TestFactory
    Stream<DynamicTest> padBackwardIsDifferentiable() {
        List<Stream<DynamicTest>> out = new ArrayList<>();
        for (PadMode mode : new PadMode[] {PadMode.REFLECT, PadMode.REPLICATE, PadMode.CIRCULAR, PadMode.CONSTANT}) {
            long[] pad = s(2, 1, 1, 2);
            for (GradCases.Layout layout : layouts(1, 6, 7)) {
                out.add(GradCases.checks(
                        "pad_backward(" + mode.pyName() + ")",
                        layout,
                        g -> PadBackwardOps.padBackward(g, s(1, 3, 4), pad, mode)));
            }
        }
        return out.stream().flatMap(t -> t);
    }

    // ---- closed forms -----------------------------------------------------------------------------

    private static Tensor weights(long... shape) {
        int n = (int) org.jtorch.internal.Shapes.numel(shape);
        double[] w = new double[n];
        for (int i = 0; i < n; i++) w[i] = i + 1;
        return Torch.tensor(w, DType.FLOAT64, n).reshape(shape);
    }

    private static double[] padGrad(long size, long[] pad, PadMode mode) {
        Tensor x = Torch.zeros(s(1, size), DType.FLOAT64).requiresGrad(true);
        long out = size + pad[0] + pad[1];
        return gradOf(t -> ArrangeOps.pad(t, pad, mode), x, weights(1, out));
    }

    @Test
    void edgeModesSumEveryReadOfAnInputElement() {
        // reflect, size 4, pad (2, 1): the output reads positions [2, 1, 0, 1, 2, 3, 2].
        assertGrad(new double[] {3, 2 + 4, 1 + 5 + 7, 6}, padGrad(4, s(2, 1), PadMode.REFLECT));
        // replicate, size 3, pad (2, 1): [0, 0, 0, 1, 2, 2].
        assertGrad(new double[] {1 + 2 + 3, 4, 5 + 6}, padGrad(3, s(2, 1), PadMode.REPLICATE));
        // circular, size 3, pad (1, 2): [2, 0, 1, 2, 0, 1].
        assertGrad(new double[] {2 + 5, 3 + 6, 1 + 4}, padGrad(3, s(1, 2), PadMode.CIRCULAR));
        // constant, size 4, pad (1, -2): [fill, 0, 1]; the cropped elements get nothing.
        assertGrad(new double[] {2, 3, 0, 0}, padGrad(4, s(1, -2), PadMode.CONSTANT));
        Tensor x = Torch.zeros(s(1, 3), DType.FLOAT64).requiresGrad(true);
        assertEquals(
                "PadBackward0",
                ArrangeOps.pad(x, s(1, 1), PadMode.REFLECT).gradFn().name());
    }

    @Test
    void padBackwardOfAComplexGradientSumsBothParts() {
        Tensor g = Torch.complex(weights(1, 5), weights(1, 5).neg());
        Tensor r = PadBackwardOps.padBackward(g, s(1, 3), s(1, 1), PadMode.REPLICATE);
        // replicate, size 3, pad (1, 1): [0, 0, 1, 2, 2].
        assertArrayEquals(
                new double[] {3, -3, 3, -3, 9, -9},
                org.jtorch.ops.ComplexOps.viewAsReal(r).toDoubleArray(),
                0);
    }

    @Test
    void padBackwardChecksItsArguments() {
        Tensor g = Torch.zeros(s(1, 5), DType.FLOAT64);
        TorchException e = assertThrows(
                TorchException.class, () -> PadBackwardOps.padBackward(g, s(1, 4), s(1, 1), PadMode.REFLECT));
        assertTrue(e.getMessage().contains("does not match the padded shape [1, 6]"), e.getMessage());
        // pad's own checks hold for its backward: reflect needs pads below the size.
        assertThrows(
                TorchException.class,
                () -> PadBackwardOps.padBackward(
                        Torch.zeros(s(1, 7), DType.FLOAT64), s(1, 3), s(3, 1), PadMode.REFLECT));
    }

    @Test
    void diagEmbedAndRepeatInterleaveRouteGradientsBack() {
        Tensor x = Torch.zeros(s(2), DType.FLOAT64).requiresGrad(true);
        // diag_embed(x, 1) is 3x3 with x on the first superdiagonal: positions 1 and 5 of the weights.
        assertGrad(new double[] {2, 6}, gradOf(t -> ArrangeOps.diagEmbed(t, 1), x, weights(3, 3)));
        Tensor y = Torch.zeros(s(3), DType.FLOAT64).requiresGrad(true);
        // repeats [2, 0, 3]: y0 twice, y2 three times.
        assertGrad(
                new double[] {1 + 2, 0, 3 + 4 + 5},
                gradOf(t -> ArrangeOps.repeatInterleave(t, Torch.tensor(new long[] {2, 0, 3})), y, weights(5)));
    }
}
