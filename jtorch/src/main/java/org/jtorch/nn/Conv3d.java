package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Conv3d}: a 3-d convolution over [N, C, D, H, W] (or unbatched [C, D, H, W]) inputs. */
public class Conv3d extends ConvNd {
    /** {@code Conv3d(in_channels, out_channels, kernel_size)}: a cubic kernel, PyTorch's defaults otherwise. */
    public Conv3d(long inChannels, long outChannels, long kernelSize) {
        this(inChannels, outChannels, new long[] {kernelSize}, ConvOptions.defaults());
    }

    /**
     * {@code Conv3d(in_channels, out_channels, kernel_size, stride=, padding=, dilation=, groups=, bias=,
     * padding_mode=)}.
     */
    public Conv3d(long inChannels, long outChannels, long[] kernelSize, ConvOptions options) {
        super(3, inChannels, outChannels, kernelSize, options);
    }

    @Override
    Tensor conv(Tensor input, long[] padding) {
        return F.conv3d(input, weight(), bias(), stride(), padding, dilation(), groups());
    }

    @Override
    Tensor conv(Tensor input, String padding) {
        return F.conv3d(input, weight(), bias(), stride(), padding, dilation(), groups());
    }
}
