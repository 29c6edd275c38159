package org.jtorch.ops;

import java.util.Arrays;
import java.util.function.Supplier;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.FlashAttentionSimd;
import org.jtorch.kernels.cpu.simd.FlashAttentionSimd.Mask;
import org.jtorch.kernels.cpu.simd.FlashAttentionSimd.Problem;
import org.jtorch.kernels.cpu.simd.FlashAttentionSimd.Rows;
import org.jtorch.storage.TensorImpl;

/**
 * {@code _scaled_dot_product_flash_attention_for_cpu}: fused attention, {@code softmax(q kᵀ·scale + mask) v} without
 * the score matrix (ATen's CPU flash kernel; {@link FlashAttentionSimd} computes it), returning the output and each
 * query row's log-sum-exp. {@code F.scaledDotProductAttention} takes this route for float32 without dropout, outside
 * vmap (whose batch rules see the math decomposition) and outside graph capture, except the capture of
 * {@code torch.compile} ({@link #capturingFused}), whose graphs keep the fused op as PyTorch's CPU graphs do.
 *
 * <p>JTorch's op takes any rank ≥ 2 (leading dims shared by query, key and value; the mask broadcast to {@code [*, L,
 * S]}, float32 and additive, or bool where true keeps a key), float32 only and no dropout; PyTorch's takes 4-D inputs
 * of four dtypes and applies dropout. A fully masked query row gets zeros, as the safe softmax of ATen's math path
 * gives.
 *
 * <p>Backward: in a plain eager backward the fused kernel recomputes the probabilities tile by tile from the saved
 * log-sum-exp; a traced first-order backward (AOT autograd's joint graph) records that kernel as one op,
 * {@link #FLASH_ATTENTION_BACKWARD}. Otherwise (create_graph, forward mode, another mode in effect) the rule is written
 * in differentiable ops from the inputs alone, so gradients of any order follow. The mask gets no gradient: a mask that
 * requires one is sent to the math path by SDPA.
 */
public final class AttentionOps {
    private AttentionOps() {}

    private static final String NAME = "_scaled_dot_product_flash_attention_for_cpu";

    /** Args: (query, key, value, Double dropout_p, Boolean is_causal, attn_mask or null, Double scale or null). */
    public static final OpDef FLASH_ATTENTION = OpDef.structured(
                    NAME + "(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, bool is_causal=False, *, "
                            + "Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)",
                    AttentionOps::meta,
                    (args, outs, spec) -> forward(args, outs[0], outs[1]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, AttentionOps::vjp)
            .outputsWithoutGrad(1) // the log-sum-exp is a saved statistic, as in PyTorch
            .deriveJvp(Jvps::transposedVjp)
            .vmapFallsBack("scaled_dot_product_attention sends vmapped calls to its math decomposition, which has "
                    + "batch rules; only a direct call of this op loops");

    /**
     * Args: (grad_out, query, key, value, out, logsumexp, Double dropout_p, Boolean is_causal, attn_mask or null,
     * Double scale or null): the fused backward from the forward's output and log-sum-exp, as ATen's op of this name.
     */
    public static final OpDef FLASH_ATTENTION_BACKWARD = OpDef.structured(
                    NAME + "_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, Tensor out, "
                            + "Tensor logsumexp, float dropout_p, bool is_causal, *, Tensor? attn_mask=None, "
                            + "float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)",
                    AttentionOps::backwardMeta,
                    (args, outs, spec) -> backward(args, outs))
            .derivativeNotImplemented("ATen's " + NAME + "_backward has no derivative either")
            .vmapFallsBack("a vmapped call loops over the batch; vmapped attention differentiates its math path");

    /** Whether the function running is being captured by {@code torch.compile}: see {@link #capturingFused}. */
    private static final ScopedValue<Boolean> COMPILE_CAPTURE = ScopedValue.newInstance();

    /**
     * Runs {@code capture} (a {@code torch.compile} capture) so that scaled-dot-product attention records this fused op
     * rather than its math decomposition, and its traced backward {@link #FLASH_ATTENTION_BACKWARD}: the compiled graph
     * then runs the kernels eager code runs, without the score matrix. Other traces (export) keep the decomposition.
     */
    public static <T> T capturingFused(Supplier<T> capture) {
        return ScopedValue.where(COMPILE_CAPTURE, true).call(capture::get);
    }

    /** Whether {@link #capturingFused} is in effect on this thread. */
    public static boolean inFusedCapture() {
        return COMPILE_CAPTURE.orElse(false);
    }

    /**
     * {@code torch._scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p, is_causal, attn_mask,
     * scale)}: {output, logsumexp}; a null scale means {@code 1/sqrt(E)}.
     */
    public static Tensor[] flashAttention(
            Tensor query, Tensor key, Tensor value, boolean isCausal, Tensor attnMask, Double scale) {
        return (Tensor[]) Dispatcher.call(FLASH_ATTENTION, query, key, value, 0.0, isCausal, attnMask, scale);
    }

    /**
     * {@code torch._scaled_dot_product_flash_attention_for_cpu_backward(grad_out, query, key, value, out, logsumexp,
     * 0.0, is_causal, attn_mask, scale)}: {grad_query, grad_key, grad_value}.
     */
    public static Tensor[] flashAttentionBackward(
            Tensor gradOut,
            Tensor query,
            Tensor key,
            Tensor value,
            Tensor out,
            Tensor logsumexp,
            boolean isCausal,
            Tensor attnMask,
            Double scale) {
        return (Tensor[]) Dispatcher.call(
                FLASH_ATTENTION_BACKWARD, gradOut, query, key, value, out, logsumexp, 0.0, isCausal, attnMask, scale);
    }

    private static Spec meta(Object[] a) {
        Tensor q = (Tensor) a[0], k = (Tensor) a[1], v = (Tensor) a[2], mask = (Tensor) a[5];
        for (Tensor t : new Tensor[] {q, k, v}) {
            if (t.dtype() != DType.FLOAT32) {
                throw new TorchException(NAME + ": query, key and value must be float32 in JTorch's fused kernel, got "
                        + q.dtype() + ", " + k.dtype() + ", " + v.dtype());
            }
            if (t.dim() < 2) throw new TorchException(NAME + ": query, key and value must be at least 2-D");
        }
        if (((Number) a[3]).doubleValue() != 0) {
            throw new TorchException(NAME + ": dropout_p must be 0 in JTorch's fused kernel (scaled_dot_product_"
                    + "attention applies dropout through its math path)");
        }
        long[] qs = q.impl().shapeRef(), ks = k.impl().shapeRef(), vs = v.impl().shapeRef();
        long[] lead = Arrays.copyOf(qs, qs.length - 2);
        if (!Arrays.equals(lead, Arrays.copyOf(ks, ks.length - 2))
                || !Arrays.equals(lead, Arrays.copyOf(vs, vs.length - 2))) {
            throw new TorchException(NAME + ": query, key and value must share their leading dims, got "
                    + Shapes.str(qs) + ", " + Shapes.str(ks) + ", " + Shapes.str(vs));
        }
        if (ks[ks.length - 1] != qs[qs.length - 1] || vs[vs.length - 2] != ks[ks.length - 2]) {
            throw new TorchException(NAME + ": key must be [*, S, E] and value [*, S, Ev] for query [*, L, E], got "
                    + Shapes.str(qs) + ", " + Shapes.str(ks) + ", " + Shapes.str(vs));
        }
        long l = qs[qs.length - 2], s = ks[ks.length - 2];
        if (mask != null) {
            if (mask.dtype() != DType.FLOAT32 && mask.dtype() != DType.BOOL) {
                throw new TorchException(NAME + ": attn_mask must be float32 or bool, got " + mask.dtype());
            }
            long[] scores = Arrays.copyOf(lead, lead.length + 2);
            scores[lead.length] = l;
            scores[lead.length + 1] = s;
            long[] ms = mask.impl().shapeRef();
            if (!broadcastsTo(ms, scores)) {
                throw new TorchException(
                        NAME + ": attn_mask of shape " + Shapes.str(mask.impl().shapeRef())
                                + " does not broadcast to the scores' shape " + Shapes.str(scores));
            }
        }
        for (long size : qs) checkIntSized(size);
        checkIntSized(s);
        checkIntSized(v.numel());
        checkIntSized(q.numel());
        checkIntSized(k.numel());
        Device device = Devices.common(NAME, q, k, v, mask);
        long[] out = qs.clone();
        out[out.length - 1] = vs[vs.length - 1];
        return new Spec(
                new long[][] {out, Arrays.copyOf(qs, qs.length - 1)},
                new DType[] {DType.FLOAT32, DType.FLOAT32},
                device,
                null);
    }

    private static boolean broadcastsTo(long[] shape, long[] target) {
        if (shape.length > target.length) return false;
        for (int d = 0; d < shape.length; d++) {
            long size = shape[d];
            if (size != 1 && size != target[target.length - shape.length + d]) return false;
        }
        return true;
    }

    private static void checkIntSized(long n) {
        if (n > Integer.MAX_VALUE - 8) throw new TorchException(NAME + ": inputs too large for the fused kernel");
    }

    private static void forward(Object[] a, Tensor out, Tensor lse) {
        if (out.numel() == 0) return;
        Problem p = problem(a);
        Tensor o = denseTarget(out), m = denseTarget(lse);
        Rows outRows = rows(o);
        float[] lseData = m.impl().storage().floats();
        int lseOffset = (int) m.storageOffset();
        long tasks = FlashAttentionSimd.forwardTasks(p);
        Parallel.forRange(
                tasks,
                FlashAttentionSimd.grain(p, tasks),
                (t0, t1) -> FlashAttentionSimd.forward(p, outRows, lseData, lseOffset, t0, t1));
        if (o != out) CopyOps.convert(o, out);
        if (m != lse) CopyOps.convert(m, lse);
    }

    /** The kernel's view of the call: every operand as rows with unit element stride, the mask additive. */
    private static Problem problem(Object[] a) {
        Tensor q = (Tensor) a[0], k = (Tensor) a[1], v = (Tensor) a[2], mask = (Tensor) a[5];
        int r = q.dim();
        int e = (int) q.size(-1), ev = (int) v.size(-1), l = (int) q.size(-2), s = (int) k.size(-2);
        double scale = a[6] != null ? ((Number) a[6]).doubleValue() : 1 / Math.sqrt(e);
        long[] lead = Arrays.copyOf(q.impl().shapeRef(), r - 2);
        return new Problem(
                (int) Shapes.numel(lead),
                l,
                s,
                e,
                ev,
                (float) scale,
                (Boolean) a[4],
                rows(q),
                rows(k),
                rows(v),
                mask == null ? null : mask(mask, lead, l, s));
    }

    /** {@code t} as rows the kernel reads in place when it can: heap float32 with unit stride in the last dim. */
    private static Rows rows(Tensor t) {
        if (t.impl().storage().array() == null || (t.size(-1) > 1 && t.stride(-1) != 1)) t = CopyOps.clone(t);
        long[] shape = t.impl().shapeRef(), stride = t.impl().strideRef();
        int r = shape.length;
        return new Rows(
                t.impl().storage().floats(),
                bases(t.storageOffset(), Arrays.copyOf(shape, r - 2), Arrays.copyOf(stride, r - 2)),
                (int) stride[r - 2]);
    }

    /** The mask broadcast to {@code [lead..., l, s]} through zero strides; a bool mask first becomes 0 / -inf. */
    private static Mask mask(Tensor mask, long[] lead, int l, int s) {
        Tensor m = mask;
        if (m.dtype() == DType.BOOL || m.impl().storage().array() == null) {
            Tensor additive = Tensor.of(TensorImpl.empty(m.shape(), DType.FLOAT32));
            CopyOps.convert(m, additive);
            if (m.dtype() == DType.BOOL) {
                float[] x = additive.impl().storage().floats();
                for (int i = 0; i < x.length; i++) x[i] = x[i] != 0 ? 0f : Float.NEGATIVE_INFINITY;
            }
            m = additive;
        }
        int rank = lead.length + 2;
        long[] scores = Arrays.copyOf(lead, rank);
        scores[rank - 2] = l;
        scores[rank - 1] = s;
        long[] full = Shapes.broadcastStrides(m.impl().shapeRef(), m.impl().strideRef(), scores);
        return new Mask(
                m.impl().storage().floats(),
                bases(m.storageOffset(), lead, Arrays.copyOf(full, rank - 2)),
                (int) full[rank - 2],
                (int) full[rank - 1]);
    }

    /** The offset of every matrix of a batch, leading multi-indices in row-major order. */
    private static int[] bases(long offset, long[] lead, long[] strides) {
        int[] out = new int[(int) Shapes.numel(lead)];
        int[] index = new int[lead.length];
        long at = offset;
        for (int n = 0; n < out.length; n++) {
            out[n] = (int) at;
            for (int d = lead.length - 1; d >= 0; d--) {
                at += strides[d];
                if (++index[d] < lead[d]) break;
                at -= strides[d] * lead[d];
                index[d] = 0;
            }
        }
        return out;
    }

    /** {@code t} itself when the kernel can write it in place (dense heap float32), else a scratch to copy back. */
    private static Tensor denseTarget(Tensor t) {
        return t.isContiguous() && t.impl().storage().array() != null
                ? t
                : Tensor.of(TensorImpl.empty(t.shape(), DType.FLOAT32));
    }

    private static Tensor[] vjp(Object[] a, Tensor[] o, Tensor[] g, InputMask needs) {
        if (g[0] == null) return Grads.forTensorArgs(a, null, null, null, null, null, null, null);
        Tensor[] grads;
        if (plainEager(g[0])) {
            grads = fusedGrads(a, o, g[0]);
        } else if (tracedFirstOrder(g[0])) {
            grads = (Tensor[]) Dispatcher.call(
                    FLASH_ATTENTION_BACKWARD, g[0], a[0], a[1], a[2], o[0], o[1], a[3], a[4], a[5], a[6]);
        } else {
            grads = differentiableGrads(a, g[0]);
        }
        return Grads.forTensorArgs(a, grads[0], grads[1], grads[2], null, null, null, null);
    }

    /** Whether the fused backward may run: a first-order eager backward of CPU tensors. */
    private static boolean plainEager(Tensor grad) {
        return !DispatchState.current().isGradEnabled()
                && DispatchState.isPlainEager()
                && grad.device() == Device.CPU
                && grad.dtype() == DType.FLOAT32;
    }

    /**
     * Whether a traced backward records {@link #FLASH_ATTENTION_BACKWARD}: first order (grad mode off), float32 on the
     * CPU, under a tracer and neither vmap nor forward mode.
     */
    private static boolean tracedFirstOrder(Tensor grad) {
        return !DispatchState.current().isGradEnabled()
                && DispatchState.innermostInEffect(DispatchState.Kind.TRACE) != null
                && DispatchState.innermostInEffect(DispatchState.Kind.VMAP) == null
                && DispatchState.innermostInEffect(DispatchState.Kind.FORWARD_AD) == null
                && grad.device() == Device.CPU
                && grad.dtype() == DType.FLOAT32;
    }

    private static Tensor[] fusedGrads(Object[] a, Tensor[] o, Tensor grad) {
        Tensor[] grads = new Tensor[3];
        for (int i = 0; i < 3; i++) grads[i] = Tensor.of(TensorImpl.empty(((Tensor) a[i]).shape(), DType.FLOAT32));
        backwardInto(a, o[0], o[1], grad, grads);
        return grads;
    }

    /** The forward's arguments (query, key, value, dropout_p, is_causal, attn_mask, scale) of a backward call. */
    private static Object[] forwardArgs(Object[] b) {
        return new Object[] {b[1], b[2], b[3], b[6], b[7], b[8], b[9]};
    }

    private static Spec backwardMeta(Object[] b) {
        Tensor grad = (Tensor) b[0], out = (Tensor) b[4], lse = (Tensor) b[5];
        Spec forward = meta(forwardArgs(b));
        long[][] shapes = forward.shapes();
        for (Tensor t : new Tensor[] {grad, out, lse}) {
            if (t.dtype() != DType.FLOAT32) {
                throw new TorchException(NAME + "_backward: grad_out, out and logsumexp must be float32, got "
                        + grad.dtype() + ", " + out.dtype() + ", " + lse.dtype());
            }
        }
        if (!Arrays.equals(grad.impl().shapeRef(), shapes[0])
                || !Arrays.equals(out.impl().shapeRef(), shapes[0])
                || !Arrays.equals(lse.impl().shapeRef(), shapes[1])) {
            throw new TorchException(NAME + "_backward: grad_out and out must be " + Shapes.str(shapes[0])
                    + " and logsumexp " + Shapes.str(shapes[1]) + ", got "
                    + Shapes.str(grad.impl().shapeRef())
                    + ", " + Shapes.str(out.impl().shapeRef()) + ", "
                    + Shapes.str(lse.impl().shapeRef()));
        }
        Devices.common(NAME + "_backward", grad, out, lse, (Tensor) b[1]);
        long[][] grads = new long[3][];
        for (int i = 0; i < 3; i++) grads[i] = ((Tensor) b[i + 1]).shape();
        return new Spec(grads, new DType[] {DType.FLOAT32, DType.FLOAT32, DType.FLOAT32}, forward.device(), null);
    }

    private static void backward(Object[] b, Tensor[] outs) {
        backwardInto(forwardArgs(b), (Tensor) b[4], (Tensor) b[5], (Tensor) b[0], outs);
    }

    /**
     * The kernel's backward of the forward call {@code a} into {@code grads} (query, key and value gradients), every
     * element written: the kernel accumulates into zeroed dense targets, copied into {@code grads} where those are not.
     */
    private static void backwardInto(Object[] a, Tensor out, Tensor logsumexp, Tensor grad, Tensor[] grads) {
        Tensor[] targets = new Tensor[3];
        Rows[] rows = new Rows[3];
        for (int i = 0; i < 3; i++) {
            targets[i] = denseTarget(grads[i]);
            int offset = (int) targets[i].storageOffset();
            Arrays.fill(targets[i].impl().storage().floats(), offset, offset + (int) targets[i].numel(), 0f);
            rows[i] = rows(targets[i]);
        }
        Problem p = problem(a);
        if (p.batch() > 0 && p.l() > 0 && p.s() > 0) {
            Tensor lse = logsumexp.isContiguous() ? logsumexp : CopyOps.clone(logsumexp);
            Rows o = rows(out), dOut = rows(grad);
            float[] lseData = lse.impl().storage().floats();
            int lseOffset = (int) lse.storageOffset();
            Parallel.forRange(
                    p.batch(),
                    FlashAttentionSimd.grain(p, p.batch()),
                    (n0, n1) -> FlashAttentionSimd.backward(
                            p, o, lseData, lseOffset, dOut, rows[0], rows[1], rows[2], n0, n1));
        }
        for (int i = 0; i < 3; i++) if (targets[i] != grads[i]) CopyOps.convert(targets[i], grads[i]);
    }

    /**
     * The gradients in differentiable ops, from the inputs alone (so a recorded backward sees every dependence):
     * {@code P = safe_softmax(S)}, {@code dV = Pᵀ dO}, {@code dS = P (dP - rowsum(dP P))} with {@code dP = dO Vᵀ}, then
     * {@code dQ = dS K·scale} and {@code dK = dSᵀ Q·scale}.
     */
    private static Tensor[] differentiableGrads(Object[] a, Tensor grad) {
        Tensor q = (Tensor) a[0], k = (Tensor) a[1], v = (Tensor) a[2], mask = (Tensor) a[5];
        double scale = a[6] != null ? ((Number) a[6]).doubleValue() : 1 / Math.sqrt(q.size(-1));
        Tensor scores = q.matmul(k.mT()).mul(scale);
        long l = q.size(-2), s = k.size(-2);
        if ((Boolean) a[4]) {
            Tensor keep = JoinOps.tril(Creation.full(new long[] {l, s}, true, DType.BOOL, q.device()));
            scores = scores.maskedFill(keep.logicalNot(), Double.NEGATIVE_INFINITY);
        }
        if (mask != null) {
            scores = mask.dtype() == DType.BOOL
                    ? scores.maskedFill(mask.logicalNot(), Double.NEGATIVE_INFINITY)
                    : scores.add(mask);
        }
        Tensor probs = safeSoftmax(scores);
        Tensor dv = probs.mT().matmul(grad);
        Tensor dp = grad.matmul(v.mT());
        Tensor ds = probs.mul(dp.sub(dp.mul(probs).sum(new long[] {-1}, true))).mul(scale);
        return new Tensor[] {ds.matmul(k), ds.mT().matmul(q), dv};
    }

    /**
     * ATen's {@code _safe_softmax}: a row whose scores are all -inf gets zero weights instead of 0/0, so it attends to
     * nothing and its gradients stay zero. The row is zeroed before the softmax too, so its backward never meets NaN.
     */
    public static Tensor safeSoftmax(Tensor scores) {
        Tensor masked = scores.eq(Double.NEGATIVE_INFINITY).all(new long[] {-1}, true);
        return scores.maskedFill(masked, 0.0).softmax(-1).maskedFill(masked, 0.0);
    }
}
