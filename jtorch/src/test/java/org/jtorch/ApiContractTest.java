package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ShortBuffer;
import org.junit.jupiter.api.Test;

/**
 * The exact signatures of API.md that the tensor core provides, called as a user would; each call is also checked
 * against a hand-computed value, so the test fails on wrong behaviour, not only on a missing method.
 */
class ApiContractTest {
    @Test
    void torchFactories() {
        assertEquals(DType.FLOAT32, Torch.tensor(new float[] {1}).dtype());
        assertEquals(DType.FLOAT64, Torch.tensor(new double[] {1}).dtype());
        assertArrayEquals(
                new long[] {1, 2}, Torch.tensor(new float[][] {{1, 2}}).shape());
        assertArrayEquals(
                new long[] {2, 1}, Torch.tensor(new double[][] {{1}, {2}}).shape());
        assertEquals(DType.INT64, Torch.tensor(new long[] {1}).dtype());
        assertEquals(DType.INT64, Torch.tensor(new int[] {1}).dtype());
        assertEquals(DType.BOOL, Torch.tensor(new boolean[] {true}).dtype());
        assertArrayEquals(
                new double[] {0, 0.5, 1},
                Torch.arange(0, 1.5, 0.5, DType.FLOAT64).toDoubleArray(),
                0);
        assertArrayEquals(
                new double[] {0, 0.5, 1}, Torch.linspace(0, 1, 3, DType.FLOAT32).toDoubleArray(), 0);
        assertEquals(
                DType.INT16, Torch.asarray(ShortBuffer.wrap(new short[] {3})).dtype());
        assertArrayEquals(new long[] {2, 3}, Torch.zeros(2, 3).shape());
        assertEquals(6.0, Torch.ones(2, 3).sum().item());
    }

    @Test
    void torchOps() {
        Tensor x = Torch.tensor(new double[] {-2, 0.5, 3});
        assertArrayEquals(new double[] {-1, 0.5, 1}, Torch.clamp(x, -1.0, 1.0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {-2, 0.5, 2}, Torch.clamp(x, null, 2.0).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0, 0.5, 3}, Torch.clampMin(x, 0.0).toDoubleArray(), 0);
        assertArrayEquals(
                new double[] {1, 1, 3}, Torch.clampMin(x, Torch.ones(3)).toDoubleArray(), 0);
        Tensor y = Torch.tensor(new double[] {Double.NaN, 1, 1});
        assertArrayEquals(
                new double[] {1, 1, 3},
                Torch.maximum(x, Torch.ones(3).to(DType.FLOAT64)).toDoubleArray(),
                0);
        assertArrayEquals(new double[] {-2, 0.5, 1}, Torch.fmin(x, y).toDoubleArray(), 0);
        assertArrayEquals(new double[] {-2, 1, 3}, Torch.fmax(x, y).toDoubleArray(), 0);
    }

    @Test
    void tensorMethods() {
        Tensor a = Torch.tensor(new float[][] {{1, 2}, {3, 4}});
        assertArrayEquals(new long[] {2, 2}, a.shape());
        assertEquals(DType.FLOAT32, a.dtype());
        assertEquals(Device.CPU, a.device());
        assertEquals(4, a.numel());
        assertArrayEquals(new long[] {1, 2, 3, 4}, a.toLongArray());
        assertSame(a, a.requiresGrad(true));
        assertTrue(a.requiresGrad());
        assertEquals(null, a.grad());
        assertArrayEquals(new double[] {2, 4, 6, 8}, a.add(a).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0, 0, 0, 0}, a.sub(a).toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 4, 9, 16}, a.mul(a).toDoubleArray(), 0);
        assertArrayEquals(new double[] {0.5, 1, 1.5, 2}, a.mul(0.5).toDoubleArray(), 0);
        assertArrayEquals(new double[] {7, 10, 15, 22}, a.matmul(a).toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 3, 2, 4}, a.t().contiguous().toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 3, 2, 4}, a.mT().contiguous().toDoubleArray(), 0);
        assertEquals(10.0, a.sum().item());
        assertEquals(2.5, a.mean().item());
        assertArrayEquals(new double[] {1, 4, 9, 16}, a.square().toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 2, 3, 4}, a.neg().abs().toDoubleArray(), 0);
        assertArrayEquals(new long[] {4}, a.view(4).shape());
        assertEquals(DType.FLOAT16, a.to(DType.FLOAT16).dtype());
        assertSame(a.untypedStorage(), a.view(4).untypedStorage());
        Tensor c = Torch.complex(Torch.tensor(new float[] {1}), Torch.tensor(new float[] {2}));
        assertArrayEquals(new double[] {1, -2}, c.view(1, 1).mH().contiguous().toDoubleArray(), 0);
    }

    @Test
    void dtypesDevicesAndWarnings() {
        for (String name : new String[] {
            "BOOL",
            "UINT8",
            "UINT16",
            "UINT32",
            "UINT64",
            "INT8",
            "INT16",
            "INT32",
            "INT64",
            "FLOAT16",
            "BFLOAT16",
            "FLOAT32",
            "FLOAT64",
            "BCOMPLEX32",
            "COMPLEX64",
            "COMPLEX128",
            "FLOAT8_E4M3FN",
            "FLOAT8_E5M2"
        }) {
            assertEquals(name, DType.valueOf(name).name());
        }
        assertEquals("meta", Device.META.type());
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            Warnings.warn(Warnings.Category.USER_WARNING, "hello");
            assertEquals(1, rec.records().size());
            assertEquals(Warnings.Category.USER_WARNING, rec.records().get(0).category());
            assertEquals("hello", rec.records().get(0).message());
        }
    }
}
