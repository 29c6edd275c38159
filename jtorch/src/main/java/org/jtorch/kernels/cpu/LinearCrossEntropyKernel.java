package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.simd.FloatSimd;

/**
 * The row-chunked loop of {@code linear_cross_entropy}: per chunk of rows, the logits {@code Z = X_r Wᵀ + b}
 * (one GEMM into a reused {@code rows × C} buffer), a stable log-softmax per row, the row losses, and, when
 * asked, the gradient of {@code Σ_n a_n·loss_n} w.r.t. those logits written over {@code Z}, which two more
 * GEMMs turn into the chunk's {@code ∂X} rows and its {@code ∂W} contribution before the next chunk. So the
 * {@code N × C} logits never exist: the extra memory is one chunk of logits plus the gradients themselves.
 *
 * <p>Works in float32 (X, W float32) or float64; callers convert half inputs to float32 first. Row losses:
 * class index {@code y}: {@code w[y]·(lse − z_y)} (0 when ignored); probabilities {@code t}:
 * {@code (Σ_c w_c t_c)·lse − Σ_c w_c t_c z_c}.
 */
public final class LinearCrossEntropyKernel {
    private LinearCrossEntropyKernel() {}

    /**
     * One problem. {@code x} (N, F), {@code w} (C, F) and {@code probs} (N, C) are contiguous heap tensors of
     * the compute dtype; {@code targets} holds N class indices with ignored rows already set to -1 (null for
     * probability targets); {@code bias}/{@code classWeight} have C entries or are null; {@code rowScale}
     * holds the coefficient {@code a_n} of each row's loss in the differentiated sum (null = no gradients).
     */
    public record Problem(Tensor x, Tensor w, double[] bias, long[] targets, Tensor probs, double[] classWeight,
            double[] rowScale, int chunk, boolean needX, boolean needW, boolean needBias) {}

    /** Per-row losses (unscaled) and the gradients asked for (null otherwise), in the compute dtype. */
    public record Result(double[] rowLoss, Tensor gradX, Tensor gradW, Tensor gradBias) {}

    public static Result run(Problem p) {
        boolean dbl = p.x().dtype() == DType.FLOAT64;
        DType dt = dbl ? DType.FLOAT64 : DType.FLOAT32;
        int n = Math.toIntExact(p.x().size(0)), f = Math.toIntExact(p.x().size(1)), c = Math.toIntExact(p.w().size(0));
        boolean grads = p.rowScale() != null;
        Tensor gx = grads && p.needX() ? Tensor.empty(new long[] {n, f}, dt, Device.CPU) : null;
        Tensor gw = grads && p.needW() ? Tensor.empty(new long[] {c, f}, dt, Device.CPU) : null;
        double[] gb = grads && p.needBias() ? new double[c] : null;
        double[] rowLoss = new double[n];
        int chunk = Math.max(1, Math.min(p.chunk(), Math.max(n, 1)));
        long bufLen = (long) chunk * c;
        if (bufLen > Integer.MAX_VALUE - 16) throw new IllegalArgumentException("linear_cross_entropy: a chunk of " + chunk
                + " rows x " + c + " classes exceeds the largest Java array; use a smaller batch_chunk_size");
        Object zArr = n == 0 ? null : dbl ? new double[(int) bufLen] : new float[(int) bufLen];
        MemorySegment z = zArr == null ? null : dbl ? MemorySegment.ofArray((double[]) zArr) : MemorySegment.ofArray((float[]) zArr);
        Object tArr = n == 0 || !grads ? null : dbl ? new double[chunk * f] : new float[chunk * f];
        MemorySegment tz = tArr == null ? null : dbl ? MemorySegment.ofArray((double[]) tArr) : MemorySegment.ofArray((float[]) tArr);
        MemorySegment xs = p.x().storage().segment(), ws = p.w().storage().segment();
        long xo = p.x().storageOffset(), wo = p.w().storageOffset();
        for (int s = 0; s < n; s += chunk) {
            int rows = Math.min(chunk, n - s), start = s;
            if (p.bias() != null) fillBias(zArr, rows, c, p.bias());
            gemm(dbl, Transpose.NONE, Transpose.TRANSPOSE, rows, c, f, xs, xo + (long) s * f, f, ws, wo, f,
                    p.bias() != null ? 1 : 0, z, 0, c);
            Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / Math.max(c, 1)), (r0, r1) -> {
                for (int r = (int) r0; r < r1; r++) rowLoss[start + r] = row(p, zArr, r, start + r, c, grads);
            });
            if (!grads) continue;
            if (gx != null) {
                // ∂X_r = G W, computed as its transpose Wᵀ Gᵀ: OpenBLAS runs this skinny, long-k product several times
                // faster in that orientation here (measured); the (F × rows) result is then transposed into place.
                gemm(dbl, Transpose.TRANSPOSE, Transpose.TRANSPOSE, f, rows, c, ws, wo, f, z, 0, c, 0, tz, 0, rows);
                transposeInto(tArr, rows, f, gx.storage().array(), s);
            }
            if (gw != null) {
                gemm(dbl, Transpose.TRANSPOSE, Transpose.NONE, c, f, rows, z, 0, c, xs, xo + (long) s * f, f, s == 0 ? 0 : 1,
                        gw.storage().segment(), 0, f);
            }
            if (gb != null) columnSums(zArr, rows, c, gb);
        }
        Tensor gbT = null;
        if (gb != null) {
            gbT = Tensor.empty(new long[] {c}, dt, Device.CPU);
            if (dbl) System.arraycopy(gb, 0, gbT.storage().doubles(), 0, c);
            else for (int i = 0; i < c; i++) gbT.storage().floats()[i] = (float) gb[i];
        }
        return new Result(rowLoss, gx, gw, gbT);
    }

    /** One row's loss; with {@code grads}, also replaces the row's logits by {@code a_n ·∂loss_n/∂z}. */
    private static double row(Problem p, Object z, int r, int n, int c, boolean grads) {
        double a = grads ? p.rowScale()[n] : 0;
        int o = r * c;
        if (p.targets() != null) {
            int y = (int) p.targets()[n];
            double wy = y < 0 ? 0 : p.classWeight() == null ? 1 : p.classWeight()[y];
            if (y < 0) {
                // ignored: no loss, and a zero gradient row (the buffer still holds logits)
                if (grads) {
                    if (z instanceof float[] zf) Arrays.fill(zf, o, o + c, 0f);
                    else Arrays.fill((double[]) z, o, o + c, 0.0);
                }
                return 0;
            }
            return z instanceof float[] zf ? indexRow(zf, o, c, y, wy, a * wy, grads)
                    : indexRow((double[]) z, o, c, y, wy, a * wy, grads);
        }
        int to = Math.toIntExact(p.probs().storageOffset() + (long) n * c);
        return z instanceof float[] zf ? probRow(zf, o, c, p.probs().storage().floats(), to, p.classWeight(), a, grads)
                : probRow((double[]) z, o, c, p.probs().storage().doubles(), to, p.classWeight(), a, grads);
    }

    /** float32 rows run on the vector kernels: shift by the max, exp in place, sum, scale in place. */
    private static double indexRow(float[] z, int o, int c, int y, double wy, double coef, boolean grads) {
        float m = FloatSimd.max(z, o, c);
        double zy = z[o + y];
        double s = expShifted(z, o, c, m);
        if (grads) {
            FloatSimd.binaryScalarRight(FloatSimd.Binary.MUL, z, o, (float) (coef / s), z, o, c);
            z[o + y] -= (float) coef;
        }
        return wy * (m + Math.log(s) - zy);
    }

    /** {@code z[i] = exp(z[i] - m)} over the row; returns the sum. */
    private static double expShifted(float[] z, int o, int c, float m) {
        FloatSimd.binaryScalarRight(FloatSimd.Binary.SUB, z, o, m, z, o, c);
        FloatSimd.unary(FloatSimd.Unary.EXP, z, o, z, o, c);
        return FloatSimd.sum(z, o, c);
    }

    private static double indexRow(double[] z, int o, int c, int y, double wy, double coef, boolean grads) {
        double m = Double.NEGATIVE_INFINITY;
        for (int i = o; i < o + c; i++) m = Math.max(m, z[i]);
        double zy = z[o + y], s = 0;
        if (grads) {
            for (int i = o; i < o + c; i++) {
                double e = Math.exp(z[i] - m);
                z[i] = e;
                s += e;
            }
            double k = coef / s;
            for (int i = o; i < o + c; i++) z[i] *= k;
            z[o + y] -= coef;
        } else {
            for (int i = o; i < o + c; i++) s += Math.exp(z[i] - m);
        }
        return wy * (m + Math.log(s) - zy);
    }

    private static double probRow(float[] z, int o, int c, float[] t, int to, double[] cw, double a, boolean grads) {
        double sumWt = 0, dot = 0;
        for (int i = 0; i < c; i++) {
            double wt = cw == null ? t[to + i] : cw[i] * t[to + i];
            sumWt += wt;
            dot += wt * z[o + i];
        }
        float m = FloatSimd.max(z, o, c);
        double s = expShifted(z, o, c, m);
        if (grads) {
            double k = a * sumWt / s;
            for (int i = 0; i < c; i++) {
                double wt = cw == null ? t[to + i] : cw[i] * t[to + i];
                z[o + i] = (float) (k * z[o + i] - a * wt);
            }
        }
        return sumWt * (m + Math.log(s)) - dot;
    }

    private static double probRow(double[] z, int o, int c, double[] t, int to, double[] cw, double a, boolean grads) {
        double m = Double.NEGATIVE_INFINITY, sumWt = 0, dot = 0, s = 0;
        for (int i = 0; i < c; i++) {
            double wt = cw == null ? t[to + i] : cw[i] * t[to + i];
            sumWt += wt;
            dot += wt * z[o + i];
            m = Math.max(m, z[o + i]);
        }
        for (int i = o; i < o + c; i++) {
            double e = Math.exp(z[i] - m);
            if (grads) z[i] = e;
            s += e;
        }
        if (grads) {
            double k = a * sumWt / s;
            for (int i = 0; i < c; i++) {
                double wt = cw == null ? t[to + i] : cw[i] * t[to + i];
                z[o + i] = k * z[o + i] - a * wt;
            }
        }
        return sumWt * (m + Math.log(s)) - dot;
    }

    /** {@code out[(s + r) * f + j] = t[j * rows + r]}: the (f × rows) block {@code t} as rows {@code s..} of (· × f) {@code out}. */
    private static void transposeInto(Object t, int rows, int f, Object out, int s) {
        if (t instanceof float[] tf) {
            float[] of = (float[]) out;
            for (int r = 0; r < rows; r++) for (int j = 0, o = (s + r) * f; j < f; j++) of[o + j] = tf[j * rows + r];
        } else {
            double[] td = (double[]) t, od = (double[]) out;
            for (int r = 0; r < rows; r++) for (int j = 0, o = (s + r) * f; j < f; j++) od[o + j] = td[j * rows + r];
        }
    }

    private static void fillBias(Object z, int rows, int c, double[] bias) {
        if (z instanceof float[] zf) {
            for (int i = 0; i < c; i++) zf[i] = (float) bias[i];
            for (int r = 1; r < rows; r++) System.arraycopy(zf, 0, zf, r * c, c);
        } else {
            double[] zd = (double[]) z;
            System.arraycopy(bias, 0, zd, 0, c);
            for (int r = 1; r < rows; r++) System.arraycopy(zd, 0, zd, r * c, c);
        }
    }

    /** {@code acc[j] += Σ_r z[r, j]}, split over column ranges so threads never share an accumulator. */
    private static void columnSums(Object z, int rows, int c, double[] acc) {
        Parallel.forRange(c, Math.max(1, Parallel.GRAIN / Math.max(rows, 1)), (c0, c1) -> {
            for (int r = 0; r < rows; r++) {
                int o = r * c;
                if (z instanceof float[] zf) for (int j = (int) c0; j < c1; j++) acc[j] += zf[o + j];
                else for (int j = (int) c0; j < c1; j++) acc[j] += ((double[]) z)[o + j];
            }
        });
    }

    /** Row-major {@code C = op(A)·op(B) + beta·C}: OpenBLAS when present, the Java GEMM otherwise. */
    private static void gemm(boolean dbl, Transpose ta, Transpose tb, int m, int n, int k, MemorySegment a, long ao, int lda,
            MemorySegment b, long bo, int ldb, double beta, MemorySegment c, long co, int ldc) {
        if (m == 0 || n == 0) return;
        if (k > 0 && OpenBlas.isAvailable()) {
            if (dbl) OpenBlas.dgemm(ta, tb, m, n, k, 1.0, a, ao, lda, b, bo, ldb, beta, c, co, ldc);
            else OpenBlas.sgemm(ta, tb, m, n, k, 1f, a, ao, lda, b, bo, ldb, (float) beta, c, co, ldc);
            return;
        }
        DType dt = dbl ? DType.FLOAT64 : DType.FLOAT32;
        boolean tA = ta != Transpose.NONE, tB = tb != Transpose.NONE;
        JavaGemm.gemm(1, m, n, k, Scalar.of(1.0), Scalar.of(beta),
                new JavaGemm.Operand(a, dt, ao, 0, tA ? 1 : lda, tA ? lda : 1),
                new JavaGemm.Operand(b, dt, bo, 0, tB ? 1 : ldb, tB ? ldb : 1),
                new JavaGemm.Operand(c, dt, co, 0, ldc, 1), false);
    }
}
