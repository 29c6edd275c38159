package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.junit.jupiter.api.Test;

/**
 * {@code _softmax_backward_data} and {@code _log_softmax_backward_data}: values against the formulas written out here
 * row by row in double, the float32 vector path (last dim, contiguous) against the double path, other dims and layouts,
 * and softmax/log_softmax derivatives of first and second order by finite differences through them.
 */
class SoftmaxBackwardDataTest {

    /** Row-wise reference over the last dim of a [rows, n] array. */
    private static double[] reference(boolean log, double[] g, double[] y, int n) {
        double[] r = new double[g.length];
        for (int row = 0; row < g.length / n; row++) {
            double acc = 0;
            for (int j = 0; j < n; j++) acc += log ? g[row * n + j] : g[row * n + j] * y[row * n + j];
            for (int j = 0; j < n; j++) {
                int k = row * n + j;
                r[k] = log ? g[k] - Math.exp(y[k]) * acc : y[k] * (g[k] - acc);
            }
        }
        return r;
    }

    private static double[] values(int count, double scale, double shift) {
        double[] v = new double[count];
        for (int i = 0; i < count; i++) v[i] = scale * Math.sin(1.7 * i + shift);
        return v;
    }

    @Test
    void lastDimFloat64MatchesTheFormulas() {
        int rows = 3, n = 5;
        double[] g = values(rows * n, 1.0, 0.3), x = values(rows * n, 2.0, 1.1);
        Tensor xt = Torch.tensor(x).view(rows, n);
        double[] soft = Torch.softmax(xt, 1).contiguous().toDoubleArray(),
                logSoft = Torch.logSoftmax(xt, 1).contiguous().toDoubleArray();
        Tensor gt = Torch.tensor(g).view(rows, n);
        assertArrayEquals(
                reference(false, g, soft, n),
                ReductionOps.softmaxBackwardData(gt, Torch.tensor(soft).view(rows, n), 1, null)
                        .toDoubleArray(),
                1e-15);
        assertArrayEquals(
                reference(true, g, logSoft, n),
                ReductionOps.logSoftmaxBackwardData(gt, Torch.tensor(logSoft).view(rows, n), -1, null)
                        .toDoubleArray(),
                1e-15);
    }

    @Test
    void float32VectorPathMatchesDoubleAtEveryRowLength() {
        for (int n = 1; n <= 70; n += 3) {
            int rows = 4;
            double[] g = values(rows * n, 1.0, 0.1 * n), y = values(rows * n, 0.5, 0.7);
            for (boolean log : new boolean[] {false, true}) {
                Tensor gf = Torch.tensor(g).view(rows, n).to(DType.FLOAT32),
                        yf = Torch.tensor(y).view(rows, n).to(DType.FLOAT32);
                Tensor out = log
                        ? ReductionOps.logSoftmaxBackwardData(gf, yf, 1, null)
                        : ReductionOps.softmaxBackwardData(gf, yf, 1, null);
                assertEquals(DType.FLOAT32, out.dtype());
                double[] ref = reference(
                        log,
                        gf.to(DType.FLOAT64).toDoubleArray(),
                        yf.to(DType.FLOAT64).toDoubleArray(),
                        n);
                double[] got = out.toDoubleArray();
                for (int i = 0; i < ref.length; i++) {
                    assertEquals(
                            ref[i],
                            got[i],
                            2e-6 * (1 + Math.abs(ref[i])) * Math.sqrt(n),
                            "log=" + log + " n=" + n + " at " + i);
                }
            }
        }
    }

    @Test
    void otherDimsAndLayoutsEqualTheirContiguousLastDimForm() {
        double[] g = values(24, 1.0, 0.2), y = values(24, 0.4, 0.9);
        Tensor gt = Torch.tensor(g).view(2, 3, 4), yt = Torch.tensor(y).view(2, 3, 4);
        for (boolean log : new boolean[] {false, true}) {
            // dim 1 of [2, 3, 4] = last dim of the [2, 4, 3] transpose
            Tensor viaDim = log
                    ? ReductionOps.logSoftmaxBackwardData(gt, yt, 1, null)
                    : ReductionOps.softmaxBackwardData(gt, yt, 1, null);
            Tensor gT = gt.transpose(1, 2).contiguous(), yT = yt.transpose(1, 2).contiguous();
            double[] ref = reference(log, gT.toDoubleArray(), yT.toDoubleArray(), 3);
            assertArrayEquals(ref, viaDim.transpose(1, 2).contiguous().toDoubleArray(), 1e-15);
            // a transposed (non-contiguous) float32 input takes the general path and agrees
            Tensor gf = gt.to(DType.FLOAT32).transpose(0, 2),
                    yf = yt.to(DType.FLOAT32).transpose(0, 2);
            Tensor nc = log
                    ? ReductionOps.logSoftmaxBackwardData(gf, yf, 2, null)
                    : ReductionOps.softmaxBackwardData(gf, yf, 2, null);
            Tensor cc = log
                    ? ReductionOps.logSoftmaxBackwardData(gf.contiguous(), yf.contiguous(), 2, null)
                    : ReductionOps.softmaxBackwardData(gf.contiguous(), yf.contiguous(), 2, null);
            assertArrayEquals(cc.toDoubleArray(), nc.contiguous().toDoubleArray(), 1e-6);
        }
    }

    /** As ATen's meta (PyTorch 2.13 gives float32 here): input_dtype does not set the result's dtype. */
    @Test
    void gradOutputSetsTheResultDtype() {
        Tensor g = Torch.tensor(new double[] {1, 2, 3}).to(DType.FLOAT32),
                y = Torch.tensor(new double[] {0.2, 0.3, 0.5}).to(DType.FLOAT32);
        assertEquals(
                DType.FLOAT32,
                ReductionOps.softmaxBackwardData(g, y, 0, DType.FLOAT64).dtype());
    }

    @Test
    void badInputIsRefusedNamingTheOp() {
        Tensor a = Torch.zeros(2, 3), b = Torch.zeros(3, 2);
        TorchException e = assertThrows(TorchException.class, () -> ReductionOps.softmaxBackwardData(a, b, 1, null));
        assertTrue(
                e.getMessage().contains("_softmax_backward_data")
                        && e.getMessage().contains("same shape"),
                e.getMessage());
        Tensor ints = Torch.zeros(new long[] {2, 3}, DType.INT64);
        e = assertThrows(TorchException.class, () -> ReductionOps.logSoftmaxBackwardData(ints, ints, 1, null));
        assertTrue(
                e.getMessage().contains("\"_log_softmax_backward_data\" not implemented for 'Long'"), e.getMessage());
    }

    @Test
    void softmaxDerivativesOfFirstAndSecondOrderByFiniteDifferences() {
        Tensor x = Torch.tensor(values(12, 1.5, 0.4)).view(3, 4).requiresGrad(true);
        Tensor w = Torch.tensor(values(12, 1.0, 2.0)).view(3, 4);
        assertTrue(Autograd.gradcheck(v -> Torch.softmax(v, 1).mul(w), x));
        assertTrue(Autograd.gradgradcheck(v -> Torch.softmax(v, 0).mul(w), x));
        assertTrue(Autograd.gradcheck(v -> Torch.logSoftmax(v, 1).mul(w), x));
        assertTrue(Autograd.gradgradcheck(v -> Torch.logSoftmax(v, -1).mul(w), x));
    }
}
