package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.ConvTranspose2d}: a 2-d transposed convolution over [N, C, H, W] (or unbatched [C, H, W]) inputs. */
public class ConvTranspose2d extends ConvTransposeNd {
    /**
     * {@code ConvTranspose2d(in_channels, out_channels, kernel_size)}: a square kernel, PyTorch's defaults otherwise.
     */
    public ConvTranspose2d(long inChannels, long outChannels, long kernelSize) {
        this(inChannels, outChannels, new long[] {kernelSize}, ConvOptions.defaults());
    }

    /**
     * {@code ConvTranspose2d(in_channels, out_channels, kernel_size, stride=, padding=, output_padding=, groups=,
     * bias=, dilation=)}.
     */
    public ConvTranspose2d(long inChannels, long outChannels, long[] kernelSize, ConvOptions options) {
        super(2, inChannels, outChannels, kernelSize, options);
    }

    @Override
    Tensor convTranspose(Tensor input, long[] outputPadding) {
        return F.convTranspose2d(input, weight(), bias(), stride(), padding(), outputPadding, groups(), dilation());
    }
}
