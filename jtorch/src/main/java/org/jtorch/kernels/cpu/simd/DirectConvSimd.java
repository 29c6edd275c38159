package org.jtorch.kernels.cpu.simd;

import static org.jtorch.kernels.cpu.simd.FloatSimd.SPECIES;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * The float32 loops of a direct convolution (one without an unfolded column matrix), over buffers laid out so that each
 * (channel, kernel tap) term reads one contiguous run: a run of outputs is a sum of shifted input runs, each scaled by
 * one weight. Every run is a whole number of {@link #step()}s long (the callers pad their buffers), so there are no
 * tails. Four output rows are computed side by side, so that each input vector loaded feeds four fused multiply-adds,
 * and two vectors of each row, so that eight independent sums hide the multiply-add latency.
 */
public final class DirectConvSimd {
    private DirectConvSimd() {}

    /** Rows computed side by side. */
    private static final int ROWS = 4;

    /**
     * {@code dst[dstAt + i] = real[i] ? src[srcAt + from[i]] : 0} for i in [0, n): a vector of gathered elements at a
     * time, the positions that hold none set to zero. Every {@code from[i]} is a valid offset from {@code srcAt}.
     */
    public static void gather(float[] src, int srcAt, int[] from, boolean[] real, float[] dst, int dstAt, int n) {
        int lanes = SPECIES.length(), i = 0;
        FloatVector zero = FloatVector.zero(SPECIES);
        for (; i + lanes <= n; i += lanes) {
            FloatVector v = FloatVector.fromArray(SPECIES, src, srcAt, from, i);
            zero.blend(v, VectorMask.fromArray(SPECIES, real, i)).intoArray(dst, dstAt + i);
        }
        for (; i < n; i++) dst[dstAt + i] = real[i] ? src[srcAt + from[i]] : 0f;
    }

    /** The length every run is a multiple of: two vectors. */
    public static int step() {
        return 2 * SPECIES.length();
    }

    /**
     * {@code dst[dstAt + o·dstStride + p] += Σ_k w[wBase + o·wStride + wAt[k]] · src[srcAt[k] + p]} for rows o in [0,
     * rows), positions p in [0, len) ({@code len} a multiple of {@link #step()}) and terms k in [0, terms), each sum
     * taken in k's order with fused multiply-adds, starting from dst's value.
     */
    public static void correlate(
            float[] src,
            int[] srcAt,
            float[] w,
            int wBase,
            int[] wAt,
            int terms,
            int wStride,
            int rows,
            float[] dst,
            int dstAt,
            int dstStride,
            int len) {
        int o = 0;
        for (; o + ROWS <= rows; o += ROWS) {
            correlateRows(
                    src,
                    srcAt,
                    w,
                    wBase + o * wStride,
                    wAt,
                    terms,
                    wStride,
                    dst,
                    dstAt + o * dstStride,
                    dstStride,
                    len);
        }
        for (; o < rows; o++) {
            correlateRow(src, srcAt, w, wBase + o * wStride, wAt, terms, dst, dstAt + o * dstStride, len);
        }
    }

    private static void correlateRows(
            float[] src,
            int[] srcAt,
            float[] w,
            int wBase,
            int[] wAt,
            int terms,
            int wStride,
            float[] dst,
            int dstAt,
            int dstStride,
            int len) {
        int lanes = SPECIES.length();
        int d0 = dstAt, d1 = d0 + dstStride, d2 = d1 + dstStride, d3 = d2 + dstStride;
        int w1 = wStride, w2 = 2 * wStride, w3 = 3 * wStride;
        for (int p = 0; p < len; p += 2 * lanes) {
            int q = p + lanes;
            FloatVector a0 = FloatVector.fromArray(SPECIES, dst, d0 + p),
                    b0 = FloatVector.fromArray(SPECIES, dst, d0 + q);
            FloatVector a1 = FloatVector.fromArray(SPECIES, dst, d1 + p),
                    b1 = FloatVector.fromArray(SPECIES, dst, d1 + q);
            FloatVector a2 = FloatVector.fromArray(SPECIES, dst, d2 + p),
                    b2 = FloatVector.fromArray(SPECIES, dst, d2 + q);
            FloatVector a3 = FloatVector.fromArray(SPECIES, dst, d3 + p),
                    b3 = FloatVector.fromArray(SPECIES, dst, d3 + q);
            for (int k = 0; k < terms; k++) {
                int s = srcAt[k] + p, c = wBase + wAt[k];
                FloatVector x = FloatVector.fromArray(SPECIES, src, s),
                        y = FloatVector.fromArray(SPECIES, src, s + lanes);
                FloatVector v = FloatVector.broadcast(SPECIES, w[c]);
                a0 = x.fma(v, a0);
                b0 = y.fma(v, b0);
                v = FloatVector.broadcast(SPECIES, w[c + w1]);
                a1 = x.fma(v, a1);
                b1 = y.fma(v, b1);
                v = FloatVector.broadcast(SPECIES, w[c + w2]);
                a2 = x.fma(v, a2);
                b2 = y.fma(v, b2);
                v = FloatVector.broadcast(SPECIES, w[c + w3]);
                a3 = x.fma(v, a3);
                b3 = y.fma(v, b3);
            }
            a0.intoArray(dst, d0 + p);
            b0.intoArray(dst, d0 + q);
            a1.intoArray(dst, d1 + p);
            b1.intoArray(dst, d1 + q);
            a2.intoArray(dst, d2 + p);
            b2.intoArray(dst, d2 + q);
            a3.intoArray(dst, d3 + p);
            b3.intoArray(dst, d3 + q);
        }
    }

    private static void correlateRow(
            float[] src, int[] srcAt, float[] w, int wBase, int[] wAt, int terms, float[] dst, int dstAt, int len) {
        int lanes = SPECIES.length();
        for (int p = 0; p < len; p += 2 * lanes) {
            int q = p + lanes;
            FloatVector a = FloatVector.fromArray(SPECIES, dst, dstAt + p),
                    b = FloatVector.fromArray(SPECIES, dst, dstAt + q);
            for (int k = 0; k < terms; k++) {
                int s = srcAt[k] + p;
                FloatVector v = FloatVector.broadcast(SPECIES, w[wBase + wAt[k]]);
                a = FloatVector.fromArray(SPECIES, src, s).fma(v, a);
                b = FloatVector.fromArray(SPECIES, src, s + lanes).fma(v, b);
            }
            a.intoArray(dst, dstAt + p);
            b.intoArray(dst, dstAt + q);
        }
    }

    /**
     * {@code acc[accAt + o·accStride + k] += Σ_p a[aAt + o·aStride + p] · src[srcAt[k] + p]} for rows o in [0, rows),
     * terms k in [0, terms) and positions p in [0, len) ({@code len} a multiple of {@link #step()}): each sum is taken
     * lane by lane, then across the lanes.
     */
    public static void dots(
            float[] a,
            int aAt,
            int aStride,
            int rows,
            float[] src,
            int[] srcAt,
            int terms,
            int len,
            float[] acc,
            int accAt,
            int accStride) {
        int o = 0;
        for (; o + ROWS <= rows; o += ROWS) {
            int k = 0;
            for (; k + 2 <= terms; k += 2) {
                dotsRows(
                        a,
                        aAt + o * aStride,
                        aStride,
                        src,
                        srcAt[k],
                        srcAt[k + 1],
                        len,
                        acc,
                        accAt + o * accStride + k,
                        accStride);
            }
            for (; k < terms; k++) {
                for (int r = o; r < o + ROWS; r++) {
                    acc[accAt + r * accStride + k] += dot(a, aAt + r * aStride, src, srcAt[k], len);
                }
            }
        }
        for (; o < rows; o++) {
            for (int k = 0; k < terms; k++) {
                acc[accAt + o * accStride + k] += dot(a, aAt + o * aStride, src, srcAt[k], len);
            }
        }
    }

    /** Four rows of {@code a} against two runs of {@code src}: eight sums. */
    private static void dotsRows(
            float[] a,
            int at,
            int stride,
            float[] src,
            int s0,
            int s1,
            int len,
            float[] acc,
            int accAt,
            int accStride) {
        int lanes = SPECIES.length();
        FloatVector zero = FloatVector.zero(SPECIES);
        FloatVector c00 = zero, c01 = zero, c10 = zero, c11 = zero, c20 = zero, c21 = zero, c30 = zero, c31 = zero;
        int r1 = at + stride, r2 = r1 + stride, r3 = r2 + stride;
        for (int p = 0; p < len; p += lanes) {
            FloatVector x = FloatVector.fromArray(SPECIES, src, s0 + p),
                    y = FloatVector.fromArray(SPECIES, src, s1 + p);
            FloatVector v = FloatVector.fromArray(SPECIES, a, at + p);
            c00 = v.fma(x, c00);
            c01 = v.fma(y, c01);
            v = FloatVector.fromArray(SPECIES, a, r1 + p);
            c10 = v.fma(x, c10);
            c11 = v.fma(y, c11);
            v = FloatVector.fromArray(SPECIES, a, r2 + p);
            c20 = v.fma(x, c20);
            c21 = v.fma(y, c21);
            v = FloatVector.fromArray(SPECIES, a, r3 + p);
            c30 = v.fma(x, c30);
            c31 = v.fma(y, c31);
        }
        acc[accAt] += c00.reduceLanes(VectorOperators.ADD);
        acc[accAt + 1] += c01.reduceLanes(VectorOperators.ADD);
        acc[accAt + accStride] += c10.reduceLanes(VectorOperators.ADD);
        acc[accAt + accStride + 1] += c11.reduceLanes(VectorOperators.ADD);
        acc[accAt + 2 * accStride] += c20.reduceLanes(VectorOperators.ADD);
        acc[accAt + 2 * accStride + 1] += c21.reduceLanes(VectorOperators.ADD);
        acc[accAt + 3 * accStride] += c30.reduceLanes(VectorOperators.ADD);
        acc[accAt + 3 * accStride + 1] += c31.reduceLanes(VectorOperators.ADD);
    }

    private static float dot(float[] a, int at, float[] src, int s, int len) {
        int lanes = SPECIES.length();
        FloatVector c0 = FloatVector.zero(SPECIES), c1 = c0;
        for (int p = 0; p < len; p += 2 * lanes) {
            c0 = FloatVector.fromArray(SPECIES, a, at + p).fma(FloatVector.fromArray(SPECIES, src, s + p), c0);
            c1 = FloatVector.fromArray(SPECIES, a, at + p + lanes)
                    .fma(FloatVector.fromArray(SPECIES, src, s + p + lanes), c1);
        }
        return c0.add(c1).reduceLanes(VectorOperators.ADD);
    }
}
