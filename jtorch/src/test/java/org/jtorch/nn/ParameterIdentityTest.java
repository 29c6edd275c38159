package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchTypeException;
import org.jtorch.Warnings;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.AdamW;
import org.jtorch.optim.SGD;
import org.jtorch.optim.lr.StepLR;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Module.to(dtype)} keeps each parameter object and swaps its data ({@code param.data = ...}), so that an
 * optimizer built before the conversion keeps training the model; and the save/load conveniences.
 */
class ParameterIdentityTest {
    private static Sequential model() {
        Torch.manualSeed(0);
        return new Sequential(new Linear(3, 16), new ReLU(), new Linear(16, 1));
    }

    /** y = 2 x0 - x1 + 0.5 x2: a target the model can fit. */
    private static Tensor[] data(DType dtype) {
        Torch.manualSeed(1);
        Tensor x = Torch.randn(64, 3).to(dtype);
        Tensor y = x.matmul(Torch.tensor(new double[] {2, -1, 0.5}).to(dtype)).unsqueeze(1);
        return new Tensor[] {x, y};
    }

    @Test
    void toDtypeAfterBuildingTheOptimizerStillTrains() {
        Sequential m = model();
        List<Tensor> before = m.parameters();
        AdamW opt = new AdamW(m.parameters(), AdamW.Options.defaults().lr(1e-2));
        m.to(DType.FLOAT64);
        List<Tensor> after = m.parameters();
        for (int i = 0; i < before.size(); i++) {
            assertSame(before.get(i), after.get(i), "the same Parameter object");
            assertEquals(DType.FLOAT64, after.get(i).dtype());
            assertTrue(after.get(i).requiresGrad());
        }
        Tensor[] xy = data(DType.FLOAT64);
        double first = 0, last = 0;
        try (var w = Warnings.catchWarnings()) {
            for (int step = 0; step < 50; step++) {
                opt.zeroGrad();
                Tensor loss = F.mseLoss(m.call(xy[0]), xy[1]);
                loss.backward();
                opt.step();
                if (step == 0) first = loss.item();
                last = loss.item();
            }
            assertEquals(List.of(), w.records(), "no warning: the optimizer holds the model's parameters");
        }
        assertTrue(last < 0.2 * first, "loss decreases: " + first + " -> " + last);
        assertEquals(DType.FLOAT64, opt.state(after.get(0)).get("exp_avg") instanceof Tensor t ? t.dtype() : null);
    }

    @Test
    void gradientsAndHooksFollowTheConversion() {
        Linear lin = new Linear(2, 2);
        Tensor w = lin.getParameter("weight");
        AtomicInteger hookCalls = new AtomicInteger();
        w.registerHook(g -> {
            hookCalls.incrementAndGet();
            return g;
        });
        lin.call(Torch.ones(1, 2)).sum().backward();
        Tensor grad = w.grad();
        assertEquals(1, hookCalls.get());
        lin.to(DType.FLOAT64);
        assertSame(grad, w.grad(), "the gradient keeps its identity too");
        assertEquals(DType.FLOAT64, w.grad().dtype());
        w.setGrad(null);
        lin.call(Torch.ones(1, 2).to(DType.FLOAT64)).sum().backward();
        assertEquals(2, hookCalls.get(), "a hook registered before the conversion still runs");
        assertEquals(DType.FLOAT64, w.grad().dtype());
        assertArrayEquals(new double[] {1, 1, 1, 1}, w.grad().toDoubleArray());
    }

    @Test
    void halfBfloat16FloatAndDoubleConvertInPlace() {
        Linear lin = new Linear(2, 3);
        Tensor w = lin.getParameter("weight");
        double[] values = w.toDoubleArray();
        assertEquals(DType.FLOAT16, lin.half().getParameter("weight").dtype());
        assertEquals(DType.BFLOAT16, lin.bfloat16().getParameter("weight").dtype());
        assertEquals(DType.FLOAT32, lin.toFloat().getParameter("weight").dtype());
        assertEquals(DType.FLOAT64, lin.toDouble().getParameter("weight").dtype());
        assertSame(w, lin.getParameter("weight"));
        double[] back = w.toDoubleArray();
        for (int i = 0; i < values.length; i++) assertEquals(values[i], back[i], Math.abs(values[i]) / 128);
    }

    @Test
    void setDataSwapsTheDataAndKeepsTheTensor() {
        Tensor t = Torch.zeros(2).requiresGrad(true);
        Tensor data = Torch.tensor(new double[] {3, 4, 5});
        assertSame(t, t.setData(data));
        assertArrayEquals(new long[] {3}, t.shape());
        assertEquals(DType.FLOAT64, t.dtype());
        assertSame(data.untypedStorage(), t.untypedStorage(), "the new data's storage, not a copy");
        assertTrue(t.requiresGrad());
    }

    @Test
    void stepWarnsOnceWhenABackwardReachedNoneOfItsParameters() {
        Tensor held = Torch.ones(2).requiresGrad(true);
        Tensor used = Torch.ones(2).requiresGrad(true);
        SGD opt = new SGD(List.of(held), SGD.Options.defaults().lr(0.1));
        try (var w = Warnings.catchWarnings()) {
            opt.step(); // no backward yet: nothing to say
            assertEquals(0, w.records().size());
            for (int i = 0; i < 2; i++) {
                used.mul(2.0).sum().backward();
                opt.step();
            }
            assertEquals(1, w.records().size(), "once");
            assertTrue(w.records().getFirst().message().startsWith("SGD.step(): a backward pass ran, but none of"));
        }
        assertArrayEquals(new double[] {1, 1}, held.toDoubleArray(), "and the step changed nothing");
    }

    @Test
    void saveAndLoadAStateDict(@TempDir Path dir) {
        Sequential a = model();
        Path file = dir.resolve("model.pt");
        Torch.save(a.stateDict(), file);
        Torch.manualSeed(99);
        Sequential b = new Sequential(new Linear(3, 16), new ReLU(), new Linear(16, 1));
        assertNotEquals(
                a.getParameter("0.weight").toDoubleArray()[0],
                b.getParameter("0.weight").toDoubleArray()[0]);
        Tensor w = b.getParameter("0.weight");
        b.loadStateDict(file);
        assertSame(w, b.getParameter("0.weight"));
        for (var e : a.stateDict().entrySet())
            assertArrayEquals(
                    e.getValue().toDoubleArray(), b.stateDict().get(e.getKey()).toDoubleArray(), e.getKey());
        Map<String, Tensor> sd = Torch.loadStateDict(file);
        assertEquals(List.of("0.weight", "0.bias", "2.weight", "2.bias"), new ArrayList<>(sd.keySet()));
        Path list = dir.resolve("list.pt");
        Torch.save(List.of(1L, 2L), list);
        var e = assertThrows(TorchTypeException.class, () -> Torch.loadStateDict(list));
        assertTrue(e.getMessage().contains("not a state dict"), e.getMessage());
    }

    @Test
    void aCheckpointResumesTrainingExactly(@TempDir Path dir) {
        Tensor[] xy = data(DType.FLOAT32);
        // Uninterrupted: 6 steps.
        Sequential ref = model();
        AdamW refOpt = new AdamW(ref.parameters(), AdamW.Options.defaults().lr(1e-2));
        StepLR refSched = new StepLR(refOpt, 2, 0.5);
        for (int i = 0; i < 6; i++) step(ref, refOpt, refSched, xy);
        // 3 steps, a checkpoint with model, optimizer and scheduler, then 3 steps in fresh objects.
        Sequential m = model();
        AdamW opt = new AdamW(m.parameters(), AdamW.Options.defaults().lr(1e-2));
        StepLR sched = new StepLR(opt, 2, 0.5);
        for (int i = 0; i < 3; i++) step(m, opt, sched, xy);
        Map<String, Object> ckpt = new LinkedHashMap<>();
        ckpt.put("model", m.stateDict());
        ckpt.put("optimizer", opt.stateDict());
        ckpt.put("scheduler", sched.stateDict());
        Path file = dir.resolve("ckpt.pt");
        Torch.save(ckpt, file);
        Map<?, ?> loaded = (Map<?, ?>) Torch.load(file);
        Sequential m2 = new Sequential(new Linear(3, 16), new ReLU(), new Linear(16, 1));
        AdamW opt2 = new AdamW(m2.parameters(), AdamW.Options.defaults().lr(1e-2));
        StepLR sched2 = new StepLR(opt2, 2, 0.5);
        m2.loadStateDict(castStateDict(loaded.get("model")));
        opt2.loadStateDict((Map<?, ?>) loaded.get("optimizer"));
        sched2.loadStateDict(castMap(loaded.get("scheduler")));
        for (int i = 0; i < 3; i++) step(m2, opt2, sched2, xy);
        for (var e : ref.stateDict().entrySet())
            assertArrayEquals(
                    e.getValue().toDoubleArray(), m2.stateDict().get(e.getKey()).toDoubleArray(), e.getKey());
        assertEquals(refSched.getLastLr(), sched2.getLastLr());
    }

    private static void step(Module m, AdamW opt, StepLR sched, Tensor[] xy) {
        opt.zeroGrad();
        F.mseLoss(m.call(xy[0]), xy[1]).backward();
        opt.step();
        sched.step();
    }

    @SuppressWarnings("unchecked") // a state dict as saved: String keys, Tensor values
    private static Map<String, Tensor> castStateDict(Object o) {
        return (Map<String, Tensor>) o;
    }

    @SuppressWarnings("unchecked") // a scheduler state dict as saved: String keys
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }
}
