package org.jtorch.autograd;

import static org.jtorch.autograd.GradCases.assertGrad;
import static org.jtorch.autograd.GradCases.gradOf;
import static org.jtorch.autograd.GradCases.gradOfSum;
import static org.jtorch.autograd.GradCases.layouts;
import static org.jtorch.autograd.GradCases.leaf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.ReductionOps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Backward rules of the reductions, scans and softmax: gradcheck and gradgradcheck (float64) over dims, keepdim and
 * layouts, then the closed forms of the kink rules (spec autograd-rules §3.5) and identities.
 */
class ReductionGradTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    private record Op(String name, Function<Tensor, Tensor> fn, long[]... shapes) {}

    private static long[] s(long... shape) {
        return shape;
    }

    private static long[] d(long... dims) {
        return dims;
    }

    private static final long[] ALL = null;

    private static Tensor prodDims(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.PROD.call1(x, dims, keepdim, null);
    }

    private static List<Op> ops() {
        List<Op> ops = new ArrayList<>();
        long[][] shapes = {s(5), s(3, 4), s(2, 3, 4)};
        long[][] matrices = {s(3, 4), s(2, 3, 4)};
        ops.add(new Op("prod()", ReductionOps::prod, s(), s(5), s(3, 4)));
        for (boolean keep : new boolean[] {false, true}) {
            String k = keep ? ", keepdim" : "";
            for (long dim : new long[] {0, -1}) {
                ops.add(new Op("prod(" + dim + k + ")", x -> ReductionOps.prod(x, dim, keep), shapes));
                ops.add(new Op("amax(" + dim + k + ")", x -> ReductionOps.amax(x, d(dim), keep), shapes));
                ops.add(new Op("amin(" + dim + k + ")", x -> ReductionOps.amin(x, d(dim), keep), shapes));
                ops.add(new Op(
                        "max(" + dim + k + ")",
                        x -> ReductionOps.max(x, dim, keep).values(),
                        shapes));
                ops.add(new Op(
                        "min(" + dim + k + ")",
                        x -> ReductionOps.min(x, dim, keep).values(),
                        shapes));
                ops.add(new Op("logsumexp(" + dim + k + ")", x -> ReductionOps.logsumexp(x, dim, keep), shapes));
                ops.add(new Op("nansum(" + dim + k + ")", x -> ReductionOps.nansum(x, d(dim), keep, null), shapes));
                ops.add(new Op("nanmean(" + dim + k + ")", x -> ReductionOps.nanmean(x, d(dim), keep, null), shapes));
            }
            ops.add(new Op("prod([0, -1]" + k + ")", x -> prodDims(x, d(0, -1), keep), matrices));
            ops.add(new Op("amax([0, -1]" + k + ")", x -> ReductionOps.amax(x, d(0, -1), keep), matrices));
            ops.add(new Op("amin([]" + k + ")", x -> ReductionOps.amin(x, d(), keep), shapes));
            ops.add(new Op("logsumexp([0, -1]" + k + ")", x -> ReductionOps.logsumexp(x, d(0, -1), keep), matrices));
            for (double c : new double[] {0, 1, 2.5}) {
                ops.add(new Op("var(all, c=" + c + k + ")", x -> ReductionOps.var(x, ALL, c, keep), shapes));
                ops.add(new Op("std(all, c=" + c + k + ")", x -> ReductionOps.std(x, ALL, c, keep), shapes));
                ops.add(new Op("var(-1, c=" + c + k + ")", x -> ReductionOps.var(x, d(-1), c, keep), matrices));
                ops.add(new Op("std([0, -1], c=" + c + k + ")", x -> ReductionOps.std(x, d(0, -1), c, keep), matrices));
            }
            for (double ord : new double[] {2, 1, INF, -INF, 0, 0.5, 1.5, 3, -1.5}) {
                ops.add(new Op(
                        "vector_norm(" + ord + ", all" + k + ")",
                        x -> ReductionOps.vectorNorm(x, ord, ALL, keep),
                        shapes));
                ops.add(new Op(
                        "vector_norm(" + ord + ", [-1]" + k + ")",
                        x -> ReductionOps.vectorNorm(x, ord, d(-1), keep),
                        matrices));
            }
        }
        ops.add(new Op(
                "vector_norm(2, dtype=float64)",
                x -> ReductionOps.vectorNorm(x, 2, d(0), false, DType.FLOAT64),
                shapes));
        ops.add(new Op("max()", ReductionOps::max, s(), s(5), s(3, 4)));
        ops.add(new Op("min()", ReductionOps::min, s(), s(5), s(3, 4)));
        ops.add(new Op("nansum()", ReductionOps::nansum, s(), s(3, 4)));
        ops.add(new Op("nanmean()", ReductionOps::nanmean, s(), s(3, 4)));
        ops.add(new Op("var()", ReductionOps::var, s(5), s(3, 4)));
        ops.add(new Op("std()", ReductionOps::std, s(5), s(3, 4)));
        for (long dim : new long[] {0, -1}) {
            ops.add(new Op("softmax(" + dim + ")", x -> ReductionOps.softmax(x, dim), shapes));
            ops.add(new Op("log_softmax(" + dim + ")", x -> ReductionOps.logSoftmax(x, dim), shapes));
            ops.add(new Op("cumsum(" + dim + ")", x -> ReductionOps.cumsum(x, dim), shapes));
            ops.add(new Op("cumprod(" + dim + ")", x -> ReductionOps.cumprod(x, dim), shapes));
        }
        ops.add(new Op("softmax(-1, dtype=float64)", x -> ReductionOps.softmax(x, -1, DType.FLOAT64), s(3, 4)));
        ops.add(new Op("cumsum(0) of a 0-d tensor", x -> ReductionOps.cumsum(x, 0), s()));
        ops.add(new Op("cumprod(0) of a 0-d tensor", x -> ReductionOps.cumprod(x, 0), s()));
        return ops;
    }

    @TestFactory
    Stream<DynamicTest> gradcheckAndGradgradcheckOverDimsAndLayouts() {
        return ops().stream().flatMap(op -> Stream.of(op.shapes())
                .flatMap(shape -> layouts(shape).stream())
                .flatMap(layout -> GradCases.checks(op.name(), layout, op.fn())));
    }

    /** Zeros make prod and cumprod switch formulas; each formula gets the full set of checks. */
    @TestFactory
    Stream<DynamicTest> productsOfInputsWithZeros() {
        Tensor oneZero = leaf(1.5, -0.7, 0.0, 2.0, 1.1, -1.3);
        Tensor twoZeros = leaf(1.5, 0.0, 0.8, 0.0, 1.1, -1.3);
        Tensor zeroFirst = leaf(0.0, -0.7, 1.2, 2.0, 0.0, -1.3);
        List<DynamicTest> tests = new ArrayList<>();
        for (Tensor x : List.of(oneZero, twoZeros, zeroFirst)) {
            String v = java.util.Arrays.toString(x.detach().toDoubleArray());
            Stream.of(
                            GradCases.checks("prod() of " + v, xs -> xs.get(0).prod(), x),
                            GradCases.checks(
                                    "prod(1) of " + v + " as 2x3",
                                    xs -> xs.get(0).reshape(2, 3).prod(1L),
                                    x),
                            GradCases.checks(
                                    "prod([0, 1]) of " + v + " as 3x2",
                                    xs -> prodDims(xs.get(0).reshape(3, 2), d(0, 1), true),
                                    x),
                            GradCases.checks(
                                    "prod(0) of " + v + " as 3x2 transposed",
                                    xs -> xs.get(0).reshape(2, 3).t().prod(1L),
                                    x),
                            GradCases.checks(
                                    "cumprod(0) of " + v, xs -> xs.get(0).cumprod(0), x),
                            GradCases.checks(
                                    "cumprod(1) of " + v + " as 2x3",
                                    xs -> xs.get(0).reshape(2, 3).cumprod(1),
                                    x),
                            GradCases.checks(
                                    "cumprod(0) of " + v + " as 3x2 transposed",
                                    xs -> xs.get(0).reshape(2, 3).t().cumprod(0),
                                    x))
                    .flatMap(t -> t)
                    .forEach(tests::add);
        }
        return tests.stream();
    }

    /** nansum/nanmean ignore NaN elements, and so does their gradient (0 there). */
    @TestFactory
    Stream<DynamicTest> nanReductionsWithNaNs() {
        Tensor x = leaf(1.5, Double.NaN, 0.4, -2.0, 0.7, Double.NaN); // no line is all NaN
        return Stream.of(
                        GradCases.checks(
                                "nansum(1) with NaNs",
                                xs -> ReductionOps.nansum(xs.get(0).reshape(2, 3), 1),
                                x),
                        GradCases.checks(
                                "nanmean(0) with NaNs",
                                xs -> ReductionOps.nanmean(xs.get(0).reshape(2, 3), 0),
                                x),
                        GradCases.checks("nanmean() with NaNs", xs -> ReductionOps.nanmean(xs.get(0)), x))
                .flatMap(t -> t);
    }

    /** A real view of a complex result, the result itself when it is real. */
    private static Tensor asReal(Tensor t) {
        return t.isComplex() ? ComplexOps.viewAsReal(t) : t;
    }

    /**
     * Complex inputs, checked through real leaves: {@code complex(re, im)} → op → {@code view_as_real} is a real
     * function whose Jacobian the chained VJPs reproduce only with PyTorch's conjugate convention.
     */
    @TestFactory
    Stream<DynamicTest> complexInputsFollowTheConjugateConvention() {
        Tensor re = leaf(0.3, -0.5, 0.6, 1.1, -0.8, 0.45), im = leaf(0.4, 0.2, -0.3, 0.7, 0.25, -0.9);
        Tensor reZero = leaf(0.3, 0.0, 0.6, 1.1, -0.8, 0.45), imZero = leaf(0.4, 0.0, -0.3, 0.7, 0.25, -0.9);
        List<Map.Entry<String, Function<Tensor, Tensor>>> ops = List.of(
                Map.entry("prod()", Tensor::prod),
                Map.entry("prod(1)", z -> z.prod(1L)),
                Map.entry("cumsum(1)", z -> z.cumsum(1)),
                Map.entry("cumprod(1)", z -> z.cumprod(1)),
                Map.entry("var(1)", z -> ReductionOps.var(z, d(1), 1.0, false)),
                Map.entry("std()", z -> ReductionOps.std(z)),
                Map.entry("vector_norm(2)", z -> ReductionOps.vectorNorm(z, 2, d(1), false)),
                Map.entry("vector_norm(1)", z -> ReductionOps.vectorNorm(z, 1, d(1), false)),
                Map.entry("vector_norm(inf)", z -> ReductionOps.vectorNorm(z, INF, d(1), false)),
                Map.entry("vector_norm(0.5)", z -> ReductionOps.vectorNorm(z, 0.5, ALL, false)),
                Map.entry("vector_norm(3)", z -> ReductionOps.vectorNorm(z, 3, ALL, true)));
        List<DynamicTest> tests = new ArrayList<>();
        for (var op : ops) {
            Function<List<Tensor>, Tensor> f = xs -> asReal(
                    op.getValue().apply(Torch.complex(xs.get(0), xs.get(1)).reshape(2, 3)));
            GradCases.checks("complex " + op.getKey(), f, re, im).forEach(tests::add);
        }
        for (String name : List.of("prod(1)", "cumprod(1)")) {
            Function<Tensor, Tensor> op = ops.stream()
                    .filter(e -> e.getKey().equals(name))
                    .findFirst()
                    .orElseThrow()
                    .getValue();
            Function<List<Tensor>, Tensor> f =
                    xs -> asReal(op.apply(Torch.complex(xs.get(0), xs.get(1)).reshape(2, 3)));
            GradCases.checks("complex " + name + " with a zero", f, reZero, imZero)
                    .forEach(tests::add);
        }
        return tests.stream();
    }

    // ---- spec autograd-rules §3.5 -------------------------------------------------------------------

    /** Worked example 6, verbatim: a full max splits the gradient over ties; max(dim) gives it to the first index. */
    @Test
    void specWorkedExample6() {
        Tensor x = Torch.tensor(new double[] {1., 3., 3., 2.}).requiresGrad(true);
        x.max().backward();
        assertArrayEquals(new double[] {0, 0.5, 0.5, 0}, x.grad().toDoubleArray(), 0);
        Tensor y = Torch.tensor(new double[] {1., 3., 3., 2.}).requiresGrad(true);
        y.max(0).values().backward();
        assertArrayEquals(new double[] {0, 1, 0, 0}, y.grad().toDoubleArray(), 0);
    }

    @Test
    void tiesAreSharedEvenlyByFullAndDimsExtrema() {
        Tensor x = leaf(1, 3, 3, 2, 2, 0);
        assertGrad(new double[] {0, 0, 0, 0, 0, 1}, gradOfSum(t -> t.min(), x));
        assertGrad(
                new double[] {0, 0.5, 0.5, 0.5, 0.5, 0},
                gradOfSum(t -> ReductionOps.amax(t.reshape(2, 3), d(1), false), x));
        assertGrad(new double[] {1, 0, 0, 0, 1, 1}, gradOfSum(t -> ReductionOps.amin(t.reshape(2, 3), d(0), true), x));
        assertGrad(
                new double[] {0, 0.5, 0.5, 0, 0, 0},
                gradOfSum(t -> ReductionOps.amax(t.reshape(2, 3), d(0, 1), false), x));
        // max(dim) / min(dim): the first occurrence only.
        assertGrad(
                new double[] {0, 1, 0, 1, 0, 0},
                gradOfSum(t -> t.reshape(2, 3).max(1).values(), x));
        assertGrad(
                new double[] {1, 0, 0, 0, 0, 1},
                gradOfSum(t -> t.reshape(2, 3).min(1, true).values(), x));
        // Weighted, to see each value's gradient land at its own index.
        Tensor w = Torch.tensor(new double[] {10, 20, 30});
        assertGrad(
                new double[] {0, 20, 30, 10, 0, 0},
                gradOf(t -> t.reshape(2, 3).max(0).values(), x, w));
    }

    /** A NaN result: the NaN elements are the ties (spec §3.5), for max() and amax alike. */
    @Test
    void nanResultSharesTheGradientAmongNaNs() {
        Tensor x = leaf(1, Double.NaN, 3, Double.NaN);
        assertGrad(new double[] {0, 0.5, 0, 0.5}, gradOfSum(Tensor::max, x));
        assertGrad(new double[] {0, 0.5, 0, 0.5}, gradOfSum(t -> ReductionOps.amin(t, d(0), false), x));
        assertGrad(new double[] {0, 1, 0, 1}, gradOfSum(t -> ReductionOps.amax(t.reshape(2, 2), d(1), false), x));
    }

    @Test
    void doubleBackwardOfMaxDimGathersAtTheIndices() {
        Tensor x = leaf(0.5, 2.0, -1.0, 4.0, 3.0, 0.25);
        Tensor v = x.reshape(2, 3).max(1).values(); // 2.0 (index 1), 4.0 (index 0)
        Tensor g = Torch.tensor(new double[] {0.0, 0.0}).requiresGrad(true);
        Tensor gx = Autograd.grad(
                        List.of(v),
                        List.of(x),
                        Autograd.GradOptions.defaults().gradOutputs(List.of(g)).createGraph(true))
                .get(0);
        Tensor weights = Torch.tensor(new double[] {1, 2, 3, 4, 5, 6});
        Tensor gg = Autograd.grad(gx.mul(weights).sum(), g, false);
        assertArrayEquals(new double[] {2, 4}, gg.toDoubleArray(), 0);
    }

    // ---- products with zeros ----------------------------------------------------------------------

    @Test
    void prodWithZerosGivesTheProductOfTheOthers() {
        assertGrad(new double[] {0, 24, 0, 0}, gradOfSum(Tensor::prod, leaf(2, 0, 3, 4)));
        assertGrad(new double[] {0, 0, 0, 0}, gradOfSum(Tensor::prod, leaf(2, 0, 3, 0)));
        assertGrad(
                new double[] {0, 6, 0, 3, 2, 6}, gradOfSum(t -> t.reshape(2, 3).prod(1L), leaf(2, 0, 3, 2, 3, 1)));
        assertGrad(
                new double[] {0, 0, 7.5, 0},
                gradOfSum(t -> prodDims(t.reshape(2, 2), d(1, 0), false), leaf(1, 3, 0, 2.5)));
    }

    /** Σ_{j≥k} Π_{i≤j, i≠k} x[i], by loops. */
    private static double[] cumprodGradOfSum(double[] x) {
        double[] g = new double[x.length];
        for (int k = 0; k < x.length; k++) {
            for (int j = k; j < x.length; j++) {
                double p = 1;
                for (int i = 0; i <= j; i++) if (i != k) p *= x[i];
                g[k] += p;
            }
        }
        return g;
    }

    /** Both zero-safe formulas (the O(n) one without a graph, the O(n²) one under create_graph) agree with loops. */
    @Test
    void cumprodWithZerosMatchesLoopsWithAndWithoutCreateGraph() {
        double[][] cases = {{2, 0, 3}, {0, 2, 3, 0.5}, {1.5, 0, -2, 0, 3}, {0, 0, 2}, {2, 3, 0}};
        for (double[] v : cases) {
            double[] expected = cumprodGradOfSum(v);
            Tensor x = leaf(v);
            assertArrayEquals(
                    expected, Autograd.grad(x.cumprod(0).sum(), x, false).toDoubleArray(), 1e-12);
            assertArrayEquals(
                    expected, Autograd.grad(x.cumprod(0).sum(), x, true).toDoubleArray(), 1e-12);
        }
        assertGrad(new double[] {1, 8, 0}, gradOfSum(t -> t.cumprod(0), leaf(2, 0, 3)));
    }

    // ---- statistics, norms, softmax ----------------------------------------------------------------

    @Test
    void stdOfAConstantHasTheZeroSubgradient() {
        assertGrad(new double[] {0, 0, 0}, gradOfSum(Tensor::std, leaf(2, 2, 2)));
        assertGrad(
                new double[] {0, 0, -0.5, 0.5},
                gradOfSum(t -> ReductionOps.std(t.reshape(2, 2), d(1), 0, false), leaf(1, 1, 2, 3)));
    }

    @Test
    void varGradientIsTwiceTheDeviationOverTheDegreesOfFreedom() {
        // mean 2.5, deviations -1.5, -0.5, 0.5, 1.5; N - correction = 4 - 1.5 = 2.5.
        assertGrad(
                new double[] {-1.2, -0.4, 0.4, 1.2},
                gradOfSum(t -> ReductionOps.var(t, ALL, 1.5, false), leaf(1, 2, 3, 4)));
    }

    @Test
    void vectorNormKinks() {
        assertGrad(new double[] {0, 0, 0}, gradOfSum(ReductionOps::vectorNorm, leaf(0, 0, 0)));
        assertGrad(new double[] {0, 0, 0}, gradOfSum(t -> ReductionOps.vectorNorm(t, 1.5), leaf(0, 0, 0)));
        assertGrad(new double[] {0, -0.5, 0.5, 0}, gradOfSum(t -> ReductionOps.vectorNorm(t, INF), leaf(1, -3, 3, 2)));
        assertGrad(
                new double[] {0.5, 0, 0, -0.5}, gradOfSum(t -> ReductionOps.vectorNorm(t, -INF), leaf(1, -3, 3, -1)));
        assertGrad(new double[] {0, 0, 0}, gradOfSum(t -> ReductionOps.vectorNorm(t, -INF), leaf(1, 0, 0)));
        // Ord 0 counts non-zeros: no gradient at all, as in PyTorch (backward leaves .grad unset).
        Tensor x = leaf(1, -3, 0);
        ReductionOps.vectorNorm(x, 0).backward();
        assertNull(x.grad());
        Tensor z = Autograd.grad(
                        List.of(ReductionOps.vectorNorm(x, 0)),
                        List.of(x),
                        Autograd.GradOptions.defaults().materializeGrads(true))
                .get(0);
        assertGrad(new double[] {0, 0, 0}, z.toDoubleArray());
        assertGrad(new double[] {1, -1, 0}, gradOfSum(t -> ReductionOps.vectorNorm(t, 1), leaf(2, -3, 0)));
        assertGrad(new double[] {0.6, -0.8}, gradOfSum(ReductionOps::vectorNorm, leaf(3, -4)));
    }

    private static double[] naiveSoftmax(double[] x) {
        double m = Double.NEGATIVE_INFINITY, z = 0;
        for (double v : x) m = Math.max(m, v);
        double[] p = new double[x.length];
        for (int i = 0; i < x.length; i++) z += p[i] = Math.exp(x[i] - m);
        for (int i = 0; i < x.length; i++) p[i] /= z;
        return p;
    }

    @Test
    void softmaxAndLogSoftmaxIdentities() {
        double[] v = {0.3, -1.2, 2.0, 0.7};
        double[] w = {1.0, -2.0, 0.5, 3.0};
        double[] p = naiveSoftmax(v);
        Tensor wt = Torch.tensor(w);
        // Softmax sums to 1, so its sum has gradient 0.
        assertArrayEquals(new double[4], gradOfSum(t -> t.softmax(0), leaf(v)), 1e-15);
        // d(w·softmax)/dx = p ⊙ (w - p·w).
        double pw = 0;
        for (int i = 0; i < 4; i++) pw += p[i] * w[i];
        double[] expectedSoftmax = new double[4];
        for (int i = 0; i < 4; i++) expectedSoftmax[i] = p[i] * (w[i] - pw);
        assertArrayEquals(expectedSoftmax, gradOf(t -> t.softmax(0), leaf(v), wt), 1e-12);
        // d(w·log_softmax)/dx = w - p Σw.
        double sw = 1.0 - 2.0 + 0.5 + 3.0;
        double[] expectedLog = new double[4];
        for (int i = 0; i < 4; i++) expectedLog[i] = w[i] - p[i] * sw;
        assertArrayEquals(expectedLog, gradOf(t -> t.logSoftmax(0), leaf(v), wt), 1e-12);
        // exp(log_softmax) is softmax, gradients included; log_softmax = x - logsumexp(x).
        assertArrayEquals(expectedSoftmax, gradOf(t -> t.logSoftmax(0).exp(), leaf(v), wt), 1e-12);
        assertArrayEquals(expectedLog, gradOf(t -> t.sub(t.logsumexp(0L, true)), leaf(v), wt), 1e-12);
    }

    @Test
    void cumsumGradientIsTheReversedCumsum() {
        assertGrad(
                new double[] {10, 9, 7, 4},
                gradOf(t -> t.cumsum(0), leaf(1, 2, 3, 4), Torch.tensor(new double[] {1, 2, 3, 4})));
    }

    @Test
    void gradientsKeepTheInputDtype() {
        Tensor x = Torch.tensor(new float[] {1f, 2f, 3f}).requiresGrad(true);
        ReductionOps.prod(x, 0, false, DType.FLOAT64).backward();
        assertEquals(DType.FLOAT32, x.grad().dtype());
        assertArrayEquals(new double[] {6, 3, 2}, x.grad().toDoubleArray(), 0);
    }

    @Test
    void rulesAreRegisteredWithPyTorchNodeNames() {
        Tensor x = leaf(1, 2, 3, 4);
        assertEquals("ProdBackward0", x.prod().gradFn().name());
        assertEquals("MaxBackward0", x.max(0).values().gradFn().name());
        assertEquals("CumprodBackward0", x.cumprod(0).gradFn().name());
        assertEquals(
                "LinalgVectorNormBackward0", ReductionOps.vectorNorm(x).gradFn().name());
        assertTrue(x.max(0).indices().gradFn() == null);
    }
}
