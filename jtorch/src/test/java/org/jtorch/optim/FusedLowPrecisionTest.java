package org.jtorch.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.storage.LowPrecision;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fused CPU SGD/Adagrad/Adam kernels on one parameter group mixing float32, float16, bfloat16 and float64
 * parameters (spec §3.4, the 2.14 fixes): every element is updated (sizes around the vector width and the scratch
 * block), arithmetic is float32 with one rounding to the parameter dtype per step, and momentum buffers / sums are
 * stored in the parameter dtype and read back as float32. The reference is a scalar loop written here with exactly
 * those rules, so any skipped block, any read of a buffer with the wrong conversion or any arithmetic in half precision
 * shows as a mismatch.
 */
class FusedLowPrecisionTest {
    static final List<DType> DTYPES = List.of(DType.FLOAT32, DType.FLOAT16, DType.BFLOAT16, DType.FLOAT64);
    static final int STEPS = 3;

    /** The value a float takes once stored in {@code d} (the one rounding of the fused kernels). */
    static double store(DType d, double v) {
        return switch (d) {
            case FLOAT16 -> LowPrecision.halfToFloat(LowPrecision.floatToHalf((float) v));
            case BFLOAT16 -> LowPrecision.bfloat16ToFloat(LowPrecision.floatToBFloat16((float) v));
            case FLOAT32 -> (float) v;
            default -> v;
        };
    }

    static Tensor filled(DType d, int n, DoubleUnaryOperator f) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = store(d, f.applyAsDouble(i));
        return Torch.tensor(v).to(d);
    }

    static double[] param0(DType d, int n) {
        return filled(d, n, i -> 0.5 + 0.25 * Math.sin(i)).toDoubleArray();
    }

    static double[] grad0(DType d, int n) {
        return filled(d, n, i -> 0.3 * Math.cos(0.7 * i) - 0.05).toDoubleArray();
    }

    /** Parameters (one per dtype) with fixed gradients that stay the same for every step. */
    static List<Tensor> params(int n) {
        return DTYPES.stream()
                .map(d -> {
                    Tensor p = filled(d, n, i -> 0.5 + 0.25 * Math.sin(i)).requiresGrad(true);
                    p.setGrad(filled(d, n, i -> 0.3 * Math.cos(0.7 * i) - 0.05));
                    return p;
                })
                .toList();
    }

    static void assertMatches(List<Tensor> params, double[][] expected, int n) {
        for (int k = 0; k < DTYPES.size(); k++) {
            double[] got = params.get(k).toDoubleArray(), start = param0(DTYPES.get(k), n);
            int moved = 0;
            for (int i = 0; i < n; i++) {
                assertEquals(expected[k][i], got[i], 0.0, DTYPES.get(k) + " element " + i);
                if (got[i] != start[i]) moved++;
            }
            // The data are chosen so that (nearly) every update survives rounding to the parameter dtype.
            assertTrue(moved >= 0.9 * n, DTYPES.get(k) + ": only " + moved + " of " + n + " elements moved");
        }
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {8, 9, 64, 65, 4096})
    void sgdMomentum(int n) {
        double lr = 0.1, momentum = 0.9, dampening = 0.1, wd = 0.01;
        List<Tensor> params = params(n);
        SGD opt = new SGD(
                params,
                SGD.Options.defaults()
                        .lr(lr)
                        .momentum(momentum)
                        .dampening(dampening)
                        .weightDecay(wd)
                        .fused(true));
        for (int s = 0; s < STEPS; s++) opt.step();
        double[][] expected = new double[DTYPES.size()][];
        for (int k = 0; k < DTYPES.size(); k++) {
            DType d = DTYPES.get(k);
            double[] p = param0(d, n), g = grad0(d, n), buf = new double[n];
            for (int s = 0; s < STEPS; s++) {
                for (int i = 0; i < n; i++) {
                    if (d == DType.FLOAT64) {
                        double gv = g[i] + p[i] * wd;
                        buf[i] = s == 0 ? gv : buf[i] * momentum + gv * (1 - dampening);
                        p[i] = p[i] - buf[i] * lr;
                    } else {
                        float pv = (float) p[i], gv = (float) g[i] + pv * (float) wd;
                        float b = s == 0 ? gv : (float) buf[i] * (float) momentum + gv * (1f - (float) dampening);
                        buf[i] = store(d, b);
                        p[i] = store(d, pv - b * (float) lr);
                    }
                }
            }
            expected[k] = p;
            double[] storedBuf = ((Tensor) opt.state(params.get(k)).get("momentum_buffer")).toDoubleArray();
            for (int i = 0; i < n; i++) assertEquals(buf[i], storedBuf[i], 0.0, d + " momentum_buffer " + i);
        }
        assertMatches(params, expected, n);
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {8, 9, 64, 65, 4096})
    void adagrad(int n) {
        double lr = 0.1, lrDecay = 0.05, wd = 0.01, eps = 1e-10, init = 0.1;
        List<Tensor> params = params(n);
        Adagrad opt = new Adagrad(
                params,
                Adagrad.Options.defaults()
                        .lr(lr)
                        .lrDecay(lrDecay)
                        .weightDecay(wd)
                        .initialAccumulatorValue(init)
                        .fused(true));
        for (int s = 0; s < STEPS; s++) opt.step();
        double[][] expected = new double[DTYPES.size()][];
        for (int k = 0; k < DTYPES.size(); k++) {
            DType d = DTYPES.get(k);
            double[] p = param0(d, n), g = grad0(d, n), sum = new double[n];
            java.util.Arrays.fill(sum, store(d, init));
            for (int s = 0; s < STEPS; s++) {
                double clr = lr / (1 + s * lrDecay);
                for (int i = 0; i < n; i++) {
                    if (d == DType.FLOAT64) {
                        double gv = g[i] + p[i] * wd;
                        sum[i] = sum[i] + gv * gv;
                        p[i] = p[i] - gv * clr / (Math.sqrt(sum[i]) + eps);
                    } else {
                        float pv = (float) p[i], gv = (float) g[i] + pv * (float) wd;
                        float sv = (float) sum[i] + gv * gv;
                        sum[i] = store(d, sv);
                        p[i] = store(d, pv - gv * (float) clr / ((float) Math.sqrt(sv) + (float) eps));
                    }
                }
            }
            expected[k] = p;
        }
        assertMatches(params, expected, n);
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {8, 65, 4096})
    void adamwLowPrecisionAgreesWithFloat32Math(int n) {
        double lr = 0.01, wd = 0.1;
        List<Tensor> params = params(n);
        AdamW opt = new AdamW(
                params,
                AdamW.Options.defaults().lr(lr).weightDecay(wd).amsgrad(true).fused(true));
        for (int s = 0; s < STEPS; s++) opt.step();
        double[][] expected = new double[DTYPES.size()][];
        for (int k = 0; k < DTYPES.size(); k++) {
            DType d = DTYPES.get(k);
            double[] p = param0(d, n), g = grad0(d, n), m = new double[n], v = new double[n], vmax = new double[n];
            for (int s = 1; s <= STEPS; s++) {
                double stepSize = lr / (1 - Math.pow(0.9, s)), bc2Sqrt = Math.sqrt(1 - Math.pow(0.999, s));
                for (int i = 0; i < n; i++) {
                    if (d == DType.FLOAT64) {
                        double pv = p[i] * (1 - lr * wd), gv = g[i];
                        m[i] = m[i] * 0.9 + gv * (1 - 0.9);
                        v[i] = v[i] * 0.999 + gv * gv * (1 - 0.999);
                        vmax[i] = Math.max(vmax[i], v[i]);
                        p[i] = pv - m[i] * stepSize / (Math.sqrt(vmax[i]) / bc2Sqrt + 1e-8);
                    } else {
                        float pv = (float) p[i] * (1f - (float) lr * (float) wd), gv = (float) g[i];
                        float mv = (float) m[i] * 0.9f + gv * (1f - 0.9f);
                        float vv = (float) v[i] * 0.999f + gv * gv * (1f - 0.999f);
                        float mx = Math.max((float) vmax[i], vv);
                        m[i] = store(d, mv);
                        v[i] = store(d, vv);
                        vmax[i] = store(d, mx);
                        p[i] = store(d, pv - mv * (float) stepSize / ((float) Math.sqrt(mx) / (float) bc2Sqrt + 1e-8f));
                    }
                }
            }
            expected[k] = p;
        }
        assertMatches(params, expected, n);
    }
}
