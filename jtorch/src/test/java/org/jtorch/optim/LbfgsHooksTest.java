package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.optim.lr.StepLR;
import org.junit.jupiter.api.Test;

/** LBFGS overrides step(closure), so it must run the step hooks itself (schedulers learn about steps through them). */
class LbfgsHooksTest {
    @Test
    void stepRunsPreAndPostHooksInOrder() throws Exception {
        Tensor p = Torch.tensor(new double[] {1.5, -0.5}).requiresGrad(true);
        LBFGS opt = new LBFGS(List.of(p), LBFGS.Options.defaults());
        List<String> events = new ArrayList<>();
        try (AutoCloseable _ = opt.registerStepPreHook(o -> events.add("pre"));
                AutoCloseable _ = opt.registerStepPostHook(o -> events.add("post"))) {
            opt.step(() -> {
                opt.zeroGrad();
                Tensor loss = p.square().sum();
                loss.backward();
                events.add("closure");
                return loss;
            });
        }
        assertEquals("pre", events.get(0));
        assertEquals("post", events.get(events.size() - 1));
        assertEquals(List.of("pre", "closure"), events.subList(0, 2));
    }

    @Test
    void schedulerAfterLbfgsStepDoesNotWarnAboutCallOrder() {
        Tensor p = Torch.tensor(new double[] {1.5}).requiresGrad(true);
        LBFGS opt = new LBFGS(List.of(p), LBFGS.Options.defaults().lr(0.5));
        StepLR sched = new StepLR(opt, 1, 0.5);
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            opt.step(() -> {
                opt.zeroGrad();
                Tensor loss = p.square().sum();
                loss.backward();
                return loss;
            });
            sched.step();
            assertEquals(
                    0,
                    rec.records().stream()
                            .filter(w -> w.message().contains("before `optimizer.step()`"))
                            .count());
        }
        assertEquals(0.25, sched.getLastLr().get(0), 1e-15);
    }
}
