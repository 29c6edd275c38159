package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.init.Init;

/**
 * {@code torch.nn.Transformer}: an encoder stack and a decoder stack (each ending in a LayerNorm), the decoder
 * attending to the encoder's output. Parameters with more than one dim start Xavier-uniform, as PyTorch's
 * {@code _reset_parameters}; state-dict keys are PyTorch's ({@code encoder.layers.0.self_attn.in_proj_weight}, …,
 * {@code decoder.norm.bias}). {@link #generateSquareSubsequentMask} makes the causal target mask.
 */
public final class Transformer extends Module {
    private final TransformerEncoder encoder;
    private final TransformerDecoder decoder;
    private final long dModel;
    private final boolean batchFirst;

    /**
     * {@code Transformer()}: d_model 512, 8 heads, 6 encoder and 6 decoder layers, dim_feedforward 2048, dropout 0.1,
     * relu, eps 1e-5, sequence-first, post-norm, with biases.
     */
    public Transformer() {
        this(512, 8, 6, 6, 2048, 0.1, "relu", 1e-5, false, false, true);
    }

    /**
     * {@code Transformer(d_model, nhead, num_encoder_layers, num_decoder_layers, dim_feedforward, dropout, activation,
     * layer_norm_eps=, batch_first=, norm_first=, bias=)}; activation "relu" or "gelu".
     */
    public Transformer(
            long dModel,
            long nhead,
            int numEncoderLayers,
            int numDecoderLayers,
            long dimFeedforward,
            double dropout,
            String activation,
            double layerNormEps,
            boolean batchFirst,
            boolean normFirst,
            boolean bias) {
        TransformerEncoderLayer encoderLayer = new TransformerEncoderLayer(
                dModel, nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, bias);
        this.encoder = register(
                "encoder",
                new TransformerEncoder(
                        encoderLayer, numEncoderLayers, new LayerNorm(new long[] {dModel}, layerNormEps, true, bias)));
        TransformerDecoderLayer decoderLayer = new TransformerDecoderLayer(
                dModel, nhead, dimFeedforward, dropout, activation, layerNormEps, batchFirst, normFirst, bias);
        this.decoder = register(
                "decoder",
                new TransformerDecoder(
                        decoderLayer, numDecoderLayers, new LayerNorm(new long[] {dModel}, layerNormEps, true, bias)));
        this.dModel = dModel;
        this.batchFirst = batchFirst;
        for (Tensor p : parameters()) if (p.dim() > 1) Init.xavierUniform_(p);
    }

    /** {@code encoder}. */
    public TransformerEncoder encoder() {
        return encoder;
    }

    /** {@code decoder}. */
    public TransformerDecoder decoder() {
        return decoder;
    }

    /**
     * {@code Transformer.generate_square_subsequent_mask(sz)}: the causal mask, −inf above the diagonal and 0
     * elsewhere, in the default dtype.
     */
    public static Tensor generateSquareSubsequentMask(long sz) {
        return Torch.full(new long[] {sz, sz}, Double.NEGATIVE_INFINITY).triu(1);
    }

    /** A Transformer takes a source and a target: {@code forward(src)} alone is refused. */
    @Override
    public Tensor forward(Tensor src) {
        throw new TorchException("Transformer.forward() missing 1 required positional argument: 'tgt'");
    }

    /** {@code forward(src, tgt)}: no masks. */
    public Tensor forward(Tensor src, Tensor tgt) {
        return forward(src, tgt, null, null, null, null, null, null);
    }

    /**
     * {@code forward(src, tgt, src_mask, tgt_mask, memory_mask, src_key_padding_mask, tgt_key_padding_mask,
     * memory_key_padding_mask)}; null masks are none.
     */
    public Tensor forward(
            Tensor src,
            Tensor tgt,
            Tensor srcMask,
            Tensor tgtMask,
            Tensor memoryMask,
            Tensor srcKeyPaddingMask,
            Tensor tgtKeyPaddingMask,
            Tensor memoryKeyPaddingMask) {
        boolean batched = src.dim() == 3;
        int batchDim = batchFirst ? 0 : 1;
        if (batched && tgt.dim() == 3 && src.size(batchDim) != tgt.size(batchDim)) {
            throw new TorchException("the batch number of src and tgt must be equal");
        }
        if (src.size(-1) != dModel || tgt.size(-1) != dModel) {
            throw new TorchException("the feature number of src and tgt must be equal to d_model");
        }
        Tensor memory = encoder.forward(src, srcMask, srcKeyPaddingMask);
        return decoder.forward(tgt, memory, tgtMask, memoryMask, tgtKeyPaddingMask, memoryKeyPaddingMask);
    }
}
