package org.jtorch.ops;

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
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code torch.convolution} against PyTorch 2.13 ({@code make_golden_convolution.py}): transposed convolutions in 1-d
 * and 2-d with stride, padding, dilation, groups, bias and output padding (including output padding that reaches a
 * whole stride), plain ones, their gradients for input, weight and bias, and the errors of bad transposed arguments.
 * The generic sweeps (meta, gradcheck, forward AD, vmap) run the op through its OpDb samples, transposed ones included.
 */
class ConvolutionTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("convolution.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        Golden.check(c, List.of(), false, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        Tensor x = c.tensorArg(0), w = c.tensorArg(1), b = (Tensor) c.arg(2);
        if (c.expectsError() || c.argCount() == 3) {
            Tensor out = call(c, x, w, b);
            return c.expectsError() ? out : List.of(out);
        }
        x.requiresGrad(true);
        w.requiresGrad(true);
        if (b != null) b.requiresGrad(true);
        Tensor out = call(c, x, w, b);
        Tensor weighted = out.mul(c.tensorArg(3));
        (weighted.dtype().isComplex() ? weighted.real() : weighted).sum().backward();
        List<Object> results = new ArrayList<>(List.of(out.detach(), x.grad(), w.grad()));
        if (b != null) results.add(b.grad());
        return results;
    }

    private static Tensor call(Golden.Case c, Tensor x, Tensor w, Tensor b) {
        if (c.op().equals("functional")) return functional(c, x, w, b);
        return Torch.convolution(
                x,
                w,
                b,
                longs(c.kwarg("stride")),
                longs(c.kwarg("padding")),
                longs(c.kwarg("dilation")),
                (Boolean) c.kwarg("transposed"),
                longs(c.kwarg("output_padding")),
                ((Number) c.kwarg("groups")).longValue());
    }

    /** {@code F.<fn>(x, w, b, ...)}: the complex cases, which PyTorch computes with three real convolutions. */
    private static Tensor functional(Golden.Case c, Tensor x, Tensor w, Tensor b) {
        String fn = (String) c.kwarg("fn");
        long groups = ((Number) c.kwarg("groups")).longValue();
        long[] s = longs(c.kwarg("stride")), d = longs(c.kwarg("dilation"));
        if (fn.startsWith("conv_transpose")) {
            long[] p = longs(c.kwarg("padding")), op = longs(c.kwarg("output_padding"));
            return switch (fn) {
                case "conv_transpose1d" -> F.convTranspose1d(x, w, b, s[0], p[0], op[0], groups, d[0]);
                case "conv_transpose2d" -> F.convTranspose2d(x, w, b, s, p, op, groups, d);
                default -> F.convTranspose3d(x, w, b, s, p, op, groups, d);
            };
        }
        if (c.kwarg("padding") instanceof String mode) {
            return fn.equals("conv2d") ? F.conv2d(x, w, b, s, mode, d, groups) : F.conv3d(x, w, b, s, mode, d, groups);
        }
        long[] p = longs(c.kwarg("padding"));
        return switch (fn) {
            case "conv1d" -> F.conv1d(x, w, b, s[0], p[0], d[0], groups);
            case "conv2d" -> F.conv2d(x, w, b, s, p, d, groups);
            default -> F.conv3d(x, w, b, s, p, d, groups);
        };
    }

    /** A list of ints, or one int (a functional form's single value for every dim). */
    private static long[] longs(Object list) {
        if (list instanceof Number n) return new long[] {n.longValue()};
        return ((List<?>) list)
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    private static Tensor leaf(long... shape) {
        Torch.manualSeed(shape.length * 31L + shape[shape.length - 1]);
        return Torch.randn(shape, DType.FLOAT64).requiresGrad(true);
    }

    private static void gradcheck(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
    }

    @Test
    void transposedConvolutionHasFirstAndSecondDerivatives() {
        gradcheck(
                x -> Torch.convolution(
                        x.get(0),
                        x.get(1),
                        x.get(2),
                        new long[] {2, 1},
                        new long[] {1, 0},
                        new long[] {1, 2},
                        true,
                        new long[] {1, 0},
                        2),
                leaf(2, 4, 3, 3),
                leaf(4, 1, 3, 2),
                leaf(2));
        // output padding of a whole stride: the gradients cut and pad the extra positions
        gradcheck(
                x -> Torch.convolution(
                        x.get(0),
                        x.get(1),
                        null,
                        new long[] {1},
                        new long[] {0},
                        new long[] {3},
                        true,
                        new long[] {2},
                        1),
                leaf(1, 2, 4),
                leaf(2, 3, 2));
    }

    @Test
    void plainConvolutionRefusesOutputPaddingInItsBackward() {
        Tensor x = Torch.ones(new long[] {1, 1, 4, 4}, DType.FLOAT64).requiresGrad(true);
        Tensor w = Torch.ones(new long[] {1, 1, 2, 2}, DType.FLOAT64);
        long[] one = {1}, zero = {0};
        Tensor y = Torch.convolution(x, w, null, one, zero, one, false, new long[] {3, 3}, 1);
        assertEquals(9, y.numel());
        TorchException e = assertThrows(TorchException.class, () -> y.sum().backward());
        assertEquals("output_padding is not supported for non-transposed convolutions; got: 3 3", e.getMessage());
    }

    @Test
    void volumeConvolutionHasFirstAndSecondDerivatives() {
        gradcheck(
                x -> Torch.convolution(
                        x.get(0),
                        x.get(1),
                        x.get(2),
                        new long[] {2, 1, 1},
                        new long[] {1, 0, 1},
                        new long[] {1, 1, 2},
                        false,
                        new long[] {0},
                        2),
                leaf(1, 4, 4, 3, 5),
                leaf(2, 2, 2, 2, 2),
                leaf(2));
        gradcheck(
                x -> Torch.convolution(
                        x.get(0),
                        x.get(1),
                        x.get(2),
                        new long[] {2, 1, 2},
                        new long[] {1, 0, 0},
                        new long[] {1, 2, 1},
                        true,
                        new long[] {1, 0, 1},
                        2),
                leaf(1, 4, 2, 3, 2),
                leaf(4, 1, 2, 2, 2),
                leaf(2));
    }

    private static Tensor complexLeaf(long... shape) {
        Torch.manualSeed(shape.length * 17L + shape[0]);
        return Torch.randn(shape, DType.COMPLEX128).requiresGrad(true);
    }

    @Test
    void complexConvolutionsHaveWirtingerGradients() {
        gradcheck(
                x -> F.conv2d(x.get(0), x.get(1), x.get(2), new long[] {2, 1}, new long[] {1, 0}, new long[] {1}, 1),
                complexLeaf(1, 2, 4, 3),
                complexLeaf(3, 2, 2, 2),
                complexLeaf(3));
        gradcheck(
                x -> F.convTranspose1d(x.get(0), x.get(1), x.get(2), 2, 1, 1, 2, 1),
                complexLeaf(2, 4, 3),
                complexLeaf(4, 1, 2),
                complexLeaf(2));
        assertTrue(GradCheck.check(
                x -> F.conv3d(x.get(0), x.get(1), null, new long[] {1}, new long[] {1}, new long[] {1}, 1),
                List.of(complexLeaf(1, 2, 2, 3, 2), complexLeaf(2, 2, 2, 2, 2)),
                GradCheck.Options.defaults()));
        assertTrue(GradCheck.check(
                x -> F.convTranspose3d(
                        x.get(0), x.get(1), null, new long[] {2}, new long[] {0}, new long[] {1}, 1, new long[] {1}),
                List.of(complexLeaf(1, 2, 2, 2, 1), complexLeaf(2, 1, 2, 1, 2)),
                GradCheck.Options.defaults()));
    }

    @Test
    void boolColumnsAreTheNonZeroPatternOfTheFloatColumns() {
        Torch.manualSeed(3);
        Tensor mask = Torch.rand(new long[] {2, 3, 5, 4}, DType.FLOAT32).gt(0.6);
        long[] k = {2, 3}, d = {2, 1}, p = {1, 1}, s = {1, 2};
        Tensor cols = Torch.im2col(mask, k, d, p, s);
        assertEquals(DType.BOOL, cols.dtype());
        assertArrayEquals(
                Torch.im2col(mask.to(DType.FLOAT32), k, d, p, s)
                        .ne(0)
                        .to(DType.INT64)
                        .toLongArray(),
                cols.to(DType.INT64).toLongArray());
        // col2im sums overlapping entries; in bool a sum is a logical or
        Tensor image = Torch.col2im(cols, new long[] {5, 4}, k, d, p, s);
        assertEquals(DType.BOOL, image.dtype());
        assertArrayEquals(
                Torch.col2im(cols.to(DType.FLOAT32), new long[] {5, 4}, k, d, p, s)
                        .ne(0)
                        .to(DType.INT64)
                        .toLongArray(),
                image.to(DType.INT64).toLongArray());
    }

    /**
     * A first-order backward of a transposed convolution takes both gradients from one unfolding of the output
     * gradient; a recorded backward (create_graph) takes them from the two gradient ops. Both must agree up to float
     * rounding, output padding past a whole stride and groups included.
     */
    @Test
    void transposedConvolutionsFusedBackwardMatchesTheGradientOps() {
        for (DType dt : new DType[] {DType.FLOAT64, DType.FLOAT32}) {
            Torch.manualSeed(5);
            Tensor x = Torch.randn(new long[] {3, 4, 5, 3}, dt), w = Torch.randn(new long[] {4, 3, 3, 2}, dt);
            long[] s = {2, 1}, p = {1, 0}, d = {1, 3}, op = {1, 2};
            Tensor g = Torch.randn(new long[] {3, 6, 10, 8}, dt);
            List<Tensor> fused = grads(x, w, g, s, p, d, op, false);
            List<Tensor> recorded = grads(x, w, g, s, p, d, op, true);
            double tol = dt == DType.FLOAT64 ? 1e-12 : 1e-4;
            for (int i = 0; i < 2; i++) {
                double scale = recorded.get(i).abs().max().item();
                double diff = fused.get(i).sub(recorded.get(i)).abs().max().item();
                assertTrue(diff <= tol * scale, dt + " gradient " + i + " differs by " + diff);
            }
        }
    }

    private static List<Tensor> grads(
            Tensor x, Tensor w, Tensor g, long[] s, long[] p, long[] d, long[] op, boolean createGraph) {
        Tensor xl = x.detach().requiresGrad(true), wl = w.detach().requiresGrad(true);
        Tensor y = Torch.convolution(xl, wl, null, s, p, d, true, op, 2);
        assertArrayEquals(g.shape(), y.shape());
        return Autograd.grad(
                List.of(y.mul(g).sum()),
                List.of(xl, wl),
                Autograd.GradOptions.defaults().createGraph(createGraph));
    }
}
