package org.jtorch.kernels.cpu;

/**
 * Copies of a transposed layout into a contiguous one ({@code x.t().contiguous()}, attention heads made contiguous
 * before a batched product) in square tiles. The element-run copy walks the destination's rows, so a transposed source
 * is read one element per cache line; a tile reads and writes whole lines on both sides.
 */
public final class TiledTranspose {
    private TiledTranspose() {}

    private static final int TILE = 32;
    /** Below this many elements per plane the run copy is as fast. */
    private static final long MIN_PLANE = 1024;

    /**
     * Copies {@code src} (heap array from {@code srcOffset}, {@code srcStride} per dim, in elements) into the
     * contiguous {@code dst} of {@code shape} (from {@code dstOffset}) when the source's innermost stride is not 1 but
     * some other dim's is; returns whether it did. Float and double arrays only.
     */
    public static boolean tryCopy(
            Object src, long srcOffset, long[] srcStride, Object dst, long dstOffset, long[] shape) {
        int rank = shape.length;
        if (rank < 2 || !(src instanceof float[] || src instanceof double[]) || src.getClass() != dst.getClass())
            return false;
        int last = rank - 1;
        if (srcStride[last] == 1 || shape[last] < 2) return false;
        int unit = -1; // the source's contiguous dim: the rows of a tile
        for (int d = last - 1; d >= 0; d--) {
            if (srcStride[d] == 1 && shape[d] > 1) {
                unit = d;
                break;
            }
        }
        if (unit < 0 || shape[unit] * shape[last] < MIN_PLANE) return false;
        long[] dstStride = new long[rank];
        long s = 1;
        for (int d = last; d >= 0; d--) {
            dstStride[d] = s;
            s *= shape[d];
        }
        long rows = shape[unit], cols = shape[last], planes = s / (rows * cols);
        long rowTiles = (rows + TILE - 1) / TILE;
        final int u = unit;
        Parallel.forRange(planes * rowTiles, Math.max(1, 64 * 1024 / (TILE * cols)), (from, to) -> {
            for (long task = from; task < to; task++) {
                long plane = task / rowTiles, r0 = task % rowTiles * TILE;
                long sBase = srcOffset, dBase = dstOffset, rest = plane;
                for (int d = last - 1; d >= 0; d--) { // the plane's index over the dims other than unit and last
                    if (d == u) continue;
                    long i = rest % shape[d];
                    rest /= shape[d];
                    sBase += i * srcStride[d];
                    dBase += i * dstStride[d];
                }
                long r1 = Math.min(rows, r0 + TILE);
                copyTiles(src, sBase, srcStride[last], dst, dBase, dstStride[u], r0, r1, cols);
            }
        });
        return true;
    }

    /** Rows [r0, r1) of one plane: dst[r·dRow + c] = src[r + c·sCol], column tile by column tile. */
    private static void copyTiles(
            Object src, long sBase, long sCol, Object dst, long dBase, long dRow, long r0, long r1, long cols) {
        for (long c0 = 0; c0 < cols; c0 += TILE) {
            long c1 = Math.min(cols, c0 + TILE);
            if (src instanceof float[] a) {
                float[] b = (float[]) dst;
                for (long r = r0; r < r1; r++) {
                    int d = (int) (dBase + r * dRow);
                    for (long c = c0; c < c1; c++) b[d + (int) c] = a[(int) (sBase + r + c * sCol)];
                }
            } else {
                double[] a = (double[]) src, b = (double[]) dst;
                for (long r = r0; r < r1; r++) {
                    int d = (int) (dBase + r * dRow);
                    for (long c = c0; c < c1; c++) b[d + (int) c] = a[(int) (sBase + r + c * sCol)];
                }
            }
        }
    }
}
