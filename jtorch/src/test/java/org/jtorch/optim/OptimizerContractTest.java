package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.Warnings;
import org.junit.jupiter.api.Test;

/** The common {@code Optimizer} contract (spec §3.0–3.1): groups, errors, zero_grad, step, state_dict. */
class OptimizerContractTest {
    static Tensor param(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    static void grad(Tensor p, double... g) {
        p.setGrad(Torch.tensor(g));
    }

    // ---- construction and groups ----------------------------------------------------------------------

    @Test
    void emptyParameterList() {
        var e = assertThrows(IllegalArgumentException.class, () -> new SGD(List.<Tensor>of(), SGD.Options.defaults()));
        assertEquals("optimizer got an empty parameter list", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Adam(Adam.Options.defaults()));
    }

    @Test
    void emptyGroupIsAllowedAndSkipped() {
        Tensor p = param(1.0);
        grad(p, 0.5);
        SGD opt = new SGD(SGD.Options.defaults().lr(0.1), ParamGroup.of(List.of()), ParamGroup.of(List.of(p)));
        opt.step();
        assertEquals(0.95, p.item(), 1e-12);
    }

    @Test
    void sameParameterInTwoGroups() {
        Tensor p = param(1.0);
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> new SGD(SGD.Options.defaults(), ParamGroup.of(List.of(p)), ParamGroup.of(List.of(p))));
        assertEquals("some parameters appear in more than one parameter group", e.getMessage());
        SGD opt = new SGD(List.of(p), SGD.Options.defaults());
        assertThrows(IllegalArgumentException.class, () -> opt.addParamGroup(ParamGroup.of(List.of(param(2.0), p))));
        assertEquals(1, opt.paramGroups().size(), "a refused group is not added");
    }

    @Test
    void duplicateInOneGroupWarns() {
        Tensor p = param(1.0);
        try (var w = Warnings.catchWarnings()) {
            new SGD(List.of(p, p), SGD.Options.defaults());
            assertEquals(1, w.records().size());
            assertEquals(Warnings.Category.USER_WARNING, w.records().get(0).category());
            assertTrue(w.records().get(0).message().contains("duplicate parameters"));
        }
    }

    @Test
    void nonLeafParameter() {
        Tensor leaf = param(1.0, 2.0);
        Tensor nonLeaf = leaf.mul(2.0);
        var e = assertThrows(IllegalArgumentException.class, () -> new Adam(List.of(nonLeaf), Adam.Options.defaults()));
        assertEquals("can't optimize a non-leaf Tensor", e.getMessage());
        // differentiable optimizers may hold non-leaf tensors, as in PyTorch
        new SGD(List.of(nonLeaf), SGD.Options.defaults().differentiable(true));
    }

    @Test
    void setOfParametersWarnsAndSetInGroupIsAnError() {
        Tensor a = param(1.0), b = param(2.0);
        try (var w = Warnings.catchWarnings()) {
            SGD opt = new SGD(new HashSet<>(List.of(a, b)), SGD.Options.defaults());
            assertEquals(2, opt.paramGroups().get(0).params().size());
            assertEquals(1, w.records().size());
            assertEquals(Warnings.Category.FUTURE_WARNING, w.records().get(0).category());
            assertTrue(w.records().get(0).message().contains("no deterministic order"));
        }
        try (var w = Warnings.catchWarnings()) {
            new SGD(new LinkedHashSet<>(List.of(a, b)), SGD.Options.defaults()); // ordered: silent
            new SGD(List.of(a, b), SGD.Options.defaults());
            assertEquals(0, w.records().size());
        }
        var e = assertThrows(TorchTypeException.class, () -> ParamGroup.of(new HashSet<>(List.of(a))));
        assertTrue(e.getMessage().startsWith("optimizer parameters need to be organized in ordered collections"));
    }

    @Test
    void groupOverridesAndDefaults() {
        Tensor a = param(1.0), b = param(1.0);
        SGD opt = new SGD(
                SGD.Options.defaults().lr(0.1),
                ParamGroup.of(List.of(a)),
                ParamGroup.of(List.of(b), SGD.Options.overrides().lr(0.5).momentum(0.9)));
        assertEquals(0.1, opt.paramGroups().get(0).lr());
        assertEquals(0.5, opt.paramGroups().get(1).lr());
        // keys: the group's own first, then the defaults it did not set, as PyTorch's setdefault leaves them
        assertEquals(
                List.of(
                        "lr",
                        "momentum",
                        "dampening",
                        "weight_decay",
                        "nesterov",
                        "maximize",
                        "foreach",
                        "differentiable",
                        "fused"),
                new ArrayList<>(opt.paramGroups().get(1).options().keySet()));
        grad(a, 1.0);
        grad(b, 1.0);
        opt.step();
        assertEquals(0.9, a.item(), 1e-12);
        assertEquals(0.5, b.item(), 1e-12);
        opt.paramGroups().get(0).lr(0.2); // what an lr scheduler does
        opt.step();
        assertEquals(0.7, a.item(), 1e-12);
    }

    // ---- hyper-parameter errors ----------------------------------------------------------------------------

    @Test
    void invalidHyperParameters() {
        List<Tensor> ps = List.of(param(1.0));
        assertEquals(
                "Invalid learning rate: -0.1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new SGD(ps, SGD.Options.defaults().lr(-0.1)))
                        .getMessage());
        assertEquals(
                "Invalid learning rate: -1e-05",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Adam(ps, Adam.Options.defaults().lr(-1e-5)))
                        .getMessage());
        assertEquals(
                "Invalid momentum value: -0.5",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new SGD(ps, SGD.Options.defaults().momentum(-0.5)))
                        .getMessage());
        assertEquals(
                "Nesterov momentum requires a momentum and zero dampening",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new SGD(ps, SGD.Options.defaults().nesterov(true)))
                        .getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new SGD(
                        ps, SGD.Options.defaults().momentum(0.9).dampening(0.1).nesterov(true)));
        assertEquals(
                "Invalid beta parameter at index 0: 1.0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Adam(ps, Adam.Options.defaults().betas(1.0, 0.9)))
                        .getMessage());
        assertEquals(
                "Invalid beta parameter at index 1: -0.1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new AdamW(ps, AdamW.Options.defaults().betas(0.9, -0.1)))
                        .getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new NAdam(ps, NAdam.Options.defaults().betas(0.9, 1.0)));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RAdam(ps, RAdam.Options.defaults().betas(-0.01, 0.9)));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Adamax(ps, Adamax.Options.defaults().betas(0.9, 1.5)));
        assertEquals(
                "Invalid epsilon value: -1e-08",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Adam(ps, Adam.Options.defaults().eps(-1e-8)))
                        .getMessage());
        assertEquals(
                "Invalid weight_decay value: -0.01",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new AdamW(ps, AdamW.Options.defaults().weightDecay(-0.01)))
                        .getMessage());
        assertEquals(
                "Invalid lr_decay value: -1.0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Adagrad(ps, Adagrad.Options.defaults().lrDecay(-1)))
                        .getMessage());
        assertEquals(
                "Invalid initial_accumulator_value value: -0.5",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Adagrad(ps, Adagrad.Options.defaults().initialAccumulatorValue(-0.5)))
                        .getMessage());
        assertEquals(
                "Invalid alpha value: -0.9",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new RMSprop(ps, RMSprop.Options.defaults().alpha(-0.9)))
                        .getMessage());
        assertEquals(
                "Invalid momentum_decay value: -0.004",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new NAdam(ps, NAdam.Options.defaults().momentumDecay(-0.004)))
                        .getMessage());
        // a group override is checked too
        assertThrows(
                IllegalArgumentException.class,
                () -> new SGD(
                        SGD.Options.defaults(),
                        ParamGroup.of(ps, SGD.Options.overrides().lr(-1))));
    }

    @Test
    void fusedFlagErrors() {
        List<Tensor> ps = List.of(param(1.0));
        assertEquals(
                "`fused` and `foreach` cannot be `True` together.",
                assertThrows(
                                TorchException.class,
                                () -> new Adam(
                                        ps, Adam.Options.defaults().fused(true).foreach(true)))
                        .getMessage());
        assertEquals(
                "`fused` does not support `differentiable`",
                assertThrows(
                                TorchException.class,
                                () -> new SGD(
                                        ps, SGD.Options.defaults().fused(true).differentiable(true)))
                        .getMessage());
        Tensor ints = Torch.tensor(new long[] {1, 2});
        var e = assertThrows(
                TorchException.class,
                () -> new Adagrad(List.of(ints), Adagrad.Options.defaults().fused(true)));
        assertTrue(e.getMessage().startsWith("`fused=True` requires all the params to be floating point Tensors"));
        Tensor lr = Torch.tensor(new double[] {0.1});
        assertEquals(
                "lr as a Tensor is not supported for capturable=False and foreach=True",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Adam(
                                        ps, Adam.Options.defaults().lr(lr).foreach(true)))
                        .getMessage());
    }

    @Test
    void tensorLearningRate() {
        Tensor p = param(1.0);
        grad(p, 0.5);
        new SGD(List.of(p), SGD.Options.defaults().lr(Torch.scalarTensor(0.1, DType.FLOAT64))).step();
        assertEquals(0.95, p.item(), 1e-12);
    }

    // ---- zero_grad and step --------------------------------------------------------------------------------

    @Test
    void zeroGrad() {
        Tensor a = param(1.0, 2.0), b = param(3.0);
        grad(a, 1, 2);
        SGD opt = new SGD(List.of(a, b), SGD.Options.defaults());
        opt.zeroGrad(false);
        assertArrayEquals(new double[] {0, 0}, a.grad().toDoubleArray());
        assertNull(b.grad(), "a missing gradient stays missing");
        opt.zeroGrad();
        assertNull(a.grad());
    }

    @Test
    void stepReturnsTheClosureLossAndEvaluatesItWithGrad() {
        Tensor p = param(1.0, -2.0);
        SGD opt = new SGD(List.of(p), SGD.Options.defaults().lr(0.1));
        try (var _ = Torch.noGrad()) {
            Tensor loss = opt.step(() -> {
                opt.zeroGrad();
                Tensor l = p.square().sum();
                l.backward();
                return l;
            });
            assertEquals(5.0, loss.item(), 1e-12);
        }
        assertArrayEquals(new double[] {0.8, -1.6}, p.toDoubleArray(), 1e-12);
        assertNull(opt.step(null));
    }

    @Test
    void parametersWithoutGradientGetNoState() {
        Tensor a = param(1.0), b = param(2.0);
        grad(a, 0.5);
        Adam opt = new Adam(List.of(a, b), Adam.Options.defaults());
        opt.step();
        assertEquals(2.0, b.item());
        assertTrue(opt.state(b).isEmpty());
        assertEquals(
                List.of("step", "exp_avg", "exp_avg_sq"),
                new ArrayList<>(opt.state(a).keySet()));
        Tensor step = (Tensor) opt.state(a).get("step");
        assertEquals(DType.FLOAT32, step.dtype());
        assertEquals(0, step.dim());
    }

    @Test
    void sgdWithoutMomentumHasNoState() {
        Tensor a = param(1.0);
        grad(a, 0.5);
        SGD opt = new SGD(List.of(a), SGD.Options.defaults());
        opt.step();
        assertTrue(opt.stateDict().state().isEmpty());
    }

    @Test
    void adagradCreatesStateForEveryParameterAtConstruction() {
        Tensor a = param(1.0, 2.0);
        Adagrad opt = new Adagrad(List.of(a), Adagrad.Options.defaults().initialAccumulatorValue(0.25));
        assertArrayEquals(new double[] {0.25, 0.25}, ((Tensor) opt.state(a).get("sum")).toDoubleArray());
        assertEquals(0.0, ((Tensor) opt.state(a).get("step")).item());
    }

    // ---- state_dict ------------------------------------------------------------------------------------------

    static List<Tensor> twoGroupsWithGrads(List<Tensor> extra) {
        Tensor a = param(1.0, 2.0), b = param(-1.0), c = param(0.5, 0.5, 0.5);
        grad(a, 0.1, 0.2);
        grad(b, -0.3);
        grad(c, 0.05, -0.05, 0.5);
        extra.addAll(List.of(a, b, c));
        return extra;
    }

    @Test
    void stateDictStructure() {
        List<Tensor> ps = twoGroupsWithGrads(new ArrayList<>());
        Adam opt = new Adam(
                Adam.Options.defaults().amsgrad(true),
                ParamGroup.of(ps.subList(0, 2)),
                ParamGroup.of(ps.subList(2, 3), Adam.Options.overrides().lr(0.5)));
        opt.step();
        OptimizerStateDict sd = opt.stateDict();
        assertEquals(List.of(0, 1, 2), new ArrayList<>(sd.state().keySet()));
        assertEquals(
                List.of("step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"),
                new ArrayList<>(sd.state().get(2).keySet()));
        assertSame(
                opt.state(ps.get(2)).get("exp_avg"),
                sd.state().get(2).get("exp_avg"),
                "tensors are shared, as in PyTorch");
        assertEquals(2, sd.paramGroups().size());
        Map<String, Object> g0 = sd.paramGroups().get(0), g1 = sd.paramGroups().get(1);
        assertEquals(
                List.of(
                        "lr",
                        "betas",
                        "eps",
                        "weight_decay",
                        "amsgrad",
                        "maximize",
                        "foreach",
                        "capturable",
                        "differentiable",
                        "fused",
                        "decoupled_weight_decay",
                        "params"),
                new ArrayList<>(g0.keySet()));
        assertEquals(List.of(0, 1), g0.get("params"));
        assertEquals(List.of(2), g1.get("params"));
        assertEquals(0.5, g1.get("lr"));
        assertEquals(List.of(0.9, 0.999), g0.get("betas"));
        assertEquals(0L, g0.get("weight_decay"), "PyTorch's int default stays an int");
    }

    /** A deep copy, standing in for save/load: a loaded state dict must not share tensors with the saved one. */
    static OptimizerStateDict copy(OptimizerStateDict sd) {
        Map<Integer, Map<String, Object>> state = new LinkedHashMap<>();
        sd.state().forEach((k, v) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            v.forEach((key, val) -> m.put(key, val instanceof Tensor t ? t.clone() : val));
            state.put(k, m);
        });
        List<Map<String, Object>> groups = new ArrayList<>();
        for (Map<String, Object> g : sd.paramGroups()) groups.add(new LinkedHashMap<>(g));
        return new OptimizerStateDict(state, groups);
    }

    @Test
    void stateDictRoundTripContinuesTheSameTrajectory() {
        for (String name : List.of("SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Adamax", "NAdam", "RAdam")) {
            // float32: loading casts state to the parameter dtype, which for float64 parameters would turn
            // NAdam's float32 mu_product into float64 (as PyTorch does) and change the last bits.
            List<Tensor> ps1 = new ArrayList<>();
            for (Tensor p : twoGroupsWithGrads(new ArrayList<>())) {
                Tensor q = p.detach().to(DType.FLOAT32).requiresGrad(true);
                q.setGrad(p.grad().to(DType.FLOAT32));
                ps1.add(q);
            }
            Map<String, Object> kwargs = new LinkedHashMap<>(Map.of("lr", 0.05));
            if (name.equals("SGD") || name.equals("RMSprop")) kwargs.put("momentum", 0.9);
            Optimizer a = OptimTrajectoryTest.make(name, kwargs, ps1, StepSupport.Impl.FOREACH);
            a.step();
            a.step();
            List<Tensor> ps2 = new ArrayList<>();
            for (Tensor p : ps1) {
                Tensor q = p.detach().clone().requiresGrad(true);
                q.setGrad(p.grad().clone());
                ps2.add(q);
            }
            Optimizer b = OptimTrajectoryTest.make(name, Map.of("lr", 0.9), ps2, StepSupport.Impl.FOREACH);
            b.loadStateDict(copy(a.stateDict()));
            assertEquals(0.05, b.paramGroups().get(0).lr(), name + ": hyper-parameters come from the state dict");
            assertEquals(a.stateDict().state().keySet(), b.stateDict().state().keySet(), name);
            a.step();
            b.step();
            for (int i = 0; i < ps1.size(); i++) {
                assertArrayEquals(ps1.get(i).toDoubleArray(), ps2.get(i).toDoubleArray(), 0.0, name + " param " + i);
            }
        }
    }

    @Test
    void loadStateDictCastsStateToTheParameterDtypeButNotStep() {
        Tensor a = param(1.0, 2.0);
        grad(a, 0.5, 0.5);
        Adam src = new Adam(List.of(a), Adam.Options.defaults());
        src.step();
        Tensor f32 = Torch.tensor(new float[] {1f, 2f}).requiresGrad(true);
        Adam dst = new Adam(List.of(f32), Adam.Options.defaults());
        dst.loadStateDict(copy(src.stateDict()));
        assertEquals(DType.FLOAT32, ((Tensor) dst.state(f32).get("exp_avg")).dtype());
        assertEquals(DType.FLOAT32, ((Tensor) dst.state(f32).get("step")).dtype());
        Adam fused = new Adam(List.of(f32), Adam.Options.defaults().fused(true));
        OptimizerStateDict sd = copy(src.stateDict());
        sd.state().get(0).put("step", Torch.scalarTensor(3.0, DType.FLOAT64));
        sd.paramGroups().get(0).put("fused", true); // PyTorch decides by the loaded groups' flags
        fused.loadStateDict(sd);
        assertEquals(
                DType.FLOAT32, ((Tensor) fused.state(f32).get("step")).dtype(), "fused groups keep step in float32");
    }

    @Test
    void badStateDictsAreRefusedAndLeaveTheOptimizerUnchanged() {
        List<Tensor> ps = twoGroupsWithGrads(new ArrayList<>());
        SGD opt = new SGD(
                SGD.Options.defaults().momentum(0.9), ParamGroup.of(ps.subList(0, 2)), ParamGroup.of(ps.subList(2, 3)));
        opt.step();
        OptimizerStateDict good = opt.stateDict();
        Object buffer = opt.state(ps.get(0)).get("momentum_buffer");

        OptimizerStateDict oneGroup =
                new OptimizerStateDict(good.state(), List.of(good.paramGroups().get(0)));
        assertEquals(
                "loaded state dict has a different number of parameter groups",
                assertThrows(IllegalArgumentException.class, () -> opt.loadStateDict(oneGroup))
                        .getMessage());

        Map<String, Object> wrongSize = new LinkedHashMap<>(good.paramGroups().get(0));
        wrongSize.put("params", List.of(0));
        wrongSize.put("lr", 123.0);
        OptimizerStateDict sized = new OptimizerStateDict(
                good.state(), List.of(wrongSize, good.paramGroups().get(1)));
        assertEquals(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
                assertThrows(IllegalArgumentException.class, () -> opt.loadStateDict(sized))
                        .getMessage());

        Map<String, Object> noParams = new LinkedHashMap<>(good.paramGroups().get(1));
        noParams.remove("params");
        OptimizerStateDict missing =
                new OptimizerStateDict(good.state(), List.of(good.paramGroups().get(0), noParams));
        assertThrows(NoSuchElementException.class, () -> opt.loadStateDict(missing));
        assertThrows(
                NoSuchElementException.class,
                () -> opt.loadStateDict(new OptimizerStateDict(null, good.paramGroups())));

        assertEquals(0.001, opt.paramGroups().get(0).lr(), "hyper-parameters unchanged");
        assertSame(buffer, opt.state(ps.get(0)).get("momentum_buffer"), "state unchanged");
        assertNotSame(null, opt.state(ps.get(2)).get("momentum_buffer"));
    }

    @Test
    void toStringListsGroups() {
        String s = new SGD(List.of(param(1.0)), SGD.Options.defaults().lr(0.1)).toString();
        assertTrue(s.startsWith("SGD (\nParameter Group 0\n    lr: 0.1\n    momentum: 0\n"), s);
        assertTrue(s.contains("nesterov: False") && s.contains("foreach: None"), s);
    }
}
