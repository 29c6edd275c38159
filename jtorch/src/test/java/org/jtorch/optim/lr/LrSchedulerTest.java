package org.jtorch.optim.lr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.IntToDoubleFunction;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.Warning;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.optim.Adagrad;
import org.jtorch.optim.Adam;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.ParamGroup;
import org.jtorch.optim.SGD;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Learning-rate schedulers: the rate sequences of every scheduler against PyTorch 2.13 ({@code golden/lbfgs_lr.json},
 * made by {@code make_golden_lbfgs_lr.py}; for the default {@code last_epoch = -1} 2.13 and 2.15 agree), state-dict
 * round trips, 2.15's resume behaviour, the warnings and the error messages.
 */
class LrSchedulerTest {

    // ---- building what the fixtures describe -------------------------------------------------------------

    static Stream<Golden.Case> goldenCases() {
        return Golden.cases("lbfgs_lr.json").stream().filter(c -> c.op().equals("lr_scheduler"));
    }

    /** The functions the fixtures name for LambdaLR (the generator's LAMBDAS). */
    private static final Map<String, IntToDoubleFunction> LAMBDAS = Map.of(
            "pow095", e -> Math.pow(0.95, e),
            "inv1p", e -> 1.0 / (e + 1),
            "warmup3", e -> Math.min(1.0, (e + 1) / 3.0));

    /** SGD with one parameter per group, group i at {@code lrs[i]}, every group with {@code momentum}. */
    static SGD sgd(List<Double> lrs, double momentum) {
        List<ParamGroup> groups = new ArrayList<>();
        for (double lr : lrs)
            groups.add(ParamGroup.of(
                    List.of(Torch.zeros(1).requiresGrad(true)),
                    SGD.Options.overrides().lr(lr)));
        return new SGD(groups, SGD.Options.defaults().lr(0.0).momentum(momentum));
    }

    private static double num(Map<String, Object> kw, String key, double dflt) {
        return kw.containsKey(key) ? ((Number) kw.get(key)).doubleValue() : dflt;
    }

    private static int integer(Map<String, Object> kw, String key, int dflt) {
        return kw.containsKey(key) ? ((Number) kw.get(key)).intValue() : dflt;
    }

    private static List<Integer> ints(Object list) {
        List<Integer> out = new ArrayList<>();
        for (Object o : (List<?>) list) out.add(((Number) o).intValue());
        return out;
    }

    private static List<Double> doubles(Object list) {
        List<Double> out = new ArrayList<>();
        for (Object o : (List<?>) list) out.add(Golden.number(o));
        return out;
    }

    @SuppressWarnings("unchecked")
    static LRScheduler make(Optimizer opt, String name, Map<String, Object> kw) {
        return switch (name) {
            case "StepLR" -> new StepLR(opt, integer(kw, "step_size", 0), num(kw, "gamma", 0.1));
            case "MultiStepLR" -> new MultiStepLR(opt, ints(kw.get("milestones")), num(kw, "gamma", 0.1));
            case "ExponentialLR" -> new ExponentialLR(opt, num(kw, "gamma", 0));
            case "CosineAnnealingLR" -> new CosineAnnealingLR(opt, integer(kw, "T_max", 0), num(kw, "eta_min", 0));
            case "CosineAnnealingWarmRestarts" ->
                new CosineAnnealingWarmRestarts(
                        opt, integer(kw, "T_0", 0), integer(kw, "T_mult", 1), num(kw, "eta_min", 0));
            case "LinearLR" ->
                new LinearLR(
                        opt,
                        num(kw, "start_factor", 1.0 / 3),
                        num(kw, "end_factor", 1.0),
                        integer(kw, "total_iters", 5));
            case "ConstantLR" -> new ConstantLR(opt, num(kw, "factor", 1.0 / 3), integer(kw, "total_iters", 5));
            case "LambdaLR" ->
                kw.get("lr_lambda") instanceof List<?> names
                        ? new LambdaLR(
                                opt,
                                names.stream().map(n -> LAMBDAS.get((String) n)).toList())
                        : new LambdaLR(opt, LAMBDAS.get((String) kw.get("lr_lambda")));
            case "OneCycleLR" -> {
                OneCycleLR.Options o = OneCycleLR.Options.defaults();
                if (kw.containsKey("total_steps")) o = o.totalSteps(integer(kw, "total_steps", 0));
                if (kw.containsKey("epochs"))
                    o = o.epochs(integer(kw, "epochs", 0)).stepsPerEpoch(integer(kw, "steps_per_epoch", 0));
                if (kw.containsKey("pct_start")) o = o.pctStart(num(kw, "pct_start", 0));
                if (kw.containsKey("anneal_strategy")) o = o.annealStrategy((String) kw.get("anneal_strategy"));
                if (kw.containsKey("three_phase")) o = o.threePhase((Boolean) kw.get("three_phase"));
                if (kw.containsKey("div_factor")) o = o.divFactor(num(kw, "div_factor", 0));
                if (kw.containsKey("final_div_factor")) o = o.finalDivFactor(num(kw, "final_div_factor", 0));
                if (kw.containsKey("cycle_momentum")) o = o.cycleMomentum((Boolean) kw.get("cycle_momentum"));
                yield kw.get("max_lr") instanceof List<?> l
                        ? new OneCycleLR(opt, doubles(l), o)
                        : new OneCycleLR(opt, num(kw, "max_lr", 0), o);
            }
            case "SequentialLR" -> {
                List<LRScheduler> subs = new ArrayList<>();
                for (Object s : (List<?>) kw.get("schedulers")) {
                    List<?> pair = (List<?>) s;
                    subs.add(make(opt, (String) pair.get(0), (Map<String, Object>) pair.get(1)));
                }
                yield new SequentialLR(opt, subs, ints(kw.get("milestones")));
            }
            case "ReduceLROnPlateau" -> {
                ReduceLROnPlateau.Options o = ReduceLROnPlateau.Options.defaults();
                if (kw.containsKey("mode")) o = o.mode((String) kw.get("mode"));
                if (kw.containsKey("factor")) o = o.factor(num(kw, "factor", 0));
                if (kw.containsKey("patience")) o = o.patience(integer(kw, "patience", 0));
                if (kw.containsKey("threshold")) o = o.threshold(num(kw, "threshold", 0));
                if (kw.containsKey("threshold_mode")) o = o.thresholdMode((String) kw.get("threshold_mode"));
                if (kw.containsKey("cooldown")) o = o.cooldown(integer(kw, "cooldown", 0));
                if (kw.containsKey("eps")) o = o.eps(num(kw, "eps", 0));
                if (kw.get("min_lr") instanceof List<?> l) o = o.minLr(doubles(l));
                else if (kw.containsKey("min_lr")) o = o.minLr(num(kw, "min_lr", 0));
                yield new ReduceLROnPlateau(opt, o);
            }
            default -> throw new IllegalArgumentException("unknown scheduler " + name);
        };
    }

    /** One step as the fixture drives it: plain, to an epoch (warm restarts) or with a metric (plateau). */
    private static void advance(LRScheduler s, Object call) {
        if (s instanceof ReduceLROnPlateau plateau) plateau.step(Golden.number(call));
        else if (call == null) s.step();
        else ((CosineAnnealingWarmRestarts) s).step(Golden.number(call));
    }

    /** The calls of a case: n plain steps, or the listed epochs/metrics. */
    private static List<Object> calls(Golden.Case c) {
        Object steps = c.arg(2);
        if (steps instanceof List<?> l) return new ArrayList<>(l);
        List<Object> plain = new ArrayList<>();
        for (int i = 0; i < ((Number) steps).intValue(); i++) plain.add(null);
        return plain;
    }

    private record Run(SGD opt, LRScheduler sched) {}

    private static Run start(Golden.Case c) {
        SGD opt = sgd(doubles(c.arg(1)), num(c.kwargs(), "momentum", 0));
        return new Run(opt, make(opt, (String) c.arg(0), c.kwargs()));
    }

    // ---- PyTorch 2.13 sequences -----------------------------------------------------------------------

    @Test
    void everySchedulerHasFixtures() {
        List<String> names =
                goldenCases().map(c -> (String) c.arg(0)).distinct().sorted().toList();
        assertEquals(
                List.of(
                        "ConstantLR",
                        "CosineAnnealingLR",
                        "CosineAnnealingWarmRestarts",
                        "ExponentialLR",
                        "LambdaLR",
                        "LinearLR",
                        "MultiStepLR",
                        "OneCycleLR",
                        "ReduceLROnPlateau",
                        "SequentialLR",
                        "StepLR"),
                names);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCases")
    void ratesMatchPyTorch(Golden.Case c) {
        Map<?, ?> out = (Map<?, ?>) c.out();
        List<?> lrs = (List<?>) out.get("lr"), momenta = (List<?>) out.get("momentum");
        Run run = start(c);
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            check(
                    c.id() + " after construction",
                    lrs.get(0),
                    run.sched.getLastLr(),
                    run.opt,
                    momenta == null ? null : momenta.get(0));
            List<Object> calls = calls(c);
            for (int i = 0; i < calls.size(); i++) {
                run.opt.step();
                advance(run.sched, calls.get(i));
                check(
                        c.id() + " step " + (i + 1),
                        lrs.get(i + 1),
                        run.sched.getLastLr(),
                        run.opt,
                        momenta == null ? null : momenta.get(i + 1));
            }
            assertEquals(
                    List.of(),
                    rec.records().stream().map(Warning::message).toList(),
                    "stepping in the right order warns nothing");
        }
    }

    private static void check(String at, Object want, List<Double> got, Optimizer opt, Object wantMomentum) {
        List<Double> w = doubles(want);
        assertEquals(w.size(), got.size(), at);
        for (int g = 0; g < w.size(); g++) {
            assertEquals(w.get(g), got.get(g), 1e-12 * Math.abs(w.get(g)) + 1e-300, at + " group " + g);
            assertEquals(got.get(g), opt.paramGroups().get(g).lr(), 0, at + " the group holds the rate");
        }
        if (wantMomentum != null) {
            List<Double> m = doubles(wantMomentum);
            for (int g = 0; g < m.size(); g++) {
                assertEquals(
                        m.get(g),
                        opt.paramGroups().get(g).doubleValue("momentum"),
                        1e-12,
                        at + " momentum of group " + g);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenCases")
    void stateDictRoundTripResumesTheSequence(Golden.Case c) {
        List<Object> calls = calls(c);
        int half = calls.size() / 2;
        Run a = start(c);
        for (int i = 0; i < half; i++) {
            a.opt.step();
            advance(a.sched, calls.get(i));
        }
        Map<String, Object> sd = a.sched.stateDict();
        Run b = start(c);
        b.opt.loadStateDict(a.opt.stateDict()); // the rates and OneCycleLR's group values live in the optimizer
        b.sched.loadStateDict(sd);
        assertEquals(a.sched.getLastLr(), b.sched.getLastLr(), c.id());
        for (int i = half; i < calls.size(); i++) {
            for (Run r : List.of(a, b)) {
                r.opt.step();
                advance(r.sched, calls.get(i));
            }
            assertEquals(a.sched.getLastLr(), b.sched.getLastLr(), c.id() + " step " + (i + 1));
        }
    }

    // ---- state dict layout ----------------------------------------------------------------------------

    @Test
    void stateDictHasPyTorchsAttributes() {
        SGD opt = sgd(List.of(0.1), 0);
        StepLR s = new StepLR(opt, 3, 0.5);
        assertEquals(
                List.of(
                        "step_size",
                        "gamma",
                        "base_lrs",
                        "last_epoch",
                        "_step_count",
                        "_is_initial",
                        "_get_lr_called_within_step",
                        "_last_lr"),
                List.copyOf(s.stateDict().keySet()));
        assertEquals(0, s.stateDict().get("last_epoch"));
        assertEquals(1, s.stateDict().get("_step_count"));
        assertEquals(List.of(0.1), s.stateDict().get("base_lrs"));

        LambdaLR lambda = new LambdaLR(sgd(List.of(0.1, 0.2), 0), e -> 1.0);
        List<String> keys = List.copyOf(lambda.stateDict().keySet());
        assertEquals("lr_lambdas", keys.get(keys.size() - 1));
        assertEquals(
                java.util.Arrays.asList(null, null),
                lambda.stateDict().get("lr_lambdas"),
                "plain functions are not saved");

        SGD seqOpt = sgd(List.of(1.0), 0);
        SequentialLR seq = new SequentialLR(
                seqOpt, List.of(new ConstantLR(seqOpt, 0.5, 2), new ExponentialLR(seqOpt, 0.9)), List.of(2));
        assertEquals(
                List.of("_milestones", "last_epoch", "_last_lr", "_schedulers"),
                List.copyOf(seq.stateDict().keySet()));
        assertEquals(2, ((List<?>) seq.stateDict().get("_schedulers")).size());

        ReduceLROnPlateau plateau = new ReduceLROnPlateau(sgd(List.of(1.0), 0));
        assertEquals(
                List.of(
                        "factor",
                        "default_min_lr",
                        "min_lrs",
                        "patience",
                        "cooldown",
                        "eps",
                        "last_epoch",
                        "_last_lr",
                        "mode_worse",
                        "mode",
                        "threshold",
                        "threshold_mode",
                        "best",
                        "cooldown_counter",
                        "num_bad_epochs"),
                List.copyOf(plateau.stateDict().keySet()));
        assertEquals(Double.POSITIVE_INFINITY, plateau.stateDict().get("best"));
    }

    // ---- 2.15 behaviour (hand-derived) -------------------------------------------------------------------

    @Test
    void initialLrIsRecordedOnceAndRequiredToResume() {
        SGD opt = sgd(List.of(0.1), 0);
        NoSuchElementException e = assertThrows(NoSuchElementException.class, () -> new ExponentialLR(opt, 0.5, 3));
        assertEquals(
                "param 'initial_lr' is not specified in param_groups[0] when resuming an optimizer", e.getMessage());
        ExponentialLR first = new ExponentialLR(opt, 0.5);
        for (int i = 0; i < 3; i++) {
            opt.step();
            first.step();
        }
        assertEquals(0.0125, opt.paramGroups().get(0).lr(), 1e-17);
        assertEquals(0.1, opt.paramGroups().get(0).get("initial_lr"));
        // Resuming at last_epoch 3: 2.15's initial step keeps the current rate (1.13 moved it one epoch ahead).
        ExponentialLR resumed = new ExponentialLR(opt, 0.5, 3);
        assertEquals(List.of(0.0125), resumed.getLastLr());
        assertEquals(4, resumed.lastEpoch());
        assertEquals(List.of(0.1), resumed.baseLrs());
        opt.step();
        resumed.step();
        assertEquals(0.00625, opt.paramGroups().get(0).lr(), 1e-17);
    }

    @Test
    void deprecatedEpochStepUsesTheClosedForm() {
        SGD opt = sgd(List.of(1.0), 0);
        StepLR s = new StepLR(opt, 3, 0.5);
        opt.step();
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            s.step(7);
            assertEquals(1, rec.records().size());
            assertTrue(rec.records()
                    .get(0)
                    .message()
                    .startsWith("The epoch parameter in `scheduler.step()` was not necessary"));
        }
        assertEquals(List.of(0.25), s.getLastLr()); // 0.5^(7 // 3)
        assertEquals(7, s.lastEpoch());
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            s.step(); // epoch 8: chainable form, no decay
            assertEquals(List.of(), rec.records());
        }
        assertEquals(List.of(0.25), s.getLastLr());

        SGD opt2 = sgd(List.of(1.0), 0);
        MultiStepLR m = new MultiStepLR(opt2, List.of(4, 2, 4), 0.1);
        opt2.step();
        try (var _ = Warnings.catchWarnings()) {
            m.step(5); // bisect_right([2, 4, 4], 5) = 3
        }
        assertEquals(1e-3, m.getLastLr().get(0), 1e-18);
    }

    @Test
    void warmRestartsCompareWithTheClosedForm() {
        // Fractional epochs: eta_min + (base - eta_min)(1 + cos(pi T_cur / T_i)) / 2 with T_cur = 5.5 - 3 (T_0 3,
        // T_mult 2: cycles 3, 6).
        SGD opt = sgd(List.of(1.0), 0);
        CosineAnnealingWarmRestarts s = new CosineAnnealingWarmRestarts(opt, 3, 2, 0.0);
        opt.step();
        s.step(5.5);
        assertEquals(2.5, s.tCur(), 1e-15);
        assertEquals(6, s.tI());
        assertEquals((1 + Math.cos(Math.PI * 2.5 / 6)) / 2, s.getLastLr().get(0), 1e-15);
        assertEquals(5, s.lastEpoch());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.step(-1));
        assertEquals("Expected non-negative epoch, but got -1", e.getMessage());
    }

    @Test
    void tensorLearningRatesAreFilledInPlace() {
        Tensor lr = Torch.scalarTensor(0.1);
        SGD opt = new SGD(
                List.of(Torch.zeros(1).requiresGrad(true)),
                SGD.Options.defaults().lr(lr));
        ExponentialLR s = new ExponentialLR(opt, 0.5);
        Tensor initial = (Tensor) opt.paramGroups().get(0).get("initial_lr");
        opt.step();
        s.step();
        assertSame(lr, opt.paramGroups().get(0).get("lr"), "the tensor is updated, not replaced");
        assertEquals(0.05, lr.item(), 1e-8);
        assertEquals(0.1, initial.item(), 1e-8, "initial_lr is a copy");
        assertEquals(0.05, s.getLastLr().get(0), 1e-8);
    }

    @Test
    void oneCycleCyclesAdamsBeta1() {
        // Same schedule as the SGD momentum: beta1 takes the momentum's values, beta2 is kept.
        Tensor p = Torch.zeros(1).requiresGrad(true);
        Adam adam = new Adam(List.of(p), Adam.Options.defaults().lr(0.1));
        OneCycleLR s = new OneCycleLR(adam, 1.0, OneCycleLR.Options.defaults().totalSteps(10));
        SGD sgd = sgd(List.of(0.1), 0.9);
        OneCycleLR ref = new OneCycleLR(sgd, 1.0, OneCycleLR.Options.defaults().totalSteps(10));
        for (int i = 0; i < 10; i++) {
            List<?> betas = (List<?>) adam.paramGroups().get(0).get("betas");
            assertEquals(
                    sgd.paramGroups().get(0).doubleValue("momentum"),
                    ((Number) betas.get(0)).doubleValue(),
                    0,
                    "step " + i);
            assertEquals(0.999, ((Number) betas.get(1)).doubleValue(), 0);
            assertEquals(ref.getLastLr(), s.getLastLr());
            adam.step();
            sgd.step();
            s.step();
            ref.step();
        }
        assertEquals(0.95, adam.paramGroups().get(0).get("max_momentum"));
        assertEquals(0.85, adam.paramGroups().get(0).get("base_momentum"));
        // Step 10 is the last allowed (the schedule extrapolates to total_steps); 11 is an error.
        adam.step();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::step);
        assertEquals("Tried to step 11 times. The specified number of total steps is 10", e.getMessage());
    }

    @Test
    void sequentialAtAMilestoneRestartsTheNextSchedulerWithoutWarning() {
        SGD opt = sgd(List.of(1.0), 0);
        StepLR second = new StepLR(opt, 2, 0.5);
        SequentialLR seq = new SequentialLR(opt, List.of(new ConstantLR(opt, 0.1, 10), second), List.of(3));
        assertEquals(List.of(0.1), seq.getLastLr());
        assertEquals(-1, second.lastEpoch(), "the sub-scheduler's initial step was undone");
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            for (int i = 0; i < 3; i++) {
                opt.step();
                seq.step();
            }
            assertEquals(List.of(), rec.records(), "2.15 restarts with _update_lr(0), no deprecation warning");
        }
        assertEquals(List.of(1.0), seq.getLastLr()); // StepLR's closed form at its epoch 0
        assertEquals(0, second.lastEpoch());
        assertEquals(3, seq.lastEpoch());
    }

    @Test
    void plateauAcceptsTensorMetricsAndRefusesPlainSteps() {
        SGD opt = sgd(List.of(1.0), 0);
        ReduceLROnPlateau s = new ReduceLROnPlateau(
                opt, ReduceLROnPlateau.Options.defaults().patience(0).factor(0.5));
        s.step(Torch.scalarTensor(1.0));
        s.step(Torch.scalarTensor(2.0)); // worse: one bad epoch > patience 0
        assertEquals(List.of(0.5), s.getLastLr());
        assertEquals(1.0, s.best());
        TorchTypeException e = assertThrows(TorchTypeException.class, s::step);
        assertEquals("ReduceLROnPlateau.step() missing 1 required positional argument: 'metrics'", e.getMessage());
    }

    @Test
    void plateauWithPerGroupMinLrsNeedsTheSameGroups() {
        SGD opt = sgd(List.of(1.0), 0);
        ReduceLROnPlateau s = new ReduceLROnPlateau(
                opt, ReduceLROnPlateau.Options.defaults().patience(0).minLr(List.of(0.1)));
        opt.addParamGroup(ParamGroup.of(List.of(Torch.zeros(1).requiresGrad(true))));
        s.step(1.0);
        TorchException e = assertThrows(TorchException.class, () -> s.step(2.0));
        assertTrue(
                e.getMessage()
                        .startsWith("The number of param groups in the `optimizer` (2) differs from when "
                                + "`ReduceLROnPlateau` "
                                + "was initialized (1)"),
                e.getMessage());
        // A scalar min_lr just extends to the new group.
        SGD opt2 = sgd(List.of(1.0), 0);
        ReduceLROnPlateau s2 = new ReduceLROnPlateau(
                opt2, ReduceLROnPlateau.Options.defaults().patience(0).minLr(0.2));
        opt2.addParamGroup(ParamGroup.of(
                List.of(Torch.zeros(1).requiresGrad(true)),
                SGD.Options.overrides().lr(0.3)));
        s2.step(1.0);
        s2.step(2.0);
        assertEquals(List.of(0.2, 0.2), s2.getLastLr()); // max(1.0 * 0.1, 0.2), max(0.3 * 0.1, 0.2)
    }

    // ---- warnings -------------------------------------------------------------------------------------

    @Test
    void warnsWhenSteppedBeforeTheOptimizer() {
        SGD opt = sgd(List.of(1.0), 0);
        StepLR s = new StepLR(opt, 1, 0.5);
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            s.step();
            assertEquals(1, rec.records().size());
            assertEquals(Warnings.Category.USER_WARNING, rec.records().get(0).category());
            assertTrue(rec.records()
                    .get(0)
                    .message()
                    .startsWith("Detected call of `lr_scheduler.step()` before `optimizer.step()`."));
            s.step(); // only the first step is checked
            assertEquals(1, rec.records().size());
        }
    }

    @Test
    void getLrOutsideStepWarns() {
        SGD opt = sgd(List.of(1.0), 0);
        ExponentialLR s = new ExponentialLR(opt, 0.5);
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            assertEquals(List.of(0.5), s.getLr()); // the chainable form: the next epoch's rate
            assertEquals(
                    "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                    rec.records().get(0).message());
        }
        assertEquals(List.of(1.0), s.getLastLr());
    }

    // ---- errors ---------------------------------------------------------------------------------------

    @Test
    void constructorErrors() {
        SGD opt = sgd(List.of(0.1, 0.2), 0.9);
        assertMessage(
                "Constant multiplicative factor expected to be between 0 and 1.", () -> new ConstantLR(opt, 1.5, 3));
        assertMessage(
                "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.",
                () -> new LinearLR(opt, 0, 1, 3));
        assertMessage(
                "Ending multiplicative factor expected to be between 0 and 1.", () -> new LinearLR(opt, 0.5, 1.5, 3));
        assertMessage("Expected positive integer T_0, but got 0", () -> new CosineAnnealingWarmRestarts(opt, 0));
        assertMessage("Expected integer T_mult >= 1, but got 0", () -> new CosineAnnealingWarmRestarts(opt, 3, 0, 0));
        assertMessage(
                "Expected 2 lr_lambdas, but got 1", () -> new LambdaLR(opt, List.<IntToDoubleFunction>of(e -> 1)));
        assertMessage(
                "You must define either total_steps OR (epochs AND steps_per_epoch)",
                () -> new OneCycleLR(opt, 1.0, OneCycleLR.Options.defaults()));
        assertMessage("Expected positive integer total_steps, but got 0", () -> new OneCycleLR(opt, 1.0, 0));
        assertMessage(
                "Expected positive integer epochs, but got -1",
                () -> new OneCycleLR(
                        opt, 1.0, OneCycleLR.Options.defaults().epochs(-1).stepsPerEpoch(2)));
        assertMessage(
                "Expected float between 0 and 1 pct_start, but got 1.5",
                () -> new OneCycleLR(
                        opt, 1.0, OneCycleLR.Options.defaults().totalSteps(5).pctStart(1.5)));
        assertMessage(
                "anneal_strategy must be one of 'cos' or 'linear', instead got exp",
                () -> new OneCycleLR(
                        opt, 1.0, OneCycleLR.Options.defaults().totalSteps(5).annealStrategy("exp")));
        assertMessage(
                "max_lr must have the same length as optimizer.param_groups. max_lr has 3 values, param_groups has 2.",
                () -> new OneCycleLR(
                        opt,
                        List.of(1.0, 2.0, 3.0),
                        OneCycleLR.Options.defaults().totalSteps(5)));
        Adagrad adagrad = new Adagrad(List.of(Torch.zeros(1).requiresGrad(true)), Adagrad.Options.defaults());
        assertMessage(
                "optimizer must support momentum or beta1 with `cycle_momentum` option enabled",
                () -> new OneCycleLR(adagrad, 1.0, 5));
        new OneCycleLR(adagrad, 1.0, OneCycleLR.Options.defaults().totalSteps(5).cycleMomentum(false));
        assertMessage(
                "Factor should be < 1.0.",
                () -> new ReduceLROnPlateau(
                        opt, ReduceLROnPlateau.Options.defaults().factor(1.0)));
        assertMessage(
                "mode avg is unknown!",
                () -> new ReduceLROnPlateau(
                        opt, ReduceLROnPlateau.Options.defaults().mode("avg")));
        assertMessage(
                "threshold mode pct is unknown!",
                () -> new ReduceLROnPlateau(
                        opt, ReduceLROnPlateau.Options.defaults().thresholdMode("pct")));
        assertMessage(
                "expected 2 min_lrs, got 1",
                () -> new ReduceLROnPlateau(
                        opt, ReduceLROnPlateau.Options.defaults().minLr(List.of(0.1))));
    }

    @Test
    void sequentialErrors() {
        SGD opt = sgd(List.of(1.0), 0), other = sgd(List.of(1.0), 0);
        assertMessage(
                "SequentialLR expects at least one scheduler, but got no scheduler.",
                () -> new SequentialLR(opt, List.of(), List.of()));
        assertMessage(
                "Sequential Schedulers expects number of schedulers provided to be one more than the "
                        + "number of milestone points, "
                        + "but got number of schedulers 1 and the number of milestones to be equal to 1",
                () -> new SequentialLR(opt, List.of(new StepLR(opt, 2)), List.of(3)));
        ReduceLROnPlateau plateau = new ReduceLROnPlateau(opt);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new SequentialLR(opt, List.of(new StepLR(opt, 2), plateau), List.of(3)));
        assertTrue(
                e.getMessage().startsWith("SequentialLR does not support `ReduceLROnPlateau` scheduler"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("but got one at index 1 in the given schedulers sequence."), e.getMessage());
        IllegalArgumentException mixed = assertThrows(
                IllegalArgumentException.class, () -> new SequentialLR(opt, List.of(new StepLR(other, 2)), List.of()));
        assertTrue(
                mixed.getMessage()
                        .startsWith("SequentialLR expects all schedulers to belong to the same optimizer, but got "
                                + "scheduler StepLR at index 0 has "),
                mixed.getMessage());
    }

    private static void assertMessage(String message, org.junit.jupiter.api.function.Executable call) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }
}
