package org.jtorch.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.ops.ComplexOps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TensorHashTest {
    private static TensorHash bits(Tensor t) {
        return TensorHash.of(t, HashFn.BITS);
    }

    private static double norm(Tensor t) {
        return TensorHash.of(t, HashFn.NORM).norm();
    }

    private static float[] random(int n, long seed) {
        Random r = new Random(seed);
        float[] f = new float[n];
        for (int i = 0; i < n; i++) f[i] = (float) r.nextGaussian();
        return f;
    }

    @Test
    void layoutDoesNotMatter() {
        Tensor a = Torch.arange(0.0, 12.0, 1.0, DType.FLOAT32).reshape(3, 4);
        Tensor transposedLayout = a.t().contiguous().t(); // same values, column-major strides
        assertTrue(!transposedLayout.isContiguous());
        assertEquals(bits(a), bits(transposedLayout));
        assertEquals(norm(a), norm(transposedLayout), 0.0);
        Tensor offset = Torch.arange(0.0, 20.0, 1.0, DType.FLOAT32).narrow(0, 2, 12); // storage offset 2
        assertEquals(bits(Torch.arange(2.0, 14.0, 1.0, DType.FLOAT32)), bits(offset));
        Tensor expanded = Torch.ones(1, 4).expand(3, 4); // stride 0
        assertEquals(bits(Torch.ones(3, 4)), bits(expanded));
    }

    @Test
    void rawBitsCount() {
        assertNotEquals(bits(Torch.tensor(new float[] {0f})), bits(Torch.tensor(new float[] {-0f})));
        assertEquals(0.0, norm(Torch.tensor(new float[] {-0f})), 0.0);
        float nanA = Float.intBitsToFloat(0x7fc00000), nanB = Float.intBitsToFloat(0x7fc00001);
        assertEquals(bits(Torch.tensor(new float[] {nanA})), bits(Torch.tensor(new float[] {nanA})));
        assertNotEquals(bits(Torch.tensor(new float[] {nanA})), bits(Torch.tensor(new float[] {nanB})));
        assertTrue(Double.isNaN(norm(Torch.tensor(new float[] {1, nanA}))));
    }

    @Test
    void dtypeAndShapeCount() {
        float[] data = {1, 2, 3, 4, 5, 6};
        Tensor flat = Torch.tensor(data);
        assertNotEquals(bits(flat), bits(flat.reshape(2, 3)));
        assertNotEquals(bits(flat.reshape(2, 3)), bits(flat.reshape(3, 2)));
        int[] sameBits = new int[data.length];
        for (int i = 0; i < data.length; i++) sameBits[i] = Float.floatToRawIntBits(data[i]);
        assertNotEquals(bits(flat), bits(Torch.tensor(sameBits)), "int32 tensor holding the float32 bits");
        assertNotEquals(bits(Torch.zeros(0)), bits(Torch.zeros(0, 3)));
        assertEquals(0.0, norm(Torch.zeros(0, 3)), 0.0);
    }

    @Test
    void anySingleElementChangeChangesTheHash() {
        int n = 2 * TensorHash.BLOCK + 100; // three blocks
        float[] data = random(n, 1);
        TensorHash base = bits(Torch.tensor(data));
        Set<TensorHash> seen = new HashSet<>();
        seen.add(base);
        for (int pos : new int[] {0, 1, TensorHash.BLOCK - 1, TensorHash.BLOCK, 2 * TensorHash.BLOCK, n - 1}) {
            float[] changed = data.clone();
            changed[pos] = Math.nextUp(changed[pos]);
            assertTrue(seen.add(bits(Torch.tensor(changed))), "position " + pos);
        }
        float[] swapped = data.clone();
        swapped[0] = data[1];
        swapped[1] = data[0];
        assertNotEquals(base, bits(Torch.tensor(swapped)), "order matters");
    }

    @Test
    void independentOfThreadCount() {
        Tensor t = Torch.tensor(random(5 * TensorHash.BLOCK + 10, 2))
                .reshape(5, -1)
                .t(); // non-contiguous too
        int before = Parallel.numThreads();
        try {
            Parallel.setNumThreads(1);
            TensorHash b1 = bits(t);
            double n1 = norm(t);
            Parallel.setNumThreads(2);
            assertEquals(b1, bits(t));
            assertEquals(Double.doubleToRawLongBits(n1), Double.doubleToRawLongBits(norm(t)));
        } finally {
            Parallel.setNumThreads(before);
        }
    }

    @Test
    void normIsTheL1Norm() {
        float[] small = random(1000, 3);
        double sum = 0;
        for (float f : small) sum += Math.abs(f);
        assertEquals(sum, norm(Torch.tensor(small)), 0.0, "one block: summed in row-major order");
        float[] big = random(3 * TensorHash.BLOCK, 4);
        double bigSum = 0;
        for (float f : big) bigSum += Math.abs(f);
        assertEquals(bigSum, norm(Torch.tensor(big)), 1e-9 * bigSum);
        assertEquals(6.0, norm(Torch.tensor(new float[] {-1, 2, -3})), 0.0);
    }

    @Test
    void normConvertsIntegersThroughFloat32AndTakesComplexModulus() {
        assertEquals(16777216.0, norm(Torch.tensor(new long[] {16777217})), 0.0, "2^24 + 1 rounds in float32");
        assertEquals(2.0, norm(Torch.tensor(new boolean[] {true, false, true})), 0.0);
        Tensor z = ComplexOps.complex(Torch.tensor(new float[] {3, 0}), Torch.tensor(new float[] {-4, 1}));
        assertEquals(6.0, norm(z), 0.0);
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void everyDtypeHashes(DType dtype) {
        Tensor ones = Torch.ones(new long[] {2, 3}, dtype), zeros = Torch.zeros(new long[] {2, 3}, dtype);
        assertEquals(bits(ones), bits(Torch.ones(new long[] {2, 3}, dtype)));
        assertNotEquals(bits(ones), bits(zeros));
        assertEquals(6.0, norm(ones), 0.0);
    }

    @Test
    void complexHashesBothParts() {
        Tensor re = Torch.tensor(new float[] {1, 2});
        Tensor a = ComplexOps.complex(re, Torch.tensor(new float[] {0, 1}));
        Tensor b = ComplexOps.complex(re, Torch.tensor(new float[] {0, 2}));
        assertNotEquals(bits(a), bits(b));
    }

    @Test
    void printing() {
        assertEquals(
                "6.0",
                TensorHash.of(Torch.tensor(new float[] {-1, 2, -3}), HashFn.NORM)
                        .toString());
        assertEquals("0x00000000000000ff", new TensorHash(HashFn.BITS, 255).toString());
        assertThrows(IllegalStateException.class, () -> new TensorHash(HashFn.BITS, 1).norm());
    }

    @Test
    void metaTensorsHaveNoData() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> bits(Torch.ones(new long[] {2}, DType.FLOAT32, Device.META)));
        assertTrue(e.getMessage().contains("meta device"), e.getMessage());
    }
}
