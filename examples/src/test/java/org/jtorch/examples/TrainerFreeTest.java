package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The trainer-free example at a tiny size: it learns, and the averaged model averages the last epochs and works. */
class TrainerFreeTest {
    @Test
    void theLoopLearnsAndTheAverageOfItsLastEpochsPredictsAsWell() {
        TrainerFree.Result r = TrainerFree.run(8, 256);
        assertEquals(2, r.averaged(), "SWA over the last quarter of 8 epochs");
        assertTrue(r.lastLoss() < 0.7 * r.firstLoss(), r.toString());
        assertTrue(r.swaLoss() < 0.7 * r.firstLoss(), r.toString());
    }
}
