package org.jtorch.nn.functional;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.ops.GridSampleOps;

/**
 * The Python-level parts of {@code F.grid_sample} and {@code F.affine_grid}: the mode names, their checks, and the
 * warning PyTorch gives when {@code align_corners} is left unset.
 */
final class GridSampling {
    private GridSampling() {}

    private static final String ALIGN_WARNING = "Default grid_sample and affine_grid behavior has changed to "
            + "align_corners=False since 1.3.0. Please specify align_corners=True if the old behavior is desired. See "
            + "the documentation of grid_sample for details.";

    static Tensor gridSample(Tensor input, Tensor grid, String mode, String paddingMode, Boolean alignCorners) {
        long interpolation =
                switch (mode) {
                    case "bilinear" -> GridSampleOps.BILINEAR;
                    case "nearest" -> GridSampleOps.NEAREST;
                    case "bicubic" -> GridSampleOps.BICUBIC;
                    default ->
                        throw new TorchException(
                                "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
                                        + "'bicubic', but got: '" + mode + "'");
                };
        long padding =
                switch (paddingMode) {
                    case "zeros" -> GridSampleOps.ZEROS;
                    case "border" -> GridSampleOps.BORDER;
                    case "reflection" -> GridSampleOps.REFLECTION;
                    default ->
                        throw new TorchException(
                                "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border',"
                                        + " or 'reflection', but got: '" + paddingMode + "'");
                };
        return GridSampleOps.GRID_SAMPLER.call1(input, grid, interpolation, padding, aligned(alignCorners));
    }

    static Tensor affineGrid(Tensor theta, long[] size, Boolean alignCorners) {
        return GridSampleOps.AFFINE_GRID_GENERATOR.call1(theta, size.clone(), aligned(alignCorners));
    }

    private static boolean aligned(Boolean alignCorners) {
        if (alignCorners == null) {
            Warnings.warn(ALIGN_WARNING);
            return false;
        }
        return alignCorners;
    }
}
