package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.kernels.cpu.simd.MultiTensorSimd;
import org.jtorch.storage.TensorImpl;

/**
 * Multi-tensor kernels: one parallel loop over the elements of many tensors at once (PyTorch's
 * {@code multi_tensor_apply}). The tensors of one call are laid end to end and the concatenated range is split by
 * {@link Parallel#forRange}, so a list of many small tensors costs one fork/join rather than one per tensor, and a few
 * large tensors are still split across threads.
 *
 * <p>The foreach loops take dense (contiguous, heap) float32 tensors only; callers route other layouts and dtypes to
 * the per-tensor kernels. The fused optimizer steps take any floating dtype and layout: float32 dense tensors are
 * updated in place, float64 is computed in double, and everything else (float16, bfloat16, strided tensors) is loaded
 * block by block into float scratch arrays, updated in float (the op-math type) and rounded once on the way back, as
 * PyTorch 2.14+ does.
 */
public final class ForeachLoops {
    private ForeachLoops() {}

    /** Elements per task for these few-flop-per-element loops. */
    private static final long GRAIN = Parallel.GRAIN * 2;
    /** Elements per scratch block on the converting path. */
    private static final int BLOCK = 2048;

    /** A piece of one tensor's elements, {@code [from, from + length)} in row-major order. */
    @FunctionalInterface
    public interface RangeBody {
        void run(int tensor, long from, int length);
    }

    /** Runs {@code body} over every element of every tensor, in parallel over the concatenated range. */
    public static void forEachRange(TensorImpl[] tensors, long grain, RangeBody body) {
        int n = tensors.length;
        long[] starts = new long[n + 1];
        for (int i = 0; i < n; i++) starts[i + 1] = starts[i] + tensors[i].numel();
        Parallel.forRange(starts[n], grain, (s, e) -> {
            int t = Arrays.binarySearch(starts, s);
            t = t >= 0 ? t : -t - 2;
            for (; t < n && starts[t] < e; t++) {
                long from = Math.max(s, starts[t]), to = Math.min(e, starts[t + 1]);
                if (to > from) body.run(t, from - starts[t], (int) (to - from));
            }
        });
    }

    /** Whether the foreach fast loops can take {@code t}: float32, contiguous, on a heap array. */
    public static boolean isDenseFloat(TensorImpl t) {
        return t.dtype() == DType.FLOAT32 && t.isContiguous() && t.storage().array() != null;
    }

    private static float[] arr(TensorImpl t) {
        return t.storage().floats();
    }

    private static int off(TensorImpl t, long from) {
        return (int) (t.storageOffset() + from);
    }

    // ---- foreach ops (dense float32) ----------------------------------------------------------------------

    /** {@code out[i] = op(x[i])}. */
    public static void unary(FloatSimd.Unary op, TensorImpl[] out, TensorImpl[] x) {
        forEachRange(
                out,
                GRAIN / 4,
                (t, f, n) -> FloatSimd.unary(op, arr(x[t]), off(x[t], f), arr(out[t]), off(out[t], f), n));
    }

    /** {@code out[i] = op(a[i], s[i])}: one scalar per position. */
    public static void binaryScalar(FloatSimd.Binary op, TensorImpl[] out, TensorImpl[] a, float[] s) {
        forEachRange(
                out,
                GRAIN,
                (t, f, n) ->
                        FloatSimd.binaryScalarRight(op, arr(a[t]), off(a[t], f), s[t], arr(out[t]), off(out[t], f), n));
    }

    /** {@code out[i] = op(a[i], b[i])}, same shapes. */
    public static void binaryList(FloatSimd.Binary op, TensorImpl[] out, TensorImpl[] a, TensorImpl[] b) {
        forEachRange(
                out,
                GRAIN,
                (t, f, n) -> FloatSimd.binary(
                        op, arr(a[t]), off(a[t], f), arr(b[t]), off(b[t], f), arr(out[t]), off(out[t], f), n));
    }

    /** {@code out[i] = a[i] + alpha * b[i]}. */
    public static void axpy(TensorImpl[] out, TensorImpl[] a, TensorImpl[] b, float alpha) {
        forEachRange(
                out,
                GRAIN,
                (t, f, n) -> MultiTensorSimd.axpy(
                        arr(a[t]), off(a[t], f), arr(b[t]), off(b[t], f), alpha, arr(out[t]), off(out[t], f), n));
    }

    /** {@code out[i] = self[i] + values[i] * t1[i] * t2[i]}. */
    public static void addcmul(TensorImpl[] out, TensorImpl[] self, TensorImpl[] t1, TensorImpl[] t2, float[] values) {
        forEachRange(
                out,
                GRAIN,
                (t, f, n) -> MultiTensorSimd.addcmul(
                        arr(self[t]),
                        off(self[t], f),
                        arr(t1[t]),
                        off(t1[t], f),
                        arr(t2[t]),
                        off(t2[t], f),
                        values[t],
                        arr(out[t]),
                        off(out[t], f),
                        n));
    }

    /** {@code out[i] = self[i] + values[i] * t1[i] / t2[i]}. */
    public static void addcdiv(TensorImpl[] out, TensorImpl[] self, TensorImpl[] t1, TensorImpl[] t2, float[] values) {
        forEachRange(
                out,
                GRAIN,
                (t, f, n) -> MultiTensorSimd.addcdiv(
                        arr(self[t]),
                        off(self[t], f),
                        arr(t1[t]),
                        off(t1[t], f),
                        arr(t2[t]),
                        off(t2[t], f),
                        values[t],
                        arr(out[t]),
                        off(out[t], f),
                        n));
    }

    /** {@code out[i] = lerp(start[i], end[i], weights[i])}. */
    public static void lerp(TensorImpl[] out, TensorImpl[] start, TensorImpl[] end, float[] weights) {
        forEachRange(
                out,
                GRAIN,
                (t, f, n) -> MultiTensorSimd.lerp(
                        arr(start[t]),
                        off(start[t], f),
                        arr(end[t]),
                        off(end[t], f),
                        weights[t],
                        arr(out[t]),
                        off(out[t], f),
                        n));
    }

    /** {@code out[i] = src[i]}. */
    public static void copy(TensorImpl[] out, TensorImpl[] src) {
        forEachRange(
                out,
                GRAIN * 4,
                (t, f, n) -> System.arraycopy(arr(src[t]), off(src[t], f), arr(out[t]), off(out[t], f), n));
    }

    /** {@code out[i] = value}. */
    public static void fill(TensorImpl[] out, float value) {
        forEachRange(out, GRAIN * 4, (t, f, n) -> Arrays.fill(arr(out[t]), off(out[t], f), off(out[t], f) + n, value));
    }

    // ---- fused optimizer steps (any floating dtype, any layout) ----------------------------------------

    /** Adam/AdamW hyper-parameters; per-tensor bias corrections go in {@code stepSize} and {@code bc2Sqrt}. */
    public record AdamArgs(
            double lr,
            double beta1,
            double beta2,
            double weightDecay,
            double eps,
            boolean adamw,
            boolean maximize,
            double[] stepSize,
            double[] bc2Sqrt) {}

    /** SGD hyper-parameters. */
    public record SgdArgs(
            double lr,
            double weightDecay,
            double momentum,
            double dampening,
            boolean nesterov,
            boolean maximize,
            boolean firstStep) {}

    /** Adagrad hyper-parameters; {@code clr} is the decayed learning rate of each tensor. */
    public record AdagradArgs(double weightDecay, double eps, boolean maximize, double[] clr) {}

    /**
     * PyTorch's {@code _fused_adam_} / {@code _fused_adamw_}: updates {@code params}, {@code expAvgs},
     * {@code expAvgSqs} and (amsgrad, else null) {@code maxExpAvgSqs} in place. One dtype per call.
     */
    public static void fusedAdam(
            TensorImpl[] params,
            TensorImpl[] grads,
            TensorImpl[] expAvgs,
            TensorImpl[] expAvgSqs,
            TensorImpl[] maxExpAvgSqs,
            AdamArgs a) {
        TensorImpl[][] ops = maxExpAvgSqs == null
                ? new TensorImpl[][] {params, grads, expAvgs, expAvgSqs}
                : new TensorImpl[][] {params, grads, expAvgs, expAvgSqs, maxExpAvgSqs};
        if (params[0].dtype() == DType.FLOAT64) {
            runDouble(ops, (t, x, n) -> adamDouble(x, n, a, a.stepSize()[t], a.bc2Sqrt()[t]));
            return;
        }
        float lr = (float) a.lr(),
                b1 = (float) a.beta1(),
                b2 = (float) a.beta2(),
                wd = (float) a.weightDecay(),
                eps = (float) a.eps();
        runFloat(
                ops,
                (t, x, o, n) -> MultiTensorSimd.adam(
                        x[0],
                        o[0],
                        x[1],
                        o[1],
                        x[2],
                        o[2],
                        x[3],
                        o[3],
                        x.length > 4 ? x[4] : null,
                        x.length > 4 ? o[4] : 0,
                        n,
                        lr,
                        b1,
                        b2,
                        wd,
                        eps,
                        a.adamw(),
                        a.maximize(),
                        (float) a.stepSize()[t],
                        (float) a.bc2Sqrt()[t]));
    }

    /**
     * PyTorch's {@code _fused_sgd_}: updates {@code params} and (momentum != 0, else null) {@code buffers} in place.
     */
    public static void fusedSgd(TensorImpl[] params, TensorImpl[] grads, TensorImpl[] buffers, SgdArgs a) {
        TensorImpl[][] ops =
                buffers == null ? new TensorImpl[][] {params, grads} : new TensorImpl[][] {params, grads, buffers};
        if (params[0].dtype() == DType.FLOAT64) {
            runDouble(ops, (t, x, n) -> sgdDouble(x, n, a));
            return;
        }
        float lr = (float) a.lr(),
                wd = (float) a.weightDecay(),
                mom = (float) a.momentum(),
                damp = (float) a.dampening();
        runFloat(
                ops,
                (t, x, o, n) -> MultiTensorSimd.sgd(
                        x[0],
                        o[0],
                        x[1],
                        o[1],
                        x.length > 2 ? x[2] : null,
                        x.length > 2 ? o[2] : 0,
                        n,
                        lr,
                        wd,
                        mom,
                        damp,
                        a.nesterov(),
                        a.maximize(),
                        a.firstStep()));
    }

    /** PyTorch's {@code _fused_adagrad_}: updates {@code params} and {@code sums} in place. */
    public static void fusedAdagrad(TensorImpl[] params, TensorImpl[] grads, TensorImpl[] sums, AdagradArgs a) {
        TensorImpl[][] ops = {params, grads, sums};
        if (params[0].dtype() == DType.FLOAT64) {
            runDouble(ops, (t, x, n) -> adagradDouble(x, n, a, a.clr()[t]));
            return;
        }
        float wd = (float) a.weightDecay(), eps = (float) a.eps();
        runFloat(
                ops,
                (t, x, o, n) -> MultiTensorSimd.adagrad(
                        x[0], o[0], x[1], o[1], x[2], o[2], n, (float) a.clr()[t], wd, eps, a.maximize()));
    }

    // ---- drivers of the fused steps --------------------------------------------------------------------

    /** A float body over operand ranges: {@code x[k][o[k] .. o[k] + n)} is operand k's piece of tensor {@code t}. */
    @FunctionalInterface
    private interface FloatBody {
        void run(int t, float[][] x, int[] o, int n);
    }

    /** A double body over scratch ranges {@code x[k][0 .. n)}. */
    @FunctionalInterface
    private interface DoubleBody {
        void run(int t, double[][] x, int n);
    }

    /**
     * Float op-math: operands of a dense float32 position are used in place; any other position is converted block by
     * block into scratch arrays and every operand but the gradient (index 1) is written back, rounding once.
     */
    private static void runFloat(TensorImpl[][] ops, FloatBody body) {
        int k = ops.length;
        forEachRange(ops[0], GRAIN, (t, from, n) -> {
            float[][] x = new float[k][];
            int[] o = new int[k];
            boolean dense = true;
            for (int j = 0; j < k; j++) dense &= isDenseFloat(ops[j][t]);
            if (dense) {
                for (int j = 0; j < k; j++) {
                    x[j] = arr(ops[j][t]);
                    o[j] = off(ops[j][t], from);
                }
                body.run(t, x, o, n);
                return;
            }
            for (int j = 0; j < k; j++) x[j] = new float[Math.min(BLOCK, n)];
            for (int b = 0; b < n; b += BLOCK) {
                int len = Math.min(BLOCK, n - b);
                for (int j = 0; j < k; j++) load(ops[j][t], from + b, len, x[j]);
                body.run(t, x, o, len);
                for (int j = 0; j < k; j++) if (j != 1) store(ops[j][t], from + b, len, x[j]);
            }
        });
    }

    /** Double op-math (float64 parameters), through scratch arrays for every layout. */
    private static void runDouble(TensorImpl[][] ops, DoubleBody body) {
        int k = ops.length;
        forEachRange(ops[0], GRAIN, (t, from, n) -> {
            double[][] x = new double[k][Math.min(BLOCK, n)];
            for (int b = 0; b < n; b += BLOCK) {
                int len = Math.min(BLOCK, n - b);
                for (int j = 0; j < k; j++) loadDouble(ops[j][t], from + b, len, x[j]);
                body.run(t, x, len);
                for (int j = 0; j < k; j++) if (j != 1) storeDouble(ops[j][t], from + b, len, x[j]);
            }
        });
    }

    private static void load(TensorImpl t, long from, int n, float[] dst) {
        MemorySegment s = t.storage().segment();
        ElementIO io = ElementIO.of(t.dtype());
        for (int i = 0; i < n; i++) dst[i] = (float) io.getDouble(s, t.elementIndex(from + i));
    }

    private static void store(TensorImpl t, long from, int n, float[] src) {
        MemorySegment s = t.storage().segment();
        ElementIO io = ElementIO.of(t.dtype());
        for (int i = 0; i < n; i++) io.setDouble(s, t.elementIndex(from + i), src[i]);
    }

    private static void loadDouble(TensorImpl t, long from, int n, double[] dst) {
        MemorySegment s = t.storage().segment();
        ElementIO io = ElementIO.of(t.dtype());
        for (int i = 0; i < n; i++) dst[i] = io.getDouble(s, t.elementIndex(from + i));
    }

    private static void storeDouble(TensorImpl t, long from, int n, double[] src) {
        MemorySegment s = t.storage().segment();
        ElementIO io = ElementIO.of(t.dtype());
        for (int i = 0; i < n; i++) io.setDouble(s, t.elementIndex(from + i), src[i]);
    }

    // ---- double op-math bodies (the same formulas as MultiTensorSimd) -------------------------------------

    private static void adamDouble(double[][] x, int n, AdamArgs a, double stepSize, double bc2Sqrt) {
        double[] p = x[0], g = x[1], m = x[2], v = x[3], vmax = x.length > 4 ? x[4] : null;
        double c1 = 1 - a.beta1(), c2 = 1 - a.beta2(), decay = 1 - a.lr() * a.weightDecay();
        for (int i = 0; i < n; i++) {
            double pv = p[i], gv = a.maximize() ? -g[i] : g[i];
            if (a.weightDecay() != 0) {
                if (a.adamw()) pv *= decay;
                else gv += pv * a.weightDecay();
            }
            double mv = m[i] * a.beta1() + gv * c1;
            double vv = v[i] * a.beta2() + gv * gv * c2;
            m[i] = mv;
            v[i] = vv;
            if (vmax != null) {
                vv = Math.max(vmax[i], vv);
                vmax[i] = vv;
            }
            p[i] = pv - mv * stepSize / (Math.sqrt(vv) / bc2Sqrt + a.eps());
        }
    }

    private static void sgdDouble(double[][] x, int n, SgdArgs a) {
        double[] p = x[0], g = x[1], buf = x.length > 2 ? x[2] : null;
        for (int i = 0; i < n; i++) {
            double gv = a.maximize() ? -g[i] : g[i];
            if (a.weightDecay() != 0) gv += p[i] * a.weightDecay();
            if (buf != null) {
                double b = a.firstStep() ? gv : buf[i] * a.momentum() + gv * (1 - a.dampening());
                buf[i] = b;
                gv = a.nesterov() ? gv + b * a.momentum() : b;
            }
            p[i] -= gv * a.lr();
        }
    }

    private static void adagradDouble(double[][] x, int n, AdagradArgs a, double clr) {
        double[] p = x[0], g = x[1], sum = x[2];
        for (int i = 0; i < n; i++) {
            double gv = a.maximize() ? -g[i] : g[i];
            if (a.weightDecay() != 0) gv += p[i] * a.weightDecay();
            double s = sum[i] + gv * gv;
            sum[i] = s;
            p[i] -= gv * clr / (Math.sqrt(s) + a.eps());
        }
    }
}
