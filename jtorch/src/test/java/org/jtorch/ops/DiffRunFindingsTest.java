package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.linalg.Linalg;
import org.junit.jupiter.api.Test;

/** Divergences from PyTorch 2.13 that the differential run found and JTorch fixed, each against PyTorch's values. */
class DiffRunFindingsTest {
    /**
     * acosh below 1 is NaN, also for large negative x, where x + sqrt(x² - 1) cancelled to 0 and gave -inf; large x no
     * longer overflows x²; near 1 the log1p form keeps the digits. Expected values: PyTorch 2.13,
     * {@code torch.acosh(torch.tensor([...], dtype=torch.float64))}.
     */
    @Test
    void acoshMatchesPyTorchFromEdgeToEdge() {
        double[] x = {-1e30, Double.NEGATIVE_INFINITY, -2.0, 0.5, 1.0, 1.0 + 0x1p-40, 1.5, 3.0, 1e10, 1e200};
        double[] expected = {
            Double.NaN,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            0.0,
            1.3486991523485068e-06,
            0.9624236501192069,
            1.762747174039086,
            23.7189981105004,
            461.2101657793691
        };
        double[] got = Torch.acosh(Torch.tensor(x, DType.FLOAT64, x.length)).toDoubleArray();
        for (int i = 0; i < x.length; i++) {
            double tol = Math.abs(expected[i]) * 1e-15;
            if (Double.isNaN(expected[i])) assertEquals(Double.NaN, got[i], "acosh(" + x[i] + ")");
            else assertEquals(expected[i], got[i], tol, "acosh(" + x[i] + ")");
        }
        assertEquals(
                Double.POSITIVE_INFINITY,
                Torch.acosh(Torch.scalarTensor(Double.POSITIVE_INFINITY, DType.FLOAT64))
                        .item());
    }

    /** linalg.vecdot refuses integer and bool inputs as ATen's checkFloatingOrComplex does (PyTorch 2.13's message). */
    @Test
    void vecdotRefusesIntegerInputs() {
        Tensor i = Torch.tensor(new double[] {1, 2}, DType.INT64, 2);
        TorchException e = assertThrows(TorchException.class, () -> Linalg.vecdot(i, i));
        assertEquals("linalg.vecdot: Expected a floating point or complex tensor as input. Got Long", e.getMessage());
        Tensor b = Torch.tensor(new double[] {1}, DType.BOOL, 1);
        e = assertThrows(TorchException.class, () -> Linalg.vecdot(b, b));
        assertEquals("linalg.vecdot: Expected a floating point or complex tensor as input. Got Bool", e.getMessage());
    }

    /**
     * The softmax backward ops return grad_output's dtype whatever input_dtype says (ATen's meta; only a float32 grad
     * of a float16 input becomes float16). Expected: PyTorch 2.13, {@code torch.ops.aten._log_softmax_backward_data}
     * and {@code _softmax_backward_data} on the same tensors.
     */
    @Test
    void softmaxBackwardDataKeepsGradOutputsDtype() {
        Tensor g = Torch.tensor(new double[] {0.5, -1.0, 2.0}, DType.BFLOAT16, 1, 3);
        Tensor logY = Torch.tensor(new double[] {-1.25, -0.5, -2.0}, DType.BFLOAT16, 1, 3);
        Tensor r = ReductionOps.logSoftmaxBackwardData(g, logY, 1, DType.FLOAT64);
        assertEquals(DType.BFLOAT16, r.dtype());
        assertArrayEquals(new double[] {0.0703125, -1.90625, 1.796875}, r.toDoubleArray());

        Tensor g32 = Torch.tensor(new double[] {0.5, -1.0, 2.0}, DType.FLOAT32, 1, 3);
        Tensor y = Torch.tensor(new double[] {0.25, 0.5, 0.25}, DType.FLOAT32, 1, 3);
        Tensor s = ReductionOps.softmaxBackwardData(g32, y, 1, DType.FLOAT64);
        assertEquals(DType.FLOAT32, s.dtype());
        assertArrayEquals(new double[] {0.09375, -0.5625, 0.46875}, s.toDoubleArray());
    }
}
