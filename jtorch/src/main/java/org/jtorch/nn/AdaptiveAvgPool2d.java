package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.AdaptiveAvgPool2d}: averages into a fixed output size whatever the input size. */
public class AdaptiveAvgPool2d extends Module {
    /** One value (square) or two; a null entry keeps that input dim, as PyTorch's {@code None}. */
    private final Long[] outputSize;

    /** {@code AdaptiveAvgPool2d(output_size)}: one value (square) or two. */
    public AdaptiveAvgPool2d(long... outputSize) {
        if (outputSize.length != 1 && outputSize.length != 2) {
            throw new IllegalArgumentException("AdaptiveAvgPool2d: output_size must be one or two integers");
        }
        this.outputSize = new Long[outputSize.length];
        for (int i = 0; i < outputSize.length; i++) this.outputSize[i] = outputSize[i];
    }

    /**
     * {@code AdaptiveAvgPool2d((h, w))} where either size may be null, PyTorch's {@code None}: that dim keeps the
     * input's size ({@code AdaptiveAvgPool2d((None, 7))} is {@code new AdaptiveAvgPool2d(null, 7L)}).
     */
    public AdaptiveAvgPool2d(Long outputH, Long outputW) {
        this.outputSize = new Long[] {outputH, outputW};
    }

    @Override
    public Tensor forward(Tensor input) {
        return outputSize.length == 1
                ? F.adaptiveAvgPool2d(input, outputSize[0].longValue())
                : F.adaptiveAvgPool2d(input, outputSize[0], outputSize[1]);
    }

    @Override
    protected String extraRepr() {
        if (outputSize.length == 1) return "output_size=" + outputSize[0];
        return "output_size=(" + sizeRepr(outputSize[0]) + ", " + sizeRepr(outputSize[1]) + ")";
    }

    private static String sizeRepr(Long v) {
        return v == null ? "None" : v.toString();
    }
}
