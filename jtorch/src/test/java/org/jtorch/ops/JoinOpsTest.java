package org.jtorch.ops;

import static org.jtorch.ops.ShapeOpsTest.arange;
import static org.jtorch.ops.ShapeOpsTest.meta;
import static org.jtorch.ops.ShapeOpsTest.transposed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Tests for {@link JoinOps}: golden PyTorch fixtures, plus comparisons with naive index loops written here (each output
 * element computed from its coordinates and the input's row-major values), meta tensors and error messages.
 */
class JoinOpsTest {

    @TestFactory
    Stream<DynamicTest> golden() {
        return ShapeOpsTest.goldenTests(Set.of("cat", "stack", "tril", "triu", "flip", "roll", "repeat"));
    }

    /** Row-major coordinates of linear index {@code lin}. */
    private static long[] coords(long lin, long[] shape) {
        long[] c = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            c[d] = lin % shape[d];
            lin /= shape[d];
        }
        return c;
    }

    private static int linear(long[] c, long[] shape) {
        long lin = 0;
        for (int d = 0; d < shape.length; d++) lin = lin * shape[d] + c[d];
        return (int) lin;
    }

    private static <E extends Throwable> void assertMessage(
            Class<E> type, String message, org.junit.jupiter.api.function.Executable call) {
        assertEquals(message, assertThrows(type, call).getMessage());
    }

    // ================================================================================================
    // cat / stack

    @Test
    void catMatchesANaiveLoopForMixedLayoutsAndDtypes() {
        Tensor a = arange(DType.FLOAT32, 2, 3, 4); // contiguous
        Tensor b = transposed(arange(DType.FLOAT32, 4, 1, 2), 0, 2); // [2, 1, 4], non-contiguous
        Tensor c = arange(DType.INT32, 2, 2, 4); // other dtype: converted
        Tensor out = JoinOps.cat(List.of(a, b, c), 1);
        assertEquals(DType.FLOAT32, out.dtype());
        assertArrayEquals(new long[] {2, 6, 4}, out.shape());
        double[] got = out.toDoubleArray(), da = a.toDoubleArray(), db = b.toDoubleArray(), dc = c.toDoubleArray();
        for (int i = 0; i < got.length; i++) {
            long[] k = coords(i, out.impl().shapeRef());
            double want;
            if (k[1] < 3) want = da[linear(k, a.impl().shapeRef())];
            else if (k[1] < 4)
                want = db[linear(new long[] {k[0], k[1] - 3, k[2]}, b.impl().shapeRef())];
            else want = dc[linear(new long[] {k[0], k[1] - 4, k[2]}, c.impl().shapeRef())];
            assertEquals(want, got[i], "element " + i);
        }
        assertNotSame(a.untypedStorage(), out.untypedStorage());
    }

    @Test
    void catPromotesAcrossInputs() {
        Tensor out = JoinOps.cat(List.of(arange(DType.INT32, 2), arange(DType.FLOAT64, 1), arange(DType.BOOL, 2)));
        assertEquals(DType.FLOAT64, out.dtype());
        assertArrayEquals(new double[] {0, 1, 0, 0, 1}, out.toDoubleArray());
        Tensor cplx = JoinOps.cat(List.of(arange(DType.COMPLEX64, 1), arange(DType.INT64, 2)));
        assertEquals(DType.COMPLEX64, cplx.dtype());
        assertArrayEquals(new double[] {0, 0, 0, 0, 1, 0}, cplx.toDoubleArray());
    }

    @Test
    void catSkipsOnlyOneDimensionalEmptyTensors() {
        Tensor x = arange(DType.FLOAT32, 2, 3);
        Tensor empty1d = arange(DType.FLOAT32, 0);
        assertArrayEquals(
                new long[] {2, 6},
                JoinOps.cat(List.of(empty1d, x, empty1d, x), 1).shape());
        assertArrayEquals(new long[] {0}, JoinOps.cat(List.of(empty1d, empty1d)).shape());
        // A [0, 3] tensor is not skipped: it takes part in the shape check and adds nothing.
        assertArrayEquals(
                new double[] {0, 1, 2, 3, 4, 5},
                JoinOps.cat(List.of(arange(DType.FLOAT32, 0, 3), x)).toDoubleArray());
        assertMessage(
                TorchException.class,
                "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 0 for tensor"
                        + " number 1 in the list.",
                () -> JoinOps.cat(List.of(x, arange(DType.FLOAT32, 0, 3)), 1));
    }

    @Test
    void catErrors() {
        Tensor x = arange(DType.FLOAT32, 2, 3);
        assertMessage(
                TorchException.class,
                "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor"
                        + " number 1 in the list.",
                () -> JoinOps.cat(List.of(x, arange(DType.FLOAT32, 3, 2)), 1));
        assertMessage(
                TorchException.class,
                "torch.cat(): expected a non-empty list of Tensors",
                () -> JoinOps.cat(List.of()));
        assertMessage(
                TorchException.class,
                "zero-dimensional tensor (at position 1) cannot be concatenated",
                () -> JoinOps.cat(List.of(x, arange(DType.FLOAT32))));
        assertMessage(
                TorchException.class,
                "Tensors must have same number of dimensions: got 2 and 1",
                () -> JoinOps.cat(List.of(x, arange(DType.FLOAT32, 3))));
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
                () -> JoinOps.cat(List.of(x, x), 2));
        assertThrows(TorchException.class, () -> JoinOps.cat(List.of(x, meta(DType.FLOAT32, 2, 3))));
    }

    @Test
    void stackAddsADim() {
        Tensor a = arange(DType.INT64, 2, 3), b = transposed(arange(DType.INT64, 3, 2), 0, 1);
        Tensor s = JoinOps.stack(List.of(a, b), -1);
        assertArrayEquals(new long[] {2, 3, 2}, s.shape());
        long[] got = s.toLongArray(), la = a.toLongArray(), lb = b.toLongArray();
        for (int i = 0; i < 6; i++) {
            assertEquals(la[i], got[2 * i]);
            assertEquals(lb[i], got[2 * i + 1]);
        }
        assertArrayEquals(
                new long[] {3},
                JoinOps.stack(List.of(arange(DType.FLOAT32), arange(DType.FLOAT32), arange(DType.FLOAT32)))
                        .shape());
        assertMessage(
                TorchException.class,
                "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 2] at entry 1",
                () -> JoinOps.stack(List.of(a, arange(DType.INT64, 3, 2))));
        assertMessage(TorchException.class, "stack expects a non-empty TensorList", () -> JoinOps.stack(List.of()));
    }

    // ================================================================================================
    // tril / triu

    @Test
    void trilTriuMatchTheDefinitionOnBatches() {
        Tensor x = transposed(arange(DType.FLOAT64, 2, 5, 4), 1, 2); // [2, 4, 5], non-contiguous
        double[] in = x.toDoubleArray();
        for (long k : new long[] {-5, -2, -1, 0, 1, 3, 6, Long.MAX_VALUE, Long.MIN_VALUE}) {
            double[] lo = JoinOps.tril(x, k).toDoubleArray(),
                    up = JoinOps.triu(x, k).toDoubleArray();
            for (int i = 0; i < in.length; i++) {
                long[] c = coords(i, x.impl().shapeRef());
                long row = c[1], col = c[2];
                // Subtraction cannot overflow here, unlike row + k.
                assertEquals(col - row <= k ? in[i] : 0, lo[i], "tril k=" + k + " at " + i);
                assertEquals(col - row >= k ? in[i] : 0, up[i], "triu k=" + k + " at " + i);
            }
        }
    }

    @Test
    void trilTriuOtherDtypesMetaAndErrors() {
        Tensor c = arange(DType.COMPLEX128, 2, 2);
        assertArrayEquals(new double[] {0, 0, 0, 0, 2, 0, 3, 0}, JoinOps.tril(c).toDoubleArray());
        Tensor b = JoinOps.triu(arange(DType.BOOL, 2, 2), 1);
        assertEquals(DType.BOOL, b.dtype());
        assertArrayEquals(new boolean[] {false, true, false, false}, b.toBooleanArray());
        Tensor m = JoinOps.triu(meta(DType.BFLOAT16, 3, 4, 5));
        assertEquals(Device.META, m.device());
        assertArrayEquals(new long[] {3, 4, 5}, m.shape());
        assertMessage(
                TorchException.class,
                "tril: input tensor must have at least 2 dimensions",
                () -> JoinOps.tril(arange(DType.FLOAT32, 3)));
        assertMessage(
                TorchException.class,
                "triu: input tensor must have at least 2 dimensions",
                () -> JoinOps.triu(meta(DType.FLOAT32)));
    }

    // ================================================================================================
    // flip / roll / repeat

    @Test
    void flipMatchesANaiveLoop() {
        Tensor x = transposed(arange(DType.INT16, 3, 4, 2), 0, 2); // [2, 4, 3]
        long[] in = x.toLongArray();
        long[] got = JoinOps.flip(x, -1, 0).toLongArray();
        for (int i = 0; i < got.length; i++) {
            long[] c = coords(i, x.impl().shapeRef());
            c[0] = 1 - c[0];
            c[2] = 2 - c[2];
            assertEquals(in[linear(c, x.impl().shapeRef())], got[i], "element " + i);
        }
        assertArrayEquals(in, JoinOps.flip(x).toLongArray());
        assertMessage(
                TorchException.class, "dim 0 appears multiple times in the list of dims", () -> JoinOps.flip(x, 0, -3));
        assertEquals(Device.META, JoinOps.flip(meta(DType.FLOAT32, 2, 3), 1).device());
    }

    @Test
    void rollMatchesANaiveLoop() {
        Tensor x = transposed(arange(DType.FLOAT32, 4, 3, 5), 0, 1); // [3, 4, 5], non-contiguous
        double[] in = x.toDoubleArray();
        long[] shape = x.impl().shapeRef();
        double[] got =
                JoinOps.roll(x, new long[] {1, -7, 1}, new int[] {0, 2, 0}).toDoubleArray();
        for (int i = 0; i < got.length; i++) {
            long[] c = coords(i, shape);
            c[0] = Math.floorMod(c[0] - 2, 3); // the two shifts on dim 0 add up
            c[2] = Math.floorMod(c[2] + 7, 5);
            assertEquals(in[linear(c, shape)], got[i], "element " + i);
        }
        // Without dims the flattened tensor is rolled.
        double[] flat = JoinOps.roll(x, -8).toDoubleArray();
        for (int i = 0; i < flat.length; i++) assertEquals(in[(i + 8) % in.length], flat[i], "flat element " + i);
        assertArrayEquals(
                new double[] {0, 1},
                JoinOps.roll(arange(DType.FLOAT32, 2), 4, 0).toDoubleArray());
        assertArrayEquals(
                new long[] {0, 3},
                JoinOps.roll(arange(DType.FLOAT32, 0, 3), 1, 5).shape());
    }

    @Test
    void rollErrors() {
        Tensor x = arange(DType.FLOAT32, 2, 3);
        assertMessage(TorchException.class, "`shifts` required", () -> JoinOps.roll(x, new long[0], new int[0]));
        assertMessage(
                TorchException.class,
                "shifts and dimensions must align. shifts: 2, dims:1",
                () -> JoinOps.roll(x, new long[] {1, 2}, new int[] {0}));
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
                () -> JoinOps.roll(x, 1, 2));
    }

    @Test
    void repeatMatchesANaiveLoop() {
        Tensor x = transposed(arange(DType.FLOAT64, 3, 2), 0, 1); // [2, 3], non-contiguous
        double[] in = x.toDoubleArray();
        Tensor r = JoinOps.repeat(x, 2, 3, 2);
        long[] shape = {2, 6, 6};
        assertArrayEquals(shape, r.shape());
        double[] got = r.toDoubleArray();
        for (int i = 0; i < got.length; i++) {
            long[] c = coords(i, shape);
            assertEquals(in[(int) ((c[1] % 2) * 3 + c[2] % 3)], got[i], "element " + i);
        }
        assertArrayEquals(new long[] {0, 6}, JoinOps.repeat(x, 0, 2).shape());
        assertArrayEquals(
                new double[] {7, 7, 7},
                JoinOps.repeat(
                                org.jtorch.testing.Golden.tensor(
                                        java.util.Map.of("dtype", "float32", "shape", List.of(), "data", List.of(7.0))),
                                3)
                        .toDoubleArray());
        Tensor m = JoinOps.repeat(meta(DType.COMPLEX64, 2, 3), 4, 1, 2);
        assertArrayEquals(new long[] {4, 2, 6}, m.shape());
        assertEquals(Device.META, m.device());
        assertMessage(
                TorchException.class,
                "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
                () -> JoinOps.repeat(x, 2));
        TorchException neg = assertThrows(TorchException.class, () -> JoinOps.repeat(x, -1, 1));
        assertTrue(neg.getMessage().contains("negative dimension -2"), neg.getMessage());
    }
}
