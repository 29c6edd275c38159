package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A 10,000-iteration loop of tensor arithmetic runs in flat memory: temporaries are garbage as soon as the next
 * iteration starts, so the live heap after a full GC does not grow with the iteration count. (A memory check, not a
 * timing one.)
 */
class FlatMemoryTest {
    private static long liveHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) { // take the minimum of a few collections: System.gc() is a hint
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    @Test
    void tenThousandStepsDoNotAccumulate() {
        Tensor w = Torch.zeros(256, 64);
        Tensor x = Torch.ones(64, 32).mul(0.01);
        long afterWarmup = 0;
        for (int step = 0; step < 10_000; step++) {
            Tensor h = w.matmul(x).relu().sum(1L); // allocating forward-like work
            w = w.sub(w.mul(0.001)).add(h.mean().mul(1e-6)); // an update that replaces w
            if (step == 1_000) afterWarmup = liveHeapAfterGc();
        }
        long atEnd = liveHeapAfterGc();
        long growth = atEnd - afterWarmup;
        assertTrue(growth < 8L << 20, "live heap grew by " + (growth >> 10) + " KiB over 9,000 steps");
        assertTrue(Double.isFinite(w.sum().item()));
    }
}
