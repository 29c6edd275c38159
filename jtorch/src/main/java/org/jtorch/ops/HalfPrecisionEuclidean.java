package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.LowPrecision;

/**
 * {@code _euclidean_dist} in float16 and bfloat16, rounded where ATen's composition of float16/bfloat16 ops rounds, so
 * that the bits are PyTorch's CPU ones:
 *
 * <ol>
 *   <li>{@code x.pow(2).sum(-1, keepdim=True)}: each square rounded to the dtype, the sum accumulated in float32 and
 *       rounded once;
 *   <li>{@code cat([-2 x1, |x1|², 1])} and {@code cat([x2, 1, |x2|²])} (−2·x rounded: it overflows to ∓inf past half
 *       the dtype's range);
 *   <li>their product by the CPU's low-precision GEMM, which accumulates each dot product in float32 along the row (the
 *       products of two float16/bfloat16 numbers are exact in float32) and rounds it once;
 *   <li>{@code clamp_min_(0)} (NaN stays NaN) and {@code sqrt_()}, whose float16/bfloat16 kernel is correctly rounded.
 * </ol>
 */
final class HalfPrecisionEuclidean {
    private HalfPrecisionEuclidean() {}

    /** Writes the distances of x1 {@code (B*, P, M)} and x2 {@code (B*, R, M)} into out {@code (B*, P, R)}. */
    static void run(Tensor x1, Tensor x2, Tensor out) {
        DType dtype = out.dtype();
        long[] shape = out.impl().shapeRef();
        long[] batch = Arrays.copyOf(shape, shape.length - 2);
        int rows1 = Math.toIntExact(shape[shape.length - 2]), rows2 = Math.toIntExact(shape[shape.length - 1]);
        int m = Math.toIntExact(x1.size(-1));
        double[] a = DistanceOps.read(x1, DistanceOps.withRows(batch, rows1, m));
        double[] b = DistanceOps.read(x2, DistanceOps.withRows(batch, rows2, m));
        long batches = Shapes.numel(batch);
        float[] norms1 = squaredNorms(a, Math.toIntExact(batches * rows1), m, dtype);
        float[] norms2 = squaredNorms(b, Math.toIntExact(batches * rows2), m, dtype);
        ElementIO io = ElementIO.of(dtype);
        MemorySegment seg = out.impl().storage().segment();
        long base = out.storageOffset();
        long rows = batches * rows1;
        Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / Math.max(1L, (long) rows2 * m)), (s, e) -> {
            float[] scaled = new float[m];
            for (long row = s; row < e; row++) {
                long bi = row / rows1;
                int ai = Math.toIntExact(row * m);
                for (int k = 0; k < m; k++) scaled[k] = round(-2 * (float) a[ai + k], dtype);
                for (int j = 0; j < rows2; j++) {
                    int bj = Math.toIntExact((bi * rows2 + j) * m);
                    float acc = 0;
                    for (int k = 0; k < m; k++) acc += scaled[k] * (float) b[bj + k];
                    acc += norms1[Math.toIntExact(row)];
                    acc += norms2[Math.toIntExact(bi * rows2 + j)];
                    float squared = round(acc, dtype);
                    // clamp_min(0) keeps NaN; sqrt rounds the exact root once (see roundToOdd)
                    double distance = squared < 0 ? 0 : Math.sqrt(squared);
                    io.setDouble(seg, base + row * rows2 + j, roundToOdd(distance));
                }
            }
        });
    }

    /** {@code x.pow(2).sum(-1)} of each of {@code count} rows of {@code m} values, in the dtype's rounding. */
    private static float[] squaredNorms(double[] x, int count, int m, DType dtype) {
        float[] norms = new float[count];
        for (int r = 0; r < norms.length; r++) {
            float acc = 0;
            for (int k = 0; k < m; k++) {
                float v = (float) x[r * m + k];
                acc += round(v * v, dtype);
            }
            norms[r] = round(acc, dtype);
        }
        return norms;
    }

    /** {@code v} rounded to float16 or bfloat16 (nearest, ties to even), as a float. */
    private static float round(float v, DType dtype) {
        return dtype == DType.FLOAT16
                ? LowPrecision.halfToFloat(LowPrecision.floatToHalf(v))
                : LowPrecision.bfloat16ToFloat(LowPrecision.floatToBFloat16(v));
    }

    /**
     * {@code d} as a float rounded to odd: a float that is not d gets an odd last bit. Rounding that float to
     * float16/bfloat16 (13 or more bits shorter) then rounds d itself correctly; rounding d to the nearest float first
     * could land exactly on a half-way point of the narrow format and round the wrong way (sqrt(255.875) in float16).
     */
    private static double roundToOdd(double d) {
        float f = (float) d;
        if (Float.isFinite(f) && f != d && (Float.floatToRawIntBits(f) & 1) == 0) f = Math.nextAfter(f, d);
        return f;
    }
}
