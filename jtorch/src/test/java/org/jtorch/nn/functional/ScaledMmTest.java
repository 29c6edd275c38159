package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/**
 * {@code F.scaled_mm} / {@code F.scaled_addmm(_)} against the spec's examples and an independent reference in double:
 * fp8 bytes decoded here with the spec's bit formulas (nn-optim §5.1), scales applied per element, summed in double.
 */
class ScaledMmTest {
    private static final ScaledMmOptions F32 = ScaledMmOptions.defaults().outputDtype(DType.FLOAT32);

    private static Tensor fp8(double[][] v, DType dt) {
        return Torch.tensor(v).to(dt);
    }

    private static Tensor scalar(double v) {
        return Torch.tensor(new float[] {(float) v}).reshape();
    }

    private static final double[][] A = {{1, 2}, {3, 4}};
    private static final double[][] B = {{1, 0}, {0.5, 1}};

    @Test
    void specExamples() {
        Tensor a = fp8(A, DType.FLOAT8_E4M3FN), b = fp8(B, DType.FLOAT8_E4M3FN);
        Tensor t = F.scaledMm(a, b, ScaleSpec.tensorwise(scalar(0.5)), ScaleSpec.tensorwise(scalar(2)), F32);
        assertEquals(DType.FLOAT32, t.dtype());
        assertArrayEquals(new double[] {2, 2, 5, 4}, t.toDoubleArray());
        Tensor r = F.scaledMm(
                a,
                b,
                ScaleSpec.rowwise(Torch.tensor(new float[][] {{1}, {0.25f}})),
                ScaleSpec.rowwise(Torch.tensor(new float[][] {{2, 0.5f}})),
                F32);
        assertArrayEquals(new double[] {4, 1, 2.5, 0.5}, r.toDoubleArray());
        Tensor one = fp8(new double[][] {{1}}, DType.FLOAT8_E5M2);
        Tensor third = F.scaledMm(
                one,
                one,
                ScaleSpec.tensorwise(scalar(1.0 / 3)),
                ScaleSpec.tensorwise(scalar(1)),
                ScaledMmOptions.defaults());
        assertEquals(DType.BFLOAT16, third.dtype());
        assertEquals(0.333984375, third.item());

        Tensor input = Torch.tensor(new float[][] {{10, 10}, {10, 10}});
        var o = ScaledMmOptions.defaults().beta(0.5).alpha(2);
        Tensor out = F.scaledAddmm(input, a, b, ScaleSpec.tensorwise(scalar(0.5)), ScaleSpec.tensorwise(scalar(2)), o);
        assertArrayEquals(new double[] {9, 9, 15, 13}, out.toDoubleArray());
        assertArrayEquals(new double[] {10, 10, 10, 10}, input.toDoubleArray());
        Object storage = input.untypedStorage();
        Tensor same =
                F.scaledAddmm_(input, a, b, ScaleSpec.tensorwise(scalar(0.5)), ScaleSpec.tensorwise(scalar(2)), o);
        assertSame(input, same);
        assertSame(storage, input.untypedStorage());
        assertArrayEquals(new double[] {9, 9, 15, 13}, input.toDoubleArray());
        Tensor nanInput = Torch.tensor(new float[][] {{Float.NaN, 0}, {0, 0}}).to(DType.BFLOAT16);
        Tensor ignored = F.scaledAddmm(
                nanInput,
                a,
                b,
                ScaleSpec.tensorwise(scalar(1)),
                ScaleSpec.tensorwise(scalar(1)),
                ScaledMmOptions.defaults().beta(0));
        assertEquals(DType.BFLOAT16, ignored.dtype());
        assertArrayEquals(new double[] {2, 2, 5, 4}, ignored.toDoubleArray());
    }

    // ---- the independent reference ----------------------------------------------------------------------------

    /** The spec's decoding of one fp8 byte. */
    private static double decode(int bits, DType dt) {
        int sign = (bits & 0x80) != 0 ? -1 : 1;
        if (dt == DType.FLOAT8_E4M3FN) {
            int e = (bits >> 3) & 0xF, m = bits & 7;
            if (e == 15 && m == 7) return Double.NaN;
            return sign * (e == 0 ? m / 8.0 * Math.pow(2, -6) : (1 + m / 8.0) * Math.pow(2, e - 7));
        }
        int e = (bits >> 2) & 0x1F, m = bits & 3;
        if (e == 31) return m == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
        return sign * (e == 0 ? m / 4.0 * Math.pow(2, -14) : (1 + m / 4.0) * Math.pow(2, e - 15));
    }

    private static double[][] decoded(Tensor t) {
        byte[] bytes = (byte[]) t.impl().storage().array();
        int rows = (int) t.size(0), cols = (int) t.size(1);
        double[][] out = new double[rows][cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                out[i][j] =
                        decode(bytes[(int) (t.storageOffset() + i * t.stride(0) + j * t.stride(1))] & 0xFF, t.dtype());
            }
        }
        return out;
    }

    /** Per-element scale of operand element (i, k) of a, or (k, j) of b, in double. */
    private interface ElementScale {
        double at(int r, int c);
    }

    private static double[][] reference(Tensor a, Tensor b, ElementScale sa, ElementScale sb) {
        double[][] x = decoded(a), y = decoded(b);
        int m = x.length, k = y.length, n = y[0].length;
        double[][] out = new double[m][n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += x[i][p] * sa.at(i, p) * y[p][j] * sb.at(p, j);
                out[i][j] = s;
            }
        }
        return out;
    }

    private static Tensor quantised(Random rnd, int rows, int cols, DType dt) {
        double[][] v = new double[rows][cols];
        for (double[] row : v) for (int j = 0; j < cols; j++) row[j] = rnd.nextGaussian() * 3;
        return fp8(v, dt);
    }

    private static float[][] positive(Random rnd, int rows, int cols) {
        float[][] v = new float[rows][cols];
        for (float[] row : v) for (int j = 0; j < cols; j++) row[j] = (float) (0.25 + rnd.nextDouble());
        return v;
    }

    private static void assertMatches(double[][] expected, Tensor actual) {
        double[] got = actual.toDoubleArray();
        int n = expected[0].length;
        for (int i = 0; i < expected.length; i++) {
            for (int j = 0; j < n; j++) {
                assertEquals(
                        expected[i][j],
                        got[i * n + j],
                        2e-5 * Math.max(1, Math.abs(expected[i][j])),
                        "(" + i + ", " + j + ")");
            }
        }
    }

    @Test
    void everyRecipeAgainstDoubleReference() {
        Random rnd = new Random(7);
        for (DType dt : new DType[] {DType.FLOAT8_E4M3FN, DType.FLOAT8_E5M2}) {
            int m = 5, k = 300, n = 6;
            Tensor a = quantised(rnd, m, k, dt),
                    b = quantised(rnd, k, n, dt).t().contiguous().t(); // b column-major
            float ta = 0.37f, tb = 1.9f;
            assertMatches(
                    reference(a, b, (r, c) -> ta, (r, c) -> tb),
                    F.scaledMm(a, b, ScaleSpec.tensorwise(scalar(ta)), ScaleSpec.tensorwise(scalar(tb)), F32));
            float[][] ra = positive(rnd, m, 1), rb = positive(rnd, 1, n);
            assertMatches(
                    reference(a, b, (r, c) -> ra[r][0], (r, c) -> rb[0][c]),
                    F.scaledMm(a, b, ScaleSpec.rowwise(Torch.tensor(ra)), ScaleSpec.rowwise(Torch.tensor(rb)), F32));
            for (ScalingType block : new ScalingType[] {
                ScalingType.BLOCKWISE_1X16, ScalingType.BLOCKWISE_1X32, ScalingType.BLOCKWISE_1X128
            }) {
                int bs = block == ScalingType.BLOCKWISE_1X16 ? 16 : block == ScalingType.BLOCKWISE_1X32 ? 32 : 128;
                int nb = (k + bs - 1) / bs;
                float[][] ba = positive(rnd, m, nb), bb = positive(rnd, nb, n);
                assertMatches(
                        reference(a, b, (r, c) -> ba[r][c / bs], (r, c) -> bb[r / bs][c]),
                        F.scaledMm(
                                a,
                                b,
                                ScaleSpec.of(Torch.tensor(ba), block),
                                ScaleSpec.of(Torch.tensor(bb), block),
                                F32));
                // multi-level: block scales times a global tensor-wise scale
                ScaleSpec two = new ScaleSpec(
                        List.of(Torch.tensor(ba), scalar(ta)), List.of(block, ScalingType.TENSORWISE), null);
                assertMatches(
                        reference(a, b, (r, c) -> ba[r][c / bs] * ta, (r, c) -> bb[r / bs][c]),
                        F.scaledMm(a, b, two, ScaleSpec.of(Torch.tensor(bb), block), F32));
            }
            float[][] tileA = positive(rnd, 1, 3), tileB = positive(rnd, 3, 1);
            assertMatches(
                    reference(a, b, (r, c) -> tileA[r / 128][c / 128], (r, c) -> tileB[r / 128][c / 128]),
                    F.scaledMm(
                            a,
                            b,
                            ScaleSpec.of(Torch.tensor(tileA), ScalingType.BLOCKWISE_128X128),
                            ScaleSpec.of(Torch.tensor(tileB), ScalingType.BLOCKWISE_128X128),
                            F32));
            Tensor bias = Torch.tensor(new float[] {1, -2, 3, 0.5f, 0, 7});
            double[][] withBias = reference(a, b, (r, c) -> ta, (r, c) -> tb);
            for (double[] row : withBias) for (int j = 0; j < n; j++) row[j] += bias.toDoubleArray()[j];
            assertMatches(
                    withBias,
                    F.scaledMm(
                            a,
                            b,
                            ScaleSpec.tensorwise(scalar(ta)),
                            ScaleSpec.tensorwise(scalar(tb)),
                            F32.bias(bias).contractionDim(-1, 0).useFastAccum(true)));
        }
    }

    /** NVIDIA's to_blocked layout, written as loops: (rows, cols) padded to 128 × 4 tiles, each stored as 32 × 16. */
    private static float[] swizzle(float[][] logical) {
        int rows = logical.length, cols = logical[0].length, rt = (rows + 127) / 128, ct = (cols + 3) / 4;
        float[] out = new float[rt * ct * 512];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int tile = (r / 128) * ct + c / 4, i = (r % 128) / 32, j = r % 32;
                out[tile * 512 + j * 16 + i * 4 + c % 4] = logical[r][c];
            }
        }
        return out;
    }

    @Test
    void swizzledBlockScalesAreUndone() {
        Random rnd = new Random(11);
        int m = 130, k = 96, n = 3;
        Tensor a = quantised(rnd, m, k, DType.FLOAT8_E4M3FN), b = quantised(rnd, k, n, DType.FLOAT8_E4M3FN);
        float[][] ba = positive(rnd, m, 3), bbT = positive(rnd, n, 3); // b's scales in (N, K/32) hardware orientation
        Tensor sa = Torch.tensor(swizzle(ba)), sb = Torch.tensor(swizzle(bbT));
        Tensor got = F.scaledMm(
                a,
                b,
                ScaleSpec.of(sa, ScalingType.BLOCKWISE_1X32).withSwizzle(SwizzleType.SWIZZLE_32_4_4),
                ScaleSpec.of(sb, ScalingType.BLOCKWISE_1X32).withSwizzle(SwizzleType.SWIZZLE_32_4_4),
                F32);
        assertMatches(reference(a, b, (r, c) -> ba[r][c / 32], (r, c) -> bbT[c][r / 32]), got);
        assertThrows(
                TorchException.class,
                () -> F.scaledMm(
                        a,
                        b,
                        ScaleSpec.of(Torch.ones(100), ScalingType.BLOCKWISE_1X32)
                                .withSwizzle(SwizzleType.SWIZZLE_32_4_4),
                        ScaleSpec.of(sb, ScalingType.BLOCKWISE_1X32).withSwizzle(SwizzleType.SWIZZLE_32_4_4),
                        F32));
    }

    @Test
    void errors() {
        Tensor a = fp8(A, DType.FLOAT8_E4M3FN), b = fp8(B, DType.FLOAT8_E4M3FN);
        ScaleSpec one = ScaleSpec.tensorwise(scalar(1));
        TorchException e = assertThrows(TorchException.class, () -> F.scaledMm(Torch.tensor(A), b, one, one, F32));
        assertTrue(e.getMessage().contains("mat_a to be float8_e4m3fn or float8_e5m2"), e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> F.scaledMm(a, fp8(new double[][] {{1, 2}}, DType.FLOAT8_E5M2), one, one, F32));
        assertTrue(e.getMessage().contains("cannot be multiplied (2x2 and 1x2)"), e.getMessage());
        e = assertThrows(TorchException.class, () -> F.scaledMm(a, b, ScaleSpec.rowwise(Torch.ones(2)), one, F32));
        assertTrue(
                e.getMessage().contains("ROWWISE")
                        && e.getMessage().contains("scale_a must have shape [2, 1], but got [2]"),
                e.getMessage());
        e = assertThrows(TorchException.class, () -> F.scaledMm(a, b, one, ScaleSpec.rowwise(Torch.ones(2, 1)), F32));
        assertTrue(e.getMessage().contains("scale_b must have shape [1, 2], but got [2, 1]"), e.getMessage());
        e = assertThrows(TorchException.class, () -> F.scaledMm(a, b, ScaleSpec.tensorwise(Torch.ones(2)), one, F32));
        assertTrue(e.getMessage().contains("one element"), e.getMessage());
        e = assertThrows(
                TorchException.class,
                () -> F.scaledMm(a, b, ScaleSpec.of(Torch.ones(2, 2), ScalingType.BLOCKWISE_1X32), one, F32));
        assertTrue(e.getMessage().contains("scale_a must have shape [2, 1]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> F.scaledMm(a, b, one, one, F32.contractionDim(0, 1)));
        assertThrows(IllegalArgumentException.class, () -> new ScaleSpec(List.of(scalar(1)), List.of(), null));
        assertThrows(TorchException.class, () -> F.scaledMm(a, b, one, one, F32.bias(Torch.ones(3))));
        assertThrows(TorchException.class, () -> F.scaledMm(a, b, one, one, F32.outputDtype(DType.INT32)));
        Tensor input = Torch.zeros(2, 2);
        assertThrows(
                IllegalArgumentException.class,
                () -> F.scaledAddmm(
                        input, a, b, one, one, ScaledMmOptions.defaults().bias(Torch.ones(2))));
        e = assertThrows(
                TorchException.class,
                () -> F.scaledAddmm(Torch.zeros(2, 3), a, b, one, one, ScaledMmOptions.defaults()));
        assertTrue(e.getMessage().contains("[2, 2]") && e.getMessage().contains("[2, 3]"), e.getMessage());
        assertThrows(
                TorchException.class,
                () -> F.scaledAddmm(Torch.zeros(2, 2).to(DType.FLOAT64), a, b, one, one, ScaledMmOptions.defaults()));
    }
}
