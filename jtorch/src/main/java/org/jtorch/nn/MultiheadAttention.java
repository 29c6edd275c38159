package org.jtorch.nn;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;
import org.jtorch.ops.TernaryOps;

/**
 * {@code torch.nn.MultiheadAttention} with PyTorch's parameter names ({@code in_proj_weight}, {@code in_proj_bias}, or
 * {@code q_proj_weight}/{@code k_proj_weight}/{@code v_proj_weight} when kdim/vdim differ from embed_dim, and
 * {@code out_proj.weight}, {@code out_proj.bias}), so PyTorch state dicts load. Inputs are (L, N, E), or (N, L, E) with
 * batch_first, or unbatched (L, E). Masks follow PyTorch: a bool {@code True} means "do not attend", a float mask is
 * added to the scores. {@code add_bias_kv} appends the learned {@code bias_k}/{@code bias_v} (each (1, 1, E)) to the
 * projected keys and values, {@code add_zero_attn} a zero key and value per head, as
 * {@code F.multi_head_attention_forward} does; the masks get a matching unmasked column for each.
 */
public final class MultiheadAttention extends Module {
    /** {@code (attn_output, attn_output_weights)}; the weights are null when not asked for. */
    public record Output(Tensor attnOutput, Tensor attnWeights) {}

    private final long embedDim;
    private final long kdim;
    private final long vdim;
    private final long numHeads;
    private final double dropout;
    private final boolean batchFirst;
    private final boolean sameEmbedDim;
    private final boolean addBiasKv;
    private final boolean addZeroAttn;
    private final NonDynamicallyQuantizableLinear outProj;

    /** {@code MultiheadAttention(embed_dim, num_heads)}: no dropout, biases, sequence-first. */
    public MultiheadAttention(long embedDim, long numHeads) {
        this(embedDim, numHeads, 0.0, true, null, null, false);
    }

    /**
     * {@code MultiheadAttention(embed_dim, num_heads, dropout, bias, kdim, vdim, batch_first)}; null kdim/vdim =
     * embed_dim.
     */
    public MultiheadAttention(
            long embedDim, long numHeads, double dropout, boolean bias, Long kdim, Long vdim, boolean batchFirst) {
        this(embedDim, numHeads, dropout, bias, false, false, kdim, vdim, batchFirst);
    }

    /**
     * {@code MultiheadAttention(embed_dim, num_heads, dropout, bias, add_bias_kv, add_zero_attn, kdim, vdim,
     * batch_first)}: PyTorch's full argument list; null kdim/vdim = embed_dim.
     */
    public MultiheadAttention(
            long embedDim,
            long numHeads,
            double dropout,
            boolean bias,
            boolean addBiasKv,
            boolean addZeroAttn,
            Long kdim,
            Long vdim,
            boolean batchFirst) {
        if (embedDim <= 0 || numHeads <= 0) {
            throw new IllegalArgumentException("embed_dim and num_heads must be greater than 0, got embed_dim="
                    + embedDim + " and num_heads=" + numHeads + " instead");
        }
        if (embedDim % numHeads != 0) throw new IllegalArgumentException("embed_dim must be divisible by num_heads");
        this.embedDim = embedDim;
        this.kdim = kdim == null ? embedDim : kdim;
        this.vdim = vdim == null ? embedDim : vdim;
        this.numHeads = numHeads;
        this.dropout = dropout;
        this.batchFirst = batchFirst;
        this.sameEmbedDim = this.kdim == embedDim && this.vdim == embedDim;
        this.addBiasKv = addBiasKv;
        this.addZeroAttn = addZeroAttn;
        DType dt = Torch.getDefaultDtype();
        if (sameEmbedDim) {
            registerParameter("in_proj_weight", Torch.empty(new long[] {3 * embedDim, embedDim}, dt, Device.CPU));
            registerParameter("q_proj_weight", null);
            registerParameter("k_proj_weight", null);
            registerParameter("v_proj_weight", null);
        } else {
            registerParameter("q_proj_weight", Torch.empty(new long[] {embedDim, embedDim}, dt, Device.CPU));
            registerParameter("k_proj_weight", Torch.empty(new long[] {embedDim, this.kdim}, dt, Device.CPU));
            registerParameter("v_proj_weight", Torch.empty(new long[] {embedDim, this.vdim}, dt, Device.CPU));
            registerParameter("in_proj_weight", null);
        }
        registerParameter("in_proj_bias", bias ? Torch.empty(new long[] {3 * embedDim}, dt, Device.CPU) : null);
        // out_proj draws its Linear initialisation first, then _reset_parameters, as in PyTorch's constructor
        this.outProj = register("out_proj", new NonDynamicallyQuantizableLinear(embedDim, embedDim, bias));
        // without add_bias_kv PyTorch sets plain None attributes, not parameters: no state-dict keys
        if (addBiasKv) {
            registerParameter("bias_k", Torch.empty(new long[] {1, 1, embedDim}, dt, Device.CPU));
            registerParameter("bias_v", Torch.empty(new long[] {1, 1, embedDim}, dt, Device.CPU));
        }
        resetParameters();
    }

    /**
     * {@code _reset_parameters()}: xavier_uniform_ on the input projections, zero biases, xavier_normal_ on
     * bias_k/bias_v.
     */
    public void resetParameters() {
        if (sameEmbedDim) {
            Init.xavierUniform_(getParameter("in_proj_weight"));
        } else {
            Init.xavierUniform_(getParameter("q_proj_weight"));
            Init.xavierUniform_(getParameter("k_proj_weight"));
            Init.xavierUniform_(getParameter("v_proj_weight"));
        }
        if (getParameter("in_proj_bias") != null) {
            Init.zeros_(getParameter("in_proj_bias"));
            Init.zeros_(outProj.bias());
        }
        if (addBiasKv) {
            Init.xavierNormal_(getParameter("bias_k"));
            Init.xavierNormal_(getParameter("bias_v"));
        }
    }

    /** {@code out_proj}. */
    public Linear outProj() {
        return outProj;
    }

    /** {@code forward(query, key, value)}: averaged attention weights returned too. */
    public Output forward(Tensor query, Tensor key, Tensor value) {
        return forward(query, key, value, null, true, null, true);
    }

    /**
     * {@code forward(query, key, value, key_padding_mask, need_weights, attn_mask, average_attn_weights)}:
     * key_padding_mask is (N, S); attn_mask is (L, S) or (N·num_heads, L, S); null masks are none.
     */
    public Output forward(
            Tensor query,
            Tensor key,
            Tensor value,
            Tensor keyPaddingMask,
            boolean needWeights,
            Tensor attnMask,
            boolean averageAttnWeights) {
        boolean batched = query.dim() == 3;
        if (query.dim() != 3 && query.dim() != 2) {
            throw new IllegalArgumentException("query should be unbatched 2D or batched 3D tensor but received "
                    + query.dim() + "-D query tensor");
        }
        boolean selfAttention = query == key && key == value;
        boolean transposed = batchFirst && batched;
        // the projections read the inputs as given: a contiguous (N, L, E) input folds into one GEMM, its
        // (L, N, E) transpose would not
        Tensor query0 = batched ? query : query.unsqueeze(1), key0 = batched ? key : key.unsqueeze(1);
        Tensor value0 = batched ? value : value.unsqueeze(1);
        if (transposed) {
            query = query.transpose(0, 1);
            key = key.transpose(0, 1);
            value = value.transpose(0, 1);
        }
        if (!batched) {
            query = query.unsqueeze(1);
            key = key.unsqueeze(1);
            value = value.unsqueeze(1);
            if (keyPaddingMask != null) keyPaddingMask = keyPaddingMask.unsqueeze(0);
        }
        long tgtLen = query.size(0),
                bsz = query.size(1),
                e = query.size(2),
                srcLen = key.size(0),
                hd = embedDim / numHeads;
        if (e != embedDim)
            throw new IllegalArgumentException("was expecting embedding dimension of " + embedDim + ", but got " + e);
        if (sameEmbedDim && !java.util.Arrays.equals(key.shape(), value.shape())) {
            throw new IllegalArgumentException("key shape torch.Size(" + Shapes.str(key.shape())
                    + ") does not match value shape torch.Size(" + Shapes.str(value.shape()) + ")");
        }
        if (!sameEmbedDim && (key.size(0) != value.size(0) || key.size(1) != value.size(1))) {
            throw new IllegalArgumentException(
                    "key's sequence and batch dims " + Shapes.str(new long[] {key.size(0), key.size(1)})
                            + " do not match value's " + Shapes.str(new long[] {value.size(0), value.size(1)}));
        }
        Tensor b = getParameter("in_proj_bias");
        Tensor q, k, v;
        if (sameEmbedDim && selfAttention) {
            // self-attention: one [3E, E] projection instead of three (PyTorch's _in_projection_packed)
            Tensor qkv = F.linear(query0, getParameter("in_proj_weight"), b);
            q = qkv.narrow(2, 0, embedDim);
            k = qkv.narrow(2, embedDim, embedDim);
            v = qkv.narrow(2, 2 * embedDim, embedDim);
        } else {
            Tensor[] w = projectionWeights();
            q = F.linear(query0, w[0], b == null ? null : b.narrow(0, 0, embedDim));
            k = F.linear(key0, w[1], b == null ? null : b.narrow(0, embedDim, embedDim));
            v = F.linear(value0, w[2], b == null ? null : b.narrow(0, 2 * embedDim, embedDim));
        }
        if (transposed) {
            q = q.transpose(0, 1);
            k = k.transpose(0, 1);
            v = v.transpose(0, 1);
        }
        Tensor mask = attnMask(attnMask, bsz, tgtLen, srcLen, q.dtype());
        if (keyPaddingMask != null
                && (keyPaddingMask.dim() != 2 || keyPaddingMask.size(0) != bsz || keyPaddingMask.size(1) != srcLen)) {
            throw new IllegalArgumentException("expecting key_padding_mask shape of (" + bsz + ", " + srcLen
                    + "), but got torch.Size(" + Shapes.str(keyPaddingMask.shape()) + ")");
        }
        Tensor kpmAdd = keyPaddingMask == null ? null : additive(keyPaddingMask, q.dtype());
        // extra key/value positions after the S given ones: bias_k/bias_v, then the zero attention; the masks leave
        // them open
        long extra = (addBiasKv ? 1 : 0) + (addZeroAttn ? 1 : 0);
        if (addBiasKv) {
            k = Torch.cat(List.of(k, getParameter("bias_k").expand(1, bsz, embedDim)), 0);
            v = Torch.cat(List.of(v, getParameter("bias_v").expand(1, bsz, embedDim)), 0);
        }
        if (addZeroAttn) {
            Tensor zeros = Torch.zeros(new long[] {1, bsz, embedDim}, k.dtype(), k.device());
            k = Torch.cat(List.of(k, zeros), 0);
            v = Torch.cat(List.of(v, zeros), 0);
        }
        if (extra > 0) {
            if (mask != null) mask = Torch.pad(mask, new long[] {0, extra}, 0.0);
            if (kpmAdd != null) kpmAdd = Torch.pad(kpmAdd, new long[] {0, extra}, 0.0);
            srcLen += extra;
        }
        if (kpmAdd != null) {
            Tensor kpm = kpmAdd.reshape(bsz, 1, 1, srcLen)
                    .expand(bsz, numHeads, 1, srcLen)
                    .reshape(bsz * numHeads, 1, srcLen);
            mask = mask == null ? kpm : mask.add(kpm);
        }
        double p = isTraining() ? dropout : 0.0;
        Tensor out, weights = null;
        if (needWeights) {
            // (L, N, E) → (N·H, L, hd)
            Tensor qh = q.reshape(tgtLen, bsz * numHeads, hd).transpose(0, 1);
            Tensor kh = k.reshape(srcLen, bsz * numHeads, hd).transpose(0, 1);
            Tensor vh = v.reshape(srcLen, bsz * numHeads, hd).transpose(0, 1);
            Tensor scores = qh.mul(Math.sqrt(1.0 / hd)).bmm(kh.transpose(1, 2));
            if (mask != null) scores = scores.add(mask);
            weights = scores.softmax(-1);
            Tensor attn = p > 0 ? F.dropout(weights, p, true) : weights;
            out = attn.bmm(vh).transpose(0, 1).reshape(tgtLen * bsz, embedDim);
            weights = weights.reshape(bsz, numHeads, tgtLen, srcLen);
            if (averageAttnWeights) weights = weights.mean(1);
        } else {
            // (L, N, E) → (N, H, L, hd) as views; SDPA's result back to (L·N, E)
            Tensor qh = q.reshape(tgtLen, bsz, numHeads, hd).permute(1, 2, 0, 3);
            Tensor kh = k.reshape(srcLen, bsz, numHeads, hd).permute(1, 2, 0, 3);
            Tensor vh = v.reshape(srcLen, bsz, numHeads, hd).permute(1, 2, 0, 3);
            Tensor m4 = mask == null
                    ? null
                    : mask.reshape(mask.size(0) == 1 ? 1 : bsz, mask.size(0) == 1 ? 1 : numHeads, -1, srcLen);
            Tensor o = F.scaledDotProductAttention(qh, kh, vh, m4, p, false, null, false);
            if (transposed) {
                // straight to a contiguous (N, L, E): the layers after attention fold it into single GEMMs
                return new Output(
                        outProj.call(o.permute(0, 2, 1, 3).reshape(bsz * tgtLen, embedDim))
                                .reshape(bsz, tgtLen, embedDim),
                        null);
            }
            out = o.permute(2, 0, 1, 3).reshape(tgtLen * bsz, embedDim);
        }
        out = outProj.call(out).reshape(tgtLen, bsz, embedDim);
        if (!batched) {
            out = out.squeeze(1);
            if (weights != null) weights = weights.squeeze(0);
        } else if (transposed) {
            out = out.transpose(0, 1);
        }
        return new Output(out, weights);
    }

    private Tensor[] projectionWeights() {
        if (sameEmbedDim) {
            Tensor w = getParameter("in_proj_weight");
            return new Tensor[] {
                w.narrow(0, 0, embedDim), w.narrow(0, embedDim, embedDim), w.narrow(0, 2 * embedDim, embedDim)
            };
        }
        return new Tensor[] {getParameter("q_proj_weight"), getParameter("k_proj_weight"), getParameter("v_proj_weight")
        };
    }

    /** A bool mask (True = masked) as −inf/0, a float mask as it is. */
    private static Tensor additive(Tensor mask, DType dtype) {
        if (mask.dtype() == DType.BOOL)
            return TernaryOps.where(mask, Double.NEGATIVE_INFINITY, 0.0).to(dtype);
        if (!mask.isFloatingPoint()) {
            throw new TorchException("only bool and floating types of masks are supported, but got " + mask.dtype());
        }
        return mask;
    }

    /** attn_mask checked against (L, S) or (N·H, L, S) and made additive with a leading batch dim. */
    private Tensor attnMask(Tensor attnMask, long bsz, long tgtLen, long srcLen, DType dtype) {
        if (attnMask == null) return null;
        if (attnMask.dim() == 2) {
            if (attnMask.size(0) != tgtLen || attnMask.size(1) != srcLen) {
                throw new TorchException("The shape of the 2D attn_mask is torch.Size(" + Shapes.str(attnMask.shape())
                        + "), but should be (" + tgtLen + ", " + srcLen + ").");
            }
            return additive(attnMask, dtype).unsqueeze(0);
        }
        if (attnMask.dim() == 3) {
            if (attnMask.size(0) != bsz * numHeads || attnMask.size(1) != tgtLen || attnMask.size(2) != srcLen) {
                throw new TorchException("The shape of the 3D attn_mask is torch.Size(" + Shapes.str(attnMask.shape())
                        + "), but should be (" + bsz * numHeads + ", " + tgtLen + ", " + srcLen + ").");
            }
            return additive(attnMask, dtype);
        }
        throw new TorchException("attn_mask's dimension " + attnMask.dim() + " is not supported");
    }
}
