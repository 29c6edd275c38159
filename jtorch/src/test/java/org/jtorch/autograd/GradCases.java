package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.internal.Shapes;
import org.junit.jupiter.api.DynamicTest;

/**
 * Shared pieces of the table-driven gradient tests: float64 samples with distinct values away from 0, the layouts an op
 * is fed (contiguous, transposed, strided), and the three checks every case runs.
 */
final class GradCases {
    private GradCases() {}

    /** An input an op sees: the leaf's shape and the view that turns the leaf into the op's input. */
    record Layout(String name, long[] leafShape, Function<Tensor, Tensor> view) {}

    /**
     * Distinct values whose magnitudes are distinct too (no ties for max or the inf-norms), in [0.3, 3], with mixed
     * signs. {@code salt} varies the values between inputs of one case.
     */
    static double[] values(int n, int salt) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            double m = 0.3 + 0.1 * ((i * 5 + salt * 3) % Math.max(n, 1)) + 0.003 * i + 0.0007 * salt;
            v[i] = ((i * 3 + salt) % 5 < 2 ? -1 : 1) * m;
        }
        return v;
    }

    static Tensor leaf(long[] shape, int salt) {
        int n = Math.toIntExact(Shapes.numel(shape));
        return Torch.tensor(values(n, salt), DType.FLOAT64, n).reshape(shape).requiresGrad(true);
    }

    static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    /** The input as a contiguous tensor, as a transposed view (rank ≥ 2) and as a strided slice (rank ≥ 1). */
    static List<Layout> layouts(long... shape) {
        List<Layout> out = new ArrayList<>();
        out.add(new Layout("contiguous " + Shapes.str(shape), shape, x -> x));
        int r = shape.length;
        if (r >= 2) {
            long[] rev = new long[r];
            int[] perm = new int[r];
            for (int i = 0; i < r; i++) {
                rev[i] = shape[r - 1 - i];
                perm[i] = r - 1 - i;
            }
            out.add(new Layout("transposed " + Shapes.str(shape), rev, x -> x.permute(perm)));
        }
        if (r >= 1) {
            long[] wide = shape.clone();
            wide[r - 1] *= 2;
            out.add(new Layout("strided " + Shapes.str(shape), wide, x -> x.slice(r - 1, 0L, null, 2)));
        }
        return out;
    }

    /**
     * gradcheck of {@code op}, gradgradcheck of {@code op} and gradgradcheck of {@code op²}: the last one makes the
     * backward's own gradient with respect to the output gradient matter, which piecewise linear ops (whose second
     * derivative is zero) would otherwise never exercise.
     */
    static Stream<DynamicTest> checks(String name, Layout layout, Function<Tensor, Tensor> op) {
        Function<Tensor, Tensor> f = x -> op.apply(layout.view().apply(x));
        String at = name + " on " + layout.name();
        return Stream.of(
                DynamicTest.dynamicTest(
                        "gradcheck " + at, () -> assertTrue(Autograd.gradcheck(f, leaf(layout.leafShape(), 0)))),
                DynamicTest.dynamicTest(
                        "gradgradcheck " + at,
                        () -> assertTrue(Autograd.gradgradcheck(f, leaf(layout.leafShape(), 0)))),
                DynamicTest.dynamicTest(
                        "gradgradcheck (squared) " + at,
                        () -> assertTrue(
                                Autograd.gradgradcheck(x -> f.apply(x).square(), leaf(layout.leafShape(), 0)))));
    }

    /** The same three checks for a function of several float64 inputs. */
    static Stream<DynamicTest> checks(String name, Function<List<Tensor>, Tensor> op, Tensor... inputs) {
        List<Tensor> in = List.of(inputs);
        GradCheck.Options o = GradCheck.Options.defaults();
        return Stream.of(
                DynamicTest.dynamicTest("gradcheck " + name, () -> assertTrue(GradCheck.check(op, in, o))),
                DynamicTest.dynamicTest(
                        "gradgradcheck " + name, () -> assertTrue(GradCheck.checkSecondOrder(op, in, o))),
                DynamicTest.dynamicTest(
                        "gradgradcheck (squared) " + name,
                        () -> assertTrue(
                                GradCheck.checkSecondOrder(xs -> op.apply(xs).square(), in, o))));
    }

    /** d(Σ w·f(x))/dx for the fixed weights {@code w} (same shape as f(x)). */
    static double[] gradOf(Function<Tensor, Tensor> f, Tensor x, Tensor w) {
        Tensor out = f.apply(x);
        return Autograd.grad(out.mul(w).sum(), x, false).toDoubleArray();
    }

    /** The gradient of {@code f(x).sum()}. */
    static double[] gradOfSum(Function<Tensor, Tensor> f, Tensor x) {
        return Autograd.grad(f.apply(x).sum(), x, false).toDoubleArray();
    }

    static void assertGrad(double[] expected, double[] actual) {
        assertArrayEquals(expected, actual, 1e-12);
    }
}
