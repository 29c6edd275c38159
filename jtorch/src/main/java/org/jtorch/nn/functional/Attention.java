package org.jtorch.nn.functional;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.amp.Autocast;
import org.jtorch.amp.CastPolicy;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.ops.AttentionOps;
import org.jtorch.ops.JoinOps;

/**
 * {@code F.scaled_dot_product_attention}: {@code softmax(QKᵀ·scale + mask) V}, through the fused kernel of
 * {@link AttentionOps} where it applies, else through its math decomposition.
 */
final class Attention {
    private Attention() {}

    static Tensor scaledDotProductAttention(
            Tensor query,
            Tensor key,
            Tensor value,
            Tensor attnMask,
            double dropoutP,
            boolean isCausal,
            Double scale,
            boolean enableGqa) {
        if (Autocast.isActive()) {
            return Autocast.run(
                    CastPolicy.LOWER_PRECISION_FP,
                    a -> scaledDotProductAttention(a[0], a[1], a[2], a[3], dropoutP, isCausal, scale, enableGqa),
                    query,
                    key,
                    value,
                    attnMask);
        }
        if (isCausal && attnMask != null) {
            throw new TorchException(
                    "_scaled_dot_product_attention: Explicit attnMask should not be set when isCausal = true");
        }
        if (query.dim() < 2 || key.dim() < 2 || value.dim() < 2) {
            throw new TorchException("scaled_dot_product_attention: query, key and value must be at least 2-D");
        }
        if (enableGqa) {
            key = repeatHeads(key, query);
            value = repeatHeads(value, query);
        }
        if (fusable(query, key, value, attnMask, dropoutP)) {
            return AttentionOps.flashAttention(query, key, value, isCausal, attnMask, scale)[0];
        }
        long l = query.size(-2), s = key.size(-2);
        double sc = scale != null ? scale : 1 / Math.sqrt(query.size(-1));
        Tensor scores = query.matmul(key.mT()).mul(sc);
        if (isCausal) {
            Tensor keep = JoinOps.tril(Torch.ones(new long[] {l, s}, DType.BOOL, query.device()));
            scores = scores.maskedFill(keep.logicalNot(), Double.NEGATIVE_INFINITY);
        } else if (attnMask != null) {
            scores = attnMask.dtype() == DType.BOOL
                    ? scores.maskedFill(attnMask.logicalNot(), Double.NEGATIVE_INFINITY)
                    : scores.add(attnMask);
        }
        // Only an explicit mask can mask a whole row (a causal one keeps column 0 of every row), so only then is the
        // safe softmax's extra pass over the scores paid.
        Tensor weights = attnMask != null ? AttentionOps.safeSoftmax(scores) : scores.softmax(-1);
        if (dropoutP > 0) weights = F.dropout(weights, dropoutP, true);
        return weights.matmul(value);
    }

    /**
     * Whether the fused kernel computes this call, as ATen's CPU flash kernel would: float32 on the CPU, no dropout,
     * query, key and value of one batch shape, a mask that broadcasts and needs no gradient; and no vmap in effect, nor
     * graph capture other than {@code torch.compile}'s, whose batch rules and graphs see the math decomposition.
     */
    private static boolean fusable(Tensor q, Tensor k, Tensor v, Tensor mask, double dropoutP) {
        if (dropoutP > 0 || q.dtype() != DType.FLOAT32 || k.dtype() != DType.FLOAT32 || v.dtype() != DType.FLOAT32) {
            return false;
        }
        if (q.device() != Device.CPU || k.device() != Device.CPU || v.device() != Device.CPU) return false;
        if (q.dim() != k.dim() || q.dim() != v.dim() || q.size(-1) != k.size(-1) || k.size(-2) != v.size(-2)) {
            return false;
        }
        for (int d = 0; d < q.dim() - 2; d++) {
            if (q.size(d) != k.size(d) || q.size(d) != v.size(d)) return false;
        }
        if (mask != null) {
            if (mask.requiresGrad() || (mask.dtype() != DType.FLOAT32 && mask.dtype() != DType.BOOL)) return false;
            if (mask.device() != Device.CPU || mask.dim() > q.dim()) return false;
            long[] scores = q.shape();
            scores[scores.length - 1] = k.size(-2);
            for (int d = 0; d < mask.dim(); d++) {
                long size = mask.size(d);
                if (size != 1 && size != scores[scores.length - mask.dim() + d]) return false;
            }
        }
        return (DispatchState.innermostInEffect(DispatchState.Kind.TRACE) == null || AttentionOps.inFusedCapture())
                && DispatchState.innermostInEffect(DispatchState.Kind.VMAP) == null;
    }

    /**
     * GQA: each key/value head (dim -3) serves {@code Hq / Hkv} consecutive query heads, as repeat_interleave lays them
     * out.
     */
    private static Tensor repeatHeads(Tensor kv, Tensor query) {
        if (query.dim() < 3 || kv.dim() < 3) return kv;
        long hq = query.size(-3), hkv = kv.size(-3);
        if (hkv == hq) return kv;
        if (hkv == 0 || hq % hkv != 0) {
            throw new TorchException("number of heads in key/value (" + hkv
                    + ") must divide the number of heads in query (" + hq + ") when enableGqa = true");
        }
        long[] shape = kv.shape();
        int r = shape.length;
        long[] expanded = new long[r + 1];
        System.arraycopy(shape, 0, expanded, 0, r - 2);
        expanded[r - 2] = hq / hkv;
        expanded[r - 1] = shape[r - 2];
        expanded[r] = shape[r - 1];
        long[] merged = shape.clone();
        merged[r - 3] = hq;
        return kv.unsqueeze(-3).expand(expanded).reshape(merged);
    }
}
