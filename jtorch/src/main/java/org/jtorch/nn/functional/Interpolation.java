package org.jtorch.nn.functional;

import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.PoolOps;
import org.jtorch.ops.UpsampleOps;

/**
 * {@code F.interpolate}: PyTorch's argument resolution (size or scale factor, align_corners only for the interpolating
 * modes, {@code recompute_scale_factor}) and its choice of op by mode and rank — the upsample ops of
 * {@link UpsampleOps}, and adaptive average pooling for {@code "area"}.
 */
final class Interpolation {
    private Interpolation() {}

    /**
     * {@code F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)}; exactly one of
     * {@code size} and {@code scaleFactor} is non-null, and a single value in either applies to every spatial dim.
     */
    static Tensor interpolate(
            Tensor input,
            long[] size,
            double[] scaleFactor,
            String mode,
            Boolean alignCorners,
            Boolean recomputeScaleFactor) {
        boolean interpolating = !("nearest".equals(mode) || "area".equals(mode) || "nearest-exact".equals(mode));
        if (!interpolating && alignCorners != null) {
            throw new TorchException("align_corners option can only be set with the interpolating modes: "
                    + "linear | bilinear | bicubic | trilinear");
        }
        boolean align = alignCorners != null && alignCorners;
        int dim = input.dim() - 2;
        long[] outputSize = null;
        double[] scales = null;
        if (size != null && scaleFactor != null) {
            throw new TorchException("only one of size or scale_factor should be defined");
        } else if (size != null) {
            if (size.length != 1 && size.length != dim) {
                throw new TorchException("Input and output must have the same number of spatial dimensions, but got "
                        + "input with spatial dimensions of " + spatialShape(input) + " and output size of "
                        + pyTuple(Arrays.stream(size).mapToObj(String::valueOf).toList())
                        + ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                        + "output size in (o1, o2, ...,oK) format.");
            }
            outputSize = perDim(size, dim);
        } else if (scaleFactor != null) {
            if (scaleFactor.length != 1 && scaleFactor.length != dim) {
                throw new TorchException("Input and scale_factor must have the same number of spatial dimensions, "
                        + "but got input with spatial dimensions of " + spatialShape(input) + " and scale_factor of "
                        + "shape "
                        + pyTuple(Arrays.stream(scaleFactor)
                                .mapToObj(String::valueOf)
                                .toList()) + ". Please provide input tensor in (N, C, d1, d2, "
                        + "...,dK) format and scale_factor in (s1, s2, ...,sK) format.");
            }
            scales = perDim(scaleFactor, dim);
        } else {
            throw new TorchException("either size or scale_factor should be defined");
        }
        if (recomputeScaleFactor != null && recomputeScaleFactor && size != null) {
            throw new TorchException("recompute_scale_factor is not meaningful with an explicit size.");
        }
        // "area" always needs an explicit size: it takes the recompute path
        boolean recompute =
                (recomputeScaleFactor != null && recomputeScaleFactor) || ("area".equals(mode) && scales != null);
        if (recompute) {
            outputSize = new long[dim];
            for (int i = 0; i < dim; i++) outputSize[i] = (long) Math.floor((double) input.size(i + 2) * scales[i]);
            scales = null;
        }
        int rank = input.dim();
        if ("lanczos".equals(mode) && rank == 4) {
            // PyTorch's Lanczos-3 filter exists only as an antialiasing op, which JTorch does not have
            if (align) throw new TorchException("Lanczos mode does not support align_corners=True");
            throw new TorchException("Lanczos mode requires antialias=True");
        }
        if ("area".equals(mode) && (rank == 3 || rank == 4)) return adaptiveAverage(input, outputSize);
        if ("area".equals(mode) && rank == 5) {
            throw new TorchException("interpolate: mode='area' of a 5-D input needs adaptive_avg_pool3d, which JTorch "
                    + "does not have yet; use 'trilinear' or 'nearest'");
        }
        String expected = expectedMode(mode);
        if (rank >= 3 && rank <= 5 && expected != null && supports(mode, rank) && !"lanczos".equals(mode)) {
            return UpsampleOps.upsample(mode, dim, input, outputSize, align, scales);
        }
        if (rank >= 3 && rank <= 5 && expected != null && !expected.isEmpty()) {
            throw new TorchException("Got " + rank + "D input, but " + mode + " mode needs " + expected + " input");
        }
        throw new TorchException("Input Error: Only 3D, 4D and 5D input Tensors supported (got " + rank + "D) for the "
                + "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got "
                + mode + ")");
    }

    /** The rank a mode is fixed to ("3D"...), "" for the modes of any rank 3–5, null for an unknown mode. */
    private static String expectedMode(String mode) {
        if (mode == null) return null;
        return switch (mode) {
            case "nearest", "nearest-exact" -> "";
            case "linear" -> "3D";
            case "bilinear", "bicubic", "lanczos" -> "4D";
            case "trilinear" -> "5D";
            default -> null;
        };
    }

    private static boolean supports(String mode, int rank) {
        String expected = expectedMode(mode);
        return expected.isEmpty() || expected.equals(rank + "D");
    }

    /** {@code "area"}: {@code adaptive_avg_pool1d/2d}; 1-d runs as 2-d over a unit height, as ATen's does. */
    private static Tensor adaptiveAverage(Tensor input, long[] outputSize) {
        if (input.dim() == 4) return PoolOps.adaptiveAvgPool2d(input, outputSize);
        Tensor y = PoolOps.adaptiveAvgPool2d(input.unsqueeze(-2), new long[] {1, outputSize[0]});
        return y.squeeze(-2);
    }

    /** Python's repr of a tuple of the given element reprs (doubles print as Python's do for these values). */
    private static String pyTuple(java.util.List<String> items) {
        return "(" + String.join(", ", items) + (items.size() == 1 ? ",)" : ")");
    }

    private static String spatialShape(Tensor input) {
        return Arrays.toString(Arrays.copyOfRange(input.shape(), Math.min(2, input.dim()), input.dim()));
    }

    private static long[] perDim(long[] v, int dim) {
        if (v.length == dim) return v.clone();
        long[] r = new long[dim];
        Arrays.fill(r, v[0]);
        return r;
    }

    private static double[] perDim(double[] v, int dim) {
        if (v.length == dim) return v.clone();
        double[] r = new double[dim];
        Arrays.fill(r, v[0]);
        return r;
    }
}
