package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * {@code _ctc_loss} and {@code _ctc_loss_backward}: the connectionist temporal classification loss of (T, N, C)
 * log-probabilities against padded (N, S) or concatenated 1-d targets, by ATen's CPU algorithm (Graves et al. 2006, the
 * forward variables α in log space over the blank-extended target l' of length 2·S + 1).
 *
 * <p>The gradient is ATen's, {@code exp(log_probs) - exp(log(Σ_s αβ) + nll - log_probs)} for t below the input length
 * and 0 beyond it: the gradient with respect to the logits of a {@code log_softmax} whose output {@code log_probs} is.
 * Through {@code log_softmax} it is the exact gradient (the added {@code exp(log_probs)} sums to one per step and
 * log_softmax's backward removes it); taken alone with respect to unnormalised {@code log_probs} it is not the
 * derivative, as in PyTorch. The forward-mode rule contracts the same gradient with the tangent.
 */
public final class CtcLossOps {
    private CtcLossOps() {}

    private static final String CHECKING = " (while checking arguments for ctc_loss_allocate_outputs)";

    /** What the meta rule works out for the kernels: lengths, target offsets and sizes. */
    private record Plan(long[] inputLengths, long[] targetLengths, long[] targetOffsets, int maxTarget) {}

    /** {@code _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity)}: (nll, log_alpha). */
    public static final OpDef CTC_LOSS = OpDef.structured(
                    "_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, "
                            + "int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)",
                    CtcLossOps::meta,
                    (args, outs, spec) -> forward(
                            (Tensor) args[0], (Tensor) args[1], blank(args[4]), (Plan) spec.plan(), outs[0], outs[1]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g, mask) ->
                    new Tensor[] {mask.needs(0) && g[0] != null ? backward(g[0], a, o) : null, null})
            .outputsWithoutGrad(1) // log_alpha is the saved forward variable, as in PyTorch
            .defineJvp((a, o, t) -> {
                if (t[0] == null) return new Tensor[] {null, null};
                Tensor ones = Creation.full(o[0].shape(), 1L, o[0].dtype(), o[0].device());
                return new Tensor[] {backward(ones, a, o).mul(t[0]).sum(new long[] {0, 2}, false), null};
            })
            .vmapFallsBack("the lengths are per-batch lists: a vmapped batch runs the per-example loop");

    /**
     * {@code _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha,
     * blank, zero_infinity)}: ATen's gradient with respect to log_probs.
     */
    public static final OpDef CTC_LOSS_BACKWARD = OpDef.structured(
                    "_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, "
                            + "int[] target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, "
                            + "bool zero_infinity=False) -> Tensor",
                    a -> {
                        Tensor lp = (Tensor) a[1];
                        Spec s = meta(new Object[] {lp, a[2], a[3], a[4], a[7], a[8]});
                        return new Spec(new long[][] {lp.shape()}, new DType[] {lp.dtype()}, lp.device(), s.plan());
                    },
                    (a, outs, spec) -> backwardKernel(a, (Plan) spec.plan(), outs[0]))
            .derivativeNotImplemented("ATen's _ctc_loss_backward has no derivative either")
            .vmapFallsBack("the lengths are per-batch lists: a vmapped batch runs the per-example loop");

    /** Runs {@code _ctc_loss}: {nll (N), log_alpha (N, T, 2·maxS + 1)}. */
    public static Tensor[] ctcLoss(
            Tensor logProbs, Tensor targets, long[] inputLengths, long[] targetLengths, long blank, boolean zeroInf) {
        return (Tensor[]) Dispatcher.call(CTC_LOSS, logProbs, targets, inputLengths, targetLengths, blank, zeroInf);
    }

    private static Tensor backward(Tensor grad, Object[] a, Tensor[] o) {
        return CTC_LOSS_BACKWARD.call1(grad, a[0], a[1], a[2], a[3], o[0], o[1], a[4], a[5]);
    }

    private static int blank(Object b) {
        return (int) ((Number) b).longValue();
    }

    private static Spec meta(Object[] args) {
        Tensor lp = (Tensor) args[0], targets = (Tensor) args[1];
        long[] il = (long[]) args[2], tl = (long[]) args[3];
        long blank = ((Number) args[4]).longValue();
        if (lp.dtype() != DType.FLOAT32 && lp.dtype() != DType.FLOAT64)
            throw new TorchException(
                    "\"ctc_loss_cpu\" not implemented for '" + lp.dtype().cppName() + "'");
        if (targets.isComplex() || targets.dtype() == DType.BOOL)
            throw new TorchException(
                    "ctc_loss: targets must be integer or floating-point class indices, got " + targets.dtype());
        if (lp.dim() != 3) {
            throw new TorchException("Expected 3-dimensional tensor, but got " + lp.dim()
                    + "-dimensional tensor for argument #1 'log_probs'" + CHECKING);
        }
        long maxInput = lp.size(0), batch = lp.size(1), classes = lp.size(2);
        if (blank < 0 || blank >= classes) throw new TorchException("blank must be in label range");
        if (il.length != batch) throw new TorchException("input_lengths must be of size batch_size");
        if (tl.length != batch) throw new TorchException("target_lengths must be of size batch_size");
        long[] offsets = new long[(int) batch];
        long maxTarget = 0;
        if (targets.dim() == 1) {
            long pos = 0;
            for (int b = 0; b < batch; b++) {
                checkAtLeastZero("target_lengths", tl[b]);
                offsets[b] = pos;
                pos += tl[b];
                maxTarget = Math.max(maxTarget, tl[b]);
            }
            if (targets.size(0) != pos) {
                throw new TorchException("Expected tensor to have size " + pos + " at dimension 0, but got size "
                        + targets.size(0) + " for argument #2 'targets'" + CHECKING);
            }
        } else {
            long stride = targets.dim() < 2 ? 0 : targets.size(1);
            for (int b = 0; b < batch; b++) {
                checkAtLeastZero("target_lengths", tl[b]);
                offsets[b] = b * stride;
                maxTarget = Math.max(maxTarget, tl[b]);
            }
            if (targets.dim() != 2 || targets.size(0) != batch) {
                throw new TorchException("Expected tensor to have size " + batch + " at dimension 0, but got size "
                        + (targets.dim() == 0 ? 1 : targets.size(0)) + " for argument #2 'targets'" + CHECKING);
            }
            if (stride < maxTarget) {
                throw new TorchException("Expected tensor to have size at least " + maxTarget
                        + " at dimension 1, but got size " + stride + " for argument #2 'targets'" + CHECKING);
            }
        }
        for (long len : il) {
            checkAtLeastZero("input_lengths", len);
            if (len > maxInput) {
                throw new TorchException("Expected input_lengths to have value at most " + maxInput + ", but got value "
                        + len + CHECKING);
            }
        }
        if (2 * maxTarget + 1 > Integer.MAX_VALUE || maxInput * (2 * maxTarget + 1) * batch > Integer.MAX_VALUE)
            throw new TorchException("ctc_loss: the target lengths are too large");
        Device device = Devices.common("ctc_loss", lp, targets);
        Plan plan = new Plan(il.clone(), tl.clone(), offsets, (int) maxTarget);
        return new Spec(
                new long[][] {{batch}, {batch, maxInput, 2 * maxTarget + 1}},
                new DType[] {lp.dtype(), lp.dtype()},
                device,
                plan);
    }

    private static void checkAtLeastZero(String name, long v) {
        if (v < 0) {
            throw new TorchException("Expected " + name + " to have value at least 0, but got value " + v + CHECKING);
        }
    }

    /** The targets as int64, row-major, every label checked against the classes (ATen reads out of bounds). */
    private static long[] labels(Tensor targets, Plan p, long classes) {
        long[] t = (long[])
                CopyOps.clone(CopyOps.to(targets, DType.INT64)).impl().storage().array();
        for (int b = 0; b < p.targetLengths.length; b++) {
            for (long s = 0; s < p.targetLengths[b]; s++) {
                long label = t[(int) (p.targetOffsets[b] + s)];
                if (label < 0 || label >= classes) {
                    throw new TorchException("ctc_loss: target label " + label + " of batch entry " + b
                            + " is out of the class range [0, " + classes + ")");
                }
            }
        }
        return t;
    }

    private static double[] dense(Tensor t) {
        return (double[])
                CopyOps.clone(CopyOps.to(t, DType.FLOAT64)).impl().storage().array();
    }

    /** l'(s): blank at even positions, the target's (s-1)/2-th label at odd ones. */
    private static int prime(long[] targets, long offset, int s, int blank) {
        return s % 2 == 0 ? blank : (int) targets[(int) (offset + s / 2)];
    }

    /** log(e^a + e^b + e^c), with ATen's guard that an all -inf max is taken as 0. */
    private static double logSumExp(double a, double b, double c) {
        double m = Math.max(a, Math.max(b, c));
        if (m == Double.NEGATIVE_INFINITY) m = 0;
        return Math.log(Math.exp(a - m) + Math.exp(b - m) + Math.exp(c - m)) + m;
    }

    private static void forward(Tensor lpT, Tensor targetsT, int blank, Plan p, Tensor nllOut, Tensor alphaOut) {
        try (var _ = DispatchState.gradEnabled(false)) {
            int maxT = (int) lpT.size(0), batch = (int) lpT.size(1), classes = (int) lpT.size(2);
            int width = 2 * p.maxTarget + 1;
            long[] targets = labels(targetsT, p, classes);
            double[] lp = dense(lpT);
            double[] nll = new double[batch];
            double[] alpha = new double[batch * maxT * width];
            java.util.Arrays.fill(alpha, Double.NEGATIVE_INFINITY);
            Parallel.forRange(batch, 1, (b0, b1) -> {
                for (int b = (int) b0; b < b1; b++) {
                    nll[b] = alphas(lp, targets, p, b, blank, batch, classes, width, alpha, maxT);
                }
            });
            write(nll, nllOut);
            write(alpha, alphaOut);
        }
    }

    /** Fills batch entry b's α (log space) and returns its negative log-likelihood. */
    private static double alphas(
            double[] lp,
            long[] targets,
            Plan p,
            int b,
            int blank,
            int batch,
            int classes,
            int width,
            double[] alpha,
            int maxT) {
        int inLen = (int) p.inputLengths[b], tLen = (int) p.targetLengths[b];
        long off = p.targetOffsets[b];
        int base = b * maxT * width;
        if (inLen == 0) return tLen == 0 ? -0.0 : Double.POSITIVE_INFINITY;
        alpha[base] = lp[lpIndex(0, b, blank, batch, classes)];
        if (tLen > 0) alpha[base + 1] = lp[lpIndex(0, b, prime(targets, off, 1, blank), batch, classes)];
        for (int t = 1; t < inLen; t++) {
            int row = base + t * width, prev = row - width;
            for (int s = 0; s <= 2 * tLen; s++) {
                int cur = prime(targets, off, s, blank);
                double la1 = alpha[prev + s];
                double la2 = s > 0 ? alpha[prev + s - 1] : Double.NEGATIVE_INFINITY;
                double la3 = s > 1 && prime(targets, off, s - 2, blank) != cur
                        ? alpha[prev + s - 2]
                        : Double.NEGATIVE_INFINITY;
                alpha[row + s] = logSumExp(la1, la2, la3) + lp[lpIndex(t, b, cur, batch, classes)];
            }
        }
        int last = base + (inLen - 1) * width;
        double l1 = alpha[last + 2 * tLen];
        double l2 = tLen > 0 ? alpha[last + 2 * tLen - 1] : Double.NEGATIVE_INFINITY;
        return -logSumExp(l1, l2, Double.NEGATIVE_INFINITY);
    }

    private static int lpIndex(int t, int b, int c, int batch, int classes) {
        return (t * batch + b) * classes + c;
    }

    private static void backwardKernel(Object[] a, Plan p, Tensor out) {
        try (var _ = DispatchState.gradEnabled(false)) {
            Tensor lpT = (Tensor) a[1];
            int blank = blank(a[7]);
            boolean zeroInfinity = (Boolean) a[8];
            int maxT = (int) lpT.size(0), batch = (int) lpT.size(1), classes = (int) lpT.size(2);
            int width = 2 * p.maxTarget + 1;
            long[] targets = labels((Tensor) a[2], p, classes);
            double[] lp = dense(lpT), grad = dense((Tensor) a[0]), nll = dense((Tensor) a[5]);
            double[] alpha = dense((Tensor) a[6]);
            double[] res = new double[maxT * batch * classes];
            Parallel.forRange(batch, 1, (b0, b1) -> {
                for (int b = (int) b0; b < b1; b++) {
                    gradient(
                            lp,
                            targets,
                            p,
                            b,
                            blank,
                            batch,
                            classes,
                            width,
                            maxT,
                            alpha,
                            nll[b],
                            grad.length == 1 ? grad[0] : grad[b],
                            zeroInfinity,
                            res);
                }
            });
            write(res, out);
        }
    }

    /** ATen's per-entry backward: β in log space, Σ_s αβ per (t, class), then the gradient formula. */
    private static void gradient(
            double[] lp,
            long[] targets,
            Plan p,
            int b,
            int blank,
            int batch,
            int classes,
            int width,
            int maxT,
            double[] alpha,
            double nll,
            double gr,
            boolean zeroInfinity,
            double[] res) {
        int inLen = (int) p.inputLengths[b], tLen = (int) p.targetLengths[b];
        if (zeroInfinity && nll == Double.POSITIVE_INFINITY) return; // rows stay 0
        long off = p.targetOffsets[b];
        int base = b * maxT * width;
        double[] beta = new double[Math.max(inLen, 1) * width];
        java.util.Arrays.fill(beta, Double.NEGATIVE_INFINITY);
        double[] logAb = new double[inLen * classes]; // log Σ_s α·β at (t, class)
        java.util.Arrays.fill(logAb, Double.NEGATIVE_INFINITY);
        if (inLen > 0) {
            int t = inLen - 1, row = t * width;
            beta[row + 2 * tLen] = lp[lpIndex(t, b, blank, batch, classes)];
            logAb[t * classes + blank] = alpha[base + row + 2 * tLen] + beta[row + 2 * tLen];
            if (tLen > 0) {
                int cur = prime(targets, off, 2 * tLen - 1, blank);
                beta[row + 2 * tLen - 1] = lp[lpIndex(t, b, cur, batch, classes)];
                logAb[t * classes + cur] = alpha[base + row + 2 * tLen - 1] + beta[row + 2 * tLen - 1];
            }
        }
        for (int t = inLen - 2; t >= 0; t--) {
            int row = t * width, next = row + width;
            for (int s = 2 * tLen; s >= 0; s--) {
                int cur = prime(targets, off, s, blank);
                double lb1 = beta[next + s];
                double lb2 = s < 2 * tLen ? beta[next + s + 1] : Double.NEGATIVE_INFINITY;
                double lb3 = s < 2 * tLen - 1 && prime(targets, off, s + 2, blank) != cur
                        ? beta[next + s + 2]
                        : Double.NEGATIVE_INFINITY;
                beta[row + s] = logSumExp(lb1, lb2, lb3) + lp[lpIndex(t, b, cur, batch, classes)];
                double ab = alpha[base + row + s] + beta[row + s];
                int k = t * classes + cur;
                double acc = logAb[k];
                if (acc == Double.NEGATIVE_INFINITY) {
                    logAb[k] = ab;
                } else {
                    double m = Math.max(acc, ab);
                    logAb[k] = Math.log(Math.exp(acc - m) + Math.exp(ab - m)) + m;
                }
            }
        }
        for (int t = 0; t < inLen; t++) {
            for (int c = 0; c < classes; c++) {
                int i = lpIndex(t, b, c, batch, classes);
                res[i] = (Math.exp(lp[i]) - Math.exp(logAb[t * classes + c] + nll - lp[i])) * gr;
            }
        }
    }

    private static void write(double[] v, Tensor out) {
        if (v.length == 0) return;
        Tensor src = Tensor.of(TensorImpl.empty(out.impl().shapeRef(), DType.FLOAT64));
        System.arraycopy(v, 0, (double[]) src.impl().storage().array(), (int) src.storageOffset(), v.length);
        CopyOps.convert(src, out);
    }
}
