package org.jtorch.nn;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code torch.nn.TransformerEncoder}: {@code num_layers} copies of one encoder layer (same initial weights, as
 * PyTorch's deep copies), applied in turn with the same masks, then an optional final norm. State-dict keys are
 * PyTorch's ({@code layers.0.self_attn.in_proj_weight}, …, {@code norm.weight}). PyTorch's inference fast path (nested
 * tensors in eval mode, which zeroes padded positions) is not reproduced: padded positions keep their computed values,
 * as in training mode.
 */
public final class TransformerEncoder extends Module {
    private final ModuleList layers;
    private final Module norm;

    /** {@code TransformerEncoder(encoder_layer, num_layers)}: no final norm. */
    public TransformerEncoder(TransformerEncoderLayer encoderLayer, int numLayers) {
        this(encoderLayer, numLayers, null);
    }

    /** {@code TransformerEncoder(encoder_layer, num_layers, norm)}; a null norm is none. */
    public TransformerEncoder(TransformerEncoderLayer encoderLayer, int numLayers, Module norm) {
        if (numLayers < 0) throw new TorchException("num_layers must be non-negative, but got " + numLayers);
        List<Module> copies = new ArrayList<>();
        for (int i = 0; i < numLayers; i++) copies.add(encoderLayer.copy());
        this.layers = register("layers", new ModuleList(copies));
        this.norm = norm == null ? null : register("norm", norm);
    }

    /** {@code layers}. */
    public ModuleList layers() {
        return layers;
    }

    @Override
    public Tensor forward(Tensor src) {
        return forward(src, null, null);
    }

    /** {@code forward(src, mask, src_key_padding_mask)}; null masks are none. */
    public Tensor forward(Tensor src, Tensor mask, Tensor srcKeyPaddingMask) {
        Tensor output = src;
        for (Module layer : layers) {
            output = ((TransformerEncoderLayer) layer).forward(output, mask, srcKeyPaddingMask);
        }
        return norm == null ? output : norm.call(output);
    }
}
