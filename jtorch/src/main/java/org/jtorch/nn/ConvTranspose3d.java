package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.ConvTranspose3d}: a 3-d transposed convolution over [N, C, D, H, W] (or unbatched [C, D, H, W])
 * inputs.
 */
public class ConvTranspose3d extends ConvTransposeNd {
    /**
     * {@code ConvTranspose3d(in_channels, out_channels, kernel_size)}: a cubic kernel, PyTorch's defaults otherwise.
     */
    public ConvTranspose3d(long inChannels, long outChannels, long kernelSize) {
        this(inChannels, outChannels, new long[] {kernelSize}, ConvOptions.defaults());
    }

    /**
     * {@code ConvTranspose3d(in_channels, out_channels, kernel_size, stride=, padding=, output_padding=, groups=,
     * bias=, dilation=)}.
     */
    public ConvTranspose3d(long inChannels, long outChannels, long[] kernelSize, ConvOptions options) {
        super(3, inChannels, outChannels, kernelSize, options);
    }

    @Override
    Tensor convTranspose(Tensor input, long[] outputPadding) {
        return F.convTranspose3d(input, weight(), bias(), stride(), padding(), outputPadding, groups(), dilation());
    }
}
