package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.jtorch.CdistComputeMode;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradCheck;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code cdist} and {@code pdist}: values, first- and second-order gradients and errors against PyTorch's own results
 * (golden/distance.json, made by make_golden_distance.py), gradcheck and gradgradcheck in float64 for every p and both
 * compute modes, and the closed forms of spec/autograd-rules.md §1–2 (worked examples, zero-distance conventions, the p
 * = 2 Hessian).
 */
class DistanceOpsTest {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final double[] PS = {0, 0.5, 1, 1.5, 2, 3, INF};

    // ---- golden --------------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> casesMatchPyTorch() {
        List<Case> cases = Golden.cases("distance.json");
        assertTrue(cases.size() > 100, "fixture loaded");
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(
                        c.id(), () -> Golden.check(c, List.of(), halfPrecision(c), () -> run(c))));
    }

    /** float16/bfloat16 results are compared bit for bit: they carry ATen's roundings, not just its accuracy. */
    private static boolean halfPrecision(Case c) {
        return c.id().contains("/float16/") || c.id().contains("/bfloat16/");
    }

    private static double p(Case c) {
        return c.has("p") ? Golden.number(c.kwarg("p")) : 2;
    }

    private static String mode(Case c) {
        return c.has("compute_mode")
                ? (String) c.kwarg("compute_mode")
                : CdistComputeMode.USE_MM_FOR_EUCLID_DIST_IF_NECESSARY.pyName();
    }

    private static Tensor leaf(Case c, int i) {
        return c.tensorArg(i).detach().requiresGrad(true);
    }

    private static Object run(Case c) {
        switch (c.op()) {
            case "cdist":
                return Torch.cdist(c.tensorArg(0), c.tensorArg(1), p(c), mode(c));
            case "pdist":
                return Torch.pdist(c.tensorArg(0), p(c));
            case "_cdist_forward":
                return DistanceOps.CDIST_FORWARD.call1(
                        c.tensorArg(0),
                        c.tensorArg(1),
                        p(c),
                        c.has("compute_mode") ? ((Number) c.kwarg("compute_mode")).longValue() : null);
            case "cdist_grad": {
                Tensor a = leaf(c, 0), b = leaf(c, 1);
                Tensor loss =
                        Torch.cdist(a, b, p(c), mode(c)).mul(c.tensorArg(2)).sum();
                return grads(loss, List.of(a, b), false);
            }
            case "pdist_grad": {
                Tensor x = leaf(c, 0);
                return grads(Torch.pdist(x, p(c)).mul(c.tensorArg(1)).sum(), List.of(x), false);
            }
            case "cdist_gradgrad": {
                Tensor a = leaf(c, 0), b = leaf(c, 1);
                List<Tensor> g = grads(
                        Torch.cdist(a, b, p(c), mode(c)).mul(c.tensorArg(2)).sum(), List.of(a, b), true);
                Tensor second = g.get(0)
                        .mul(c.tensorArg(3))
                        .sum()
                        .add(g.get(1).mul(c.tensorArg(4)).sum());
                return grads(second, List.of(a, b), false);
            }
            case "pdist_gradgrad": {
                Tensor x = leaf(c, 0);
                List<Tensor> g = grads(Torch.pdist(x, p(c)).mul(c.tensorArg(1)).sum(), List.of(x), true);
                return grads(g.get(0).mul(c.tensorArg(2)).sum(), List.of(x), false);
            }
            default:
                throw new AssertionError("unknown op " + c.op());
        }
    }

    private static List<Tensor> grads(Tensor out, List<Tensor> inputs, boolean createGraph) {
        return Autograd.grad(
                List.of(out),
                inputs,
                Autograd.GradOptions.defaults()
                        .createGraph(createGraph)
                        .allowUnused(true)
                        .materializeGrads(true));
    }

    // ---- gradcheck / gradgradcheck -------------------------------------------------------------------

    /** Random float64 values in [-2, 2]: almost surely no zero difference, tie or zero distance. */
    private static Tensor random(long seed, long... shape) {
        Random r = new Random(seed);
        int n = 1;
        for (long s : shape) n *= (int) s;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = r.nextDouble() * 4 - 2;
        return Torch.tensor(v, DType.FLOAT64, shape).requiresGrad(true);
    }

    @TestFactory
    Stream<DynamicTest> cdistGradcheckAndGradgradcheck() {
        List<DynamicTest> tests = new ArrayList<>();
        for (double p : PS) {
            for (CdistComputeMode mode :
                    List.of(CdistComputeMode.USE_MM_FOR_EUCLID_DIST, CdistComputeMode.DONOT_USE_MM_FOR_EUCLID_DIST)) {
                tests.add(DynamicTest.dynamicTest("p=" + p + "/" + mode.pyName(), () -> {
                    Tensor x1 = random(11, 2, 3, 3), x2 = random(12, 4, 3);
                    List<Tensor> in = List.of(x1, x2);
                    java.util.function.Function<List<Tensor>, Tensor> fn =
                            t -> Torch.cdist(t.get(0), t.get(1), p, mode);
                    assertTrue(GradCheck.check(fn, in, GradCheck.Options.defaults()));
                    assertTrue(GradCheck.checkSecondOrder(fn, in, GradCheck.Options.defaults()));
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> pdistGradcheckAndGradgradcheck() {
        List<DynamicTest> tests = new ArrayList<>();
        for (double p : PS) {
            tests.add(DynamicTest.dynamicTest("p=" + p, () -> {
                Tensor x = random(21, 5, 3);
                assertTrue(Autograd.gradcheck(t -> Torch.pdist(t, p), x));
                assertTrue(Autograd.gradgradcheck(t -> Torch.pdist(t, p), x));
            }));
        }
        return tests.stream();
    }

    @Test
    void gradcheckThroughTheMatrixProductPathChosenBySize() {
        Tensor x1 = random(31, 26, 2), x2 = random(32, 3, 2);
        assertTrue(Autograd.gradcheck(t -> Torch.cdist(t, x2.detach()), x1));
        assertTrue(Autograd.gradgradcheck(t -> Torch.cdist(x1.detach(), t), x2));
    }

    // ---- the spec's closed forms ----------------------------------------------------------------------

    private static Tensor t(double[][] v) {
        return Torch.tensor(v);
    }

    private static void assertClose(double[] expected, Tensor actual, double tol) {
        double[] got = actual.toDoubleArray();
        assertEquals(expected.length, got.length, "number of values");
        for (int i = 0; i < got.length; i++) {
            assertEquals(expected[i], got[i], tol, "element " + i + " of " + java.util.Arrays.toString(got));
        }
    }

    @Test
    void specWorkedExamples() {
        Tensor x1 = t(new double[][] {{0, 0}, {3, 4}}), x2 = t(new double[][] {{0, 0}, {1, 1}});
        assertClose(new double[] {0, 1.4142135624, 5, 3.6055512755}, Torch.cdist(x1, x2), 1e-9);
        assertClose(new double[] {0, 2, 7, 5}, Torch.cdist(x1, x2, 1), 0);
        assertClose(new double[] {0, 2, 2, 2}, Torch.cdist(x1, x2, 0), 0);
        assertClose(new double[] {0, 1, 4, 3}, Torch.cdist(x1, x2, INF), 0);
        assertClose(new double[] {0, 1.2599210499, 4.4979414453, 3.2710663102}, Torch.cdist(x1, x2, 3), 1e-9);
        assertClose(new double[] {5, 10, 5}, F.pdist(t(new double[][] {{0, 0}, {3, 4}, {6, 8}})), 1e-12);
        assertClose(
                new double[] {2.236068, 2, 4.242641, 2.236068, 2.236068, 3.162278},
                F.pdist(t(new double[][] {{0, 0}, {1, 2}, {2, 0}, {3, 3}})),
                1e-6);
    }

    /** x1.grad and x2.grad of cdist(x1, x2, p).sum(). */
    private static List<Tensor> cdistGrads(double[][] a, double[][] b, double p) {
        Tensor x1 = t(a).requiresGrad(true), x2 = t(b).requiresGrad(true);
        return grads(
                Torch.cdist(x1, x2, p, CdistComputeMode.DONOT_USE_MM_FOR_EUCLID_DIST)
                        .sum(),
                List.of(x1, x2),
                false);
    }

    @Test
    void specGradients() {
        List<Tensor> g = cdistGrads(new double[][] {{3, 4}}, new double[][] {{0, 0}}, 2);
        assertClose(new double[] {0.6, 0.8}, g.get(0), 1e-12);
        assertClose(new double[] {-0.6, -0.8}, g.get(1), 1e-12);
        assertClose(
                new double[] {0.4448513517, 0.7908468475},
                cdistGrads(new double[][] {{3, 4}}, new double[][] {{0, 0}}, 3).get(0),
                1e-9);
        assertClose(
                new double[] {2.1547005384, 1.8660254038},
                cdistGrads(new double[][] {{3, 4}}, new double[][] {{0, 0}}, 0.5)
                        .get(0),
                1e-9);
        // p = inf: both tied maximal components get the full gradient
        assertClose(
                new double[] {1, -1},
                cdistGrads(new double[][] {{2, -2}}, new double[][] {{0, 0}}, INF)
                        .get(0),
                0);
        Tensor x = t(new double[][] {{0, 0}, {3, 4}}).requiresGrad(true);
        assertClose(
                new double[] {-0.6, -0.8, 0.6, 0.8},
                grads(F.pdist(x).sum(), List.of(x), false).get(0),
                1e-12);
    }

    @Test
    void hessianOfTheEuclideanDistance() {
        // (I - u uᵀ) / dist with u = (0.6, 0.8), dist = 5; through both compute modes
        for (CdistComputeMode mode :
                List.of(CdistComputeMode.DONOT_USE_MM_FOR_EUCLID_DIST, CdistComputeMode.USE_MM_FOR_EUCLID_DIST)) {
            double[] hessian = new double[4];
            for (int k = 0; k < 2; k++) {
                Tensor x1 = t(new double[][] {{3, 4}}).requiresGrad(true);
                Tensor g = grads(
                                Torch.cdist(x1, t(new double[][] {{0, 0}}), 2, mode)
                                        .sum(),
                                List.of(x1),
                                true)
                        .get(0);
                double[] row =
                        grads(g.view(2).select(0, k), List.of(x1), false).get(0).toDoubleArray();
                hessian[2 * k] = row[0];
                hessian[2 * k + 1] = row[1];
            }
            assertArrayEquals(new double[] {0.128, -0.096, -0.096, 0.072}, hessian, 1e-12, mode.pyName());
        }
    }

    @Test
    void zeroDistanceHasZeroGradientsOfEveryOrder() {
        // x1 = x2 = [[1, 1]]: first and second derivatives are 0, never NaN, for every p and both paths. For
        // p = 0 the gradient is a constant zero outside the graph (as PyTorch's), so it has no second order.
        for (double p : PS) {
            for (CdistComputeMode mode : CdistComputeMode.values()) {
                Tensor x1 = t(new double[][] {{1, 1}}).requiresGrad(true),
                        x2 = t(new double[][] {{1, 1}}).requiresGrad(true);
                List<Tensor> g = grads(Torch.cdist(x1, x2, p, mode).sum(), List.of(x1, x2), true);
                assertClose(new double[] {0, 0}, g.get(0), 0);
                assertClose(new double[] {0, 0}, g.get(1), 0);
                if (p == 0) continue;
                List<Tensor> gg = grads(g.get(0).sum().add(g.get(1).mul(3.0).sum()), List.of(x1, x2), false);
                assertClose(new double[] {0, 0}, gg.get(0), 0);
                assertClose(new double[] {0, 0}, gg.get(1), 0);
            }
            Tensor x = t(new double[][] {{1, 1}, {1, 1}}).requiresGrad(true);
            List<Tensor> g = grads(Torch.pdist(x, p).sum(), List.of(x), true);
            assertClose(new double[] {0, 0, 0, 0}, g.get(0), 0);
            if (p == 0) continue;
            assertClose(
                    new double[] {0, 0, 0, 0},
                    grads(g.get(0).pow(2.0).sum().add(g.get(0).sum()), List.of(x), false)
                            .get(0),
                    0);
        }
    }

    @Test
    void zeroComponentGetsNoGradientBelowPOne() {
        // d = (0, -3): for p < 1 the zero component's gradient is forced to 0 (|d|^(p-1) is infinite there)
        Tensor g = cdistGrads(new double[][] {{0, 2}}, new double[][] {{0, 5}}, 0.5)
                .get(0);
        assertClose(new double[] {0, -1}, g, 1e-12);
        assertFalse(Double.isNaN(g.toDoubleArray()[0]));
    }

    // ---- paths, shapes, devices, errors ----------------------------------------------------------------

    /** The ops a call runs, through a pass-through mode. */
    private static List<String> opsRun(Runnable call) throws Exception {
        List<String> names = new ArrayList<>();
        try (var _ = DispatchState.enter(DispatchState.Kind.MODE, (op, args, next) -> {
            names.add(op.name());
            return next.call(op, args);
        })) {
            call.run();
        }
        return names;
    }

    @Test
    void defaultModeUsesTheMatrixProductAboveTwentyFiveRows() throws Exception {
        Tensor small = Torch.rand(25, 3), big = Torch.rand(26, 3), other = Torch.rand(4, 3);
        assertTrue(opsRun(() -> Torch.cdist(small, other)).contains("_cdist_forward"));
        assertTrue(opsRun(() -> Torch.cdist(other, big)).contains("_euclidean_dist"));
        assertTrue(opsRun(() -> Torch.cdist(big, other, 3)).contains("_cdist_forward"));
        assertTrue(opsRun(() -> Torch.cdist(small, other, 2, CdistComputeMode.USE_MM_FOR_EUCLID_DIST))
                .contains("_euclidean_dist"));
        assertTrue(opsRun(() -> Torch.cdist(big, other, 2, "donot_use_mm_for_euclid_dist"))
                .contains("_cdist_forward"));
    }

    @Test
    void metaDeviceGivesShapesAndChecks() {
        Tensor a = Torch.empty(new long[] {2, 1, 3, 4}, DType.FLOAT32, Device.META);
        Tensor b = Torch.empty(new long[] {5, 6, 4}, DType.FLOAT32, Device.META);
        Tensor d = Torch.cdist(a, b);
        assertEquals(Device.META, d.device());
        assertArrayEquals(new long[] {2, 5, 3, 6}, d.shape());
        assertArrayEquals(
                new long[] {2, 5, 3, 6},
                Torch.cdist(a, b, 2, CdistComputeMode.USE_MM_FOR_EUCLID_DIST).shape());
        assertArrayEquals(
                new long[] {10},
                Torch.pdist(Torch.empty(new long[] {5, 3}, DType.FLOAT64, Device.META))
                        .shape());
        assertThrows(
                TorchException.class,
                () -> Torch.cdist(a, Torch.empty(new long[] {5, 6, 3}, DType.FLOAT32, Device.META)));
    }

    @Test
    void mixedDevicesAreRefused() {
        Tensor cpu = Torch.rand(3, 2), meta = Torch.empty(new long[] {4, 2}, DType.FLOAT32, Device.META);
        TorchException e = assertThrows(TorchException.class, () -> Torch.cdist(cpu, meta));
        assertTrue(e.getMessage().contains("X1 and X2 must have the same device type"), e.getMessage());
    }

    @Test
    void badComputeModeAndPAreRefused() {
        Tensor a = Torch.rand(3, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Torch.cdist(a, a, 2, "fast"));
        assertTrue(e.getMessage().contains("fast is not a valid value for compute_mode"));
        assertThrows(TorchException.class, () -> Dispatcher.call(DistanceOps.CDIST, a, a, 2.0, 3L));
        TorchException neg = assertThrows(TorchException.class, () -> Torch.pdist(a, -1));
        assertTrue(neg.getMessage().contains("pdist only supports non-negative p values"));
    }

    @Test
    void largeInputsMatchANaiveLoop() {
        // several threads' worth of rows, float32, against a double-precision loop written here
        Tensor x1 = Torch.rand(3, 300, 7), x2 = Torch.rand(1, 90, 7);
        double[] a = x1.toDoubleArray(), b = x2.toDoubleArray();
        for (double p : new double[] {1, 2, 3, INF}) {
            double[] got = Torch.cdist(x1, x2, p, CdistComputeMode.DONOT_USE_MM_FOR_EUCLID_DIST)
                    .toDoubleArray();
            for (int bi = 0; bi < 3; bi++) {
                for (int i = 0; i < 300; i += 37) {
                    for (int j = 0; j < 90; j += 11) {
                        double acc = 0;
                        for (int k = 0; k < 7; k++) {
                            double d = Math.abs(a[(bi * 300 + i) * 7 + k] - b[j * 7 + k]);
                            acc = p == INF ? Math.max(acc, d) : acc + Math.pow(d, p);
                        }
                        double expected = p == INF ? acc : Math.pow(acc, 1 / p);
                        assertEquals(expected, got[(bi * 300 + i) * 90 + j], 1e-5 * (1 + expected), "p=" + p);
                    }
                }
            }
        }
    }
}
