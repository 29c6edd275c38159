package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * {@code grid_sampler} ({@code F.grid_sample}) and {@code affine_grid_generator} ({@code F.affine_grid}) as composites
 * that follow ATen's CPU kernels step by step: the grid is unnormalised to pixel coordinates, mapped by the padding
 * mode (border: clipped; reflection: reflected, then clipped), and each output point reads its taps (the 2 or 2³
 * bilinear corners, the nearest pixel, or the 4×4 bicubic taps) with a {@code gather}; taps outside the input read
 * zero. The integer tap positions carry no gradient, and the clipping and reflection keep ATen's derivative at their
 * kinks (zero on a clipped bound, +1 at a reflection's fold), so the gradients for input and grid, and the tangents,
 * are ATen's.
 */
public final class GridSampleOps {
    private GridSampleOps() {}

    /** ATen's {@code GridSamplerInterpolation::Bilinear} (trilinear on 5-d input). */
    public static final long BILINEAR = 0;

    /** ATen's {@code GridSamplerInterpolation::Nearest}. */
    public static final long NEAREST = 1;

    /** ATen's {@code GridSamplerInterpolation::Bicubic} (4-d input only). */
    public static final long BICUBIC = 2;

    /** ATen's {@code GridSamplerPadding::Zeros}: taps outside the input read zero. */
    public static final long ZEROS = 0;

    /** ATen's {@code GridSamplerPadding::Border}: coordinates clipped to the input. */
    public static final long BORDER = 1;

    /** ATen's {@code GridSamplerPadding::Reflection}: coordinates reflected at the input's borders. */
    public static final long REFLECTION = 2;

    /** The bicubic convolution's parameter (ATen's and OpenCV's). */
    private static final double CUBIC_A = -0.75;

    /**
     * {@code grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)}: input [N, C, H, W] with grid
     * [N, H_out, W_out, 2], or input [N, C, D, H, W] with grid [N, D_out, H_out, W_out, 3]; the grid's last dim holds
     * (x, y[, z]) in [-1, 1], x along the last input dim.
     */
    public static final OpDef GRID_SAMPLER = OpDef.composite(
            "grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) "
                    + "-> Tensor",
            a -> {
                Tensor input = (Tensor) a[0], grid = (Tensor) a[1];
                long mode = ((Number) a[2]).longValue(), padding = ((Number) a[3]).longValue();
                boolean align = Boolean.TRUE.equals(a[4]);
                check(input, grid, mode);
                return sample(input, grid, mode, padding, align);
            });

    /**
     * {@code affine_grid_generator(theta, size, align_corners)}: the sampling grid [N, H, W, 2] (or [N, D, H, W, 3]) of
     * the affine maps {@code theta} [N, 2, 3] (or [N, 3, 4]) over an output of {@code size} [N, C, H, W] (or 5-d).
     */
    public static final OpDef AFFINE_GRID_GENERATOR =
            OpDef.composite("affine_grid_generator(Tensor theta, SymInt[] size, bool align_corners) -> Tensor", a -> {
                Tensor theta = (Tensor) a[0];
                long[] size = (long[]) a[1];
                boolean align = Boolean.TRUE.equals(a[2]);
                int spatial = size.length - 2;
                if (spatial != 2 && spatial != 3) {
                    throw new TorchException("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
                            + "transforms, respectively. Got size " + Shapes.str(size) + ".");
                }
                if (!theta.dtype().isFloatingPoint()) {
                    throw new TorchException("Expected theta to have floating point type, but got torch."
                            + theta.dtype().pyName());
                }
                if (theta.dim() != 3 || theta.size(1) != spatial || theta.size(2) != spatial + 1) {
                    throw new TorchException("Expected a batch of " + spatial + "D affine matrices of shape Nx"
                            + spatial + "x" + (spatial + 1) + " for size " + Shapes.str(size) + ". Got torch.Size("
                            + Shapes.str(theta.shape()) + ").");
                }
                if (Arrays.stream(size).anyMatch(v -> v <= 0)) {
                    throw new TorchException("Expected non-zero, positive output size. Got " + Shapes.str(size));
                }
                if (theta.size(0) != size[0]) { // ATen's bmm of the [N, points, k] base grid with theta's transpose
                    throw new TorchException("Expected size for first two dimensions of batch2 tensor to be: ["
                            + size[0] + ", " + (spatial + 1) + "] but got: [" + theta.size(0) + ", " + (spatial + 1)
                            + "].");
                }
                return affineGrid(theta, size, align);
            });

    /** ATen's {@code grid_sampler} checks, in its order and words. */
    private static void check(Tensor input, Tensor grid, long mode) {
        if (input.device() != grid.device()) {
            throw new TorchException("grid_sampler(): expected input and grid to be on same device, but input is on "
                    + input.device() + " and grid is on " + grid.device());
        }
        if (input.size(0) != grid.size(0)) {
            throw new TorchException("grid_sampler(): expected grid and input to have same batch size, but got "
                    + "input with sizes " + Shapes.str(input.shape()) + " and grid with sizes "
                    + Shapes.str(grid.shape()));
        }
        if (grid.size(-1) != input.dim() - 2) {
            throw new TorchException("grid_sampler(): expected grid to have size " + (input.dim() - 2) + " in last "
                    + "dimension, but got grid with sizes " + Shapes.str(grid.shape()));
        }
        if ((input.dim() != 4 && input.dim() != 5) || input.dim() != grid.dim()) {
            throw new TorchException("grid_sampler(): expected " + input.dim() + "D input and grid with same number "
                    + "of dimensions, but got input with sizes " + Shapes.str(input.shape()) + " and grid with sizes "
                    + Shapes.str(grid.shape()));
        }
        for (int i = 2; i < input.dim(); i++) {
            if (input.size(i) == 0) {
                throw new TorchException("grid_sampler(): expected input to have non-empty spatial dimensions, but "
                        + "input has sizes " + Shapes.str(input.shape()) + " with dimension " + i + " being empty");
            }
        }
        if (mode == BICUBIC && input.dim() != 4)
            throw new TorchException("grid_sampler(): bicubic interpolation only supports 4D input");
        if (mode < BILINEAR || mode > BICUBIC)
            throw new TorchException("grid_sampler(): unknown interpolation mode " + mode);
        if (input.dtype() != grid.dtype()) {
            throw new TorchException("expected scalar type " + input.dtype().cppName() + " but found "
                    + grid.dtype().cppName());
        }
        if (!input.dtype().isFloatingPoint()) {
            throw new TorchException("\"grid_sampler_" + (input.dim() - 2) + "d_cpu_kernel_impl\" not implemented for '"
                    + input.dtype().cppName() + "'");
        }
    }

    private static Tensor sample(Tensor input, Tensor grid, long mode, long padding, boolean align) {
        int spatial = input.dim() - 2;
        long n = input.size(0), c = input.size(1);
        long[] sizes = Arrays.copyOfRange(input.shape(), 2, input.dim());
        long[] outSpatial = Arrays.copyOfRange(grid.shape(), 1, grid.dim() - 1);
        long points = 1;
        for (long v : outSpatial) points *= v;
        Tensor flatInput = input.reshape(n, c, -1);
        Tensor flatGrid = grid.reshape(n, points, spatial);
        // coordinate k of the input's spatial dims is grid component spatial-1-k (x runs along the last dim)
        Tensor[] coords = new Tensor[spatial];
        for (int k = 0; k < spatial; k++) {
            Tensor g = flatGrid.select(2, spatial - 1 - k);
            Tensor pixel = unnormalize(g, sizes[k], align);
            coords[k] = mode == BICUBIC ? pixel : padded(pixel, sizes[k], padding, align);
        }
        Tensor out;
        if (mode == NEAREST) {
            Tensor[] at = new Tensor[spatial];
            Tensor one = null;
            for (int k = 0; k < spatial; k++) {
                at[k] = coords[k].detach().round();
                // a weight of exactly 1 with a zero derivative: the grid gets ATen's zero gradient, not none
                Tensor w = coords[k].sub(coords[k].detach()).mul(0.0).add(1.0);
                one = one == null ? w : one.mul(w);
            }
            out = weighted(flatInput, at, sizes, c, one);
        } else if (mode == BILINEAR) {
            out = bilinear(flatInput, coords, sizes, c);
        } else {
            out = bicubic(flatInput, coords, sizes, c, padding, align);
        }
        long[] shape = new long[2 + spatial];
        shape[0] = n;
        shape[1] = c;
        System.arraycopy(outSpatial, 0, shape, 2, spatial);
        return out.view(shape);
    }

    /** ATen's {@code grid_sampler_unnormalize}: [-1, 1] to pixel coordinates. */
    private static Tensor unnormalize(Tensor coord, long size, boolean align) {
        return align
                ? coord.add(1.0).mul((size - 1) / 2.0)
                : coord.add(1.0).mul(size).sub(1.0).div(2.0);
    }

    /** ATen's {@code compute_coordinates}: the padding mode's map of a source coordinate. */
    private static Tensor padded(Tensor coord, long size, long padding, boolean align) {
        if (padding == BORDER) return clip(coord, size);
        if (padding == REFLECTION) {
            Tensor r = align ? reflect(coord, 0, 2 * (size - 1)) : reflect(coord, -1, 2 * size - 1);
            return clip(r, size);
        }
        return coord;
    }

    /** ATen's {@code clip_coordinates}: into [0, size − 1], with a zero derivative on (and beyond) either bound. */
    private static Tensor clip(Tensor coord, long size) {
        Tensor inside = PointwiseOps.LOGICAL_AND.call1(coord.gt(0.0), coord.lt((double) (size - 1)));
        return coord.where(inside, coord.detach().clamp(0.0, (double) (size - 1)));
    }

    /**
     * ATen's {@code reflect_coordinates} over [twiceLow/2, twiceHigh/2]: the distance from the low bound folded into
     * the span, flipped on odd folds; derivative ±1 as ATen's (+1 at the low bound itself).
     */
    private static Tensor reflect(Tensor coord, long twiceLow, long twiceHigh) {
        if (twiceLow == twiceHigh) return coord.mul(0.0);
        double min = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
        Tensor shifted = coord.sub(min);
        Tensor in = shifted.where(shifted.ge(0.0), shifted.neg());
        Tensor flips = in.detach().div(span).floor();
        Tensor extra = in.sub(flips.mul(span));
        Tensor even = flips.remainder(2.0).eq(0.0);
        return extra.add(min).where(even, extra.neg().add(span + min));
    }

    /** The 2^spatial corners around each point, weighted by the products of their linear weights. */
    private static Tensor bilinear(Tensor flatInput, Tensor[] coords, long[] sizes, long c) {
        int spatial = coords.length;
        Tensor[] low = new Tensor[spatial], frac = new Tensor[spatial];
        for (int k = 0; k < spatial; k++) {
            low[k] = coords[k].detach().floor();
            frac[k] = coords[k].sub(low[k]);
        }
        Tensor out = null;
        for (int corner = 0; corner < 1 << spatial; corner++) {
            Tensor[] at = new Tensor[spatial];
            Tensor weight = null;
            for (int k = 0; k < spatial; k++) {
                boolean high = (corner >> (spatial - 1 - k) & 1) == 1;
                at[k] = high ? low[k].add(1.0) : low[k];
                Tensor w = high ? frac[k] : frac[k].neg().add(1.0);
                weight = weight == null ? w : weight.mul(w);
            }
            Tensor term = weighted(flatInput, at, sizes, c, weight);
            out = out == null ? term : out.add(term);
        }
        return out;
    }

    /** The 4×4 taps around each point with the cubic convolution's coefficients (ATen's {@code A = -0.75}). */
    private static Tensor bicubic(
            Tensor flatInput, Tensor[] coords, long[] sizes, long c, long padding, boolean align) {
        Tensor[] low = new Tensor[2];
        Tensor[][] coefficients = new Tensor[2][];
        for (int k = 0; k < 2; k++) {
            low[k] = coords[k].detach().floor();
            coefficients[k] = cubicCoefficients(coords[k].sub(low[k]));
        }
        Tensor out = null;
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                Tensor[] at = {
                    padded(low[0].add(i - 1.0), sizes[0], padding, align),
                    padded(low[1].add(j - 1.0), sizes[1], padding, align)
                };
                Tensor term = weighted(flatInput, at, sizes, c, coefficients[0][i].mul(coefficients[1][j]));
                out = out == null ? term : out.add(term);
            }
        }
        return out;
    }

    /** ATen's {@code get_cubic_upsample_coefficients} of the fractional offset {@code t}. */
    private static Tensor[] cubicCoefficients(Tensor t) {
        Tensor s = t.neg().add(1.0);
        return new Tensor[] {cubic2(t.add(1.0)), cubic1(t), cubic1(s), cubic2(s.add(1.0))};
    }

    /** {@code ((A + 2)·x − (A + 3))·x² + 1}, for |x| ≤ 1. */
    private static Tensor cubic1(Tensor x) {
        return x.mul(CUBIC_A + 2).sub(CUBIC_A + 3).mul(x).mul(x).add(1.0);
    }

    /** {@code ((A·x − 5A)·x + 8A)·x − 4A}, for 1 < |x| < 2. */
    private static Tensor cubic2(Tensor x) {
        return x.mul(CUBIC_A).sub(5 * CUBIC_A).mul(x).add(8 * CUBIC_A).mul(x).sub(4 * CUBIC_A);
    }

    /** The taps at integer positions {@code at} times {@code weight}, zero where a tap is outside the input. */
    private static Tensor weighted(Tensor flatInput, Tensor[] at, long[] sizes, long c, Tensor weight) {
        Tensor valid = inside(at, sizes);
        Tensor values = gather(flatInput, at, sizes, c, valid);
        Tensor v = valid.unsqueeze(1);
        // where, not a product with the mask: a weight of a tap outside must not turn a zero into NaN
        return values.mul(weight.unsqueeze(1)).where(v, 0.0);
    }

    private static Tensor inside(Tensor[] at, long[] sizes) {
        Tensor valid = null;
        for (int k = 0; k < at.length; k++) {
            Tensor ok = PointwiseOps.LOGICAL_AND.call1(at[k].ge(0.0), at[k].le((double) (sizes[k] - 1)));
            valid = valid == null ? ok : PointwiseOps.LOGICAL_AND.call1(valid, ok);
        }
        return valid;
    }

    /** [N, C, points] values of the flattened input at the (valid, else first) flat positions of {@code at}. */
    private static Tensor gather(Tensor flatInput, Tensor[] at, long[] sizes, long c, Tensor valid) {
        Tensor flat = null;
        long stride = 1;
        for (int k = at.length - 1; k >= 0; k--) {
            Tensor term = at[k].where(valid, 0.0).to(DType.INT64).mul(stride);
            flat = flat == null ? term : flat.add(term);
            stride *= sizes[k];
        }
        long n = flat.size(0), points = flat.size(1);
        return flatInput.gather(2, flat.unsqueeze(1).expand(n, c, points));
    }

    private static Tensor affineGrid(Tensor theta, long[] size, boolean align) {
        int spatial = size.length - 2;
        long n = size[0];
        long[] baseShape = new long[spatial + 1];
        System.arraycopy(size, 2, baseShape, 0, spatial);
        baseShape[spatial] = spatial + 1;
        // base[..., 0] = x (along the last dim), base[..., 1] = y, (base[..., 2] = z), then a column of ones
        Tensor[] columns = new Tensor[spatial + 1];
        for (int k = 0; k < spatial; k++) {
            int dim = spatial - 1 - k; // the output dim component k runs along
            long steps = size[2 + dim];
            long[] view = new long[spatial];
            Arrays.fill(view, 1);
            view[dim] = steps;
            long[] full = Arrays.copyOfRange(size, 2, size.length);
            columns[k] = linspaceFromNegOne(theta, steps, align).view(view).expand(full);
        }
        columns[spatial] = Creation.full(Arrays.copyOfRange(size, 2, size.length), 1L, theta.dtype(), theta.device());
        Tensor base = JoinOps.stack(java.util.List.of(columns), spatial);
        long points = base.numel() / (spatial + 1);
        Tensor grid = base.view(1, points, spatial + 1).matmul(theta.transpose(1, 2));
        long[] out = new long[spatial + 2];
        out[0] = n;
        System.arraycopy(size, 2, out, 1, spatial);
        out[spatial + 1] = spatial;
        return grid.view(out);
    }

    /** ATen's {@code linspace_from_neg_one}: −1..1 in {@code steps}, scaled by (steps − 1)/steps without align. */
    private static Tensor linspaceFromNegOne(Tensor like, long steps, boolean align) {
        if (steps <= 1) return Creation.full(new long[] {1}, 0L, like.dtype(), like.device());
        Tensor range = Creation.LINSPACE.call1(-1.0, 1.0, steps, like.dtype(), like.device());
        return align ? range : range.mul(steps - 1).div(steps);
    }
}
