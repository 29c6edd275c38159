package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code im2col} ({@code F.unfold}) and {@code col2im} ({@code F.fold}) as composites: both are fixed index maps
 * between the zero-padded image and the column matrix, so {@code im2col} is an {@code index_select} of the padded image
 * and {@code col2im}, its adjoint, an {@code index_add} into a padded zero image. Their gradients (each other) and
 * tangents come from those ops; the map is exact, so infinities and NaNs stay where they are.
 */
public final class FoldOps {
    private FoldOps() {}

    /**
     * {@code im2col(self, kernel_size, dilation, padding, stride)}: [N, C, H, W] (or unbatched [C, H, W]) to [N,
     * C·kH·kW, L], L the number of sliding blocks.
     */
    public static final OpDef IM2COL = OpDef.composite(
            "im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor", a -> {
                Tensor x = (Tensor) a[0];
                Plan p = plan((long[]) a[1], (long[]) a[2], (long[]) a[3], (long[]) a[4]);
                int r = x.dim();
                if (r != 3 && r != 4 || x.size(r - 1) == 0 || x.size(r - 2) == 0 || x.size(r - 3) == 0) {
                    throw new TorchException("Expected 3D or 4D (batch mode) tensor for input with possibly 0 batch "
                            + "size and non-zero dimensions for input, but got: "
                            + org.jtorch.internal.Shapes.str(x.shape()));
                }
                requireSupported("im2col_out_cpu", x.dtype());
                long h = x.size(r - 2), w = x.size(r - 1);
                long oh = p.blocks(0, h), ow = p.blocks(1, w);
                if (oh < 1 || ow < 1) {
                    throw new TorchException("Given input with spatial size (" + h + ", " + w + "), kernel_size=("
                            + p.k[0] + ", " + p.k[1] + "), dilation=(" + p.d[0] + ", " + p.d[1] + "), padding=("
                            + p.p[0] + ", " + p.p[1] + "), calculated shape of the array of sliding blocks as (" + oh
                            + ", " + ow + "), but its components must be at least one.");
                }
                boolean batched = r == 4;
                Tensor xb = batched ? x : x.unsqueeze(0);
                long n = xb.size(0), c = xb.size(1);
                Tensor padded = p.p[0] == 0 && p.p[1] == 0
                        ? xb
                        : ArrangeOps.pad(xb, new long[] {p.p[1], p.p[1], p.p[0], p.p[0]});
                Tensor cols = ScatterOps.indexSelect(padded.reshape(n, c, -1), 2, p.index(w + 2 * p.p[1], oh, ow, x))
                        .reshape(n, c * p.k[0] * p.k[1], oh * ow);
                return batched ? cols : cols.squeeze(0);
            });

    /**
     * {@code col2im(self, output_size, kernel_size, dilation, padding, stride)}: [N, C·kH·kW, L] (or unbatched) to [N,
     * C, H, W], each column element added at its place in the image (overlaps sum).
     */
    public static final OpDef COL2IM = OpDef.composite(
            "col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, "
                    + "int[2] stride) -> Tensor",
            a -> {
                Tensor cols = (Tensor) a[0];
                long[] size = pairOf("output_size", (long[]) a[1]);
                Plan p = plan((long[]) a[2], (long[]) a[3], (long[]) a[4], (long[]) a[5]);
                int r = cols.dim();
                if (r != 2 && r != 3 || cols.size(r - 1) == 0 || cols.size(r - 2) == 0) {
                    throw new TorchException("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch "
                            + "size and non-zero dimensions for input, but got: "
                            + org.jtorch.internal.Shapes.str(cols.shape()));
                }
                long kk = p.k[0] * p.k[1];
                if (cols.size(r - 2) % kk != 0) {
                    throw new TorchException("Expected size of input's dimension 1 to be divisible by the product of "
                            + "kernel_size, but got input.size(1)=" + cols.size(r - 2) + " and kernel_size=("
                            + p.k[0] + ", " + p.k[1] + ").");
                }
                long oh = p.blocks(0, size[0]), ow = p.blocks(1, size[1]);
                if (oh * ow != cols.size(r - 1) || oh < 1 || ow < 1) {
                    throw new TorchException("Given output_size=(" + size[0] + ", " + size[1] + "), kernel_size=("
                            + p.k[0] + ", " + p.k[1] + "), dilation=(" + p.d[0] + ", " + p.d[1] + "), padding=("
                            + p.p[0] + ", " + p.p[1] + "), stride=(" + p.s[0] + ", " + p.s[1] + "), expected size of "
                            + "input's dimension 2 to match the calculated number of sliding blocks " + oh + " * " + ow
                            + " = " + oh * ow + ", but got input.size(2)=" + cols.size(r - 1) + ".");
                }
                requireSupported("col2im_out_cpu", cols.dtype());
                boolean batched = r == 3;
                Tensor cb = batched ? cols : cols.unsqueeze(0);
                long n = cb.size(0), c = cb.size(1) / kk, hp = size[0] + 2 * p.p[0], wp = size[1] + 2 * p.p[1];
                Tensor zeros = Creation.full(new long[] {n, c, hp * wp}, 0L, cols.dtype(), cols.device());
                Tensor image = ScatterOps.indexAdd(zeros, 2, p.index(wp, oh, ow, cols), cb.reshape(n, c, kk * oh * ow))
                        .view(n, c, hp, wp)
                        .narrow(2, p.p[0], size[0])
                        .narrow(3, p.p[1], size[1]);
                return batched ? image : image.squeeze(0);
            });

    /** ATen's im2col/col2im take floating, complex and bool tensors (bool columns sum as logical or). */
    private static void requireSupported(String kernel, DType d) {
        if (!d.isFloatingPoint() && !d.isComplex() && d != DType.BOOL)
            throw new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    private static long[] pairOf(String name, long[] v) {
        if (v.length != 2)
            throw new TorchException("It is expected " + name + " equals to 2, but got size " + v.length);
        return v;
    }

    /** Kernel, dilation, padding and stride (each a pair), checked with ATen's words. */
    private record Plan(long[] k, long[] d, long[] p, long[] s) {
        /** The number of sliding blocks along dim {@code i} of an image of {@code size}. */
        long blocks(int i, long size) {
            return (size + 2 * p[i] - (d[i] * (k[i] - 1) + 1)) / s[i] + 1;
        }

        /**
         * The flat position in the padded plane (width {@code wp}) of every column element, in the column matrix's
         * order [kH][kW][oH][oW].
         */
        Tensor index(long wp, long oh, long ow, Tensor like) {
            Tensor rows = Conv3dOps.range(k[0], like)
                    .mul(d[0])
                    .view(k[0], 1, 1, 1)
                    .add(Conv3dOps.range(oh, like).mul(s[0]).view(1, 1, oh, 1));
            Tensor cols = Conv3dOps.range(k[1], like)
                    .mul(d[1])
                    .view(1, k[1], 1, 1)
                    .add(Conv3dOps.range(ow, like).mul(s[1]).view(1, 1, 1, ow));
            return rows.mul(wp).add(cols).reshape(-1);
        }
    }

    private static Plan plan(long[] kernel, long[] dilation, long[] padding, long[] stride) {
        long[] k = pairOf("kernel_size", kernel), d = pairOf("dilation", dilation);
        long[] p = pairOf("padding", padding), s = pairOf("stride", stride);
        if (k[0] <= 0 || k[1] <= 0) {
            throw new TorchException("kernel size should be greater than zero, but got kernel_height: " + k[0]
                    + " kernel_width: " + k[1]);
        }
        if (d[0] <= 0 || d[1] <= 0) {
            throw new TorchException("dilation should be greater than zero, but got dilation_height: " + d[0]
                    + " dilation_width: " + d[1]);
        }
        if (p[0] < 0 || p[1] < 0) {
            throw new TorchException(
                    "padding should be non-negative, but got pad_height: " + p[0] + " pad_width: " + p[1]);
        }
        if (s[0] <= 0 || s[1] <= 0) {
            throw new TorchException(
                    "stride should be greater than zero, but got stride_height: " + s[0] + " stride_width: " + s[1]);
        }
        return new Plan(k, d, p, s);
    }
}
