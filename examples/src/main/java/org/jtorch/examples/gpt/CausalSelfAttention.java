package org.jtorch.examples.gpt;

import org.jtorch.Tensor;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;

/**
 * Multi-head causal self-attention (nanoGPT's {@code CausalSelfAttention}): one fused QKV projection, SDPA with
 * {@code is_causal}, output projection. No mask tensor: the fused attention kernel applies causality itself and skips
 * the key blocks above the diagonal.
 */
final class CausalSelfAttention extends Module {
    private final int nHead;
    private final int nEmbd;
    private final Linear cAttn;
    private final Linear cProj;

    CausalSelfAttention(GptConfig config) {
        this.nHead = config.nHead();
        this.nEmbd = config.nEmbd();
        cAttn = register("c_attn", new Linear(nEmbd, 3L * nEmbd, false));
        cProj = register("c_proj", new Linear(nEmbd, nEmbd, false));
    }

    Linear outputProjection() {
        return cProj;
    }

    @Override
    public Tensor forward(Tensor x) {
        long b = x.size(0), t = x.size(1);
        var qkv = cAttn.call(x).split(nEmbd, 2);
        Tensor q = heads(qkv.get(0), b, t), k = heads(qkv.get(1), b, t), v = heads(qkv.get(2), b, t);
        Tensor y = F.scaledDotProductAttention(q, k, v, null, 0.0, true, null, false); // [B, H, T, hs]
        return cProj.call(y.transpose(1, 2).contiguous().view(b, t, nEmbd));
    }

    /** [B, T, C] → [B, H, T, C/H]. */
    private Tensor heads(Tensor x, long b, long t) {
        return x.view(b, t, nHead, nEmbd / nHead).transpose(1, 2);
    }
}
