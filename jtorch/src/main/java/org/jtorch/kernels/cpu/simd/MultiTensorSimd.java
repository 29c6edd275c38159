package org.jtorch.kernels.cpu.simd;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API bodies of the multi-tensor kernels ({@code org.jtorch.kernels.cpu.ForeachLoops}): the fused-multiply forms
 * of the foreach ops (shared with the single-tensor {@code lerp}/{@code addcmul}/{@code addcdiv}, whose float formulas
 * they are) and the fused optimizer steps, over contiguous {@code float[]} ranges. Each loop runs the vector body up to
 * {@code loopBound(n)} and then a scalar tail with the same float operations in the same order, so a result never
 * depends on where a range was split.
 *
 * <p>The optimizer steps compute in float (PyTorch's op-math type for float32, float16 and bfloat16 parameters;
 * lower-precision tensors are converted into float scratch ranges by the caller).
 */
public final class MultiTensorSimd {
    private MultiTensorSimd() {}

    private static final VectorSpecies<Float> S = FloatSimd.SPECIES;

    /** {@code out = a + alpha * b}, as ATen's vectorised add: {@code fma(b, alpha, a)}. */
    public static void axpy(float[] a, int ai, float[] b, int bi, float alpha, float[] out, int o, int n) {
        int i = 0;
        int bound = S.loopBound(n);
        FloatVector va = FloatVector.broadcast(S, alpha);
        for (; i < bound; i += S.length()) {
            FloatVector.fromArray(S, b, bi + i)
                    .fma(va, FloatVector.fromArray(S, a, ai + i))
                    .intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = Math.fma(b[bi + i], alpha, a[ai + i]);
    }

    /** {@code out = fma(value * t1, t2, self)}: addcmul as TernaryOps computes it in float. */
    public static void addcmul(
            float[] s, int si, float[] t1, int t1i, float[] t2, int t2i, float value, float[] out, int o, int n) {
        int i = 0;
        int bound = S.loopBound(n);
        for (; i < bound; i += S.length()) {
            FloatVector.fromArray(S, t1, t1i + i)
                    .mul(value)
                    .fma(FloatVector.fromArray(S, t2, t2i + i), FloatVector.fromArray(S, s, si + i))
                    .intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = Math.fma(value * t1[t1i + i], t2[t2i + i], s[si + i]);
    }

    /** {@code out = self + value * t1 / t2}, left to right as TernaryOps computes it in float. */
    public static void addcdiv(
            float[] s, int si, float[] t1, int t1i, float[] t2, int t2i, float value, float[] out, int o, int n) {
        int i = 0;
        int bound = S.loopBound(n);
        for (; i < bound; i += S.length()) {
            FloatVector q = FloatVector.fromArray(S, t1, t1i + i).mul(value).div(FloatVector.fromArray(S, t2, t2i + i));
            FloatVector.fromArray(S, s, si + i).add(q).intoArray(out, o + i);
        }
        for (; i < n; i++) out[o + i] = s[si + i] + value * t1[t1i + i] / t2[t2i + i];
    }

    /** {@code out = lerp(start, end, w)} with ATen's two-sided formula (exact at both ends), in float. */
    public static void lerp(float[] st, int sti, float[] en, int eni, float w, float[] out, int o, int n) {
        boolean low = Math.abs(w) < 0.5f;
        float c = low ? w : w - 1f;
        int i = 0;
        int bound = S.loopBound(n);
        FloatVector vc = FloatVector.broadcast(S, c);
        for (; i < bound; i += S.length()) {
            FloatVector vs = FloatVector.fromArray(S, st, sti + i), ve = FloatVector.fromArray(S, en, eni + i);
            vc.fma(ve.sub(vs), low ? vs : ve).intoArray(out, o + i);
        }
        for (; i < n; i++) {
            float s = st[sti + i], e = en[eni + i];
            out[o + i] = Math.fma(c, e - s, low ? s : e);
        }
    }

    /**
     * One Adam/AdamW step over a range (PyTorch's fused CPU kernel): {@code adamw} decays the parameter by {@code 1 -
     * lr * wd} instead of adding {@code wd * p} to the gradient; {@code vmax} is null unless amsgrad. Gradients are
     * read, never written.
     */
    public static void adam(
            float[] p,
            int pi,
            float[] g,
            int gi,
            float[] m,
            int mi,
            float[] v,
            int vi,
            float[] vmax,
            int xi,
            int n,
            float lr,
            float beta1,
            float beta2,
            float wd,
            float eps,
            boolean adamw,
            boolean maximize,
            float stepSize,
            float bc2Sqrt) {
        float c1 = 1f - beta1, c2 = 1f - beta2, decay = 1f - lr * wd;
        boolean amsgrad = vmax != null;
        int i = 0;
        int bound = S.loopBound(n);
        for (; i < bound; i += S.length()) {
            FloatVector vp = FloatVector.fromArray(S, p, pi + i);
            FloatVector vg = FloatVector.fromArray(S, g, gi + i);
            if (maximize) vg = vg.neg();
            if (wd != 0f) {
                if (adamw) vp = vp.mul(decay);
                else vg = vg.add(vp.mul(wd));
            }
            FloatVector vm = FloatVector.fromArray(S, m, mi + i).mul(beta1).add(vg.mul(c1));
            FloatVector vv = FloatVector.fromArray(S, v, vi + i)
                    .mul(beta2)
                    .add(vg.mul(vg).mul(c2));
            vm.intoArray(m, mi + i);
            vv.intoArray(v, vi + i);
            if (amsgrad) {
                vv = FloatVector.fromArray(S, vmax, xi + i).max(vv);
                vv.intoArray(vmax, xi + i);
            }
            FloatVector denom = vv.sqrt().div(bc2Sqrt).add(eps);
            vp.sub(vm.mul(stepSize).div(denom)).intoArray(p, pi + i);
        }
        for (; i < n; i++) {
            float pv = p[pi + i], gv = g[gi + i];
            if (maximize) gv = -gv;
            if (wd != 0f) {
                if (adamw) pv = pv * decay;
                else gv = gv + pv * wd;
            }
            float mv = m[mi + i] * beta1 + gv * c1;
            float vv = v[vi + i] * beta2 + gv * gv * c2;
            m[mi + i] = mv;
            v[vi + i] = vv;
            if (amsgrad) {
                vv = Math.max(vmax[xi + i], vv);
                vmax[xi + i] = vv;
            }
            float denom = (float) Math.sqrt(vv) / bc2Sqrt + eps;
            p[pi + i] = pv - mv * stepSize / denom;
        }
    }

    /**
     * One SGD step over a range (PyTorch's fused CPU kernel); {@code buf} is null when momentum is 0. On the first step
     * the buffer takes the gradient itself (no dampening).
     */
    public static void sgd(
            float[] p,
            int pi,
            float[] g,
            int gi,
            float[] buf,
            int bi,
            int n,
            float lr,
            float wd,
            float momentum,
            float dampening,
            boolean nesterov,
            boolean maximize,
            boolean firstStep) {
        float keep = 1f - dampening;
        int i = 0;
        int bound = S.loopBound(n);
        for (; i < bound; i += S.length()) {
            FloatVector vp = FloatVector.fromArray(S, p, pi + i);
            FloatVector vg = FloatVector.fromArray(S, g, gi + i);
            if (maximize) vg = vg.neg();
            if (wd != 0f) vg = vg.add(vp.mul(wd));
            if (buf != null) {
                FloatVector vb = firstStep
                        ? vg
                        : FloatVector.fromArray(S, buf, bi + i).mul(momentum).add(vg.mul(keep));
                vb.intoArray(buf, bi + i);
                vg = nesterov ? vg.add(vb.mul(momentum)) : vb;
            }
            vp.sub(vg.mul(lr)).intoArray(p, pi + i);
        }
        for (; i < n; i++) {
            float pv = p[pi + i], gv = g[gi + i];
            if (maximize) gv = -gv;
            if (wd != 0f) gv = gv + pv * wd;
            if (buf != null) {
                float b = firstStep ? gv : buf[bi + i] * momentum + gv * keep;
                buf[bi + i] = b;
                gv = nesterov ? gv + b * momentum : b;
            }
            p[pi + i] = pv - gv * lr;
        }
    }

    /** One Adagrad step over a range (PyTorch's fused CPU kernel), {@code clr} the decayed learning rate. */
    public static void adagrad(
            float[] p,
            int pi,
            float[] g,
            int gi,
            float[] sum,
            int si,
            int n,
            float clr,
            float wd,
            float eps,
            boolean maximize) {
        int i = 0;
        int bound = S.loopBound(n);
        for (; i < bound; i += S.length()) {
            FloatVector vp = FloatVector.fromArray(S, p, pi + i);
            FloatVector vg = FloatVector.fromArray(S, g, gi + i);
            if (maximize) vg = vg.neg();
            if (wd != 0f) vg = vg.add(vp.mul(wd));
            FloatVector vs = FloatVector.fromArray(S, sum, si + i).add(vg.mul(vg));
            vs.intoArray(sum, si + i);
            FloatVector std = vs.sqrt().add(eps);
            vp.sub(vg.mul(clr).div(std)).intoArray(p, pi + i);
        }
        for (; i < n; i++) {
            float pv = p[pi + i], gv = g[gi + i];
            if (maximize) gv = -gv;
            if (wd != 0f) gv = gv + pv * wd;
            float s = sum[si + i] + gv * gv;
            sum[si + i] = s;
            float std = (float) Math.sqrt(s) + eps;
            p[pi + i] = pv - gv * clr / std;
        }
    }
}
