package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * LBFGS: trajectories against PyTorch 2.13 ({@code golden/lbfgs_lr.json}, made by {@code make_golden_lbfgs_lr.py}) on a
 * generalised Rosenbrock function, with and without the strong-Wolfe line search; the specification's worked examples
 * (derived by hand, nn-optim.md §3.7); and the 2.14 additions that 2.13 lacks ({@code maximize}, the empty parameter
 * group), checked against hand-derived values since the reference PyTorch has no fixture for them.
 */
class LbfgsTest {

    // ---- PyTorch 2.13 trajectories -------------------------------------------------------------------

    static Stream<Golden.Case> goldenCases() {
        return Golden.cases("lbfgs_lr.json").stream().filter(c -> c.op().equals("lbfgs"));
    }

    @Test
    void fixturesAreLoaded() {
        assertTrue(goldenCases().count() >= 12);
    }

    /** {@code sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2} over the concatenated parameters. */
    static Tensor rosenbrock(List<Tensor> params) {
        List<Tensor> flat = new ArrayList<>();
        for (Tensor p : params) flat.add(p.reshape(-1));
        Tensor x = Torch.cat(flat, 0);
        long n = x.numel();
        Tensor head = x.slice(0, 0, n - 1), tail = x.slice(0, 1, n);
        return tail.sub(head.square())
                .square()
                .mul(100.0)
                .add(head.neg().add(1.0).square())
                .sum();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCases")
    void trajectoryMatchesPyTorch(Golden.Case c) {
        String problem = (String) c.arg(0);
        List<Tensor> params = new ArrayList<>();
        for (Object t : (List<?>) c.arg(1)) params.add(((Tensor) t).requiresGrad(true));
        int steps = ((Number) c.arg(2)).intValue();
        boolean float32 = params.get(0).dtype() == DType.FLOAT32;
        // Not bit-exact: dot products may sum in another order, and these runs amplify rounding (scaling the
        // loss by 1 + 2^-52 moves PyTorch's own h1 trajectory by 2e-9 after 40 iterations and 2e-7 after 51).
        // float32 also rounds the scalars (gtd, ro, ...) differently; few float32 iterations are recorded.
        double tol = float32 ? 2e-4 : 1e-6;

        LBFGS opt = new LBFGS(params, options(c.kwargs()));
        List<Tensor> used = problem.equals("rosenbrock+unused") ? params.subList(0, params.size() - 1) : params;
        Supplier<Tensor> closure = () -> {
            opt.zeroGrad();
            Tensor loss = rosenbrock(used);
            loss.backward();
            return loss;
        };
        List<?> expected = (List<?>) c.out();
        for (int s = 0; s < steps; s++) {
            Map<?, ?> rec = (Map<?, ?>) expected.get(s);
            String at = c.id() + " step " + (s + 1);
            Tensor loss = opt.step(closure);
            assertClose(Golden.number(rec.get("loss")), loss.item(), tol, at + " loss");
            List<?> ps = (List<?>) rec.get("params");
            for (int i = 0; i < params.size(); i++) {
                @SuppressWarnings("unchecked")
                Tensor want = Golden.tensor((Map<String, Object>) ps.get(i));
                assertArrayEquals(want.shape(), params.get(i).shape(), at);
                double[] w = want.toDoubleArray(), g = params.get(i).toDoubleArray();
                for (int k = 0; k < w.length; k++) assertClose(w[k], g[k], tol, at + " param " + i + "[" + k + "]");
            }
            Map<String, Object> st = opt.state(params.get(0));
            assertEquals(
                    ((Number) rec.get("func_evals")).intValue(),
                    ((Number) st.get("func_evals")).intValue(),
                    at + " func_evals");
            assertEquals(
                    ((Number) rec.get("n_iter")).intValue(), ((Number) st.get("n_iter")).intValue(), at + " n_iter");
            assertClose(Golden.number(rec.get("t")), ((Number) st.get("t")).doubleValue(), tol, at + " t");
            assertClose(
                    Golden.number(rec.get("prev_loss")),
                    ((Number) st.get("prev_loss")).doubleValue(),
                    tol,
                    at + " prev_loss");
        }
        if (problem.equals("rosenbrock+unused")) {
            assertEquals(null, params.get(params.size() - 1).grad(), "the unused parameter never gets a gradient");
            assertArrayEquals(
                    new double[] {2, -1}, params.get(params.size() - 1).toDoubleArray(), 0, "and is never moved");
        }
    }

    private static void assertClose(double want, double got, double tol, String what) {
        assertEquals(want, got, tol * Math.max(1, Math.abs(want)), what);
    }

    private static LBFGS.Options options(Map<String, Object> kw) {
        LBFGS.Options o = LBFGS.Options.defaults();
        for (var e : kw.entrySet()) {
            Object v = e.getValue();
            o = switch (e.getKey()) {
                case "lr" -> o.lr(((Number) v).doubleValue());
                case "max_iter" -> o.maxIter(((Number) v).intValue());
                case "max_eval" -> o.maxEval(((Number) v).intValue());
                case "history_size" -> o.historySize(((Number) v).intValue());
                case "tolerance_grad" -> o.toleranceGrad(((Number) v).doubleValue());
                case "tolerance_change" -> o.toleranceChange(((Number) v).doubleValue());
                case "line_search_fn" -> o.lineSearchFn((String) v);
                default -> throw new IllegalArgumentException("unknown LBFGS kwarg " + e.getKey());
            };
        }
        return o;
    }

    // ---- the specification's worked examples (derived by hand) -----------------------------------------

    /** A closure for {@code f(x) = sum(fn(x))} on one float64 parameter. */
    private static Supplier<Tensor> closure(LBFGS opt, Tensor x, Function<Tensor, Tensor> fn) {
        return () -> {
            opt.zeroGrad();
            Tensor loss = fn.apply(x).sum();
            loss.backward();
            return loss;
        };
    }

    private static Tensor param(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    private static final Function<Tensor, Tensor> SHIFTED_SQUARE =
            x -> x.sub(3.0).square(); // (x - 3)^2

    /** {@code ½ xᵀ diag(2, 20) x − [2, 40]·x}. */
    private static final Function<Tensor, Tensor> QUADRATIC =
            x -> x.square().mul(Torch.tensor(new double[] {1, 10})).sub(x.mul(Torch.tensor(new double[] {2, 40})));

    @Test
    void shiftedSquareConvergesInTwoIterations() {
        // g = -6 → d = 6, t = 1/6, x = 1; then y = 2, s = 1, H = 1/2 and the two-loop step d = 2 lands on 3.
        Tensor x = param(0);
        LBFGS opt = new LBFGS(List.of(x), LBFGS.Options.defaults());
        Tensor loss = opt.step(closure(opt, x, SHIFTED_SQUARE));
        assertEquals(9.0, loss.item(), 0);
        assertEquals(3.0, x.item(), 0);
        assertEquals(3, opt.state(x).get("func_evals"));
        assertEquals(2, opt.state(x).get("n_iter"));
    }

    @Test
    void singleIterationTakesTheScaledGradientStep() {
        for (LBFGS.LineSearch ls : LBFGS.LineSearch.values()) {
            Tensor x = param(0);
            LBFGS opt =
                    new LBFGS(List.of(x), LBFGS.Options.defaults().maxIter(1).lineSearchFn(ls));
            opt.step(closure(opt, x, SHIFTED_SQUARE));
            assertEquals(1.0, x.item(), 1e-15, ls.name());
            assertEquals(1.0 / 6, ((Number) opt.state(x).get("t")).doubleValue(), 1e-15);
            assertArrayEquals(new double[] {6}, ((Tensor) opt.state(x).get("d")).toDoubleArray(), 0);
            // Without a line search the last iteration is not re-evaluated; the search evaluates once.
            assertEquals(ls == LBFGS.LineSearch.NONE ? 1 : 2, opt.state(x).get("func_evals"), ls.name());
        }
    }

    @Test
    void quadraticFirstStepAndEvaluationBudget() {
        Tensor x = param(0, 0);
        LBFGS opt = new LBFGS(List.of(x), LBFGS.Options.defaults().maxIter(1));
        opt.step(closure(opt, x, QUADRATIC));
        assertArrayEquals(new double[] {2.0 / 42, 40.0 / 42}, x.toDoubleArray(), 1e-15); // t = 1/|g|_1 = 1/42

        // max_iter 2 gives max_eval 2 * 5 // 4 = 2: the re-evaluation of iteration 1 exhausts it.
        Tensor y = param(0, 0);
        LBFGS opt2 = new LBFGS(List.of(y), LBFGS.Options.defaults().maxIter(2));
        assertEquals(2, opt2.paramGroups().get(0).get("max_eval"));
        opt2.step(closure(opt2, y, QUADRATIC));
        assertArrayEquals(new double[] {2.0 / 42, 40.0 / 42}, y.toDoubleArray(), 1e-15);
        assertEquals(2, opt2.state(y).get("func_evals"));
        assertEquals(1, opt2.state(y).get("n_iter"));
    }

    @Test
    void quadraticConvergesInSixIterationsWithEitherSearch() {
        for (LBFGS.LineSearch ls : LBFGS.LineSearch.values()) {
            Tensor x = param(0, 0);
            LBFGS opt = new LBFGS(List.of(x), LBFGS.Options.defaults().lineSearchFn(ls));
            opt.step(closure(opt, x, QUADRATIC));
            assertArrayEquals(new double[] {1.0000001, 2.0000008}, x.toDoubleArray(), 1e-7, ls.name());
            assertEquals(6, opt.state(x).get("func_evals"), ls.name());
            assertEquals(6, opt.state(x).get("n_iter"), ls.name());
        }
    }

    @Test
    void defaultMaxEvalIsFiveQuartersOfMaxIter() {
        assertEquals(
                25,
                new LBFGS(List.of(param(0)), LBFGS.Options.defaults())
                        .paramGroups()
                        .get(0)
                        .get("max_eval"));
        assertEquals(
                8,
                new LBFGS(List.of(param(0)), LBFGS.Options.defaults().maxIter(7))
                        .paramGroups()
                        .get(0)
                        .get("max_eval"));
        assertEquals(
                3,
                new LBFGS(List.of(param(0)), LBFGS.Options.defaults().maxEval(3))
                        .paramGroups()
                        .get(0)
                        .get("max_eval"));
    }

    @Test
    void stopsAtOnceWhenTheGradientIsBelowTolerance() {
        Tensor x = param(3); // the minimum: gradient 0
        LBFGS opt = new LBFGS(List.of(x), LBFGS.Options.defaults());
        assertEquals(0.0, opt.step(closure(opt, x, SHIFTED_SQUARE)).item(), 0);
        assertEquals(1, opt.state(x).get("func_evals"));
        assertEquals(0, opt.state(x).get("n_iter"));
        assertFalse(opt.state(x).containsKey("d"));
    }

    // ---- 2.14: maximize and the empty group (not in 2.13: hand-derived values) ---------------------------

    @Test
    void maximizeMinimisesTheNegatedObjective() {
        // f = -(x - 3)^2: the negated problem is the shifted square above, so x = 1 after one iteration
        // (t = 1/6, d = 6) and x = 3 at convergence; step() returns the closure's own (negative) loss.
        Function<Tensor, Tensor> concave = x -> x.sub(3.0).square().neg();
        Tensor x = param(0);
        LBFGS opt =
                new LBFGS(List.of(x), LBFGS.Options.defaults().maximize(true).maxIter(1));
        assertEquals(-9.0, opt.step(closure(opt, x, concave)).item(), 0);
        assertEquals(1.0, x.item(), 1e-15);
        assertArrayEquals(new double[] {6}, ((Tensor) opt.state(x).get("d")).toDoubleArray(), 0);

        Tensor z = param(0);
        LBFGS wolfe =
                new LBFGS(List.of(z), LBFGS.Options.defaults().maximize(true).lineSearchFn("strong_wolfe"));
        assertEquals(-9.0, wolfe.step(closure(wolfe, z, concave)).item(), 0);
        assertEquals(3.0, z.item(), 1e-12);
        // The stored losses and gradients are those of -f.
        assertEquals(
                4.0,
                ((Number) wolfe.state(z).get("prev_loss")).doubleValue(),
                0); // -f(1), the loss at the last iteration's start
    }

    @Test
    void maximizeMirrorsMinimizeOnRosenbrock() {
        // Maximising -f must retrace minimising f exactly, line-search evaluations included.
        List<Tensor> a = List.of(param(-1.2, 1.0, 0.5)), b = List.of(param(-1.2, 1.0, 0.5));
        LBFGS min = new LBFGS(
                a, LBFGS.Options.defaults().lineSearchFn("strong_wolfe").historySize(4));
        LBFGS max = new LBFGS(
                b,
                LBFGS.Options.defaults()
                        .lineSearchFn("strong_wolfe")
                        .historySize(4)
                        .maximize(true));
        for (int s = 0; s < 3; s++) {
            double lMin = min.step(rosenbrockClosure(min, a, false)).item();
            double lMax = max.step(rosenbrockClosure(max, b, true)).item();
            assertEquals(lMin, -lMax, 0);
            assertArrayEquals(a.get(0).toDoubleArray(), b.get(0).toDoubleArray(), 0);
            assertEquals(
                    min.state(a.get(0)).get("func_evals"), max.state(b.get(0)).get("func_evals"));
        }
    }

    private static Supplier<Tensor> rosenbrockClosure(LBFGS opt, List<Tensor> params, boolean negate) {
        return () -> {
            opt.zeroGrad();
            Tensor loss = rosenbrock(params);
            if (negate) loss = loss.neg();
            loss.backward();
            return loss;
        };
    }

    @Test
    void emptyGroupOnlyEvaluatesTheClosure() {
        LBFGS opt = new LBFGS(List.of(ParamGroup.of(List.<Tensor>of())), LBFGS.Options.defaults());
        int[] calls = {0};
        Tensor loss = opt.step(() -> {
            calls[0]++;
            assertTrue(GradMode.isEnabled(), "the closure runs with grad enabled");
            return Torch.scalarTensor(3.5);
        });
        assertEquals(3.5, loss.item(), 0);
        assertEquals(1, calls[0]);
        assertTrue(opt.stateDict().state().isEmpty(), "no state is created");
    }

    // ---- closure, grad mode, state, complex parameters -------------------------------------------------

    @Test
    void closureIsRequired() {
        LBFGS opt = new LBFGS(List.of(param(0)), LBFGS.Options.defaults());
        NullPointerException e = assertThrows(NullPointerException.class, () -> opt.step(null));
        assertTrue(e.getMessage().contains("missing 1 required positional argument: 'closure'"), e.getMessage());
        assertThrows(NullPointerException.class, opt::step);
    }

    @Test
    void closureRunsWithGradEnabledEvenUnderNoGrad() {
        Tensor x = param(0);
        LBFGS opt = new LBFGS(List.of(x), LBFGS.Options.defaults().lineSearchFn("strong_wolfe"));
        Supplier<Tensor> inner = closure(opt, x, SHIFTED_SQUARE);
        try (var _ = Torch.noGrad()) {
            opt.step(() -> {
                assertTrue(GradMode.isEnabled());
                return inner.get();
            });
            assertFalse(GradMode.isEnabled(), "the caller's grad mode is restored");
        }
        assertEquals(3.0, x.item(), 1e-12);
        assertTrue(x.isLeaf(), "the update is not recorded");
    }

    @Test
    void perParameterGroupsAreRefused() {
        List<ParamGroup> groups = List.of(ParamGroup.of(List.of(param(0))), ParamGroup.of(List.of(param(1))));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new LBFGS(groups, LBFGS.Options.defaults()));
        assertEquals("LBFGS doesn't support per-parameter options (parameter groups)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LBFGS(List.<Tensor>of(), LBFGS.Options.defaults()));
        IllegalArgumentException lr = assertThrows(
                IllegalArgumentException.class,
                () -> new LBFGS(List.of(param(0)), LBFGS.Options.defaults().lr(-1)));
        assertEquals("Invalid learning rate: -1.0", lr.getMessage());
    }

    @Test
    void unknownLineSearchFailsAtStepTime() {
        Tensor x = param(0);
        LBFGS opt = new LBFGS(List.of(x), LBFGS.Options.defaults().lineSearchFn("backtracking"));
        TorchException e = assertThrows(TorchException.class, () -> opt.step(closure(opt, x, SHIFTED_SQUARE)));
        assertEquals("only 'strong_wolfe' is supported", e.getMessage());
    }

    @Test
    void stateLivesUnderTheFirstParameterInPyTorchsLayout() {
        Tensor a = param(-1.2, 1.0), b = param(0.5);
        LBFGS opt = new LBFGS(List.of(a, b), LBFGS.Options.defaults().historySize(3));
        opt.step(rosenbrockClosure(opt, List.of(a, b), false));
        OptimizerStateDict sd = opt.stateDict();
        assertEquals(List.of(0), List.copyOf(sd.state().keySet()));
        assertEquals(
                List.of(
                        "func_evals",
                        "n_iter",
                        "al",
                        "d",
                        "t",
                        "old_dirs",
                        "old_stps",
                        "ro",
                        "H_diag",
                        "prev_flat_grad",
                        "prev_loss"),
                List.copyOf(sd.state().get(0).keySet()));
        Map<String, Object> st = sd.state().get(0);
        assertTrue(((List<?>) st.get("old_dirs")).size() <= 3, "history is bounded by history_size");
        assertEquals(3, ((List<?>) st.get("al")).size());
        assertArrayEquals(new long[] {3}, ((Tensor) st.get("prev_flat_grad")).shape());
        assertEquals(
                List.of(
                        "lr",
                        "max_iter",
                        "max_eval",
                        "tolerance_grad",
                        "tolerance_change",
                        "history_size",
                        "line_search_fn",
                        "maximize",
                        "params"),
                List.copyOf(sd.paramGroups().get(0).keySet()));
    }

    @Test
    void stateDictRoundTripContinuesTheSameTrajectory() {
        Tensor a = param(-1.2, 1.0, 0.5), b = param(-1.2, 1.0, 0.5);
        LBFGS.Options o = LBFGS.Options.defaults().maxIter(4).historySize(3);
        LBFGS first = new LBFGS(List.of(a), o), reference = new LBFGS(List.of(b), o);
        first.step(rosenbrockClosure(first, List.of(a), false));
        reference.step(rosenbrockClosure(reference, List.of(b), false));
        LBFGS resumed = new LBFGS(List.of(a), o);
        resumed.loadStateDict(first.stateDict());
        for (int s = 0; s < 3; s++) {
            resumed.step(rosenbrockClosure(resumed, List.of(a), false));
            reference.step(rosenbrockClosure(reference, List.of(b), false));
            assertArrayEquals(b.toDoubleArray(), a.toDoubleArray(), 0);
        }
        assertEquals(reference.state(b).get("func_evals"), resumed.state(a).get("func_evals"));
    }

    @Test
    void complexParametersAreOptimisedAsTheirRealViews() {
        // |z - (1 + 2i)|^2 over a complex scalar against (re - 1)^2 + (im - 2)^2 over two reals; the
        // closures set PyTorch's gradient convention (2 (z - c)) directly.
        Tensor z = Torch.tensor(new double[] {0, 0}).to(DType.FLOAT64);
        Tensor zc = Torch.viewAsComplex(z.view(1, 2)).clone().requiresGrad(true);
        Tensor r = param(0, 0);
        LBFGS.Options o = LBFGS.Options.defaults().maxIter(3).lineSearchFn("strong_wolfe");
        LBFGS complex = new LBFGS(List.of(zc), o), real = new LBFGS(List.of(r), o);
        Tensor target = Torch.tensor(new double[] {1, 2});
        complex.step(() -> {
            Tensor diff = Torch.viewAsReal(zc.detach()).reshape(-1).sub(target);
            zc.setGrad(Torch.viewAsComplex(diff.mul(2.0).view(1, 2)).clone());
            return diff.square().sum();
        });
        real.step(() -> {
            Tensor diff = r.detach().sub(target);
            r.setGrad(diff.mul(2.0));
            return diff.square().sum();
        });
        assertArrayEquals(
                r.toDoubleArray(), Torch.viewAsReal(zc.detach()).reshape(-1).toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {1, 2}, r.toDoubleArray(), 1e-9);
        assertEquals(
                2, ((Tensor) complex.state(zc).get("d")).numel(), "a complex element is two reals of the flat vector");
        assertEquals(DType.FLOAT64, ((Tensor) complex.state(zc).get("d")).dtype());
    }

    // ---- the line search's building block ------------------------------------------------------------

    @Test
    void cubicInterpolationFindsTheCubicsMinimiser() {
        // f(x) = x^3 - 3x has its minimum at 1; the cubic through (0, f, f') and (2, f, f') is f itself.
        double t = StrongWolfe.cubicInterpolate(0, 0, -3, 2, 2, 9);
        assertEquals(1.0, t, 1e-15);
        assertEquals(1.0, StrongWolfe.cubicInterpolate(2, 2, 9, 0, 0, -3), 1e-15, "either end first");
        assertEquals(0.5, StrongWolfe.cubicInterpolate(0, 0, -3, 2, 2, 9, 0.2, 0.5), 0, "clamped to the bounds");
        // A concave cubic has no minimiser in the bracket (d2^2 < 0): the bounds' midpoint.
        assertEquals(1.5, StrongWolfe.cubicInterpolate(0, 0, 2, 3, 4, 2, 1, 2), 0);
    }

    @Test
    void lineSearchStateIsNotSharedWithTheCaller() {
        Tensor x = param(-1.2, 1.0, 0.5);
        LBFGS opt = new LBFGS(
                List.of(x),
                LBFGS.Options.defaults().lineSearchFn("strong_wolfe").maxIter(2));
        opt.step(rosenbrockClosure(opt, List.of(x), false));
        Map<String, Object> st = opt.state(x);
        assertNotEquals(st.get("d"), st.get("prev_flat_grad"));
        assertSame(st.get("d"), opt.stateDict().state().get(0).get("d"), "state_dict shares tensors, as PyTorch does");
    }
}
