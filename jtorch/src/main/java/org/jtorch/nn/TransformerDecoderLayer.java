package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.TransformerDecoderLayer}: masked self-attention over the target, attention from the target to the
 * encoder's output ("memory") and a feed-forward block, each with a residual connection and a LayerNorm (after the
 * residual by default, before the block with norm_first). Submodules carry PyTorch's names ({@code self_attn},
 * {@code multihead_attn}, {@code linear1}, {@code linear2}, {@code norm1}–{@code norm3}) so state dicts load both ways.
 * Masks go to {@link MultiheadAttention}, which runs scaled dot-product attention.
 */
public final class TransformerDecoderLayer extends Module {
    private final MultiheadAttention selfAttn;
    private final MultiheadAttention multiheadAttn;
    private final Linear linear1;
    private final Dropout dropout;
    private final Linear linear2;
    private final LayerNorm norm1;
    private final LayerNorm norm2;
    private final LayerNorm norm3;
    private final Dropout dropout1;
    private final Dropout dropout2;
    private final Dropout dropout3;
    private final TransformerLayerConfig config;

    /**
     * {@code TransformerDecoderLayer(d_model, nhead)}: dim_feedforward 2048, dropout 0.1, relu, eps 1e-5,
     * sequence-first, post-norm.
     */
    public TransformerDecoderLayer(long dModel, long nhead) {
        this(dModel, nhead, 2048, 0.1, "relu", 1e-5, false, false, true);
    }

    /**
     * {@code TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
     * norm_first, bias)}; activation "relu" or "gelu".
     */
    public TransformerDecoderLayer(
            long dModel,
            long nhead,
            long dimFeedforward,
            double dropout,
            String activation,
            double layerNormEps,
            boolean batchFirst,
            boolean normFirst,
            boolean bias) {
        if (!"relu".equals(activation) && !"gelu".equals(activation)) {
            throw new TorchException("activation should be relu/gelu, not " + activation);
        }
        this.config = new TransformerLayerConfig(
                dModel, nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, bias);
        this.selfAttn =
                register("self_attn", new MultiheadAttention(dModel, nhead, dropout, bias, null, null, batchFirst));
        this.multiheadAttn = register(
                "multihead_attn", new MultiheadAttention(dModel, nhead, dropout, bias, null, null, batchFirst));
        this.linear1 = register("linear1", new Linear(dModel, dimFeedforward, bias));
        this.dropout = register("dropout", new Dropout(dropout));
        this.linear2 = register("linear2", new Linear(dimFeedforward, dModel, bias));
        this.norm1 = register("norm1", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
        this.norm2 = register("norm2", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
        this.norm3 = register("norm3", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
        this.dropout1 = register("dropout1", new Dropout(dropout));
        this.dropout2 = register("dropout2", new Dropout(dropout));
        this.dropout3 = register("dropout3", new Dropout(dropout));
    }

    /** A layer of the same configuration, weights, buffers and mode: {@code copy.deepcopy(layer)}. */
    TransformerDecoderLayer copy() {
        TransformerLayerConfig c = config;
        TransformerDecoderLayer layer = new TransformerDecoderLayer(
                c.dModel(),
                c.nhead(),
                c.dimFeedforward(),
                c.dropout(),
                c.activation(),
                c.layerNormEps(),
                c.batchFirst(),
                c.normFirst(),
                c.bias());
        return c.copyStateInto(this, layer);
    }

    /** A decoder layer needs the memory: {@code forward(tgt)} alone is refused. */
    @Override
    public Tensor forward(Tensor tgt) {
        throw new TorchException("TransformerDecoderLayer.forward() missing 1 required positional argument: 'memory'");
    }

    /** {@code forward(tgt, memory)}: no masks. */
    public Tensor forward(Tensor tgt, Tensor memory) {
        return forward(tgt, memory, null, null, null, null);
    }

    /**
     * {@code forward(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)}: attention
     * masks are (T, T) / (T, S) or per head, boolean (true = masked) or additive float; key-padding masks are (N, T) /
     * (N, S); null masks are none.
     */
    public Tensor forward(
            Tensor tgt,
            Tensor memory,
            Tensor tgtMask,
            Tensor memoryMask,
            Tensor tgtKeyPaddingMask,
            Tensor memoryKeyPaddingMask) {
        Tensor x = tgt;
        if (config.normFirst()) {
            x = x.add(selfAttentionBlock(norm1.call(x), tgtMask, tgtKeyPaddingMask));
            x = x.add(memoryAttentionBlock(norm2.call(x), memory, memoryMask, memoryKeyPaddingMask));
            return x.add(feedForwardBlock(norm3.call(x)));
        }
        x = norm1.call(x.add(selfAttentionBlock(x, tgtMask, tgtKeyPaddingMask)));
        x = norm2.call(x.add(memoryAttentionBlock(x, memory, memoryMask, memoryKeyPaddingMask)));
        return norm3.call(x.add(feedForwardBlock(x)));
    }

    private Tensor selfAttentionBlock(Tensor x, Tensor mask, Tensor keyPaddingMask) {
        return dropout1.call(
                selfAttn.forward(x, x, x, keyPaddingMask, false, mask, true).attnOutput());
    }

    private Tensor memoryAttentionBlock(Tensor x, Tensor memory, Tensor mask, Tensor keyPaddingMask) {
        return dropout2.call(multiheadAttn
                .forward(x, memory, memory, keyPaddingMask, false, mask, true)
                .attnOutput());
    }

    private Tensor feedForwardBlock(Tensor x) {
        Tensor h = linear1.call(x);
        h = "gelu".equals(config.activation()) ? F.gelu(h) : F.relu(h);
        return dropout3.call(linear2.call(dropout.call(h)));
    }
}
