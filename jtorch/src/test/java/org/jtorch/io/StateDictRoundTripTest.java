package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.optim.AdamW;
import org.jtorch.optim.OptimizerStateDict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Module and optimizer state dicts round-trip through both checkpoint formats, and training resumed from a checkpoint
 * continues exactly as an uninterrupted run.
 */
class StateDictRoundTripTest {
    @TempDir
    Path dir;

    private static Sequential model(long seed) {
        Torch.manualSeed(seed);
        return new Sequential(new Linear(4, 8), new ReLU(), new Linear(8, 2));
    }

    private static Tensor loss(Sequential m) {
        Tensor x = Torch.sin(Torch.arange(0.0, 12.0, 1.0)).view(3, 4);
        return m.forward(x).square().sum();
    }

    private static void train(Sequential m, AdamW opt, int steps) {
        for (int i = 0; i < steps; i++) {
            opt.zeroGrad();
            loss(m).backward();
            opt.step();
        }
    }

    @Test
    void moduleStateDictThroughPtAndSafetensors() throws Exception {
        Sequential a = model(1), b = model(2), c = model(3);
        Path pt = dir.resolve("m.pt"), st = dir.resolve("m.safetensors");
        Serialization.save(a.stateDict(), pt);
        Safetensors.save(a.stateDict(), st);
        @SuppressWarnings("unchecked")
        Map<String, Tensor> fromPt = (Map<String, Tensor>) Serialization.load(pt);
        b.loadStateDict(fromPt);
        c.loadStateDict(Safetensors.load(st));
        assertEquals(a.stateDict().keySet(), fromPt.keySet());
        for (String k : a.stateDict().keySet()) {
            assertArrayEquals(
                    a.stateDict().get(k).toDoubleArray(), b.stateDict().get(k).toDoubleArray(), 0, k);
            assertArrayEquals(
                    a.stateDict().get(k).toDoubleArray(), c.stateDict().get(k).toDoubleArray(), 0, k);
        }
    }

    @Test
    void resumingFromACheckpointContinuesExactly() throws Exception {
        Sequential straight = model(7);
        AdamW opt1 = new AdamW(straight.parameters(), AdamW.Options.defaults().lr(0.01));
        train(straight, opt1, 6);

        Sequential first = model(7);
        AdamW opt2 = new AdamW(first.parameters(), AdamW.Options.defaults().lr(0.01));
        train(first, opt2, 3);
        Path ckpt = dir.resolve("ckpt.pt");
        Map<String, Object> checkpoint = new LinkedHashMap<>();
        checkpoint.put("model", first.stateDict());
        checkpoint.put("optimizer", opt2.stateDict().toPyTorch());
        Serialization.save(checkpoint, ckpt);
        assertEquals(true, Files.size(ckpt) > 0);

        Map<?, ?> loaded = (Map<?, ?>) Serialization.load(ckpt);
        Sequential resumed = model(99);
        @SuppressWarnings("unchecked")
        Map<String, Tensor> weights = (Map<String, Tensor>) loaded.get("model");
        resumed.loadStateDict(weights);
        AdamW opt3 = new AdamW(resumed.parameters(), AdamW.Options.defaults().lr(0.01));
        opt3.loadStateDict(OptimizerStateDict.fromPyTorch((Map<?, ?>) loaded.get("optimizer")));
        train(resumed, opt3, 3);

        for (String k : straight.stateDict().keySet()) {
            assertArrayEquals(
                    straight.stateDict().get(k).toDoubleArray(),
                    resumed.stateDict().get(k).toDoubleArray(),
                    0,
                    k);
        }
    }
}
