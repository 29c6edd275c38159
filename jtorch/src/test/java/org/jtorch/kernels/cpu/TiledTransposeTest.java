package org.jtorch.kernels.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * Transposed and permuted layouts made contiguous through the tiled copy: every element checked against the index
 * arithmetic of the permutation, for shapes that are and are not multiples of the tile, float and double, at a storage
 * offset; and the cases the tiled copy leaves to the run copy.
 */
class TiledTransposeTest {

    /** Element (i0, i1, i2) of base.permute(perm) is base[idx] with idx[perm[k]] = i_k. */
    private static double[] permuted(double[] base, long[] shape, int[] perm) {
        long[] out = {shape[perm[0]], shape[perm[1]], shape[perm[2]]};
        double[] r = new double[base.length];
        int k = 0;
        for (int a = 0; a < out[0]; a++) {
            for (int b = 0; b < out[1]; b++) {
                for (int c = 0; c < out[2]; c++) {
                    long[] idx = new long[3];
                    idx[perm[0]] = a;
                    idx[perm[1]] = b;
                    idx[perm[2]] = c;
                    r[k++] = base[(int) ((idx[0] * shape[1] + idx[1]) * shape[2] + idx[2])];
                }
            }
        }
        return r;
    }

    @Test
    void permutationsOfThreeDimsMatchTheIndexArithmetic() {
        long[][] shapes = {{2, 33, 70}, {3, 64, 32}, {1, 100, 45}, {4, 7, 300}};
        int[][] perms = {{0, 2, 1}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};
        for (DType dtype : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            for (long[] shape : shapes) {
                int n = (int) (shape[0] * shape[1] * shape[2]);
                Tensor base = Torch.arange(0.0, n, 1.0).to(dtype).view(shape);
                double[] values = base.toDoubleArray();
                for (int[] perm : perms) {
                    Tensor t = base.permute(perm[0], perm[1], perm[2]).contiguous();
                    assertTrue(t.isContiguous());
                    assertArrayEquals(
                            permuted(values, shape, perm),
                            t.toDoubleArray(),
                            0.0,
                            dtype + " " + java.util.Arrays.toString(shape) + " perm "
                                    + java.util.Arrays.toString(perm));
                }
            }
        }
    }

    @Test
    void transposedMatrixAtAStorageOffset() {
        Tensor big = Torch.arange(0.0, 5000.0, 1.0).to(DType.FLOAT32);
        Tensor m = big.narrow(0, 7, 40 * 90).view(40, 90).t(); // [90, 40], strides (1, 90), offset 7
        double[] got = m.contiguous().toDoubleArray();
        for (int i = 0; i < 90; i++) {
            for (int j = 0; j < 40; j++) assertTrue(got[i * 40 + j] == 7 + j * 90 + i, "at " + i + ", " + j);
        }
    }

    @Test
    void leavesOtherLayoutsToTheRunCopy() {
        float[] a = new float[4096], b = new float[4096];
        // innermost source stride already 1: nothing to tile
        assertFalse(TiledTranspose.tryCopy(a, 0, new long[] {64, 1}, b, 0, new long[] {64, 64}));
        // no source dim with stride 1 (a strided slice)
        assertFalse(TiledTranspose.tryCopy(a, 0, new long[] {2, 128}, b, 0, new long[] {32, 32}));
        // a small plane
        assertFalse(TiledTranspose.tryCopy(a, 0, new long[] {1, 8}, b, 0, new long[] {8, 8}));
        // other array kinds
        assertFalse(
                TiledTranspose.tryCopy(new long[4096], 0, new long[] {1, 64}, new long[4096], 0, new long[] {64, 64}));
    }
}
