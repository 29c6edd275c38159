package org.jtorch.optim.swa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.BatchNorm1d;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.SGD;
import org.jtorch.testing.Golden;
import org.jtorch.utils.data.DataLoader;
import org.jtorch.utils.data.TensorDataset;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code AveragedModel}, {@code SWALR} and {@code update_bn} against PyTorch 2.13 ({@code golden/swa.json}, written by
 * {@code src/test/python/make_golden_swa.py}): the same six SGD steps from the same initial state give, after each
 * step, the same learning rate and the same averaged state dict (keys in order, values), for SWA, EMA by {@code avg_fn}
 * and by {@code multi_avg_fn}, with and without {@code use_buffers}; {@code update_bn} over the same loader gives the
 * same statistics; SWALR's rates, state dict and errors are PyTorch's.
 */
class SwaUtilsGoldenTest {
    private static final Map<String, Object> GOLDEN = Golden.fixture("swa.json");

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> cases(String section) {
        return (List<Map<String, Object>>) GOLDEN.get(section);
    }

    private static Sequential net() {
        return (Sequential)
                new Sequential(new Linear(3, 4), new BatchNorm1d(4), new ReLU(), new Linear(4, 1)).toDouble();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> tensors(Object json) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        ((Map<String, Object>) json).forEach((k, v) -> out.put(k, (Tensor) Golden.decode(v)));
        return out;
    }

    private static AveragedModel.Options options(String id) {
        return switch (id) {
            case "swa" -> AveragedModel.Options.defaults();
            case "ema_multi_use_buffers" ->
                AveragedModel.Options.defaults()
                        .multiAvgFn(SwaUtils.getEmaMultiAvgFn(0.9))
                        .useBuffers(true);
            case "ema_avg_fn" -> AveragedModel.Options.defaults().avgFn(SwaUtils.getEmaAvgFn(0.8));
            case "swa_multi" -> AveragedModel.Options.defaults().multiAvgFn(SwaUtils.getSwaMultiAvgFn());
            case "swa_use_buffers" -> AveragedModel.Options.defaults().useBuffers(true);
            default -> throw new IllegalArgumentException(id);
        };
    }

    private static SWALR scheduler(String id, SGD opt) {
        return switch (id) {
            case "swa" -> new SWALR(opt, 0.05, 3, "cos");
            case "ema_multi_use_buffers" -> new SWALR(opt, 0.1, 2, "linear");
            case "ema_avg_fn" -> new SWALR(opt, 0.2, 0, "cos");
            case "swa_multi" -> new SWALR(opt, 0.05);
            case "swa_use_buffers" -> new SWALR(opt, 0.05, 10, "linear");
            default -> throw new IllegalArgumentException(id);
        };
    }

    @TestFactory
    Stream<DynamicTest> averagingTracksPyTorchStepByStep() {
        return cases("training").stream()
                .map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> checkTraining(c)));
    }

    @SuppressWarnings("unchecked")
    private static void checkTraining(Map<String, Object> c) {
        String id = (String) c.get("id");
        Sequential model = net();
        model.loadStateDict(tensors(c.get("initial")));
        Tensor x = (Tensor) Golden.decode(c.get("x")), y = (Tensor) Golden.decode(c.get("y"));
        AveragedModel averaged = new AveragedModel(model, net(), options(id));
        SGD opt = new SGD(model.parameters(), SGD.Options.defaults().lr(0.5));
        SWALR sched = scheduler(id, opt);
        List<Map<String, Object>> steps = (List<Map<String, Object>>) c.get("steps");
        for (int s = 0; s < steps.size(); s++) {
            opt.zeroGrad();
            F.mseLoss(model.call(x), y).backward();
            opt.step();
            averaged.updateParameters(model);
            sched.step();
            String where = id + " step " + s;
            assertDoubles(where + " lr", (List<Object>) steps.get(s).get("lr"), sched.getLastLr());
            assertState(where, tensors(steps.get(s).get("averaged")), averaged.stateDict());
        }
        assertEquals(c.get("keys"), new ArrayList<>(averaged.stateDict().keySet()), id + " state-dict keys");
        try (DataLoader<List<Tensor>> loader =
                DataLoader.builder(new TensorDataset(x, y)).batchSize(4).build()) {
            SwaUtils.updateBn(loader, averaged);
        }
        assertState(id + " after update_bn", tensors(c.get("after_update_bn")), averaged.stateDict());
        assertEquals(c.get("training_after_update_bn"), averaged.isTraining());
        List<Double> swaLr = new ArrayList<>();
        for (var g : opt.paramGroups()) swaLr.add(g.doubleValue("swa_lr"));
        assertDoubles(id + " swa_lr", (List<Object>) c.get("swa_lr"), swaLr);
        Map<String, Object> sd = sched.stateDict();
        assertEquals(c.get("scheduler_state_keys"), new ArrayList<>(sd.keySet()), id + " SWALR state-dict keys");
        Map<String, Object> expected = (Map<String, Object>) c.get("scheduler_state");
        assertEquals(expected.get("_anneal_strategy"), sd.get("_anneal_strategy"));
        assertEquals(((Number) expected.get("anneal_epochs")).intValue(), sd.get("anneal_epochs"));
        assertEquals(((Number) expected.get("_step_count")).intValue(), sd.get("_step_count"));
    }

    private static void assertState(String where, Map<String, Tensor> expected, Map<String, Tensor> actual) {
        // The fixture's maps are keyed in sorted order; the order itself is checked against the recorded key list.
        assertEquals(new java.util.TreeSet<>(expected.keySet()), new java.util.TreeSet<>(actual.keySet()), where);
        expected.forEach((k, e) -> {
            Tensor a = actual.get(k);
            assertEquals(e.dtype(), a.dtype(), where + " " + k + ": dtype");
            assertArrayEquals(e.shape(), a.shape(), where + " " + k + ": shape");
            double[] ev = e.toDoubleArray(), av = a.toDoubleArray();
            for (int i = 0; i < ev.length; i++) {
                assertTrue(
                        Math.abs(ev[i] - av[i]) <= 1e-12 + 1e-9 * Math.abs(ev[i]),
                        where + " " + k + "[" + i + "]: expected " + ev[i] + " but was " + av[i]);
            }
        });
    }

    private static void assertDoubles(String where, List<Object> expected, List<Double> actual) {
        assertEquals(expected.size(), actual.size(), where + ": count");
        for (int i = 0; i < expected.size(); i++) {
            double e = Golden.number(expected.get(i));
            assertEquals(e, actual.get(i), 1e-15 + 1e-12 * Math.abs(e), where + "[" + i + "]");
        }
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> swalrRatesArePyTorchs() {
        return cases("swalr").stream()
                .map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> {
                    List<Object> lrs = (List<Object>) c.get("lrs");
                    Map<String, Object> kw = (Map<String, Object>) c.get("kwargs");
                    List<org.jtorch.optim.ParamGroup> groups = new ArrayList<>();
                    for (Object lr : lrs) {
                        groups.add(org.jtorch.optim.ParamGroup.of(
                                List.of(Torch.zeros(1).requiresGrad(true)),
                                SGD.Options.defaults().lr(Golden.number(lr))));
                    }
                    SGD opt = new SGD(groups, SGD.Options.defaults());
                    double[] swaLrs = new double[lrs.size()];
                    Object swa = kw.get("swa_lr");
                    for (int i = 0; i < swaLrs.length; i++)
                        swaLrs[i] = Golden.number(swa instanceof List<?> l ? l.get(i) : swa);
                    int epochs = kw.containsKey("anneal_epochs") ? ((Number) kw.get("anneal_epochs")).intValue() : 10;
                    String strategy = (String) kw.getOrDefault("anneal_strategy", "cos");
                    SWALR sched = new SWALR(opt, swaLrs, epochs, strategy, -1);
                    List<Object> expected = (List<Object>) c.get("last_lr");
                    assertDoubles(c.get("id") + " initial", (List<Object>) expected.get(0), sched.getLastLr());
                    for (int s = 1; s < expected.size(); s++) {
                        opt.step();
                        sched.step();
                        assertDoubles(c.get("id") + " step " + s, (List<Object>) expected.get(s), sched.getLastLr());
                    }
                }));
    }

    @Test
    @SuppressWarnings("unchecked")
    void refusedArgumentsRaisePyTorchsMessages() {
        Map<String, Object> errors = (Map<String, Object>) GOLDEN.get("errors");
        SGD opt = new SGD(
                List.of(Torch.zeros(1).requiresGrad(true)),
                SGD.Options.defaults().lr(0.1));
        assertEquals(
                errors.get("strategy"),
                assertThrows(TorchException.class, () -> new SWALR(opt, 0.1, 10, "exp"))
                        .getMessage());
        assertEquals(
                errors.get("epochs"),
                assertThrows(TorchException.class, () -> new SWALR(opt, 0.1, -1, "cos"))
                        .getMessage());
        assertEquals(
                errors.get("lr_count"),
                assertThrows(TorchException.class, () -> new SWALR(opt, new double[] {0.1, 0.2}, 10, "cos", -1))
                        .getMessage());
        assertEquals(
                errors.get("decay"),
                assertThrows(TorchException.class, () -> SwaUtils.getEmaMultiAvgFn(1.5))
                        .getMessage());
        assertEquals(
                errors.get("decay_single"),
                assertThrows(TorchException.class, () -> SwaUtils.getEmaAvgFn(-0.1))
                        .getMessage());
    }

    @Test
    void theReplicaMustBeASeparateModuleOfTheSameArchitecture() {
        Sequential model = net();
        assertThrows(TorchException.class, () -> new AveragedModel(model, model));
        Module other = new Sequential(new Linear(3, 4)).to(DType.FLOAT64);
        TorchException e = assertThrows(TorchException.class, () -> new AveragedModel(model, other));
        assertTrue(e.getMessage().contains("architecture"), e.getMessage());
        assertThrows(
                TorchException.class,
                () -> new AveragedModel(
                        model,
                        net(),
                        AveragedModel.Options.defaults()
                                .avgFn(SwaUtils.getSwaAvgFn())
                                .multiAvgFn(SwaUtils.getSwaMultiAvgFn())));
    }

    @Test
    void updateBnRefusesBatchesWithoutAnInputTensor() {
        Sequential model = net();
        TorchException e = assertThrows(TorchException.class, () -> SwaUtils.updateBn(List.of("text"), model));
        assertTrue(e.getMessage().contains("update_bn"), e.getMessage());
        assertTrue(model.isTraining());
    }
}
