package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/** The denoising U-Net at a tiny size: its shapes round-trip, it learns, and it beats the noisy input. */
class DenoisingUNetTest {
    @Test
    void theUNetKeepsTheImageSize() {
        Torch.manualSeed(0);
        var out = new DenoisingUNet.UNet().call(Torch.randn(2, 1, 16, 16));
        assertArrayEquals(new long[] {2, 1, 16, 16}, out.shape());
    }

    @Test
    void itLearnsToRemoveNoise() {
        DenoisingUNet.Result r = DenoisingUNet.run(6, 128, 16);
        assertTrue(r.lastLoss() < 0.7 * r.firstLoss(), r.toString());
        assertTrue(r.lastLoss() < r.noisyLoss(), "denoised images are closer to the clean ones: " + r);
    }
}
