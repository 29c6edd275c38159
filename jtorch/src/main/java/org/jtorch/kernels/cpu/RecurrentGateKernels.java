package org.jtorch.kernels.cpu;

import org.jtorch.DType;
import org.jtorch.kernels.cpu.simd.FloatGates;
import org.jtorch.storage.TensorImpl;

/**
 * The pointwise half of one recurrent time step, fused: each kernel reads a step's gate pre-activations (the input
 * projection plus the hidden product, already summed by the GEMMs), applies the gate nonlinearities, updates the state
 * and keeps what backward needs, row by row so that a row's gates (4·hidden floats for an LSTM) are read from memory
 * once and every later pass over them hits the cache; each backward kernel turns the gradient of a step's output into
 * the gradients of the pre-activations the same way. Gate layouts are PyTorch's: LSTM rows hold {@code i, f, g, o}
 * blocks of {@code hidden} columns, GRU rows {@code r, z, n}.
 *
 * <p>float32 evaluates sigmoid and tanh with the vector loops of {@link FloatGates} (a scalar {@code Math.tanh} per
 * element made the gate passes cost as much as the hidden GEMMs); float64 uses {@code Math.exp} and {@code Math.tanh}.
 * Every argument is a contiguous row-major heap tensor of one of those dtypes whose storage offset is the first row of
 * the step; {@code n} rows are processed, split by rows across the intra-op threads once a step is large enough.
 */
public final class RecurrentGateKernels {
    private RecurrentGateKernels() {}

    /** Gate evaluations per task: a sigmoid or tanh costs about as much as twenty multiply-adds. */
    private static final long GRAIN = Parallel.GRAIN / 8;

    /**
     * LSTM step: {@code gates} (n, 4H) holds the pre-activations and receives the activated {@code i, f, g, o};
     * {@code c = f·cPrev + i·g} goes to {@code cell} and {@code o·tanh(c)} to {@code out} (each (n, H)).
     */
    public static void lstmForward(TensorImpl gates, TensorImpl cPrev, TensorImpl cell, TensorImpl out, int n, int h) {
        if (isFloat(gates)) {
            lstmForwardF(f(gates), o(gates), f(cPrev), o(cPrev), f(cell), o(cell), f(out), o(out), n, h);
        } else {
            lstmForwardD(d(gates), o(gates), d(cPrev), o(cPrev), d(cell), o(cell), d(out), o(out), n, h);
        }
    }

    /**
     * LSTM step backward: from the gradient {@code dOut} of {@code o·tanh(c)} and {@code dCell} (the gradient reaching
     * c from later steps, replaced by the gradient of the previous cell state), with the activated {@code gates}, the
     * cell state {@code cell} and the previous one {@code cPrev}, writes the pre-activation gradients {@code dGates}.
     */
    public static void lstmBackward(
            TensorImpl dOut,
            TensorImpl dCell,
            TensorImpl gates,
            TensorImpl cell,
            TensorImpl cPrev,
            TensorImpl dGates,
            int n,
            int h) {
        if (isFloat(gates)) {
            lstmBackwardF(
                    f(dOut), o(dOut), f(dCell), o(dCell), f(gates), o(gates), f(cell), o(cell), f(cPrev), o(cPrev),
                    f(dGates), o(dGates), n, h);
        } else {
            lstmBackwardD(
                    d(dOut), o(dOut), d(dCell), o(dCell), d(gates), o(gates), d(cell), o(cell), d(cPrev), o(cPrev),
                    d(dGates), o(dGates), n, h);
        }
    }

    /**
     * GRU step: {@code input} (n, 3H) is the input projection with its bias and receives the activated {@code r, z, n};
     * {@code hidden} (n, 3H) is the hidden product without bias, {@code bias} ({@code bias_hh}, 3H, or null) is added
     * to it, and its {@code n} block keeps {@code W_hn h + b_hn}; {@code h' = (1 - z)·n + z·hPrev} goes to {@code out}.
     */
    public static void gruForward(
            TensorImpl input, TensorImpl hidden, TensorImpl bias, TensorImpl hPrev, TensorImpl out, int n, int h) {
        if (isFloat(input)) {
            gruForwardF(
                    f(input),
                    o(input),
                    f(hidden),
                    o(hidden),
                    bias == null ? null : f(bias),
                    bias == null ? 0 : o(bias),
                    f(hPrev),
                    o(hPrev),
                    f(out),
                    o(out),
                    n,
                    h);
        } else {
            gruForwardD(
                    d(input),
                    o(input),
                    d(hidden),
                    o(hidden),
                    bias == null ? null : d(bias),
                    bias == null ? 0 : o(bias),
                    d(hPrev),
                    o(hPrev),
                    d(out),
                    o(out),
                    n,
                    h);
        }
    }

    /**
     * GRU step backward: from {@code dOut} and what {@link #gruForward} kept, writes the gradients of the input-side
     * pre-activations {@code dInput}, of the hidden-side ones {@code dHidden} (each (n, 3H)) and the direct part
     * {@code dOut·z} of the previous state's gradient to {@code dPrev}.
     */
    public static void gruBackward(
            TensorImpl dOut,
            TensorImpl input,
            TensorImpl hidden,
            TensorImpl hPrev,
            TensorImpl dInput,
            TensorImpl dHidden,
            TensorImpl dPrev,
            int n,
            int h) {
        if (isFloat(input)) {
            gruBackwardF(
                    f(dOut),
                    o(dOut),
                    f(input),
                    o(input),
                    f(hidden),
                    o(hidden),
                    f(hPrev),
                    o(hPrev),
                    f(dInput),
                    o(dInput),
                    f(dHidden),
                    o(dHidden),
                    f(dPrev),
                    o(dPrev),
                    n,
                    h);
        } else {
            gruBackwardD(
                    d(dOut),
                    o(dOut),
                    d(input),
                    o(input),
                    d(hidden),
                    o(hidden),
                    d(hPrev),
                    o(hPrev),
                    d(dInput),
                    o(dInput),
                    d(dHidden),
                    o(dHidden),
                    d(dPrev),
                    o(dPrev),
                    n,
                    h);
        }
    }

    /** Elman step: {@code out = tanh(pre)} or {@code relu(pre)}, (n, H). */
    public static void rnnForward(TensorImpl pre, TensorImpl out, int n, int h, boolean relu) {
        if (isFloat(pre)) {
            rnnForwardF(f(pre), o(pre), f(out), o(out), n, h, relu);
        } else {
            rnnForwardD(d(pre), o(pre), d(out), o(out), n, h, relu);
        }
    }

    /** Elman step backward: {@code dPre = dOut · act'(pre)}, written from the step's output {@code out}. */
    public static void rnnBackward(TensorImpl dOut, TensorImpl out, TensorImpl dPre, int n, int h, boolean relu) {
        if (isFloat(out)) {
            rnnBackwardF(f(dOut), o(dOut), f(out), o(out), f(dPre), o(dPre), n, h, relu);
        } else {
            rnnBackwardD(d(dOut), o(dOut), d(out), o(out), d(dPre), o(dPre), n, h, relu);
        }
    }

    private static boolean isFloat(TensorImpl t) {
        if (t.dtype() == DType.FLOAT32) return true;
        if (t.dtype() == DType.FLOAT64) return false;
        throw new IllegalArgumentException("recurrent gate kernels take float32 or float64, got " + t.dtype());
    }

    private static float[] f(TensorImpl t) {
        return t.storage().floats();
    }

    private static double[] d(TensorImpl t) {
        return t.storage().doubles();
    }

    private static int o(TensorImpl t) {
        return Math.toIntExact(t.storageOffset());
    }

    /** Runs {@code body} over {@code n} rows, each worth {@code rowWork} gate evaluations. */
    private static void rows(int n, int rowWork, Parallel.RangeBody body) {
        Parallel.forRange(n, Math.max(1, GRAIN / Math.max(1, rowWork)), body);
    }

    // ---------------------------------------------------------------- LSTM

    private static void lstmForwardF(
            float[] g, int go, float[] cp, int cpo, float[] c, int co, float[] r, int ro, int n, int h) {
        rows(n, 8 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int gb = go + j * 4 * h, cb = j * h;
                FloatGates.sigmoid(g, gb, 2 * h); // i, f
                FloatGates.tanh(g, gb + 2 * h, h);
                FloatGates.sigmoid(g, gb + 3 * h, h); // o
                for (int k = 0; k < h; k++) {
                    float cell = g[gb + h + k] * cp[cpo + cb + k] + g[gb + k] * g[gb + 2 * h + k];
                    c[co + cb + k] = cell;
                    r[ro + cb + k] = cell;
                }
                FloatGates.tanh(r, ro + cb, h);
                for (int k = 0; k < h; k++) r[ro + cb + k] *= g[gb + 3 * h + k];
            }
        });
    }

    private static void lstmBackwardF(
            float[] dr,
            int dro,
            float[] dc,
            int dco,
            float[] g,
            int go,
            float[] c,
            int co,
            float[] cp,
            int cpo,
            float[] dg,
            int dgo,
            int n,
            int h) {
        rows(n, 8 * h, (s, e) -> {
            float[] tanhCell = new float[h];
            for (int j = (int) s; j < e; j++) {
                int gb = j * 4 * h, cb = j * h;
                System.arraycopy(c, co + cb, tanhCell, 0, h);
                FloatGates.tanh(tanhCell, 0, h);
                for (int k = 0; k < h; k++) {
                    float i = g[go + gb + k], f = g[go + gb + h + k], u = g[go + gb + 2 * h + k];
                    float o = g[go + gb + 3 * h + k];
                    float tc = tanhCell[k], d = dr[dro + cb + k];
                    float dcell = dc[dco + cb + k] + d * o * (1 - tc * tc);
                    dg[dgo + gb + k] = dcell * u * i * (1 - i);
                    dg[dgo + gb + h + k] = dcell * cp[cpo + cb + k] * f * (1 - f);
                    dg[dgo + gb + 2 * h + k] = dcell * i * (1 - u * u);
                    dg[dgo + gb + 3 * h + k] = d * tc * o * (1 - o);
                    dc[dco + cb + k] = dcell * f;
                }
            }
        });
    }

    // ---------------------------------------------------------------- GRU

    private static void gruForwardF(
            float[] gi,
            int gio,
            float[] gh,
            int gho,
            float[] bias,
            int bo,
            float[] hp,
            int hpo,
            float[] y,
            int yo,
            int n,
            int h) {
        rows(n, 6 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int ib = gio + j * 3 * h, hb = gho + j * 3 * h, ob = j * h;
                for (int k = 0; k < 2 * h; k++)
                    gi[ib + k] = gi[ib + k] + gh[hb + k] + (bias == null ? 0 : bias[bo + k]);
                FloatGates.sigmoid(gi, ib, 2 * h); // r, z
                for (int k = 0; k < h; k++) {
                    float hn = gh[hb + 2 * h + k] + (bias == null ? 0 : bias[bo + 2 * h + k]);
                    gh[hb + 2 * h + k] = hn;
                    gi[ib + 2 * h + k] = gi[ib + 2 * h + k] + gi[ib + k] * hn;
                }
                FloatGates.tanh(gi, ib + 2 * h, h); // n
                for (int k = 0; k < h; k++) {
                    float z = gi[ib + h + k], nn = gi[ib + 2 * h + k];
                    y[yo + ob + k] = (1 - z) * nn + z * hp[hpo + ob + k];
                }
            }
        });
    }

    private static void gruBackwardF(
            float[] dh,
            int dho,
            float[] gi,
            int gio,
            float[] gh,
            int gho,
            float[] hp,
            int hpo,
            float[] dgi,
            int dgio,
            float[] dgh,
            int dgho,
            float[] dhp,
            int dhpo,
            int n,
            int h) {
        rows(n, 6 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int gb = j * 3 * h, hb = j * h;
                for (int k = 0; k < h; k++) {
                    float r = gi[gio + gb + k], z = gi[gio + gb + h + k], nn = gi[gio + gb + 2 * h + k];
                    float hn = gh[gho + gb + 2 * h + k], d = dh[dho + hb + k];
                    float dnp = d * (1 - z) * (1 - nn * nn);
                    float dr = dnp * hn * r * (1 - r);
                    float dz = d * (hp[hpo + hb + k] - nn) * z * (1 - z);
                    dgi[dgio + gb + k] = dr;
                    dgi[dgio + gb + h + k] = dz;
                    dgi[dgio + gb + 2 * h + k] = dnp;
                    dgh[dgho + gb + k] = dr;
                    dgh[dgho + gb + h + k] = dz;
                    dgh[dgho + gb + 2 * h + k] = dnp * r;
                    dhp[dhpo + hb + k] = d * z;
                }
            }
        });
    }

    // ---------------------------------------------------------------- Elman RNN

    private static void rnnForwardF(float[] g, int go, float[] y, int yo, int n, int h, boolean relu) {
        rows(n, 2 * h, (s, e) -> {
            int from = (int) s * h, count = (int) (e - s) * h;
            if (relu) {
                for (int i = from; i < from + count; i++) {
                    float x = g[go + i];
                    y[yo + i] = x > 0 || x != x ? x : 0;
                }
            } else {
                System.arraycopy(g, go + from, y, yo + from, count);
                FloatGates.tanh(y, yo + from, count);
            }
        });
    }

    private static void rnnBackwardF(
            float[] dh, int dho, float[] y, int yo, float[] dg, int dgo, int n, int h, boolean relu) {
        rows(n, 2 * h, (s, e) -> {
            for (int i = (int) s * h; i < e * h; i++) {
                float v = y[yo + i];
                dg[dgo + i] = relu ? (v > 0 ? dh[dho + i] : 0) : dh[dho + i] * (1 - v * v);
            }
        });
    }

    // ---------------------------------------------------------------- LSTM

    private static void lstmForwardD(
            double[] g, int go, double[] cp, int cpo, double[] c, int co, double[] r, int ro, int n, int h) {
        rows(n, 8 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int gb = go + j * 4 * h, cb = j * h;
                for (int k = 0; k < h; k++) {
                    double i = sigmoidD(g[gb + k]), f = sigmoidD(g[gb + h + k]);
                    double u = tanhD(g[gb + 2 * h + k]), o = sigmoidD(g[gb + 3 * h + k]);
                    double cell = f * cp[cpo + cb + k] + i * u;
                    g[gb + k] = i;
                    g[gb + h + k] = f;
                    g[gb + 2 * h + k] = u;
                    g[gb + 3 * h + k] = o;
                    c[co + cb + k] = cell;
                    r[ro + cb + k] = o * tanhD(cell);
                }
            }
        });
    }

    private static void lstmBackwardD(
            double[] dr,
            int dro,
            double[] dc,
            int dco,
            double[] g,
            int go,
            double[] c,
            int co,
            double[] cp,
            int cpo,
            double[] dg,
            int dgo,
            int n,
            int h) {
        rows(n, 8 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int gb = j * 4 * h, cb = j * h;
                for (int k = 0; k < h; k++) {
                    double i = g[go + gb + k], f = g[go + gb + h + k], u = g[go + gb + 2 * h + k];
                    double o = g[go + gb + 3 * h + k];
                    double tc = tanhD(c[co + cb + k]), d = dr[dro + cb + k];
                    double dcell = dc[dco + cb + k] + d * o * (1 - tc * tc);
                    dg[dgo + gb + k] = dcell * u * i * (1 - i);
                    dg[dgo + gb + h + k] = dcell * cp[cpo + cb + k] * f * (1 - f);
                    dg[dgo + gb + 2 * h + k] = dcell * i * (1 - u * u);
                    dg[dgo + gb + 3 * h + k] = d * tc * o * (1 - o);
                    dc[dco + cb + k] = dcell * f;
                }
            }
        });
    }

    // ---------------------------------------------------------------- GRU

    private static void gruForwardD(
            double[] gi,
            int gio,
            double[] gh,
            int gho,
            double[] bias,
            int bo,
            double[] hp,
            int hpo,
            double[] y,
            int yo,
            int n,
            int h) {
        rows(n, 6 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int gb = j * 3 * h, hb = j * h;
                for (int k = 0; k < h; k++) {
                    double br = 0, bz = 0, bn = 0;
                    if (bias != null) {
                        br = bias[bo + k];
                        bz = bias[bo + h + k];
                        bn = bias[bo + 2 * h + k];
                    }
                    double r = sigmoidD(gi[gio + gb + k] + gh[gho + gb + k] + br);
                    double z = sigmoidD(gi[gio + gb + h + k] + gh[gho + gb + h + k] + bz);
                    double hn = gh[gho + gb + 2 * h + k] + bn;
                    double nn = tanhD(gi[gio + gb + 2 * h + k] + r * hn);
                    gi[gio + gb + k] = r;
                    gi[gio + gb + h + k] = z;
                    gi[gio + gb + 2 * h + k] = nn;
                    gh[gho + gb + 2 * h + k] = hn;
                    y[yo + hb + k] = (1 - z) * nn + z * hp[hpo + hb + k];
                }
            }
        });
    }

    private static void gruBackwardD(
            double[] dh,
            int dho,
            double[] gi,
            int gio,
            double[] gh,
            int gho,
            double[] hp,
            int hpo,
            double[] dgi,
            int dgio,
            double[] dgh,
            int dgho,
            double[] dhp,
            int dhpo,
            int n,
            int h) {
        rows(n, 6 * h, (s, e) -> {
            for (int j = (int) s; j < e; j++) {
                int gb = j * 3 * h, hb = j * h;
                for (int k = 0; k < h; k++) {
                    double r = gi[gio + gb + k], z = gi[gio + gb + h + k], nn = gi[gio + gb + 2 * h + k];
                    double hn = gh[gho + gb + 2 * h + k], d = dh[dho + hb + k];
                    double dnp = d * (1 - z) * (1 - nn * nn);
                    double dr = dnp * hn * r * (1 - r);
                    double dz = d * (hp[hpo + hb + k] - nn) * z * (1 - z);
                    dgi[dgio + gb + k] = dr;
                    dgi[dgio + gb + h + k] = dz;
                    dgi[dgio + gb + 2 * h + k] = dnp;
                    dgh[dgho + gb + k] = dr;
                    dgh[dgho + gb + h + k] = dz;
                    dgh[dgho + gb + 2 * h + k] = dnp * r;
                    dhp[dhpo + hb + k] = d * z;
                }
            }
        });
    }

    // ---------------------------------------------------------------- Elman RNN

    private static void rnnForwardD(double[] g, int go, double[] y, int yo, int n, int h, boolean relu) {
        rows(n, 2 * h, (s, e) -> {
            for (int i = (int) s * h; i < e * h; i++) {
                double x = g[go + i];
                y[yo + i] = relu ? (x > 0 || x != x ? x : 0) : tanhD(x);
            }
        });
    }

    private static void rnnBackwardD(
            double[] dh, int dho, double[] y, int yo, double[] dg, int dgo, int n, int h, boolean relu) {
        rows(n, 2 * h, (s, e) -> {
            for (int i = (int) s * h; i < e * h; i++) {
                double v = y[yo + i];
                dg[dgo + i] = relu ? (v > 0 ? dh[dho + i] : 0) : dh[dho + i] * (1 - v * v);
            }
        });
    }

    private static double sigmoidD(double x) {
        return (1 / (1 + Math.exp(-x)));
    }

    private static double tanhD(double x) {
        return Math.tanh(x);
    }
}
