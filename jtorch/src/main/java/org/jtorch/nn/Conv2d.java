package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Conv2d}: a 2-d convolution over [N, C, H, W] (or unbatched [C, H, W]) inputs. */
public class Conv2d extends ConvNd {
    /** {@code Conv2d(in_channels, out_channels, kernel_size)}: a square kernel, PyTorch's defaults otherwise. */
    public Conv2d(long inChannels, long outChannels, long kernelSize) {
        this(inChannels, outChannels, new long[] {kernelSize}, ConvOptions.defaults());
    }

    /**
     * {@code Conv2d(in_channels, out_channels, kernel_size, stride=, padding=, dilation=, groups=, bias=,
     * padding_mode=)}.
     */
    public Conv2d(long inChannels, long outChannels, long[] kernelSize, ConvOptions options) {
        super(2, inChannels, outChannels, kernelSize, options);
    }

    @Override
    Tensor conv(Tensor input, long[] padding) {
        return F.conv2d(input, weight(), bias(), stride(), padding, dilation(), groups());
    }

    @Override
    Tensor conv(Tensor input, String padding) {
        return F.conv2d(input, weight(), bias(), stride(), padding, dilation(), groups());
    }
}
