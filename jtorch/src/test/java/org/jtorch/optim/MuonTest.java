package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/**
 * Muon against values derived by hand from the specification's formulas (nn-optim.md §3.6): the learning-rate
 * adjustments, Newton–Schulz in exact float64 arithmetic against the worked examples and against a reference iteration
 * written here, the bfloat16 iteration against that reference and for near-orthogonality, full optimizer steps, and the
 * error cases.
 */
class MuonTest {
    private static final double A = 3.4445, B = -4.775, C = 2.0315;

    // ---- reference Newton–Schulz in plain double arithmetic ---------------------------------------------

    static double[][] referenceNs(double[][] g, double a, double b, double c, int steps, double eps) {
        boolean tall = g.length > g[0].length;
        double[][] x = tall ? transpose(g) : copy(g);
        double norm = 0;
        for (double[] row : x) for (double v : row) norm += v * v;
        double scale = Math.max(Math.sqrt(norm), eps);
        for (double[] row : x) for (int j = 0; j < row.length; j++) row[j] /= scale;
        for (int k = 0; k < steps; k++) {
            double[][] s = mul(x, transpose(x));
            double[][] ss = mul(s, s);
            double[][] poly = new double[s.length][s.length];
            for (int i = 0; i < s.length; i++)
                for (int j = 0; j < s.length; j++) poly[i][j] = b * s[i][j] + c * ss[i][j];
            double[][] px = mul(poly, x);
            for (int i = 0; i < x.length; i++) for (int j = 0; j < x[0].length; j++) x[i][j] = a * x[i][j] + px[i][j];
        }
        return tall ? transpose(x) : x;
    }

    /** Round to the nearest bfloat16 (ties to even), the rounding of every bfloat16 op. */
    static float bf16(float f) {
        if (Float.isNaN(f)) return f;
        int bits = Float.floatToRawIntBits(f);
        bits += 0x7FFF + ((bits >>> 16) & 1);
        return Float.intBitsToFloat(bits & 0xFFFF0000);
    }

    /**
     * The iteration as PyTorch runs it in bfloat16: every op computes in float32 (scalars as float32, matrix products
     * accumulated in float32) and rounds its result to bfloat16.
     */
    static double[][] referenceNsBf16(float[][] g, double a, double b, double c, int steps, double eps) {
        boolean tall = g.length > g[0].length;
        int n = tall ? g[0].length : g.length, m = tall ? g.length : g[0].length;
        float[][] x = new float[n][m];
        for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) x[i][j] = bf16(tall ? g[j][i] : g[i][j]);
        float sumSq = 0;
        for (float[] row : x) for (float v : row) sumSq += v * v;
        float norm = Math.max(bf16((float) Math.sqrt(sumSq)), bf16((float) eps));
        for (float[] row : x) for (int j = 0; j < m; j++) row[j] = bf16(row[j] / norm);
        float fa = (float) a, fb = (float) b, fc = (float) c;
        for (int k = 0; k < steps; k++) {
            float[][] s = mmBf16(x, transposeF(x));
            float[][] cs = scaleBf16(s, fc);
            float[][] css = mmBf16(cs, s);
            float[][] bs = scaleBf16(s, fb);
            float[][] poly = new float[n][n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) poly[i][j] = bf16(bs[i][j] + css[i][j]);
            float[][] px = mmBf16(poly, x);
            float[][] ax = scaleBf16(x, fa);
            for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) x[i][j] = bf16(ax[i][j] + px[i][j]);
        }
        double[][] out = new double[g.length][g[0].length];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                if (tall) out[j][i] = x[i][j];
                else out[i][j] = x[i][j];
            }
        return out;
    }

    private static float[][] mmBf16(float[][] p, float[][] q) {
        float[][] r = new float[p.length][q[0].length];
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < q[0].length; j++) {
                float acc = 0;
                for (int k = 0; k < q.length; k++) acc += p[i][k] * q[k][j];
                r[i][j] = bf16(acc);
            }
        }
        return r;
    }

    private static float[][] scaleBf16(float[][] p, float s) {
        float[][] r = new float[p.length][p[0].length];
        for (int i = 0; i < p.length; i++) for (int j = 0; j < p[0].length; j++) r[i][j] = bf16(p[i][j] * s);
        return r;
    }

    private static float[][] transposeF(float[][] m) {
        float[][] t = new float[m[0].length][m.length];
        for (int i = 0; i < m.length; i++) for (int j = 0; j < m[0].length; j++) t[j][i] = m[i][j];
        return t;
    }

    private static float[][] toFloat(double[][] m) {
        float[][] r = new float[m.length][m[0].length];
        for (int i = 0; i < m.length; i++) for (int j = 0; j < m[0].length; j++) r[i][j] = (float) m[i][j];
        return r;
    }

    private static double[][] mul(double[][] p, double[][] q) {
        double[][] r = new double[p.length][q[0].length];
        for (int i = 0; i < p.length; i++)
            for (int k = 0; k < q.length; k++) for (int j = 0; j < q[0].length; j++) r[i][j] += p[i][k] * q[k][j];
        return r;
    }

    private static double[][] transpose(double[][] m) {
        double[][] t = new double[m[0].length][m.length];
        for (int i = 0; i < m.length; i++) for (int j = 0; j < m[0].length; j++) t[j][i] = m[i][j];
        return t;
    }

    private static double[][] copy(double[][] m) {
        double[][] r = new double[m.length][];
        for (int i = 0; i < m.length; i++) r[i] = m[i].clone();
        return r;
    }

    private static double[][] rows(Tensor t) {
        double[] flat = t.toDoubleArray();
        int n = (int) t.size(0), m = (int) t.size(1);
        double[][] r = new double[n][m];
        for (int i = 0; i < n; i++) System.arraycopy(flat, i * m, r[i], 0, m);
        return r;
    }

    private static double[] flat(double[][] m) {
        return java.util.Arrays.stream(m)
                .flatMapToDouble(java.util.Arrays::stream)
                .toArray();
    }

    private static double[][] random(Random rnd, int n, int m) {
        double[][] r = new double[n][m];
        for (double[] row : r) for (int j = 0; j < m; j++) row[j] = rnd.nextGaussian();
        return r;
    }

    /** Eigenvalues of a symmetric matrix by cyclic Jacobi rotations. */
    static double[] symmetricEigenvalues(double[][] sym) {
        double[][] m = copy(sym);
        int n = m.length;
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            for (int p = 0; p < n; p++) for (int q = p + 1; q < n; q++) off += m[p][q] * m[p][q];
            if (off < 1e-30) break;
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    if (m[p][q] == 0) continue;
                    double theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
                    double t = Math.signum(theta == 0 ? 1 : theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    double cs = 1 / Math.sqrt(t * t + 1), sn = t * cs;
                    for (int k = 0; k < n; k++) {
                        double mkp = m[k][p], mkq = m[k][q];
                        m[k][p] = cs * mkp - sn * mkq;
                        m[k][q] = sn * mkp + cs * mkq;
                    }
                    for (int k = 0; k < n; k++) {
                        double mpk = m[p][k], mqk = m[q][k];
                        m[p][k] = cs * mpk - sn * mqk;
                        m[q][k] = sn * mpk + cs * mqk;
                    }
                }
            }
        }
        double[] ev = new double[n];
        for (int i = 0; i < n; i++) ev[i] = m[i][i];
        java.util.Arrays.sort(ev);
        return ev;
    }

    /** Singular values of an n×m matrix (n ≤ m): square roots of the eigenvalues of M Mᵀ. */
    static double[] singularValues(double[][] m) {
        double[][] mm = m.length <= m[0].length ? mul(m, transpose(m)) : mul(transpose(m), m);
        double[] ev = symmetricEigenvalues(mm);
        for (int i = 0; i < ev.length; i++) ev[i] = Math.sqrt(Math.max(ev[i], 0));
        return ev;
    }

    // ---- learning-rate adjustment -----------------------------------------------------------------------

    @Test
    void adjustedLearningRatesOfTheSpecTable() {
        // lr 0.02; columns original, match_rms_adamw, spectral_unclamped.
        long[][] shapes = {{4, 2}, {2, 4}, {64, 32}, {32, 64}, {3, 3}};
        double[][] want = {
            {0.0282843, 0.008, 0.0282843},
            {0.02, 0.008, 0.0141421},
            {0.0282843, 0.032, 0.0282843},
            {0.02, 0.032, 0.0141421},
            {0.02, 0.0069282, 0.02}
        };
        Muon.AdjustLrFn[] fns = Muon.AdjustLrFn.values();
        for (int i = 0; i < shapes.length; i++) {
            for (int f = 0; f < fns.length; f++) {
                assertEquals(
                        want[i][f],
                        fns[f].adjust(0.02, shapes[i][0], shapes[i][1]),
                        5e-8,
                        fns[f] + " " + shapes[i][0] + "x" + shapes[i][1]);
            }
        }
        assertEquals(Muon.AdjustLrFn.ORIGINAL, Muon.AdjustLrFn.of(null), "None means original");
        assertEquals(Muon.AdjustLrFn.SPECTRAL_UNCLAMPED, Muon.AdjustLrFn.of("spectral_unclamped"));
    }

    @Test
    void adjustLrFnScalesTheOrthogonalisedUpdate() {
        // With no decay and momentum 0 (u = g), θ' = θ - adjusted_lr · NS(g), NS computed the same way here.
        Tensor g = Torch.tensor(new double[][] {{1, 2, 0, 1}, {0, 1, 3, 1}});
        Tensor ortho = Muon.newtonSchulz(g, A, B, C, 5, 1e-7).to(DType.FLOAT64);
        for (String fn : new String[] {null, "original", "match_rms_adamw", "spectral_unclamped"}) {
            Tensor p = Torch.zeros(new long[] {2, 4}, DType.FLOAT64).requiresGrad(true);
            Muon opt = new Muon(
                    List.of(p),
                    Muon.Options.defaults()
                            .lr(0.02)
                            .weightDecay(0)
                            .momentum(0)
                            .nesterov(false)
                            .adjustLrFn(fn));
            p.setGrad(g.clone());
            opt.step();
            double adjusted = Muon.AdjustLrFn.of(fn).adjust(0.02, 2, 4);
            assertArrayEquals(ortho.mul(-adjusted).toDoubleArray(), p.toDoubleArray(), 1e-15, String.valueOf(fn));
        }
        assertEquals(
                0.02 * Math.sqrt(0.5),
                Muon.AdjustLrFn.SPECTRAL_UNCLAMPED.adjust(0.02, 2, 4),
                1e-17,
                "not clamped for wide matrices");
        assertEquals(0.02, Muon.AdjustLrFn.ORIGINAL.adjust(0.02, 2, 4), 0, "clamped at 1");
    }

    // ---- Newton–Schulz ----------------------------------------------------------------------------------

    @Test
    void float64IterationOfTheWorkedExamples() {
        Tensor g = Torch.tensor(new double[][] {{3, 0}, {0, 1}});
        double[][] diag = {
            {0.7518457, 0.9446720},
            {1.0484160, 0.7568009},
            {0.6818565, 1.0413907},
            {1.1343318, 0.6824685},
            {0.7530335, 1.1337062}
        };
        for (int steps = 1; steps <= 5; steps++) {
            double[] o =
                    Muon.newtonSchulz(g, A, B, C, steps, 1e-7, DType.FLOAT64).toDoubleArray();
            assertArrayEquals(new double[] {diag[steps - 1][0], 0, 0, diag[steps - 1][1]}, o, 5e-7, steps + " steps");
        }
        Tensor tall = Torch.tensor(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        Tensor o = Muon.newtonSchulz(tall, A, B, C, 5, 1e-7, DType.FLOAT64);
        assertArrayEquals(new long[] {3, 2}, o.shape());
        assertArrayEquals(
                new double[] {-0.4675186, 0.5734733, 0.0724323, 0.4094526, 0.6123831, 0.2454319},
                o.toDoubleArray(),
                5e-7);
        assertArrayEquals(new double[] {0.6979741, 0.8175728}, singularValues(rows(o)), 5e-7);
    }

    @Test
    void float64IterationMatchesTheReference() {
        Random rnd = new Random(7);
        int[][] shapes = {{5, 3}, {3, 7}, {4, 4}, {1, 6}, {6, 1}};
        for (int[] s : shapes) {
            double[][] g = random(rnd, s[0], s[1]);
            Tensor t = Torch.tensor(g);
            double[] want = flat(referenceNs(g, A, B, C, 5, 1e-7));
            assertArrayEquals(
                    want,
                    Muon.newtonSchulz(t, A, B, C, 5, 1e-7, DType.FLOAT64).toDoubleArray(),
                    1e-12,
                    s[0] + "x" + s[1]);
            // Other coefficients and step counts, and a transposed (non-contiguous) input.
            Tensor tt = Torch.tensor(transpose(g)).t();
            assertEquals(s[0] == 1 || s[1] == 1, tt.isContiguous());
            assertArrayEquals(
                    flat(referenceNs(g, 2.0, -1.5, 0.5, 3, 1e-7)),
                    Muon.newtonSchulz(tt, 2.0, -1.5, 0.5, 3, 1e-7, DType.FLOAT64)
                            .toDoubleArray(),
                    1e-12);
        }
    }

    @Test
    void bfloat16IterationFollowsTheReference() {
        Random rnd = new Random(11);
        for (int[] shape : new int[][] {{2, 2}, {6, 4}, {4, 9}, {16, 16}, {3, 1}}) {
            float[][] g = toFloat(random(rnd, shape[0], shape[1]));
            Tensor o = Muon.newtonSchulz(Torch.tensor(g), A, B, C, 5, 1e-7);
            assertEquals(DType.BFLOAT16, o.dtype(), "PyTorch returns the bfloat16 iterate");
            assertArrayEquals(new long[] {shape[0], shape[1]}, o.shape());
            String at = shape[0] + "x" + shape[1];
            // Op by op as PyTorch computes in bfloat16: equal up to the float32 summation order of the products.
            assertArrayEquals(flat(referenceNsBf16(g, A, B, C, 5, 1e-7)), o.toDoubleArray(), BF16_ITERATION_TOL, at);
            // Against exact arithmetic: bfloat16 keeps 8 significant bits, and the five steps amplify the
            // rounding (PyTorch's own bfloat16 result for [[1,0],[0,2],[1,1]] is 0.64 where float64 gives 0.60).
            double[][] gd = new double[shape[0]][shape[1]];
            for (int i = 0; i < shape[0]; i++) for (int j = 0; j < shape[1]; j++) gd[i][j] = g[i][j];
            assertArrayEquals(flat(referenceNs(gd, A, B, C, 5, 1e-7)), o.toDoubleArray(), 8e-2, at + " vs float64");
        }
        // The worked example: the specification expects agreement "within ~1e-2"; bfloat16 gives 0.78125 and
        // 1.140625 for 0.7530335 and 1.1337062 (PyTorch 1.13, which also rounds the scalars a, b, c to
        // bfloat16, gives 0.75 and 1.1640625): a few percent.
        double[] o = Muon.newtonSchulz(Torch.tensor(new double[][] {{3, 0}, {0, 1}}), A, B, C, 5, 1e-7)
                .toDoubleArray();
        assertArrayEquals(flat(referenceNsBf16(new float[][] {{3, 0}, {0, 1}}, A, B, C, 5, 1e-7)), o, 0);
        assertArrayEquals(new double[] {0.7530335, 0, 0, 1.1337062}, o, 4e-2);
    }

    /** A few bfloat16 ulps (2^-8 relative) at values of order one, for differences in float32 summation order. */
    private static final double BF16_ITERATION_TOL = 2e-2;

    @Test
    void outputIsNearlyOrthogonal() {
        // The quintic pushes every singular value into roughly [0.7, 1.2] (it does not converge to 1).
        Random rnd = new Random(3);
        for (int[] s : new int[][] {{8, 5}, {5, 8}, {12, 12}}) {
            double[][] g = random(rnd, s[0], s[1]);
            for (DType dtype : new DType[] {DType.FLOAT64, DType.BFLOAT16}) {
                Tensor o = Muon.newtonSchulz(Torch.tensor(g), A, B, C, 5, 1e-7, dtype);
                double[] sv = singularValues(rows(o.to(DType.FLOAT64)));
                assertEquals(Math.min(s[0], s[1]), sv.length);
                for (double v : sv)
                    assertTrue(v > 0.6 && v < 1.3, dtype + " " + s[0] + "x" + s[1] + " singular value " + v);
            }
        }
    }

    @Test
    void zeroGradientGivesZeroUpdate() {
        Tensor o = Muon.newtonSchulz(Torch.zeros(new long[] {3, 2}, DType.FLOAT32), A, B, C, 5, 1e-7);
        assertArrayEquals(new double[6], o.toDoubleArray(), 0, "the norm is clamped at eps, so no NaN");
    }

    @Test
    void newtonSchulzChecks() {
        Tensor g = Torch.ones(2, 2);
        assertEquals(
                "Number of steps must be less than 100 for computational efficiency",
                assertThrows(IllegalArgumentException.class, () -> Muon.newtonSchulz(g, A, B, C, 100, 1e-7))
                        .getMessage());
        assertEquals(
                "Input tensor gradient must be a 2D matrix",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Muon.newtonSchulz(Torch.ones(2, 2, 2), A, B, C, 5, 1e-7))
                        .getMessage());
        Tensor bf = Torch.tensor(new double[][] {{3, 0}, {0, 1}}).to(DType.BFLOAT16);
        double[] before = bf.toDoubleArray();
        Muon.newtonSchulz(bf, A, B, C, 5, 1e-7);
        assertArrayEquals(before, bf.toDoubleArray(), 0, "a bfloat16 input is not scaled in place");
    }

    // ---- optimizer steps --------------------------------------------------------------------------------

    @Test
    void oneFullStepOfTheWorkedExample() {
        // θ = I, g = diag(3, 1), lr 0.02, wd 0.1, μ 0.95, nesterov: buf = 0.05 g, u = 0.05 g + 0.95 buf = 0.0975 g,
        // θ' = 0.998 θ - 0.02 NS(u).
        Tensor p = Torch.eye(2, 2, DType.FLOAT64, org.jtorch.Device.CPU).requiresGrad(true);
        Muon opt = new Muon(List.of(p), Muon.Options.defaults().lr(0.02));
        Tensor g = Torch.tensor(new double[][] {{3, 0}, {0, 1}});
        p.setGrad(g.clone());
        opt.step();
        Tensor buf = (Tensor) opt.state(p).get("momentum_buffer");
        assertArrayEquals(new double[] {0.15, 0, 0, 0.05}, buf.toDoubleArray(), 1e-15); // 1 - 0.95 is 0.05 + 4e-17
        assertEquals(List.of("momentum_buffer"), List.copyOf(opt.state(p).keySet()));
        assertArrayEquals(
                new double[] {0.98293933, 0, 0, 0.97532588}, p.toDoubleArray(), 1e-3, "to 3 decimals with bf16 NS");
        // Exactly the formula, with the bf16 NS of u = diag(0.2925, 0.0975).
        Tensor u = Torch.tensor(new double[][] {{0.2925, 0}, {0, 0.0975}});
        double[] o = Muon.newtonSchulz(u, A, B, C, 5, 1e-7).toDoubleArray();
        assertArrayEquals(new double[] {0.998 - 0.02 * o[0], 0, 0, 0.998 - 0.02 * o[3]}, p.toDoubleArray(), 1e-15);
        // And the float64 NS gives the spec's digits.
        double[][] exact = referenceNs(new double[][] {{0.2925, 0}, {0, 0.0975}}, A, B, C, 5, 1e-7);
        assertEquals(0.98293933, 0.998 - 0.02 * exact[0][0], 1e-8);
        assertEquals(0.97532588, 0.998 - 0.02 * exact[1][1], 1e-8);
    }

    @Test
    void plainMomentumUsesTheBufferAndKeepsTheEmaForm() {
        Tensor p = Torch.zeros(new long[] {3, 2}, DType.FLOAT64).requiresGrad(true);
        Muon opt = new Muon(
                List.of(p),
                Muon.Options.defaults().lr(0.1).weightDecay(0).momentum(0.9).nesterov(false));
        double[][] g1 = {{1, 0}, {0, 2}, {1, 1}}, g2 = {{0, 1}, {1, 0}, {2, 0}};
        double w = 1 - 0.9;
        // buf1 = lerp(0, g1, w) = w g1; buf2 = lerp(buf1, g2, w) = buf1 + w (g2 - buf1) (EMA form); u = buf.
        double[][] buf1 = new double[3][2], buf2 = new double[3][2];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 2; j++) {
                buf1[i][j] = w * g1[i][j];
                buf2[i][j] = buf1[i][j] + w * (g2[i][j] - buf1[i][j]);
            }
        }
        p.setGrad(Torch.tensor(g1));
        opt.step();
        assertArrayEquals(flat(buf1), ((Tensor) opt.state(p).get("momentum_buffer")).toDoubleArray(), 1e-16);
        p.setGrad(Torch.tensor(g2));
        opt.step();
        assertArrayEquals(flat(buf2), ((Tensor) opt.state(p).get("momentum_buffer")).toDoubleArray(), 1e-16);
        assertArrayEquals(new double[] {0.09, 0.1, 0.1, 0.18, 0.29, 0.09}, flat(buf2), 1e-15, "0.09 g1 + 0.1 g2");
        double adjusted = 0.1 * Math.sqrt(1.5); // tall 3×2: sqrt(max(1, 3/2))
        // bfloat16 is not scale-invariant, so the iteration runs on the buffers themselves.
        double[] o1 = flat(referenceNsBf16(toFloat(buf1), A, B, C, 5, 1e-7)),
                o2 = flat(referenceNsBf16(toFloat(buf2), A, B, C, 5, 1e-7));
        double[] want = new double[6];
        for (int i = 0; i < 6; i++) want[i] = -adjusted * o1[i] - adjusted * o2[i];
        assertArrayEquals(want, p.toDoubleArray(), adjusted * 2 * BF16_ITERATION_TOL);
    }

    @Test
    void nesterovAndWeightDecayOverSeveralSteps() {
        Random rnd = new Random(5);
        double[][] theta = random(rnd, 2, 3);
        Tensor p = Torch.tensor(theta).requiresGrad(true);
        double lr = 0.05, wd = 0.2, mu = 0.8;
        Muon opt = new Muon(
                List.of(p), Muon.Options.defaults().lr(lr).weightDecay(wd).momentum(mu));
        double[][] buf = new double[2][3];
        double[][] want = copy(theta);
        for (int step = 0; step < 3; step++) {
            double[][] g = random(rnd, 2, 3);
            p.setGrad(Torch.tensor(g));
            opt.step();
            double[][] u = new double[2][3];
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 3; j++) {
                    buf[i][j] = mu * buf[i][j] + (1 - mu) * g[i][j];
                    u[i][j] = (1 - mu) * g[i][j] + mu * buf[i][j];
                }
            }
            double[][] o = referenceNsBf16(toFloat(u), A, B, C, 5, 1e-7);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 3; j++) want[i][j] = want[i][j] * (1 - lr * wd) - lr * o[i][j];
            assertArrayEquals(flat(buf), ((Tensor) opt.state(p).get("momentum_buffer")).toDoubleArray(), 1e-15);
            assertArrayEquals(flat(want), p.toDoubleArray(), (step + 1) * lr * BF16_ITERATION_TOL, "step " + step);
        }
    }

    @Test
    void float32ParametersStayFloat32() {
        Tensor p = Torch.ones(4, 3).requiresGrad(true);
        Muon opt = new Muon(List.of(p), Muon.Options.defaults());
        p.setGrad(Torch.ones(4, 3));
        opt.step();
        assertEquals(DType.FLOAT32, p.dtype());
        assertEquals(DType.FLOAT32, ((Tensor) opt.state(p).get("momentum_buffer")).dtype());
        assertTrue(p.toDoubleArray()[0] < 0.9999, "the update was applied");
    }

    @Test
    void addmmFormIsTheSameIteration() {
        Random rnd = new Random(9);
        double[][] g = random(rnd, 5, 3);
        Tensor a = Torch.zeros(new long[] {5, 3}, DType.FLOAT64).requiresGrad(true);
        Tensor b = Torch.zeros(new long[] {5, 3}, DType.FLOAT64).requiresGrad(true);
        Muon plain = new Muon(List.of(a), Muon.Options.defaults().lr(0.1).weightDecay(0));
        Muon fused = new Muon(
                List.of(b), Muon.Options.defaults().lr(0.1).weightDecay(0).useAddmm(true));
        a.setGrad(Torch.tensor(g));
        b.setGrad(Torch.tensor(g));
        plain.step();
        fused.step();
        // addmm rounds once per fused product-and-sum instead of after each op: the same iteration up to
        // bfloat16 rounding.
        assertArrayEquals(a.toDoubleArray(), b.toDoubleArray(), 0.1 * Math.sqrt(5.0 / 3) * 8e-2);
    }

    @Test
    void parametersWithoutGradientsAreSkipped() {
        Tensor p = Torch.ones(2, 2).requiresGrad(true), q = Torch.ones(2, 2).requiresGrad(true);
        Muon opt = new Muon(List.of(p, q), Muon.Options.defaults());
        q.setGrad(Torch.ones(2, 2));
        opt.step();
        assertTrue(opt.state(p).isEmpty());
        assertArrayEquals(new double[] {1, 1, 1, 1}, p.toDoubleArray(), 0);
        assertEquals(List.of(1), List.copyOf(opt.stateDict().state().keySet()));
        Map<String, Object> group = opt.stateDict().paramGroups().get(0);
        assertEquals(
                List.of(
                        "lr",
                        "weight_decay",
                        "momentum",
                        "nesterov",
                        "ns_coefficients",
                        "eps",
                        "ns_steps",
                        "adjust_lr_fn",
                        "use_addmm",
                        "params"),
                List.copyOf(group.keySet()));
    }

    @Test
    void closureLossIsReturned() {
        Tensor p = Torch.ones(2, 2).requiresGrad(true);
        Muon opt = new Muon(List.of(p), Muon.Options.defaults());
        Tensor loss = opt.step(() -> {
            Tensor l = p.square().sum();
            l.backward();
            return l;
        });
        assertEquals(4.0, loss.item(), 0);
        assertTrue(opt.state(p).containsKey("momentum_buffer"));
    }

    // ---- errors -----------------------------------------------------------------------------------------

    @Test
    void onlyMatricesAreAccepted() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new Muon(
                        List.of(
                                Torch.ones(2, 2).requiresGrad(true),
                                Torch.ones(3).requiresGrad(true)),
                        Muon.Options.defaults()));
        assertEquals(
                "Muon only supports 2D parameters whereas we found a parameter with size: torch.Size([3])",
                e.getMessage());
        IllegalArgumentException e3 = assertThrows(
                IllegalArgumentException.class,
                () -> new Muon(
                        List.of(ParamGroup.of(Torch.ones(2, 3, 4).requiresGrad(true))), Muon.Options.defaults()));
        assertTrue(e3.getMessage().endsWith("torch.Size([2, 3, 4])"), e3.getMessage());
    }

    @Test
    void hyperParameterErrors() {
        List<Tensor> ps = List.of(Torch.ones(2, 2).requiresGrad(true));
        assertEquals(
                "Learning rate should be >= 0 but is: -0.1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Muon(ps, Muon.Options.defaults().lr(-0.1)))
                        .getMessage());
        assertEquals(
                "momentum should be >= 0 but is: -0.5",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Muon(ps, Muon.Options.defaults().momentum(-0.5)))
                        .getMessage());
        assertEquals(
                "weight decay should be >= 0 but is: -1.0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Muon(ps, Muon.Options.defaults().weightDecay(-1)))
                        .getMessage());
        assertEquals(
                "Adjust learning rate function bogus is not supported",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Muon(ps, Muon.Options.defaults().adjustLrFn("bogus")))
                        .getMessage());
        assertEquals(
                "Tensor lr must be 1-element",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Muon(ps, Muon.Options.defaults().lr(Torch.tensor(new double[] {0.1, 0.2}))))
                        .getMessage());
        new Muon(ps, Muon.Options.defaults().lr(Torch.scalarTensor(0.1))); // a one-element tensor lr is fine
    }

    @Test
    void stepTimeErrors() {
        Tensor p = Torch.ones(2, 2).requiresGrad(true);
        p.setGrad(Torch.ones(2, 2));
        Muon steps = new Muon(List.of(p), Muon.Options.defaults().nsSteps(100));
        assertEquals(
                "Number of steps must be less than 100 for computational efficiency",
                assertThrows(IllegalArgumentException.class, steps::step).getMessage());
        Muon coefficients = new Muon(List.of(p), Muon.Options.defaults().nsCoefficients(1.0, 2.0));
        assertEquals(
                "Coefficients must be a tuple of exactly 3 values",
                assertThrows(IllegalArgumentException.class, coefficients::step).getMessage());
        Tensor z = Torch.zeros(new long[] {2, 2}, DType.COMPLEX64).requiresGrad(true);
        z.setGrad(Torch.zeros(new long[] {2, 2}, DType.COMPLEX64));
        Muon complex = new Muon(List.of(z), Muon.Options.defaults());
        assertEquals(
                "Muon does not support complex parameters",
                assertThrows(TorchException.class, complex::step).getMessage());
    }
}
