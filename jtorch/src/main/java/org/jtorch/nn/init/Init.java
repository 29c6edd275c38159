package org.jtorch.nn.init;

import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.linalg.Linalg;
import org.jtorch.linalg.QR;
import org.jtorch.ops.RandomOps;

/**
 * {@code torch.nn.init}: in-place parameter initialisers. Each fills under {@code no_grad} (so it works on leaves that
 * require grad) and returns its argument. A null generator means the default generator.
 */
public final class Init {
    private Init() {}

    /** {@code calculate_gain(nonlinearity)}. */
    public static double calculateGain(String nonlinearity) {
        return calculateGain(nonlinearity, null);
    }

    /** {@code calculate_gain(nonlinearity, param)}: param is leaky_relu's negative slope (default 0.01). */
    public static double calculateGain(String nonlinearity, Double param) {
        return switch (nonlinearity) {
            case "linear",
                    "conv1d",
                    "conv2d",
                    "conv3d",
                    "conv_transpose1d",
                    "conv_transpose2d",
                    "conv_transpose3d",
                    "sigmoid" -> 1.0;
            case "tanh" -> 5.0 / 3;
            case "relu" -> Math.sqrt(2.0);
            case "leaky_relu" -> {
                double slope = param == null ? 0.01 : param;
                yield Math.sqrt(2.0 / (1 + slope * slope));
            }
            case "selu" -> 3.0 / 4;
            default -> throw new IllegalArgumentException("Unsupported nonlinearity " + nonlinearity);
        };
    }

    /** {@code uniform_(tensor, a, b)}. */
    public static Tensor uniform_(Tensor tensor, double a, double b) {
        return uniform_(tensor, a, b, null);
    }

    /** {@code uniform_(tensor, a, b, generator)}. */
    public static Tensor uniform_(Tensor tensor, double a, double b, Generator generator) {
        try (var _ = Torch.noGrad()) {
            return RandomOps.uniform_(tensor, a, b, generator);
        }
    }

    /** {@code normal_(tensor, mean, std)}. */
    public static Tensor normal_(Tensor tensor, double mean, double std) {
        return normal_(tensor, mean, std, null);
    }

    /** {@code normal_(tensor, mean, std, generator)}. */
    public static Tensor normal_(Tensor tensor, double mean, double std, Generator generator) {
        try (var _ = Torch.noGrad()) {
            return RandomOps.normal_(tensor, mean, std, generator);
        }
    }

    /** {@code trunc_normal_(tensor, mean=0, std=1, a=-2, b=2)}. */
    public static Tensor truncNormal_(Tensor tensor) {
        return truncNormal_(tensor, 0, 1, -2, 2, null);
    }

    /**
     * {@code trunc_normal_(tensor, mean, std, a, b, generator)}: inverse-CDF sampling of the normal restricted to [a,
     * b], PyTorch's algorithm (uniform over the CDF interval, erfinv, scale, shift, clamp).
     */
    public static Tensor truncNormal_(Tensor tensor, double mean, double std, double a, double b, Generator generator) {
        try (var _ = Torch.noGrad()) {
            double l = normCdf((a - mean) / std);
            double u = normCdf((b - mean) / std);
            RandomOps.uniform_(tensor, 2 * l - 1, 2 * u - 1, generator);
            tensor.copy_(Torch.erfinv(tensor));
            tensor.mul_(std * Math.sqrt(2.0));
            tensor.add_(mean);
            return tensor.clamp_(a, b);
        }
    }

    /** The standard normal CDF of a scalar, through the library's erf (Java has none). */
    private static double normCdf(double x) {
        return (1 + Torch.erf(Torch.tensor(new double[] {x / Math.sqrt(2.0)})).item()) / 2;
    }

    /** {@code constant_(tensor, val)}. */
    public static Tensor constant_(Tensor tensor, double val) {
        try (var _ = Torch.noGrad()) {
            return tensor.fill_(val);
        }
    }

    /** {@code zeros_(tensor)}. */
    public static Tensor zeros_(Tensor tensor) {
        return constant_(tensor, 0.0);
    }

    /** {@code ones_(tensor)}. */
    public static Tensor ones_(Tensor tensor) {
        return constant_(tensor, 1.0);
    }

    /** {@code xavier_uniform_(tensor)}. */
    public static Tensor xavierUniform_(Tensor tensor) {
        return xavierUniform_(tensor, 1.0, null);
    }

    /** {@code xavier_uniform_(tensor, gain, generator)}: U(-a, a) with a = gain·sqrt(6 / (fan_in + fan_out)). */
    public static Tensor xavierUniform_(Tensor tensor, double gain, Generator generator) {
        Fans f = fans(tensor);
        double a = gain * Math.sqrt(2.0 / (f.in + f.out)) * Math.sqrt(3.0);
        return uniform_(tensor, -a, a, generator);
    }

    /** {@code xavier_normal_(tensor)}. */
    public static Tensor xavierNormal_(Tensor tensor) {
        return xavierNormal_(tensor, 1.0, null);
    }

    /** {@code xavier_normal_(tensor, gain, generator)}: N(0, std²) with std = gain·sqrt(2 / (fan_in + fan_out)). */
    public static Tensor xavierNormal_(Tensor tensor, double gain, Generator generator) {
        Fans f = fans(tensor);
        return normal_(tensor, 0.0, gain * Math.sqrt(2.0 / (f.in + f.out)), generator);
    }

    /** {@code kaiming_uniform_(tensor)}: a=0, mode="fan_in", nonlinearity="leaky_relu". */
    public static Tensor kaimingUniform_(Tensor tensor) {
        return kaimingUniform_(tensor, 0, "fan_in", "leaky_relu", null);
    }

    /** {@code kaiming_uniform_(tensor, a, mode, nonlinearity, generator)}: U(-b, b), b = gain·sqrt(3 / fan). */
    public static Tensor kaimingUniform_(
            Tensor tensor, double a, String mode, String nonlinearity, Generator generator) {
        if (tensor.numel() == 0) return tensor; // PyTorch warns "Initializing zero-element tensors is a no-op"
        double std = calculateGain(nonlinearity, a) / Math.sqrt(fan(tensor, mode));
        double bound = Math.sqrt(3.0) * std;
        return uniform_(tensor, -bound, bound, generator);
    }

    /** {@code kaiming_normal_(tensor)}: a=0, mode="fan_in", nonlinearity="leaky_relu". */
    public static Tensor kaimingNormal_(Tensor tensor) {
        return kaimingNormal_(tensor, 0, "fan_in", "leaky_relu", null);
    }

    /** {@code kaiming_normal_(tensor, a, mode, nonlinearity, generator)}: N(0, std²), std = gain / sqrt(fan). */
    public static Tensor kaimingNormal_(
            Tensor tensor, double a, String mode, String nonlinearity, Generator generator) {
        if (tensor.numel() == 0) return tensor;
        return normal_(tensor, 0.0, calculateGain(nonlinearity, a) / Math.sqrt(fan(tensor, mode)), generator);
    }

    /** {@code orthogonal_(tensor, gain=1)}. */
    public static Tensor orthogonal_(Tensor tensor) {
        return orthogonal_(tensor, 1.0, null);
    }

    /** {@code orthogonal_(tensor, gain)}. */
    public static Tensor orthogonal_(Tensor tensor, double gain) {
        return orthogonal_(tensor, gain, null);
    }

    /**
     * {@code orthogonal_(tensor, gain, generator)}: PyTorch's algorithm. The tensor is viewed as rows = size(0) by cols
     * = the rest; a standard normal matrix of that shape (transposed when wide) is QR-factorised and Q's columns signed
     * by diag(R), which makes Q uniformly (Haar) distributed; then scaled by gain.
     */
    public static Tensor orthogonal_(Tensor tensor, double gain, Generator generator) {
        if (tensor.dim() < 2)
            throw new IllegalArgumentException("Only tensors with 2 or more dimensions are supported");
        if (tensor.numel() == 0) return tensor;
        long rows = tensor.size(0), cols = tensor.numel() / rows;
        try (var _ = Torch.noGrad()) {
            Tensor flattened = RandomOps.normal_(
                    Torch.empty(new long[] {rows, cols}, tensor.dtype(), tensor.device()), 0, 1, generator);
            if (rows < cols) flattened = flattened.t();
            QR qr = Linalg.qr(flattened);
            Tensor q = qr.q().mul(qr.r().diagonal().sign());
            if (rows < cols) q = q.t();
            tensor.copy_(q.reshape(tensor.shape()).mul(gain));
            return tensor;
        }
    }

    /** {@code _calculate_fan_in_and_fan_out}: dim 1 and dim 0 times the receptive field (trailing dims). */
    public static Fans fans(Tensor tensor) {
        if (tensor.dim() < 2) {
            throw new IllegalArgumentException(
                    "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
        }
        long receptive = 1;
        for (int d = 2; d < tensor.dim(); d++) receptive *= tensor.size(d);
        return new Fans(tensor.size(1) * receptive, tensor.size(0) * receptive);
    }

    /** Fan-in and fan-out of a weight tensor. */
    public record Fans(long in, long out) {}

    private static long fan(Tensor tensor, String mode) {
        Fans f = fans(tensor);
        return switch (mode) {
            case "fan_in" -> f.in;
            case "fan_out" -> f.out;
            default ->
                throw new IllegalArgumentException(
                        "Mode " + mode + " not supported, please use one of fan_in, fan_out");
        };
    }
}
