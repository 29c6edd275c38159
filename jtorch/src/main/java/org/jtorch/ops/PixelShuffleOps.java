package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code pixel_shuffle} and {@code pixel_unshuffle}: sub-pixel rearrangements between channels and space, [*, C·r², H,
 * W] ⇄ [*, C, H·r, W·r]. Each is a reshape, a permutation and a reshape (a copy, so results are contiguous, as ATen's),
 * and so inherits their gradients, forward-mode and batching rules; each is the other's inverse.
 */
public final class PixelShuffleOps {
    private PixelShuffleOps() {}

    /** {@code pixel_shuffle(self, upscale_factor)}: [*, C·r², H, W] → [*, C, H·r, W·r]. */
    public static final OpDef PIXEL_SHUFFLE =
            OpDef.composite("pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", a -> {
                Tensor x = (Tensor) a[0];
                long r = ((Number) a[1]).longValue();
                if (x.dim() < 3) {
                    throw new TorchException("pixel_shuffle expects input to have at least 3 dimensions, but got "
                            + "input with " + x.dim() + " dimension(s)");
                }
                if (r <= 0) throw new TorchException("pixel_shuffle expects a positive upscale_factor, but got " + r);
                long c = x.size(-3), h = x.size(-2), w = x.size(-1);
                if (c % (r * r) != 0) {
                    throw new TorchException("pixel_shuffle expects its input's 'channel' dimension to be divisible "
                            + "by the square of upscale_factor, but input.size(-3)=" + c + " is not divisible by "
                            + r * r);
                }
                int b = x.dim() - 3;
                long[] lead = java.util.Arrays.copyOf(x.shape(), b);
                Tensor split = x.reshape(concat(lead, c / (r * r), r, r, h, w));
                // [*, C, r, r, H, W] → [*, C, H, r, W, r]
                Tensor moved = split.permute(withLead(b, 0, 3, 1, 4, 2));
                return moved.reshape(concat(lead, c / (r * r), h * r, w * r));
            });

    /** {@code pixel_unshuffle(self, downscale_factor)}: [*, C, H·r, W·r] → [*, C·r², H, W]. */
    public static final OpDef PIXEL_UNSHUFFLE =
            OpDef.composite("pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", a -> {
                Tensor x = (Tensor) a[0];
                long r = ((Number) a[1]).longValue();
                if (x.dim() < 3) {
                    throw new TorchException("pixel_unshuffle expects input to have at least 3 dimensions, but got "
                            + "input with " + x.dim() + " dimension(s)");
                }
                if (r <= 0) {
                    throw new TorchException("pixel_unshuffle expects a positive downscale_factor, but got " + r);
                }
                long c = x.size(-3), h = x.size(-2), w = x.size(-1);
                if (h % r != 0) {
                    throw new TorchException("pixel_unshuffle expects height to be divisible by downscale_factor, but "
                            + "input.size(-2)=" + h + " is not divisible by " + r);
                }
                if (w % r != 0) {
                    throw new TorchException("pixel_unshuffle expects width to be divisible by downscale_factor, but "
                            + "input.size(-1)=" + w + " is not divisible by " + r);
                }
                int b = x.dim() - 3;
                long[] lead = java.util.Arrays.copyOf(x.shape(), b);
                Tensor split = x.reshape(concat(lead, c, h / r, r, w / r, r));
                // [*, C, H, r, W, r] → [*, C, r, r, H, W]
                Tensor moved = split.permute(withLead(b, 0, 2, 4, 1, 3));
                return moved.reshape(concat(lead, c * r * r, h / r, w / r));
            });

    /** {@code torch.pixel_shuffle(self, upscale_factor)}. */
    public static Tensor pixelShuffle(Tensor self, long upscaleFactor) {
        return PIXEL_SHUFFLE.call1(self, upscaleFactor);
    }

    /** {@code torch.pixel_unshuffle(self, downscale_factor)}. */
    public static Tensor pixelUnshuffle(Tensor self, long downscaleFactor) {
        return PIXEL_UNSHUFFLE.call1(self, downscaleFactor);
    }

    private static long[] concat(long[] lead, long... rest) {
        long[] r = java.util.Arrays.copyOf(lead, lead.length + rest.length);
        System.arraycopy(rest, 0, r, lead.length, rest.length);
        return r;
    }

    /** The permutation that keeps {@code b} leading dims and permutes the rest by {@code tail}. */
    private static int[] withLead(int b, int... tail) {
        int[] p = new int[b + tail.length];
        for (int i = 0; i < b; i++) p[i] = i;
        for (int i = 0; i < tail.length; i++) p[b + i] = b + tail[i];
        return p;
    }
}
