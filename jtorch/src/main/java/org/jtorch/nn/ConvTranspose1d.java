package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.ConvTranspose1d}: a 1-d transposed convolution over [N, C, L] (or unbatched [C, L]) inputs. */
public class ConvTranspose1d extends ConvTransposeNd {
    /** {@code ConvTranspose1d(in_channels, out_channels, kernel_size)} with PyTorch's defaults otherwise. */
    public ConvTranspose1d(long inChannels, long outChannels, long kernelSize) {
        this(inChannels, outChannels, kernelSize, ConvOptions.defaults());
    }

    /**
     * {@code ConvTranspose1d(in_channels, out_channels, kernel_size, stride=, padding=, output_padding=, groups=,
     * bias=, dilation=)}.
     */
    public ConvTranspose1d(long inChannels, long outChannels, long kernelSize, ConvOptions options) {
        super(1, inChannels, outChannels, new long[] {kernelSize}, options);
    }

    @Override
    Tensor convTranspose(Tensor input, long[] outputPadding) {
        return F.convTranspose1d(
                input, weight(), bias(), stride()[0], padding()[0], outputPadding[0], groups(), dilation()[0]);
    }
}
