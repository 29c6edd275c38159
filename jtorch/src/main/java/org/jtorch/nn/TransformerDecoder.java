package org.jtorch.nn;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code torch.nn.TransformerDecoder}: {@code num_layers} copies of one decoder layer (same initial weights, as
 * PyTorch's deep copies), applied in turn with the same memory and masks, then an optional final norm. State-dict keys
 * are PyTorch's: {@code layers.0.self_attn.in_proj_weight}, …, {@code norm.weight}.
 */
public final class TransformerDecoder extends Module {
    private final ModuleList layers;
    private final Module norm;

    /** {@code TransformerDecoder(decoder_layer, num_layers)}: no final norm. */
    public TransformerDecoder(TransformerDecoderLayer decoderLayer, int numLayers) {
        this(decoderLayer, numLayers, null);
    }

    /** {@code TransformerDecoder(decoder_layer, num_layers, norm)}; a null norm is none. */
    public TransformerDecoder(TransformerDecoderLayer decoderLayer, int numLayers, Module norm) {
        if (numLayers < 0) throw new TorchException("num_layers must be non-negative, but got " + numLayers);
        List<Module> copies = new ArrayList<>();
        for (int i = 0; i < numLayers; i++) copies.add(decoderLayer.copy());
        this.layers = register("layers", new ModuleList(copies));
        this.norm = norm == null ? null : register("norm", norm);
    }

    /** {@code layers}. */
    public ModuleList layers() {
        return layers;
    }

    /** A decoder needs the memory: {@code forward(tgt)} alone is refused. */
    @Override
    public Tensor forward(Tensor tgt) {
        throw new TorchException("TransformerDecoder.forward() missing 1 required positional argument: 'memory'");
    }

    /** {@code forward(tgt, memory)}: no masks. */
    public Tensor forward(Tensor tgt, Tensor memory) {
        return forward(tgt, memory, null, null, null, null);
    }

    /** {@code forward(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)}. */
    public Tensor forward(
            Tensor tgt,
            Tensor memory,
            Tensor tgtMask,
            Tensor memoryMask,
            Tensor tgtKeyPaddingMask,
            Tensor memoryKeyPaddingMask) {
        Tensor output = tgt;
        for (Module layer : layers) {
            output = ((TransformerDecoderLayer) layer)
                    .forward(output, memory, tgtMask, memoryMask, tgtKeyPaddingMask, memoryKeyPaddingMask);
        }
        return norm == null ? output : norm.call(output);
    }
}
