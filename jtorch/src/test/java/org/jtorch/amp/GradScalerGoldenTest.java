package org.jtorch.amp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.Adagrad;
import org.jtorch.optim.Adam;
import org.jtorch.optim.AdamW;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.SGD;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link GradScaler} against {@code torch.amp.GradScaler("cpu")} ({@code make_golden_grad_scaler.py}): the scale after
 * every step (growth, backoff after an inf loss), the skipped step, what {@code unscale_} leaves in the gradients, the
 * parameters, and {@code state_dict()}; with a plain SGD and with each fused optimizer.
 */
class GradScalerGoldenTest {
    private static final String FILE = "grad_scaler.json";

    /** The fixture's inputs: evenly spread values in [lo, hi), as the script's {@code t()}. */
    private static Tensor t(long[] shape, int phase) {
        int n = 1;
        for (long s : shape) n *= (int) s;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = -1.0 + 2.0 * (((i + phase) * 0.618034) % 1.0);
        return org.jtorch.Torch.tensor(v).to(org.jtorch.DType.FLOAT32).view(shape);
    }

    private static Optimizer optimizer(String name, List<Tensor> params) {
        return switch (name) {
            case "sgd" -> new SGD(params, SGD.Options.defaults().lr(0.1).momentum(0.9));
            case "sgd_fused" ->
                new SGD(params, SGD.Options.defaults().lr(0.1).momentum(0.9).fused(true));
            case "adam_fused" ->
                new Adam(params, Adam.Options.defaults().lr(0.01).fused(true));
            case "adamw_fused" ->
                new AdamW(params, AdamW.Options.defaults().lr(0.01).fused(true));
            case "adagrad_fused" ->
                new Adagrad(params, Adagrad.Options.defaults().lr(0.1).fused(true));
            default -> throw new IllegalArgumentException(name);
        };
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> trainingRuns() {
        return Golden.cases(FILE).stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    int steps = ((Number) c.kwargs().get("steps")).intValue();
                    int infStep = ((Number) c.kwargs().get("inf_step")).intValue();
                    int unscaleStep = ((Number) c.kwargs().get("unscale_step")).intValue();
                    Map<String, Object> out = (Map<String, Object>) c.out();
                    List<Object> expected = (List<Object>) out.get("steps");
                    Tensor w = t(new long[] {3, 4}, 1).requiresGrad(true);
                    Tensor b = t(new long[] {3}, 2).requiresGrad(true);
                    Optimizer opt = optimizer(c.id(), List.of(w, b));
                    GradScaler scaler = new GradScaler(GradScaler.Options.defaults()
                            .initScale(16.0)
                            .growthFactor(2.0)
                            .backoffFactor(0.5)
                            .growthInterval(2));
                    for (int step = 0; step < steps; step++) {
                        Map<String, Object> e = (Map<String, Object>) expected.get(step);
                        String id = c.id() + " step " + step;
                        opt.zeroGrad();
                        Tensor x = t(new long[] {5, 4}, 3 + step), y = t(new long[] {5, 3}, 7 + step);
                        Tensor loss = F.mseLoss(F.linear(x, w, b), y);
                        if (step == infStep) loss = loss.mul(Double.POSITIVE_INFINITY);
                        scaler.scale(loss).backward();
                        if (step == unscaleStep) {
                            scaler.unscale_(opt);
                            Golden.assertOutput(
                                    new Golden.Case(id, "", List.of(), Map.of(), e.get("unscaled_grad"), null),
                                    w.grad(),
                                    false);
                        }
                        scaler.step(opt);
                        scaler.update();
                        assertEquals(((Number) e.get("scale")).doubleValue(), scaler.getScale(), id + ": scale");
                        Golden.assertOutput(
                                new Golden.Case(id + " w", "", List.of(), Map.of(), e.get("w"), null), w, false);
                        Golden.assertOutput(
                                new Golden.Case(id + " b", "", List.of(), Map.of(), e.get("b"), null), b, false);
                    }
                    Map<String, Object> sd = (Map<String, Object>) out.get("state_dict");
                    Map<String, Object> got = scaler.stateDict();
                    assertEquals(sd.keySet(), got.keySet());
                    for (String k : sd.keySet()) {
                        assertEquals(((Number) sd.get(k)).doubleValue(), ((Number) got.get(k)).doubleValue(), k);
                    }
                    GradScaler restored = new GradScaler();
                    restored.loadStateDict(got);
                    assertEquals(got, restored.stateDict());
                }));
    }

    @Test
    void misuseIsReportedAsPyTorchDoes() {
        Tensor w = t(new long[] {2}, 0).requiresGrad(true);
        SGD opt = new SGD(List.of(w), SGD.Options.defaults().lr(0.1));
        GradScaler scaler = new GradScaler();
        TorchException before = assertThrows(TorchException.class, () -> scaler.step(opt));
        assertTrue(before.getMessage().contains("did not use scaler.scale"), before.getMessage());
        scaler.scale(w.sum()).backward();
        scaler.unscale_(opt);
        TorchException twice = assertThrows(TorchException.class, () -> scaler.unscale_(opt));
        assertTrue(twice.getMessage().contains("already been called"), twice.getMessage());
        scaler.step(opt);
        TorchException stepped = assertThrows(TorchException.class, () -> scaler.step(opt));
        assertTrue(stepped.getMessage().contains("step() has already been called"), stepped.getMessage());
        assertThrows(
                TorchException.class,
                () -> new GradScaler(GradScaler.Options.defaults().growthFactor(1.0)));
        TorchException empty = assertThrows(TorchException.class, () -> new GradScaler().loadStateDict(Map.of()));
        assertTrue(empty.getMessage().contains("state dict is empty"), empty.getMessage());
    }
}
