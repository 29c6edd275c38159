package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * {@code torch.nn.modules.conv._ConvTransposeNd}: a transposed convolution (the adjoint of a convolution with the same
 * arguments), weight {@code [in, out/groups, *kernel]}. Only zero padding exists; {@code output_padding} or a requested
 * output size picks among the output sizes a strided convolution maps back to one input size.
 */
abstract class ConvTransposeNd extends ConvNd {
    ConvTransposeNd(int spatial, long inChannels, long outChannels, long[] kernelSize, ConvOptions o) {
        super(spatial, inChannels, outChannels, kernelSize, checked(spatial, o), true);
    }

    private static ConvOptions checked(int spatial, ConvOptions o) {
        if (!"zeros".equals(o.paddingMode())) {
            throw new IllegalArgumentException(
                    "Only \"zeros\" padding mode is supported for ConvTranspose" + spatial + "d");
        }
        if (o.paddingString() != null) {
            throw new IllegalArgumentException("padding=\"" + o.paddingString() + "\" is not supported for "
                    + "ConvTranspose" + spatial + "d: give the padding as numbers");
        }
        return o;
    }

    /** The transposed convolution with the given output padding. */
    abstract Tensor convTranspose(Tensor input, long[] outputPadding);

    /** {@link ConvNd#forward}'s zero-padding path: the module's own padding is passed on by the subclass. */
    @Override
    Tensor conv(Tensor input, long[] padding) {
        return convTranspose(input, outputPadding());
    }

    /** Unreachable: the constructor refuses padding strings, so {@link ConvNd#forward} never asks for this. */
    @Override
    Tensor conv(Tensor input, String padding) {
        throw new TorchException("ConvTranspose" + kernelSize().length + "d does not take padding=\"" + padding + "\"");
    }

    /**
     * {@code forward(input, output_size)}: the output padding that gives the requested spatial size ({@code outputSize}
     * may also lead with the batch and channel sizes, as {@code output_size} may), PyTorch's {@code _output_padding}.
     */
    public Tensor forward(Tensor input, long... outputSize) {
        return convTranspose(input, outputPaddingFor(input, outputSize));
    }

    private long[] outputPaddingFor(Tensor input, long[] outputSize) {
        int spatial = kernelSize().length;
        int nonSpatial = input.dim() == spatial + 2 ? 2 : 1;
        long[] size = outputSize;
        if (size.length == nonSpatial + spatial) size = java.util.Arrays.copyOfRange(size, nonSpatial, size.length);
        if (size.length != spatial) {
            throw new TorchException("ConvTranspose" + spatial + "D: for " + input.dim() + "D input, output_size must"
                    + " have " + spatial + " or " + (nonSpatial + spatial) + " elements (got " + outputSize.length
                    + ")");
        }
        long[] min = new long[spatial], max = new long[spatial], res = new long[spatial];
        for (int d = 0; d < spatial; d++) {
            min[d] = (input.size(d + nonSpatial) - 1) * stride()[d]
                    - 2 * padding()[d]
                    + dilation()[d] * (kernelSize()[d] - 1)
                    + 1;
            max[d] = min[d] + stride()[d] - 1;
        }
        for (int d = 0; d < spatial; d++) {
            if (size[d] < min[d] || size[d] > max[d]) {
                long[] in = java.util.Arrays.copyOfRange(input.shape(), nonSpatial, input.dim());
                throw new TorchException("requested an output size of " + Shapes.str(size)
                        + ", but valid sizes range from " + Shapes.str(min) + " to " + Shapes.str(max)
                        + " (for an input of " + Shapes.str(in) + ")");
            }
            res[d] = size[d] - min[d];
        }
        return res;
    }
}
