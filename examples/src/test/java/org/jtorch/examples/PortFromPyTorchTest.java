package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** JTorch reproduces the logits PyTorch 1.13 computed for the committed fixture (make_port_fixture.py). */
class PortFromPyTorchTest {
    @Test
    void portedModelReproducesPyTorchsLogits() {
        PortFromPyTorch.Comparison c = PortFromPyTorch.run();
        assertTrue(
                c.keys().missingKeys().isEmpty() && c.keys().unexpectedKeys().isEmpty(),
                c.keys().toString());
        assertArrayEquals(new long[] {2, 16, 72}, c.jtorch().shape());
        double[] got = c.jtorch().toDoubleArray(), want = c.pytorch().toDoubleArray();
        assertEquals(want.length, got.length);
        for (int i = 0; i < want.length; i++)
            assertEquals(want[i], got[i], 2e-5 + 1e-5 * Math.abs(want[i]), "logit " + i);
        assertTrue(c.maxAbsDiff() < 1e-4);
    }
}
