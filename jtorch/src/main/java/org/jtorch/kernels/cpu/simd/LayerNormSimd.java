package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Float32 layer normalisation over one contiguous row, in vector loops: the forward row (mean, reciprocal standard
 * deviation, normalised and affine output in two passes after the mean), the input gradient of one row, and the
 * per-column sums that make the weight and bias gradients. Sums are float, in fixed lane order
 * ({@link FloatSimd#laneSum}), so results do not depend on the thread that ran the row.
 */
public final class LayerNormSimd {
    private LayerNormSimd() {}

    private static final VectorSpecies<Float> S = FloatSimd.SPECIES;

    /**
     * Normalises {@code x[xo .. xo+n)} into {@code out[oo ..)}, with {@code w}/{@code b} (null = absent) applied from
     * {@code wo}/{@code bo}; stores the row's mean and reciprocal standard deviation {@code 1/sqrt(var + eps)} (biased
     * variance) in {@code mean[mi]} and {@code rstd[ri]}.
     */
    public static void forwardRow(
            float[] x,
            int xo,
            float[] w,
            int wo,
            float[] b,
            int bo,
            float[] out,
            int oo,
            int n,
            float eps,
            float[] mean,
            int mi,
            float[] rstd,
            int ri) {
        if (n == 0) {
            mean[mi] = 0;
            rstd[ri] = Float.NaN; // 0/0 variance, as ATen's kernel reports it
            return;
        }
        float mu = (float) (FloatSimd.sum(x, xo, n) / n);
        FloatVector m = FloatVector.broadcast(S, mu);
        FloatVector acc = FloatVector.zero(S);
        int bound = S.loopBound(n), i = 0;
        for (; i < bound; i += S.length()) {
            FloatVector d = FloatVector.fromArray(S, x, xo + i).sub(m);
            acc = d.fma(d, acc);
        }
        double ss = FloatSimd.laneSum(acc);
        for (; i < n; i++) {
            float d = x[xo + i] - mu;
            ss += d * d;
        }
        float r = (float) (1 / Math.sqrt((float) (ss / n) + eps));
        mean[mi] = mu;
        rstd[ri] = r;
        FloatVector rv = FloatVector.broadcast(S, r);
        for (i = 0; i < bound; i += S.length()) {
            FloatVector y = FloatVector.fromArray(S, x, xo + i).sub(m).mul(rv);
            if (w != null) y = y.mul(FloatVector.fromArray(S, w, wo + i));
            if (b != null) y = y.add(FloatVector.fromArray(S, b, bo + i));
            y.intoArray(out, oo + i);
        }
        for (; i < n; i++) {
            float y = (x[xo + i] - mu) * r;
            if (w != null) y *= w[wo + i];
            if (b != null) y += b[bo + i];
            out[oo + i] = y;
        }
    }

    /**
     * The input gradient of one row: with {@code xhat = (x - mean)·rstd} and {@code u = g·w}, {@code dx = rstd·(u -
     * mean(u) - xhat·mean(u·xhat))}.
     */
    public static void inputGradRow(
            float[] g, int go, float[] x, int xo, float mu, float r, float[] w, int wo, float[] dx, int dxo, int n) {
        FloatVector m = FloatVector.broadcast(S, mu), rv = FloatVector.broadcast(S, r);
        FloatVector accU = FloatVector.zero(S), accUx = accU;
        int bound = S.loopBound(n), i = 0;
        for (; i < bound; i += S.length()) {
            FloatVector u = FloatVector.fromArray(S, g, go + i);
            if (w != null) u = u.mul(FloatVector.fromArray(S, w, wo + i));
            FloatVector xhat = FloatVector.fromArray(S, x, xo + i).sub(m).mul(rv);
            accU = accU.add(u);
            accUx = u.fma(xhat, accUx);
        }
        double su = FloatSimd.laneSum(accU), sux = FloatSimd.laneSum(accUx);
        for (; i < n; i++) {
            float u = w != null ? g[go + i] * w[wo + i] : g[go + i];
            su += u;
            sux += u * ((x[xo + i] - mu) * r);
        }
        float meanU = (float) (su / n), meanUx = (float) (sux / n);
        FloatVector mu1 = FloatVector.broadcast(S, meanU), mux = FloatVector.broadcast(S, meanUx);
        for (i = 0; i < bound; i += S.length()) {
            FloatVector u = FloatVector.fromArray(S, g, go + i);
            if (w != null) u = u.mul(FloatVector.fromArray(S, w, wo + i));
            FloatVector xhat = FloatVector.fromArray(S, x, xo + i).sub(m).mul(rv);
            u.sub(mu1).sub(xhat.mul(mux)).mul(rv).intoArray(dx, dxo + i);
        }
        for (; i < n; i++) {
            float u = w != null ? g[go + i] * w[wo + i] : g[go + i];
            float xhat = (x[xo + i] - mu) * r;
            dx[dxo + i] = (u - meanU - xhat * meanUx) * r;
        }
    }

    /**
     * Adds one row's contribution to the weight and bias gradients: {@code dw[d + c] += g[c]·xhat[c]}, {@code db[d + c]
     * += g[c]} for {@code c} in {@code [0, n)} (either array may be null).
     */
    public static void accumulateColumns(
            float[] g, int go, float[] x, int xo, float mu, float r, float[] dw, float[] db, int d, int n) {
        FloatVector m = FloatVector.broadcast(S, mu), rv = FloatVector.broadcast(S, r);
        int c = 0, bound = S.loopBound(n);
        for (; c < bound; c += S.length()) {
            FloatVector gv = FloatVector.fromArray(S, g, go + c);
            if (dw != null) {
                FloatVector xhat = FloatVector.fromArray(S, x, xo + c).sub(m).mul(rv);
                gv.fma(xhat, FloatVector.fromArray(S, dw, d + c)).intoArray(dw, d + c);
            }
            if (db != null) gv.add(FloatVector.fromArray(S, db, d + c)).intoArray(db, d + c);
        }
        for (; c < n; c++) {
            if (dw != null) dw[d + c] += g[go + c] * ((x[xo + c] - mu) * r);
            if (db != null) db[d + c] += g[go + c];
        }
    }
}
