package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * {@code threshold_backward} as one op (relu's backward): values against the definition {@code self <= threshold ? 0 :
 * grad} written out here, NaN in self passing the gradient as ATen's kernel does, the float32 vector kernel (threshold
 * 0) against the scalar path at every length around the vector width, relu's gradient through it, and its own
 * derivatives by finite differences.
 */
class ThresholdBackwardTest {
    private static final double[] SELF = {-2.0, -0.0, 0.0, 1e-30, 0.25, 0.5, 3.0, Double.NaN};
    private static final double[] GRAD = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0};

    private static double[] reference(double[] g, double[] x, double threshold) {
        double[] r = new double[g.length];
        for (int i = 0; i < r.length; i++) r[i] = x[i] <= threshold ? 0 : g[i];
        return r;
    }

    @Test
    void valuesFollowTheDefinition() {
        for (double threshold : new double[] {0.0, 0.25, -1.0}) {
            Tensor out = PointwiseOps.thresholdBackward(Torch.tensor(GRAD), Torch.tensor(SELF), threshold);
            assertArrayEquals(reference(GRAD, SELF, threshold), out.toDoubleArray(), 0.0, "threshold " + threshold);
        }
        // NaN <= 0 is false: the gradient passes, as in ATen (relu(NaN) = NaN keeps its gradient path)
        assertEquals(
                8.0,
                PointwiseOps.thresholdBackward(Torch.tensor(GRAD), Torch.tensor(SELF), 0L)
                        .toDoubleArray()[7]);
    }

    @Test
    void floatVectorKernelMatchesScalarDefinitionAtEveryTailLength() {
        for (int n = 1; n <= 70; n++) {
            double[] g = new double[n], x = new double[n];
            for (int i = 0; i < n; i++) {
                g[i] = i + 1;
                x[i] = i % 3 == 0 ? -i : (i % 5 == 0 ? Double.NaN : i * 0.5 - 3);
            }
            Tensor out = PointwiseOps.thresholdBackward(
                    Torch.tensor(g).to(DType.FLOAT32), Torch.tensor(x).to(DType.FLOAT32), 0L);
            assertEquals(DType.FLOAT32, out.dtype());
            assertArrayEquals(reference(g, x, 0), out.toDoubleArray(), 0.0, "n = " + n);
        }
    }

    @Test
    void nonContiguousOperands() {
        Tensor g = Torch.arange(1.0, 13.0, 1.0).view(3, 4).t();
        Tensor x = Torch.arange(-6.0, 6.0, 1.0).view(3, 4).t();
        Tensor out = PointwiseOps.thresholdBackward(g, x, 0L);
        assertArrayEquals(
                reference(g.contiguous().toDoubleArray(), x.contiguous().toDoubleArray(), 0),
                out.contiguous().toDoubleArray(),
                0.0);
    }

    @Test
    void reluGradientIsThresholdBackwardOfTheOutput() {
        Tensor x = Torch.tensor(new double[] {-1.5, -0.0, 0.0, 0.5, 2.0}).requiresGrad(true);
        Tensor dx = Autograd.grad(
                Torch.relu(x).mul(Torch.tensor(GRAD).narrow(0, 0, 5)).sum(), x, false);
        assertArrayEquals(new double[] {0, 0, 0, 4, 5}, dx.toDoubleArray(), 0.0);
    }

    @Test
    void ownDerivativesByFiniteDifferences() {
        Tensor x = Torch.tensor(new double[] {-1.3, -0.4, 0.6, 0.2, 1.7, 2.9});
        assertTrue(Autograd.gradcheck(
                g -> PointwiseOps.thresholdBackward(g, x, 0.5),
                Torch.tensor(GRAD).narrow(0, 0, 6).requiresGrad(true)));
        assertTrue(Autograd.gradgradcheck(
                v -> Torch.relu(v).mul(v),
                Torch.tensor(new double[] {-1.3, -0.4, 0.6, 0.2, 1.7}).requiresGrad(true)));
    }
}
