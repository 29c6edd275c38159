package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.TransformerEncoderLayer}: self-attention and a feed-forward block, each with a residual connection
 * and a LayerNorm (after the residual by default, before the block with norm_first). Submodules and parameters carry
 * PyTorch's names ({@code self_attn}, {@code linear1}, {@code linear2}, {@code norm1}, {@code norm2}) so state dicts
 * load.
 */
public final class TransformerEncoderLayer extends Module {
    private final MultiheadAttention selfAttn;
    private final Linear linear1;
    private final Dropout dropout;
    private final Linear linear2;
    private final LayerNorm norm1;
    private final LayerNorm norm2;
    private final Dropout dropout1;
    private final Dropout dropout2;
    private final boolean normFirst;
    private final String activation;
    /** The constructor's arguments, for {@link #copy} (PyTorch's stacks deep-copy one layer). */
    private final TransformerLayerConfig config;

    /**
     * {@code TransformerEncoderLayer(d_model, nhead)}: dim_feedforward 2048, dropout 0.1, relu, eps 1e-5,
     * sequence-first, post-norm.
     */
    public TransformerEncoderLayer(long dModel, long nhead) {
        this(dModel, nhead, 2048, 0.1, "relu", 1e-5, false, false, true);
    }

    /**
     * {@code TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
     * norm_first, bias)}; activation "relu" or "gelu".
     */
    public TransformerEncoderLayer(
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
        this.linear1 = register("linear1", new Linear(dModel, dimFeedforward, bias));
        this.dropout = register("dropout", new Dropout(dropout));
        this.linear2 = register("linear2", new Linear(dimFeedforward, dModel, bias));
        this.normFirst = normFirst;
        this.norm1 = register("norm1", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
        this.norm2 = register("norm2", new LayerNorm(new long[] {dModel}, layerNormEps, true, bias));
        this.dropout1 = register("dropout1", new Dropout(dropout));
        this.dropout2 = register("dropout2", new Dropout(dropout));
        this.activation = activation;
    }

    /** A layer of the same configuration, weights, buffers and mode: {@code copy.deepcopy(layer)}. */
    TransformerEncoderLayer copy() {
        TransformerLayerConfig c = config;
        TransformerEncoderLayer layer = new TransformerEncoderLayer(
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

    @Override
    public Tensor forward(Tensor src) {
        return forward(src, null, null);
    }

    /** {@code forward(src, src_mask, src_key_padding_mask)}; null masks are none. */
    public Tensor forward(Tensor src, Tensor srcMask, Tensor srcKeyPaddingMask) {
        Tensor x = src;
        if (normFirst) {
            x = x.add(selfAttentionBlock(norm1.call(x), srcMask, srcKeyPaddingMask));
            return x.add(feedForwardBlock(norm2.call(x)));
        }
        x = norm1.call(x.add(selfAttentionBlock(x, srcMask, srcKeyPaddingMask)));
        return norm2.call(x.add(feedForwardBlock(x)));
    }

    private Tensor selfAttentionBlock(Tensor x, Tensor mask, Tensor keyPaddingMask) {
        return dropout1.call(
                selfAttn.forward(x, x, x, keyPaddingMask, false, mask, true).attnOutput());
    }

    private Tensor feedForwardBlock(Tensor x) {
        Tensor h = linear1.call(x);
        h = "gelu".equals(activation) ? F.gelu(h) : F.relu(h);
        return dropout2.call(linear2.call(dropout.call(h)));
    }
}
