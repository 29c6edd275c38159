package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.PixelUnshuffle}: [*, C, H·r, W·r] → [*, C·r², H, W] ({@code F.pixel_unshuffle}). */
public class PixelUnshuffle extends Module {
    private final long downscaleFactor;

    /** {@code PixelUnshuffle(downscale_factor)}. */
    public PixelUnshuffle(long downscaleFactor) {
        this.downscaleFactor = downscaleFactor;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.pixelUnshuffle(input, downscaleFactor);
    }

    @Override
    protected String extraRepr() {
        return "downscale_factor=" + downscaleFactor;
    }
}
