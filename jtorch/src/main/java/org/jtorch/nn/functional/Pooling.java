package org.jtorch.nn.functional;

import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.MaxUnpoolOps;
import org.jtorch.ops.Pool1dOps;
import org.jtorch.ops.Pool3dOps;
import org.jtorch.ops.PoolOps;

/**
 * The Python-level parts of {@code F.lp_pool1d/2d/3d}, {@code F.max_unpool1d/2d/3d} and the adaptive pools:
 * power-average pooling over the average pools, the default or requested output size of an unpool
 * ({@code _unpool_output_size}), and output sizes with {@code None} entries ({@code _list_with_default}).
 */
final class Pooling {
    private Pooling() {}

    /**
     * {@code F.lp_pool1d}: {@code (sign(a)·relu(|a|)·k)^(1/p)} with {@code a} the average of {@code x^p}; an infinite
     * norm is a max pool of |x| ({@link #infiniteNorm}).
     */
    static Tensor lpPool1d(Tensor input, double normType, long kernel, Long stride, boolean ceilMode) {
        Tensor extreme = infiniteNorm(normType, input, x -> F.maxPool1d(x, kernel, stride, 0, 1, ceilMode));
        if (extreme != null) return extreme;
        Tensor avg = Pool1dOps.AVG_POOL1D.call1(
                input.pow(normType),
                new long[] {kernel},
                stride == null ? new long[0] : new long[] {stride},
                new long[] {0},
                ceilMode,
                true);
        return rootOfSum(avg, kernel, normType);
    }

    /** {@code F.lp_pool2d}: as {@link #lpPool1d} over 2-d windows. */
    static Tensor lpPool2d(Tensor input, double normType, long[] kernel, long[] stride, boolean ceilMode) {
        long[] k = kernel.length == 1 ? new long[] {kernel[0], kernel[0]} : kernel;
        if (k.length != 2)
            throw new TorchException("lp_pool2d: kernel_size must be a single int or a pair, but got " + kernel.length);
        Tensor extreme = infiniteNorm(
                normType, input, x -> F.maxPool2d(x, kernel, stride, new long[] {0}, new long[] {1}, ceilMode));
        if (extreme != null) return extreme;
        Tensor avg = PoolOps.avgPool2d(input.pow(normType), kernel, stride, new long[] {0}, ceilMode, true, null);
        return rootOfSum(avg, k[0] * k[1], normType);
    }

    /** {@code F.lp_pool3d}: as {@link #lpPool2d} over 3-d windows. */
    static Tensor lpPool3d(Tensor input, double normType, long[] kernel, long[] stride, boolean ceilMode) {
        long[] k = expand("kernel_size", kernel, 3);
        long[] s = stride == null ? new long[0] : stride;
        Tensor extreme = infiniteNorm(
                normType,
                input,
                x -> Pool3dOps.maxPool3dWithIndices(x, kernel, s, new long[] {0}, new long[] {1}, ceilMode)[0]);
        if (extreme != null) return extreme;
        Tensor avg = Pool3dOps.avgPool3d(input.pow(normType), kernel, s, new long[] {0}, ceilMode, true, null);
        return rootOfSum(avg, k[0] * k[1] * k[2], normType);
    }

    /**
     * An lp pool of infinite norm as PyTorch's {@code lp_pool1d/2d/3d} compute it, or null for a finite norm: the max
     * pool of |x| for +inf, minus the max pool of -|x| (the smallest magnitude) for -inf.
     */
    private static Tensor infiniteNorm(
            double normType, Tensor input, java.util.function.UnaryOperator<Tensor> maxPool) {
        if (normType == Double.POSITIVE_INFINITY) return maxPool.apply(input.abs());
        if (normType == Double.NEGATIVE_INFINITY)
            return maxPool.apply(input.abs().neg()).neg();
        return null;
    }

    /**
     * PyTorch's {@code _list_with_default}: an output size whose null entries keep the input's size along that dim; the
     * input needs more dims than the list has.
     */
    static long[] withDefaults(Tensor input, Long... size) {
        if (input.dim() <= size.length) {
            throw new IllegalArgumentException("Input dimension should be at least " + (size.length + 1));
        }
        long[] r = new long[size.length];
        for (int i = 0; i < size.length; i++) {
            r[i] = size[i] != null ? size[i] : input.size(input.dim() - size.length + i);
        }
        return r;
    }

    private static Tensor rootOfSum(Tensor avg, long windowSize, double normType) {
        return avg.sign().mul(avg.abs().relu()).mul(windowSize).pow(1.0 / normType);
    }

    /**
     * {@code F.max_unpool{n}d}: the unpool of {@code input} by {@code indices} into the default size {@code (in − 1)·
     * stride + kernel − 2·padding}, or into {@code outputSize} (spatial sizes, or with the batch and channel sizes in
     * front), which must lie strictly within a stride of the default.
     */
    static Tensor maxUnpool(
            int spatial,
            Tensor input,
            Tensor indices,
            long[] kernel,
            long[] stride,
            long[] padding,
            long[] outputSize) {
        long[] k = expand("kernel_size", kernel, spatial);
        long[] s = stride == null || stride.length == 0 ? k : expand("stride", stride, spatial);
        long[] p = expand("padding", padding, spatial);
        long[] size = outputSize(input, k, s, p, outputSize);
        return switch (spatial) {
            case 1 ->
                MaxUnpoolOps.MAX_UNPOOL2D
                        .call1(input.unsqueeze(-1), indices.unsqueeze(-1), new long[] {size[0], 1})
                        .squeeze(-1);
            case 2 -> MaxUnpoolOps.MAX_UNPOOL2D.call1(input, indices, size);
            default -> MaxUnpoolOps.MAX_UNPOOL3D.call1(input, indices, size, s, p);
        };
    }

    private static long[] outputSize(Tensor input, long[] k, long[] s, long[] p, long[] requested) {
        int n = k.length;
        if (input.dim() < n) {
            throw new TorchException(
                    "max_unpool" + n + "d: expected an input of at least " + n + " dims, but got " + input.dim());
        }
        long[] def = new long[n];
        for (int d = 0; d < n; d++) def[d] = (input.size(input.dim() - n + d) - 1) * s[d] + k[d] - 2 * p[d];
        if (requested == null) return def;
        long[] size = requested.length == n + 2 ? Arrays.copyOfRange(requested, 2, requested.length) : requested;
        if (size.length != n) {
            throw new TorchException("output_size should be a sequence containing " + n + " or " + (n + 2)
                    + " elements, but it has a length of '" + size.length + "'");
        }
        for (int d = 0; d < n; d++) {
            long min = def[d] - s[d], max = def[d] + s[d];
            if (!(min < size[d] && size[d] < max)) {
                throw new TorchException("invalid output_size \"" + Shapes.str(requested) + "\" (dim " + d
                        + " must be between " + min + " and " + max + ")");
            }
        }
        return size;
    }

    /** One value repeated for every dim; any other list as it is, for the op to check. */
    static long[] broadcast(long[] v, int n) {
        if (v.length != 1) return v.clone();
        long[] r = new long[n];
        Arrays.fill(r, v[0]);
        return r;
    }

    /** One value for every dim, or one per dim. */
    static long[] expand(String name, long[] v, int n) {
        if (v.length == n) return v.clone();
        if (v.length == 1) {
            long[] r = new long[n];
            Arrays.fill(r, v[0]);
            return r;
        }
        throw new TorchException(name + " must be a single int or a tuple of " + n + " ints, but got " + v.length);
    }
}
