package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.PixelShuffle}: [*, C·r², H, W] → [*, C, H·r, W·r] ({@code F.pixel_shuffle}). */
public class PixelShuffle extends Module {
    private final long upscaleFactor;

    /** {@code PixelShuffle(upscale_factor)}. */
    public PixelShuffle(long upscaleFactor) {
        this.upscaleFactor = upscaleFactor;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.pixelShuffle(input, upscaleFactor);
    }

    @Override
    protected String extraRepr() {
        return "upscale_factor=" + upscaleFactor;
    }
}
