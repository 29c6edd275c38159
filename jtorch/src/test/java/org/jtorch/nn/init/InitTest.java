package org.jtorch.nn.init;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/** Statistics of the initialisers against their closed-form bounds, means and standard deviations. */
class InitTest {
    /** A leaf that requires grad, as parameters are: the initialisers must work on it without autograd errors. */
    static Tensor param(long... shape) {
        return Torch.empty(shape, DType.FLOAT64, org.jtorch.Device.CPU).requiresGrad(true);
    }

    static void assertStats(Tensor t, double mean, double std, double tol) {
        assertEquals(mean, t.mean().item(), tol, "mean");
        assertEquals(std, t.std().item(), tol * Math.max(1, std), "std");
    }

    @Test
    void calculateGain() {
        assertEquals(1.0, Init.calculateGain("linear"));
        assertEquals(1.0, Init.calculateGain("sigmoid"));
        assertEquals(5.0 / 3, Init.calculateGain("tanh"));
        assertEquals(Math.sqrt(2), Init.calculateGain("relu"));
        assertEquals(Math.sqrt(2 / (1 + 0.01 * 0.01)), Init.calculateGain("leaky_relu"));
        assertEquals(Math.sqrt(2 / 1.25), Init.calculateGain("leaky_relu", 0.5));
        assertEquals(0.75, Init.calculateGain("selu"));
        assertEquals(
                "Unsupported nonlinearity swish",
                assertThrows(IllegalArgumentException.class, () -> Init.calculateGain("swish"))
                        .getMessage());
    }

    @Test
    void uniformAndNormal() {
        Tensor u = param(200, 100);
        assertSame(u, Init.uniform_(u, -2, 4));
        assertTrue(u.min().item() >= -2 && u.max().item() < 4);
        assertStats(u, 1.0, 6 / Math.sqrt(12), 0.05);
        assertTrue(u.isLeaf() && u.requiresGrad());
        Tensor n = Init.normal_(param(200, 100), 3, 0.5);
        assertStats(n, 3, 0.5, 0.02);
    }

    @Test
    void truncNormalStaysInsideItsBounds() {
        Tensor t = Init.truncNormal_(param(200, 100), 1, 2, -1, 2, null);
        assertTrue(t.min().item() >= -1 && t.max().item() <= 2);
        Tensor s = Init.truncNormal_(param(300, 100));
        assertTrue(s.min().item() >= -2 && s.max().item() <= 2);
        // the standard normal truncated to ±2: mean 0, variance 1 - 4φ(2)/(Φ(2)-Φ(-2)) ≈ 0.7737
        assertStats(s, 0, Math.sqrt(0.77374), 0.02);
    }

    @Test
    void constants() {
        assertArrayEquals(
                new double[] {0.25, 0.25}, Init.constant_(param(2), 0.25).toDoubleArray());
        assertArrayEquals(new double[] {0, 0}, Init.zeros_(param(2)).toDoubleArray());
        assertArrayEquals(new double[] {1, 1}, Init.ones_(param(2)).toDoubleArray());
    }

    @Test
    void xavierUsesFanInPlusFanOut() {
        // weight (out=200, in=100, receptive 3): fan_in = 300, fan_out = 600
        Tensor w = Init.xavierUniform_(param(200, 100, 3), 2.0, null);
        double a = 2.0 * Math.sqrt(6.0 / 900);
        assertTrue(w.abs().max().item() <= a && w.abs().max().item() > 0.95 * a);
        assertStats(w, 0, a / Math.sqrt(3), 0.01);
        assertStats(Init.xavierNormal_(param(200, 100, 3)), 0, Math.sqrt(2.0 / 900), 0.01);
    }

    @Test
    void kaimingBoundsAndStd() {
        Tensor w = Init.kaimingUniform_(param(300, 100), 0, "fan_in", "relu", null);
        double bound = Math.sqrt(2) * Math.sqrt(3.0 / 100);
        assertTrue(w.abs().max().item() <= bound && w.abs().max().item() > 0.95 * bound);
        Tensor fanOut = Init.kaimingUniform_(param(50, 200), 0, "fan_out", "relu", null);
        assertTrue(fanOut.abs().max().item() <= Math.sqrt(2) * Math.sqrt(3.0 / 50));
        assertStats(Init.kaimingNormal_(param(300, 100)), 0, Math.sqrt(2 / (1 + 1e-4)) / 10, 0.01);
        assertEquals(
                "Mode fan_avg not supported, please use one of fan_in, fan_out",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Init.kaimingNormal_(param(2, 2), 0, "fan_avg", "relu", null))
                        .getMessage());
        assertEquals(0, Init.kaimingUniform_(param(0, 3)).numel());
    }

    @Test
    void fansNeedTwoDims() {
        assertEquals(new Init.Fans(12, 8), Init.fans(param(2, 3, 4)));
        assertEquals(
                "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
                assertThrows(IllegalArgumentException.class, () -> Init.xavierUniform_(param(5)))
                        .getMessage());
    }

    @Test
    void generatorMakesFillsReproducible() {
        Tensor a = Init.normal_(param(10), 0, 1, new Generator().manualSeed(3));
        Tensor b = Init.normal_(param(10), 0, 1, new Generator().manualSeed(3));
        assertArrayEquals(a.toDoubleArray(), b.toDoubleArray());
    }

    @Test
    void orthogonalMatchesPyTorch() {
        // torch 1.13: torch.manual_seed(0); w = torch.empty(3, 5); torch.nn.init.orthogonal_(w, gain=2.0)
        double[] wide = {
            1.0444614887237549,
            -0.19888120889663696,
            -1.4767470359802246,
            0.3852732181549072,
            -0.7350711822509766,
            -1.0729589462280273,
            0.4211248755455017,
            -0.2857884466648102,
            -0.7175371050834656,
            -1.4404438734054565,
            -0.8818328976631165,
            0.13252122700214386,
            -0.09131024032831192,
            1.7795056104660034,
            -0.17271576821804047
        };
        Torch.manualSeed(0);
        Tensor w = Torch.empty(new long[] {3, 5}, DType.FLOAT32, org.jtorch.Device.CPU)
                .requiresGrad(true);
        assertSame(w, Init.orthogonal_(w, 2.0));
        assertArrayEquals(wide, w.toDoubleArray(), 1e-5);
        assertTrue(w.isLeaf() && w.requiresGrad());
        // torch.manual_seed(1); w = torch.empty(4, 2, 1, dtype=torch.float64); torch.nn.init.orthogonal_(w)
        double[] tall = {
            0.38412853363462873,
            0.427807360351835,
            0.03582356841598891,
            0.808634759150937,
            -0.26247736535019867,
            -0.2713648712101874,
            -0.8844589161020839,
            0.29908493006966996
        };
        Torch.manualSeed(1);
        Tensor t = Init.orthogonal_(param(4, 2, 1));
        assertArrayEquals(tall, t.toDoubleArray(), 1e-12);
        // the columns of the flattened tall result are orthonormal
        Tensor flat = t.detach().reshape(4, 2);
        assertArrayEquals(new double[] {1, 0, 0, 1}, flat.mT().matmul(flat).toDoubleArray(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> Init.orthogonal_(param(3)));
        assertEquals(0, Init.orthogonal_(param(0, 3)).numel());
    }
}
