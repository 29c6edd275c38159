package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.RoundingMode;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.Test;

/** Kernel paths (SIMD, array, strided, parallel) against scalar references computed in the test. */
class PointwiseKernelTest {
    private static double[] ramp(int n, double scale) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) d[i] = Math.sin(i * 0.37) * scale;
        return d;
    }

    @Test
    void largeSimdAndParallelPathsMatchScalarReference() {
        int n = 300_001; // above the grain, with a ragged vector tail
        double[] x = ramp(n, 3), y = ramp(n, -2);
        Tensor a = Torch.tensor(x).to(DType.FLOAT32), b = Torch.tensor(y).to(DType.FLOAT32);
        double[] sum = a.add(b).toDoubleArray(),
                ex = a.exp().toDoubleArray(),
                relu = a.relu().toDoubleArray();
        for (int i = 0; i < n; i++) {
            float fx = (float) x[i], fy = (float) y[i];
            assertEquals(fx + fy, sum[i], 0, "add at " + i);
            assertEquals(Math.exp(fx), ex[i], 2e-7 * Math.exp(fx), "exp at " + i);
            assertEquals(Math.max(fx, 0f), relu[i], 0, "relu at " + i);
        }
    }

    @Test
    void resultsDoNotDependOnThreadCount() {
        Tensor a = Torch.tensor(ramp(200_000, 5)).to(DType.FLOAT32);
        int before = Parallel.numThreads();
        try {
            Parallel.setNumThreads(1);
            double[] one = a.exp().mul(a).toDoubleArray();
            Parallel.setNumThreads(2);
            assertArrayEquals(one, a.exp().mul(a).toDoubleArray(), 0);
        } finally {
            Parallel.setNumThreads(before);
        }
    }

    @Test
    void broadcastingAndNonContiguousStridedPath() {
        Tensor col = Torch.tensor(new double[] {1, 2, 3}, DType.FLOAT64, 3, 1);
        Tensor row = Torch.tensor(new double[] {10, 20, 30, 40}, DType.FLOAT64, 1, 4);
        assertArrayEquals(
                new double[] {11, 21, 31, 41, 12, 22, 32, 42, 13, 23, 33, 43},
                col.add(row).toDoubleArray(),
                0);
        // a transposed view: element (i, j) of t is element (j, i) of the base
        Tensor base = Torch.tensor(new double[] {1, 2, 3, 4, 5, 6}, DType.FLOAT32, 2, 3);
        Tensor t = Views.of(base, 0, new long[] {3, 2}, new long[] {1, 3});
        assertArrayEquals(new double[] {1, 4, 2, 5, 3, 6}, t.mul(1L).toDoubleArray(), 0);
        assertArrayEquals(new double[] {2, 8, 4, 10, 6, 12}, t.add(t).toDoubleArray(), 0);
    }

    @Test
    void scalarOperandsAreWeak() {
        Tensor i8 = Torch.tensor(new double[] {100, -100}, DType.INT8);
        Tensor r = i8.add(100L);
        assertEquals(DType.INT8, r.dtype());
        assertArrayEquals(new long[] {-56, 0}, r.toLongArray()); // wraps like int8 arithmetic
        assertEquals(DType.FLOAT32, i8.add(0.5).dtype());
        assertEquals(
                DType.FLOAT16,
                Torch.tensor(new double[] {1}, DType.FLOAT16).mul(3.0).dtype());
    }

    /** The table of spec/creation-and-dtypes.md §8. */
    @Test
    void integerDivisionAndRemainder() {
        Tensor a = Torch.tensor(new long[] {7, -7, 7, -7});
        Tensor b = Torch.tensor(new long[] {2, 2, -2, -2});
        assertArrayEquals(
                new long[] {3, -3, -3, 3}, a.div(b, RoundingMode.TRUNC).toLongArray());
        assertArrayEquals(
                new long[] {3, -4, -4, 3}, a.div(b, RoundingMode.FLOOR).toLongArray());
        assertArrayEquals(new long[] {1, 1, -1, -1}, a.remainder(b).toLongArray());
        assertArrayEquals(new long[] {1, -1, 1, -1}, a.fmod(b).toLongArray());
        Tensor q = a.div(b);
        assertEquals(DType.FLOAT32, q.dtype());
        assertArrayEquals(new double[] {3.5, -3.5, -3.5, 3.5}, q.toDoubleArray(), 0);
        TorchException z = assertThrows(
                TorchException.class, () -> a.div(Torch.zeros(new long[] {4}, DType.INT64), RoundingMode.FLOOR));
        assertTrue(z.getMessage().contains("ZeroDivisionError"));
        Tensor f = Torch.tensor(new double[] {7, -7, 7, -7});
        Tensor g = Torch.tensor(new double[] {2, 2, -2, -2});
        assertArrayEquals(
                new double[] {3, -4, -4, 3}, f.div(g, RoundingMode.FLOOR).toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 1, -1, -1}, f.remainder(g).toDoubleArray(), 0);
        assertTrue(Double.isNaN(
                Torch.remainder(Torch.tensor(new double[] {1}), 0.0).item()));
    }

    @Test
    void unsignedComparisonsAndBoolOps() {
        Tensor u = Torch.tensor(new double[] {1, 4e9}, DType.UINT32);
        assertArrayEquals(new long[] {1, 4_000_000_000L}, u.toLongArray());
        assertArrayEquals(new boolean[] {false, true}, u.gt(2L).toBooleanArray());
        Tensor bools = Torch.tensor(new boolean[] {true, false});
        assertArrayEquals(new boolean[] {false, true}, Torch.bitwiseNot(bools).toBooleanArray());
        assertThrows(TorchException.class, () -> Torch.bitwiseAnd(Torch.ones(2), Torch.ones(2)));
    }

    @Test
    void nanSemanticsOfMaximumAndFmax() {
        Tensor a = Torch.tensor(new double[] {Double.NaN, 1, 5});
        Tensor b = Torch.tensor(new double[] {2, Double.NaN, 3});
        double[] mx = Torch.maximum(a, b).toDoubleArray();
        assertTrue(Double.isNaN(mx[0]) && Double.isNaN(mx[1]));
        assertEquals(5, mx[2]);
        assertArrayEquals(new double[] {2, 1, 5}, Torch.fmax(a, b).toDoubleArray(), 0);
        assertArrayEquals(new double[] {2, 1, 3}, Torch.fmin(a, b).toDoubleArray(), 0);
        assertThrows(
                org.jtorch.TorchTypeException.class,
                () -> Torch.maximum(
                        Torch.zeros(new long[] {1}, DType.COMPLEX64), Torch.zeros(new long[] {1}, DType.COMPLEX64)));
    }

    @Test
    void outVariantsWriteInPlaceAndBumpVersion() {
        Tensor a = Torch.ones(4), b = Torch.ones(4), out = Torch.zeros(4);
        int v = out.version();
        assertEquals(out, Torch.addOut(out, a, b));
        assertArrayEquals(new double[] {2, 2, 2, 2}, out.toDoubleArray(), 0);
        assertTrue(out.version() > v);
        TorchException e = assertThrows(TorchException.class, () -> Torch.addOut(Torch.zeros(3), a, b));
        assertTrue(e.getMessage().contains("doesn't match the broadcast shape"));
    }
}
