package org.jtorch.nn;

/**
 * {@code torch.nn.modules.linear.NonDynamicallyQuantizableLinear}: a {@link Linear} under the class name PyTorch gives
 * {@link MultiheadAttention#outProj()}, so that printed module trees match.
 */
public final class NonDynamicallyQuantizableLinear extends Linear {
    /** {@code NonDynamicallyQuantizableLinear(in_features, out_features, bias)}. */
    public NonDynamicallyQuantizableLinear(long inFeatures, long outFeatures, boolean bias) {
        super(inFeatures, outFeatures, bias);
    }
}
