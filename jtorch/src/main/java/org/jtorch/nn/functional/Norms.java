package org.jtorch.nn.functional;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.NormOps;

/** {@code F.batch_norm} and {@code F.group_norm}, composed from differentiable ops. */
final class Norms {
    private Norms() {}

    static Tensor batchNorm(
            Tensor input,
            Tensor runningMean,
            Tensor runningVar,
            Tensor weight,
            Tensor bias,
            boolean training,
            double momentum,
            double eps) {
        if (input.dim() < 2) {
            throw new IllegalArgumentException(
                    "batch_norm: expected an input of at least 2 dimensions (N, C, ...), but got input of " + "size "
                            + Shapes.str(input.shape()));
        }
        long c = input.size(1);
        if (training) {
            long perChannel = input.numel() / Math.max(1, c);
            if (c > 0 && perChannel == 1) {
                throw new IllegalArgumentException(
                        "Expected more than 1 value per channel when training, got input size torch.Size("
                                + Shapes.str(input.shape()) + ")");
            }
        }
        checkChannels("running_mean", runningMean, c);
        checkChannels("running_var", runningVar, c);
        checkChannels("weight", weight, c);
        checkChannels("bias", bias, c);
        long[] dims = new long[input.dim() - 1];
        dims[0] = 0;
        for (int i = 2; i < input.dim(); i++) dims[i - 1] = i;
        long[] channelShape = new long[input.dim()];
        java.util.Arrays.fill(channelShape, 1);
        channelShape[1] = c;
        Tensor out;
        if (training) {
            Tensor mean = input.mean(dims, true);
            Tensor centered = input.sub(mean);
            Tensor var = centered.square().mean(dims, true);
            out = centered.mul(var.add(eps).rsqrt());
            if (runningMean != null || runningVar != null) {
                long n = input.numel() / c;
                try (var _ = Torch.noGrad()) {
                    if (runningMean != null) {
                        runningMean
                                .mul_(1 - momentum)
                                .add_(mean.reshape(c).to(runningMean.dtype()).mul(momentum));
                    }
                    if (runningVar != null) {
                        Tensor unbiased = var.reshape(c)
                                .mul((double) n / Math.max(1, n - 1))
                                .to(runningVar.dtype());
                        runningVar.mul_(1 - momentum).add_(unbiased.mul(momentum));
                    }
                }
            }
        } else {
            if (runningMean == null || runningVar == null) {
                throw new TorchException(
                        (runningMean == null ? "running_mean" : "running_var") + " must be defined in evaluation mode");
            }
            Tensor mean = runningMean.reshape(channelShape), var = runningVar.reshape(channelShape);
            out = input.sub(mean).mul(var.add(eps).rsqrt());
        }
        if (weight != null) out = out.mul(weight.reshape(channelShape));
        return bias == null ? out : out.add(bias.reshape(channelShape));
    }

    private static void checkChannels(String name, Tensor t, long c) {
        if (t != null && t.numel() != c)
            throw new TorchException(name + " should contain " + c + " elements not " + t.numel());
    }

    static Tensor groupNorm(Tensor input, long numGroups, Tensor weight, Tensor bias, double eps) {
        if (input.dim() < 2) {
            throw new IndexOutOfBoundsException("Dimension out of range (expected to be in range of ["
                    + -Math.max(1, input.dim()) + ", " + (Math.max(1, input.dim()) - 1) + "], but got 1)");
        }
        long n = input.size(0), c = input.size(1);
        if (numGroups <= 0 || c % numGroups != 0) {
            throw new TorchException(
                    "Expected number of channels in input to be divisible by num_groups, but got input of shape "
                            + Shapes.str(input.shape()) + " and num_groups=" + numGroups);
        }
        checkAffine("weight", weight, c, input);
        checkAffine("bias", bias, c, input);
        NormOps.checkMixedDtypes(input, weight, bias);
        // ATen computes float16 and bfloat16 in float32 (with float32 or half-precision parameters) and rounds once
        DType dtype = input.dtype();
        boolean half = dtype == DType.FLOAT16 || dtype == DType.BFLOAT16;
        if (half) {
            input = input.to(DType.FLOAT32);
            if (weight != null) weight = weight.to(DType.FLOAT32);
            if (bias != null) bias = bias.to(DType.FLOAT32);
        }
        long rest = c / numGroups * spatialSize(input);
        Tensor x = input.reshape(n, numGroups, rest);
        Tensor mean = x.mean(new long[] {2}, true);
        Tensor centered = x.sub(mean);
        Tensor var = centered.square().mean(new long[] {2}, true);
        Tensor out = centered.mul(var.add(eps).rsqrt()).reshape(input.shape());
        long[] channelShape = new long[input.dim()];
        java.util.Arrays.fill(channelShape, 1);
        channelShape[1] = c;
        if (weight != null) out = out.mul(weight.reshape(channelShape));
        if (bias != null) out = out.add(bias.reshape(channelShape));
        return out.to(dtype);
    }

    private static long spatialSize(Tensor input) {
        long s = 1;
        for (int i = 2; i < input.dim(); i++) s *= input.size(i);
        return s;
    }

    private static void checkAffine(String name, Tensor t, long c, Tensor input) {
        if (t != null && (t.dim() != 1 || t.numel() != c)) {
            throw new TorchException("Expected " + name
                    + " to be a vector of size equal to the number of channels in input, but got " + name + " of shape "
                    + Shapes.str(t.shape()) + " and input of shape " + Shapes.str(input.shape()));
        }
    }

    /**
     * instance_norm: ATen's reduction to batch norm over a (1, N·C, ...) view, parameters and running statistics
     * repeated per sample; the running statistics are then the mean of the N updated copies.
     */
    static Tensor instanceNorm(
            Tensor input,
            Tensor runningMean,
            Tensor runningVar,
            Tensor weight,
            Tensor bias,
            boolean useInputStats,
            double momentum,
            double eps) {
        if (input.dim() < 2) {
            throw new IllegalArgumentException("instance_norm: expected an input of at least 2 dimensions (N, C, ...),"
                    + " but got input of size " + Shapes.str(input.shape()));
        }
        if (useInputStats && spatialSize(input) == 1) {
            throw new IllegalArgumentException("Expected more than 1 spatial element when training, got input size "
                    + "torch.Size(" + Shapes.str(input.shape()) + ")");
        }
        if (!useInputStats && (runningMean == null || runningVar == null))
            throw new TorchException(
                    "Expected running_mean and running_var to be defined when use_input_stats is false");
        long b = input.size(0), c = input.size(1);
        long[] shape = input.shape();
        shape[1] = b * c;
        shape[0] = 1;
        Tensor meanCopies = runningMean == null ? null : runningMean.repeat(b);
        Tensor varCopies = runningVar == null ? null : runningVar.repeat(b);
        Tensor out = batchNorm(
                input.contiguous().view(shape),
                meanCopies,
                varCopies,
                weight == null ? null : weight.repeat(b),
                bias == null ? null : bias.repeat(b),
                useInputStats,
                momentum,
                eps);
        try (var _ = Torch.noGrad()) {
            if (runningMean != null) runningMean.copy_(meanCopies.view(b, c).mean(0));
            if (runningVar != null) runningVar.copy_(varCopies.view(b, c).mean(0));
        }
        return out.view(input.shape());
    }

    /**
     * local_response_norm: {@code x / (k + α/n · Σ x²)^β}, the sum over a window of n channels centred on each (n/2
     * before, (n-1)/2 after, zeros past the ends), as PyTorch's average pool over the squared channels.
     */
    static Tensor localResponseNorm(Tensor input, long size, double alpha, double beta, double k) {
        int dim = input.dim();
        if (dim < 3) {
            throw new IllegalArgumentException("Expected 3D or higher dimensionality                          input "
                    + "(got " + dim + " dimensions)");
        }
        if (size <= 0) throw new IllegalArgumentException("local_response_norm: size must be positive, got " + size);
        if (input.numel() == 0) return input;
        long c = input.size(1);
        long[] pad = new long[2 * (dim - 1)];
        pad[pad.length - 2] = size / 2;
        pad[pad.length - 1] = (size - 1) / 2;
        Tensor padded = Torch.pad(input.mul(input), pad, 0.0);
        Tensor sum = padded.narrow(1, 0, c);
        for (long j = 1; j < size; j++) sum = sum.add(padded.narrow(1, j, c));
        Tensor div = sum.div(size).mul(alpha).add(k).pow(beta);
        return input.div(div);
    }
}
