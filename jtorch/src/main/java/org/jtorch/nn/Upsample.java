package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.Upsample}: {@code F.interpolate} with the size or scale factor, mode and {@code align_corners} fixed
 * at construction. A single size or scale factor applies to every spatial dim.
 */
public class Upsample extends Module {
    private final long[] size;
    private final double[] scaleFactor;
    private final String mode;
    private final Boolean alignCorners;
    private final Boolean recomputeScaleFactor;

    /**
     * {@code Upsample(size=, scale_factor=, mode=, align_corners=, recompute_scale_factor=)}: one of {@code size} and
     * {@code scaleFactor} is null; null {@code alignCorners}/{@code recomputeScaleFactor} are PyTorch's None.
     */
    public Upsample(
            long[] size, double[] scaleFactor, String mode, Boolean alignCorners, Boolean recomputeScaleFactor) {
        this.size = size == null ? null : size.clone();
        this.scaleFactor = scaleFactor == null ? null : scaleFactor.clone();
        this.mode = mode;
        this.alignCorners = alignCorners;
        this.recomputeScaleFactor = recomputeScaleFactor;
    }

    /** {@code Upsample(scale_factor=scale, mode=mode)}. */
    public static Upsample byScale(double scale, String mode) {
        return new Upsample(null, new double[] {scale}, mode, null, null);
    }

    /** {@code Upsample(size=size, mode=mode)}. */
    public static Upsample toSize(long[] size, String mode) {
        return new Upsample(size, null, mode, null, null);
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.interpolate(input, size, scaleFactor, mode, alignCorners, recomputeScaleFactor);
    }

    @Override
    protected String extraRepr() {
        String info;
        if (scaleFactor != null) {
            if (scaleFactor.length == 1) info = "scale_factor=" + PyRepr.of(scaleFactor[0]);
            else {
                StringBuilder sb = new StringBuilder("scale_factor=(");
                for (int i = 0; i < scaleFactor.length; i++)
                    sb.append(i > 0 ? ", " : "").append(PyRepr.of(scaleFactor[i]));
                info = sb.append(")").toString();
            }
        } else {
            info = "size=" + (size == null ? "None" : size.length == 1 ? String.valueOf(size[0]) : PyRepr.tuple(size));
        }
        return info + ", mode='" + mode + "'";
    }
}
