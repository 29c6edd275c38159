package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * A convolution of complex tensors as real convolutions, exactly as ATen's {@code complex_convolution} (which its
 * {@code conv1d/2d/3d} and {@code conv_transpose1d/2d/3d} call for a complex input) computes it, with Gauss's trick of
 * three real products instead of four: for {@code x = xr + i·xi}, {@code W = Wr + i·Wi}, {@code b = br + i·bi},
 *
 * <pre>
 *   a = conv(xr, Wr, br),  b = conv(xi, Wi, none),  c = conv(xr + xi, Wr + Wi, br + bi)
 *   conv(x, W, b) = a − b + i·(c − a − b)
 * </pre>
 *
 * evaluated in ATen's order (so with ATen's rounding) from differentiable ops, which give the gradients. The
 * {@code aten::convolution} op itself, as PyTorch's CPU kernels, takes no complex dtype.
 */
public final class ComplexConvolution {
    private ComplexConvolution() {}

    /** One real convolution of the problem at hand (its stride, padding, ... fixed); {@code bias} may be null. */
    @FunctionalInterface
    public interface RealConvolution {
        /**
         * The convolution of real tensors.
         *
         * @param input the input
         * @param weight the weight
         * @param bias the bias, or null
         * @return the result
         */
        Tensor apply(Tensor input, Tensor weight, Tensor bias);
    }

    /**
     * {@code conv(input, weight, bias)}: directly for a real input, through three real convolutions for a complex one.
     *
     * @param input the input; complex or not decides the path, as in ATen
     * @param weight the weight, of the input's dtype
     * @param bias the bias (of the input's dtype) or null
     * @param conv the real convolution
     * @return the convolution, complex for a complex input
     */
    public static Tensor compute(Tensor input, Tensor weight, Tensor bias, RealConvolution conv) {
        if (!input.dtype().isComplex()) return conv.apply(input, weight, bias);
        if (weight.dtype() != input.dtype()) {
            throw new TorchException("Input type (" + input.dtype().cppName() + ") and weight type ("
                    + weight.dtype().cppName() + ") should be the same");
        }
        if (bias != null && bias.dtype() != input.dtype()) {
            throw new TorchException("Input type (" + input.dtype().cppName() + ") and bias type ("
                    + bias.dtype().cppName() + ") should be the same");
        }
        Tensor x = input.resolveConj(), w = weight.resolveConj();
        Tensor xr = x.real(), xi = x.imag(), wr = w.real(), wi = w.imag();
        Tensor a, b, c;
        if (bias == null) {
            a = conv.apply(xr, wr, null);
            b = conv.apply(xi, wi, null);
            c = conv.apply(xr.add(xi), wr.add(wi), null);
        } else {
            Tensor bb = bias.resolveConj(), br = bb.real(), bi = bb.imag();
            a = conv.apply(xr, wr, br);
            b = conv.apply(xi, wi, null);
            c = conv.apply(xr.add(xi), wr.add(wi), br.add(bi));
        }
        return a.sub(b).add(c.sub(a).sub(b).mul(Grads.imaginaryUnit(input)));
    }
}
