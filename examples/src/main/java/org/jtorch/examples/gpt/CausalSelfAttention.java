package org.jtorch.examples.gpt;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;

/**
 * Multi-head causal self-attention (nanoGPT's {@code CausalSelfAttention}): one fused QKV projection, SDPA, output
 * projection. The causal mask is built once, as an additive float mask (0 on and below the diagonal, -inf above: what
 * ATen's math SDPA turns {@code is_causal=True} into), and kept in a non-persistent buffer, so the state dict keeps
 * nanoGPT's keys.
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
        long t = config.blockSize();
        Tensor above = Torch.ones(new long[] {t, t}, DType.BOOL, Device.CPU).triu(1L);
        registerBuffer("causal_mask", Torch.zeros(t, t).maskedFill(above, Double.NEGATIVE_INFINITY), false);
    }

    Linear outputProjection() {
        return cProj;
    }

    @Override
    public Tensor forward(Tensor x) {
        long b = x.size(0), t = x.size(1);
        var qkv = cAttn.call(x).split(nEmbd, 2);
        Tensor q = heads(qkv.get(0), b, t), k = heads(qkv.get(1), b, t), v = heads(qkv.get(2), b, t);
        Tensor mask = getBuffer("causal_mask").narrow(0, 0, t).narrow(1, 0, t);
        Tensor y = F.scaledDotProductAttention(q, k, v, mask, 0.0, false, null, false); // [B, H, T, hs]
        return cProj.call(y.transpose(1, 2).contiguous().view(b, t, nEmbd));
    }

    /** [B, T, C] → [B, H, T, C/H]. */
    private Tensor heads(Tensor x, long b, long t) {
        return x.view(b, t, nHead, nEmbd / nHead).transpose(1, 2);
    }
}
