package org.jtorch.nn;

import org.jtorch.Torch;

/**
 * The constructor arguments of a Transformer encoder or decoder layer, kept so that a stack can make the copies that
 * PyTorch makes with {@code copy.deepcopy}: same configuration, same weights and buffers, same training mode.
 */
record TransformerLayerConfig(
        long dModel,
        long nhead,
        long dimFeedforward,
        double dropout,
        String activation,
        double layerNormEps,
        boolean batchFirst,
        boolean normFirst,
        boolean bias) {

    /** Gives {@code copy} the state and training mode of {@code original}; returns {@code copy}. */
    <T extends Module> T copyStateInto(Module original, T copy) {
        try (var _ = Torch.noGrad()) {
            copy.loadStateDict(original.stateDict());
        }
        copy.train(original.isTraining());
        return copy;
    }
}
