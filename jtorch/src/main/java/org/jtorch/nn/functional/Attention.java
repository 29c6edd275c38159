package org.jtorch.nn.functional;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.amp.Autocast;
import org.jtorch.amp.CastPolicy;
import org.jtorch.ops.JoinOps;

/** The math reference of {@code F.scaled_dot_product_attention}: {@code softmax(QKᵀ·scale + mask) V}. */
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
        Tensor weights = attnMask != null ? safeSoftmax(scores) : scores.softmax(-1);
        if (dropoutP > 0) weights = F.dropout(weights, dropoutP, true);
        return weights.matmul(value);
    }

    /**
     * ATen's {@code _safe_softmax}: a row whose scores are all -inf (a fully masked query) gets zero weights, not the
     * NaN of 0/0, so it attends to nothing and its gradients stay zero. The row is set to 0 before the softmax too, so
     * that the softmax's backward never meets a NaN output.
     */
    private static Tensor safeSoftmax(Tensor scores) {
        Tensor masked = scores.eq(Double.NEGATIVE_INFINITY).all(new long[] {-1}, true);
        return scores.maskedFill(masked, 0.0).softmax(-1).maskedFill(masked, 0.0);
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
