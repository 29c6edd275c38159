package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Conv1d}: a 1-d convolution over [N, C, L] (or unbatched [C, L]) inputs. */
public class Conv1d extends ConvNd {
    /** {@code Conv1d(in_channels, out_channels, kernel_size)} with PyTorch's defaults otherwise. */
    public Conv1d(long inChannels, long outChannels, long kernelSize) {
        this(inChannels, outChannels, kernelSize, ConvOptions.defaults());
    }

    /**
     * {@code Conv1d(in_channels, out_channels, kernel_size, stride=, padding=, dilation=, groups=, bias=,
     * padding_mode=)}.
     */
    public Conv1d(long inChannels, long outChannels, long kernelSize, ConvOptions options) {
        super(1, inChannels, outChannels, new long[] {kernelSize}, options);
    }

    @Override
    Tensor conv(Tensor input, long[] padding) {
        return F.conv1d(input, weight(), bias(), stride()[0], padding[0], dilation()[0], groups());
    }

    @Override
    Tensor conv(Tensor input, String padding) {
        return F.conv1d(input, weight(), bias(), stride()[0], padding, dilation()[0], groups());
    }
}
