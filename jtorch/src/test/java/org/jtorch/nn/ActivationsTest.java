package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/** ELU, Hardtanh, Mish and LeakyReLU against PyTorch 1.13's values (printed with float64 inputs) and gradcheck. */
class ActivationsTest {
    private static final Tensor X = Torch.tensor(new double[] {-2, -0.5, 0, 0.7, 3});

    @Test
    void valuesMatchPyTorch() {
        assertArrayEquals(
                new double[] {-0.8646647167633873, -0.3934693402873666, 0, 0.7, 3},
                new ELU().call(X).toDoubleArray(),
                1e-15);
        assertArrayEquals(
                new double[] {-0.43233235838169365, -0.1967346701436833, 0, 0.7, 3},
                new ELU(0.5).call(X).toDoubleArray(),
                1e-15);
        assertArrayEquals(
                new double[] {-0.2525014826957089, -0.22074377465173, 0, 0.5611483776438518, 2.9865350049679575},
                new Mish().call(X).toDoubleArray(),
                1e-15);
        assertArrayEquals(
                new double[] {-1, -0.5, 0, 0.7, 2}, new Hardtanh(-1, 2).call(X).toDoubleArray(), 0);
        assertArrayEquals(
                new double[] {-0.02, -0.005, 0, 0.7, 3}, F.leakyRelu(X).toDoubleArray(), 1e-15);
    }

    @Test
    void float32AndNonContiguousInputs() {
        Tensor m = Torch.tensor(new float[][] {{-1, 2}, {0.5f, -3}}).t();
        double[] got = F.elu(m).toDoubleArray();
        double[] want = {Math.expm1(-1), 0.5, 2, Math.expm1(-3)};
        for (int i = 0; i < 4; i++) assertEquals(want[i], got[i], 1e-6);
    }

    @Test
    void gradientsPassGradcheck() {
        Tensor x = Torch.tensor(new double[] {-1.3, -0.2, 0.4, 1.9}).requiresGrad(true);
        Tensor inside = Torch.tensor(new double[] {-0.65, -0.1, 0.2, 0.95}).requiresGrad(true);
        assertTrue(Autograd.gradcheck(t -> F.elu(t, 0.7), x));
        assertTrue(Autograd.gradcheck(F::mish, x));
        assertTrue(Autograd.gradcheck(t -> F.hardtanh(t, -1, 1), inside));
        assertTrue(Autograd.gradcheck(t -> F.leakyRelu(t, 0.2), x));
    }

    @Test
    void printsLikePyTorch() {
        assertEquals("ELU(alpha=1.0)", new ELU().toString());
        assertEquals("Hardtanh(min_val=-2.0, max_val=3.0)", new Hardtanh(-2, 3).toString());
        assertEquals("Mish()", new Mish().toString());
    }

    @Test
    void hardtanhNeedsAnIncreasingRange() {
        var e = assertThrows(IllegalArgumentException.class, () -> new Hardtanh(1, -1));
        assertTrue(e.getMessage().contains("max_val"));
    }
}
