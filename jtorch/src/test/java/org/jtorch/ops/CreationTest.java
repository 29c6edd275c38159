package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.IntBuffer;
import java.nio.ShortBuffer;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Creation ops against the examples of spec/creation-and-dtypes.md §1–3 (PyTorch 2.15 contract). */
class CreationTest {
    @Test
    void arangeLengthRule() {
        Tensor a = Torch.arange(0L, 10L, 3L);
        assertEquals(DType.INT64, a.dtype());
        assertArrayEquals(new long[] {0, 3, 6, 9}, a.toLongArray());
        assertArrayEquals(new long[] {10, 7, 4, 1}, Torch.arange(10L, 0L, -3L).toLongArray());
        Tensor f = Torch.arange(0.0, 1.0, 0.1);
        assertEquals(DType.FLOAT32, f.dtype());
        assertEquals(10, f.numel());
        assertEquals((float) (0.1 * 7), (float) f.toDoubleArray()[7]);
    }

    /** 2.14 fix: fractional arguments with dtype=int64 size with the double rule (2.13 gave [0]). */
    @Test
    void arangeFractionalInt64() {
        assertArrayEquals(
                new long[] {0, 1}, Torch.arange(0.0, 1.5, 1.0, DType.INT64).toLongArray());
        assertArrayEquals(
                new long[] {0, 1}, Torch.arange(0.0, 1.5, 1.0, DType.INT32).toLongArray());
    }

    @Test
    void arangeErrors() {
        TorchException zero = assertThrows(TorchException.class, () -> Torch.arange(0L, 5L, 0L));
        assertTrue(zero.getMessage().contains("step must be nonzero"));
        TorchException sign = assertThrows(TorchException.class, () -> Torch.arange(5L, 0L, 1L));
        assertTrue(sign.getMessage().contains("upper bound and lower bound inconsistent with step sign"));
    }

    @Test
    void linspaceTwoEnded() {
        assertArrayEquals(
                new double[] {0, 0.25, 0.5, 0.75, 1}, Torch.linspace(0, 1, 5).toDoubleArray(), 0);
        assertArrayEquals(
                new long[] {-2, -1, -1, 0, 0, 0, 0, 1, 1, 2},
                Torch.linspace(-2, 2, 10, DType.INT64).toLongArray());
        assertEquals(0, Torch.linspace(0, 1, 0).numel());
        assertArrayEquals(new double[] {3}, Torch.linspace(3, 7, 1).toDoubleArray(), 0);
    }

    /** 2.15 fix: float16/bfloat16 linspace steps in float (1.13 and 2.14 gave 0.6669921875 at index 4). */
    @Test
    void linspaceHalfStepsInFloat() {
        assertArrayEquals(
                new double[] {0, 0.1666259765625, 0.333251953125, 0.5, 0.66650390625, 0.83349609375, 1},
                Torch.linspace(0, 1, 7, DType.FLOAT16).toDoubleArray(),
                0);
        assertArrayEquals(
                new double[] {
                    -2,
                    -1.5556640625,
                    -1.111328125,
                    -0.66650390625,
                    -0.22216796875,
                    0.22216796875,
                    0.66650390625,
                    1.111328125,
                    1.5556640625,
                    2
                },
                Torch.linspace(-2, 2, 10, DType.FLOAT16).toDoubleArray(),
                0);
        assertArrayEquals(
                new double[] {1, 1.6669921875, 2.333984375, 3},
                Torch.linspace(1, 3, 4, DType.FLOAT16).toDoubleArray(),
                0);
    }

    @Test
    void logspace() {
        assertArrayEquals(new double[] {1, 10, 100}, Torch.logspace(0, 2, 3).toDoubleArray(), 1e-4);
        assertArrayEquals(
                new double[] {1, 2, 4, 8},
                Torch.logspace(0, 3, 4, 2.0, DType.FLOAT64).toDoubleArray(),
                1e-12);
        assertThrows(TorchException.class, () -> Torch.linspace(0, 1, -1));
    }

    /** 2.15: the buffer type decides the dtype. */
    @Test
    void asarrayFromBuffers() {
        Tensor i = Torch.asarray(IntBuffer.wrap(new int[] {1, 2, 3}));
        assertEquals(DType.INT32, i.dtype());
        assertArrayEquals(new long[] {1, 2, 3}, i.toLongArray());
        assertEquals(
                DType.INT16, Torch.asarray(ShortBuffer.wrap(new short[] {-1})).dtype());
        Tensor c = Torch.asarray(CharBuffer.wrap(new char[] {65535}));
        assertEquals(DType.UINT16, c.dtype());
        assertArrayEquals(new long[] {65535}, c.toLongArray());
        ByteBuffer bytes =
                ByteBuffer.wrap(new byte[] {0, 0, (byte) 128, 63, 0, 0, 0, 64}).order(ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals(
                new double[] {1.0, 2.0}, Torch.asarray(bytes, DType.FLOAT32).toDoubleArray(), 0);
        ByteBuffer odd = ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN);
        assertThrows(IllegalArgumentException.class, () -> Torch.asarray(odd, DType.FLOAT32));
        assertThrows(
                IllegalArgumentException.class,
                () -> Torch.asarray(ByteBuffer.allocate(8), DType.FLOAT32)); // big-endian
        Tensor b = Torch.asarray(new boolean[] {true, false});
        assertEquals(DType.BOOL, b.dtype());
        assertEquals(2, b.numel());
    }

    @Test
    void tensorsFromJavaArrays() {
        Tensor m = Torch.tensor(new double[][] {{1, 2, 3}, {4, 5, 6}});
        assertArrayEquals(new long[] {2, 3}, m.shape());
        assertEquals(DType.FLOAT64, m.dtype());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, m.toDoubleArray(), 0);
        assertEquals(DType.FLOAT32, Torch.tensor(new float[][] {{1}}).dtype());
        assertArrayEquals(
                new long[] {7, 8}, Torch.tensor(new long[][] {{7}, {8}}).toLongArray());
        assertArrayEquals(new long[] {0, 0}, Torch.tensor(new float[0][]).shape());
        IllegalArgumentException ragged =
                assertThrows(IllegalArgumentException.class, () -> Torch.tensor(new float[][] {{1, 2}, {3}}));
        assertTrue(ragged.getMessage().contains("expected sequence of length 2 at dim 1 (got 1)"));
        assertEquals(DType.INT64, Torch.tensor(new int[] {1, 2}).dtype());
        assertEquals(DType.BOOL, Torch.tensor(new boolean[] {true}).dtype());
    }

    @Test
    void fullInfersDtypeFromFill() {
        assertEquals(DType.FLOAT32, Torch.full(new long[] {2}, 1.5).dtype());
        assertEquals(DType.INT64, Torch.full(new long[] {2}, 7L).dtype());
        assertEquals(DType.BOOL, Torch.full(new long[] {2}, true).dtype());
        assertArrayEquals(
                new double[] {1.5, 1.5}, Torch.full(new long[] {2}, 1.5).toDoubleArray(), 0);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0}, Torch.eye(2, 3).toDoubleArray(), 0);
        TorchException neg = assertThrows(TorchException.class, () -> Torch.zeros(2, -1));
        assertTrue(neg.getMessage().contains("negative dimension -1"));
        assertThrows(TorchException.class, () -> Torch.zeros(1L << 62, 1L << 62));
    }
}
