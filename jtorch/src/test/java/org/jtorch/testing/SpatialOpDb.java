package org.jtorch.testing;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.Conv3dOps;
import org.jtorch.ops.FoldOps;
import org.jtorch.ops.GridSampleOps;
import org.jtorch.ops.MaxUnpoolOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.Pool1dOps;

/**
 * The {@link OpDb} entries of the 3-d convolutions ({@link Conv3dOps}), 1-d pooling ({@link Pool1dOps}), max unpooling
 * ({@link MaxUnpoolOps}), fold/unfold ({@link FoldOps}) and grid sampling ({@link GridSampleOps}). Values are checked
 * against PyTorch in {@code SpatialGoldenTest}; here the sweeps check meta against CPU, layouts, gradients, forward AD
 * and vmap.
 */
public final class SpatialOpDb {
    private SpatialOpDb() {}

    /** Every entry of the family. */
    public static List<OpDb.Entry> entries() {
        List<OpDb.Entry> t = new ArrayList<>();
        convolutions(t);
        pools(t);
        foldAndGrid(t);
        return List.copyOf(t);
    }

    private static OpDb.Entry op(OpDef op, OpDb.Sample... samples) {
        return new OpDb.Entry(op, OpDb.DTYPES, List.of(samples));
    }

    private static OpDb.Sample s(String label, OpDb.Args args) {
        return new OpDb.Sample(label, args, true);
    }

    private static Object[] a(Object... args) {
        return args;
    }

    private static long[] ls(long... v) {
        return v;
    }

    /** An int64 index tensor holding {@code values} on CPU (zeros on meta, which never reads them). */
    private static Tensor idx(SampleInputs in, long[] values, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, DType.INT64, Device.META);
        return Torch.tensor(values).reshape(shape);
    }

    // (input, weight, bias, stride, padding, dilation, groups) / transposed: (…, stride, padding, output_padding,
    // groups, dilation)
    private static void convolutions(List<OpDb.Entry> t) {
        long[] one = ls(1), zero = ls(0);
        t.add(op(
                Conv3dOps.CONV3D,
                s("3d", in -> a(in.t(2, 2, 4, 3, 4), in.t(3, 2, 2, 2, 3), in.t(3), one, one, one, 1L)),
                s(
                        "strided-groups",
                        in -> a(
                                in.nc(1, 4, 5, 4, 4),
                                in.t(2, 2, 3, 1, 2),
                                null,
                                ls(2, 1, 2),
                                ls(1, 0, 0),
                                ls(1, 2, 1),
                                2L)),
                s("unbatched-offset", in -> a(in.off(2, 3, 3, 3), in.t(1, 2, 2, 2, 2), null, one, zero, one, 1L)),
                s("empty-batch", in -> a(in.t(0, 2, 3, 3, 3), in.t(1, 2, 2, 2, 2), null, one, zero, one, 1L)),
                s("kernel-too-large", in -> a(in.t(1, 1, 1, 3, 3), in.t(1, 1, 2, 2, 2), null, one, zero, one, 1L)),
                s("channels", in -> a(in.t(1, 3, 3, 3, 3), in.t(1, 2, 2, 2, 2), null, one, zero, one, 1L)),
                s("rank", in -> a(in.t(3, 3, 3), in.t(1, 1, 2, 2, 2), null, one, zero, one, 1L))));
        t.add(op(
                Conv3dOps.CONV_TRANSPOSE3D,
                s("3d", in -> a(in.t(2, 2, 2, 3, 2), in.t(2, 3, 2, 2, 2), in.t(3), one, zero, zero, 1L, one)),
                s(
                        "strided-groups",
                        in -> a(
                                in.nc(1, 4, 2, 2, 3),
                                in.t(4, 1, 2, 3, 2),
                                null,
                                ls(2, 1, 2),
                                ls(1, 0, 0),
                                ls(1, 0, 1),
                                2L,
                                ls(1, 2, 1))),
                s("unbatched", in -> a(in.t(2, 2, 2, 2), in.t(2, 1, 2, 2, 2), null, ls(2), zero, zero, 1L, one)),
                s("output-padding", in -> a(in.t(1, 2, 2, 2, 2), in.t(2, 1, 2, 2, 2), null, one, zero, one, 1L, one)),
                s("channels", in -> a(in.t(1, 3, 2, 2, 2), in.t(2, 1, 2, 2, 2), null, one, zero, zero, 1L, one))));
    }

    private static void pools(List<OpDb.Entry> t) {
        // (self, kernel_size, stride, padding, dilation, ceil_mode)
        for (OpDef op : List.of(Pool1dOps.MAX_POOL1D, Pool1dOps.MAX_POOL1D_WITH_INDICES)) {
            t.add(op(
                    op,
                    s("defaults", in -> a(in.t(2, 3, 6), ls(2), ls(), ls(0), ls(1), false)),
                    s("all-options", in -> a(in.nc(3, 9), ls(3), ls(2), ls(1), ls(2), true)),
                    s("expanded", in -> a(in.ex(2, 3, 5), ls(2), ls(1), ls(1), ls(1), false)),
                    s("empty-batch", in -> a(in.t(0, 2, 4), ls(2), ls(), ls(0), ls(1), false)),
                    s("too-small", in -> a(in.t(1, 1, 2), ls(3), ls(), ls(0), ls(1), false)),
                    s("kernel-size", in -> a(in.t(1, 1, 4), ls(2, 2), ls(), ls(0), ls(1), false))));
        }
        // (self, kernel_size, stride, padding, ceil_mode, count_include_pad)
        t.add(op(
                Pool1dOps.AVG_POOL1D,
                s("defaults", in -> a(in.t(2, 3, 6), ls(2), ls(), ls(0), false, true)),
                s("exclude-pad-ceil", in -> a(in.nc(3, 9), ls(3), ls(2), ls(1), true, false)),
                s("offset", in -> a(in.off(2, 7), ls(3), ls(1), ls(1), false, true)),
                s("pad-too-large", in -> a(in.t(1, 2, 6), ls(2), ls(), ls(2), false, true))));
        // (self, output_size)
        t.add(op(
                Pool1dOps.ADAPTIVE_AVG_POOL1D,
                s("down", in -> a(in.t(2, 3, 7), ls(3))),
                s("up-transposed", in -> a(in.nc(3, 4), ls(6))),
                s("output-size", in -> a(in.t(2, 3, 7), ls(3, 3)))));
        // (self, indices, output_size[, stride, padding]); indices are valid max positions
        t.add(op(
                MaxUnpoolOps.MAX_UNPOOL2D,
                s("2x2", in -> a(in.t(1, 2, 2, 2), idx(in, ls(0, 3, 9, 15, 5, 2, 12, 10), 1, 2, 2, 2), ls(4, 4))),
                s(
                        "unbatched-transposed",
                        in -> a(in.nc(2, 2, 2), idx(in, ls(0, 3, 9, 15, 5, 2, 12, 10), 2, 2, 2), ls(4, 5))),
                s("index-shape", in -> a(in.t(1, 1, 2, 2), idx(in, ls(0, 1, 2), 1, 1, 1, 3), ls(4, 4))),
                s("rank", in -> a(in.t(2, 2), idx(in, ls(0, 1, 2, 3), 2, 2), ls(4, 4)))));
        t.add(op(
                MaxUnpoolOps.MAX_UNPOOL3D,
                s(
                        "2x2x2",
                        in -> a(
                                in.t(1, 1, 1, 2, 2),
                                idx(in, ls(0, 3, 9, 30), 1, 1, 1, 2, 2),
                                ls(2, 4, 4),
                                ls(2),
                                ls(0))),
                s(
                        "stride-zero",
                        in -> a(
                                in.t(1, 1, 1, 2, 2),
                                idx(in, ls(0, 3, 9, 30), 1, 1, 1, 2, 2),
                                ls(2, 4, 4),
                                ls(0),
                                ls(0)))));
    }

    private static void foldAndGrid(List<OpDb.Entry> t) {
        // (self, kernel_size, dilation, padding, stride)
        t.add(op(
                FoldOps.IM2COL,
                s("2x2", in -> a(in.t(2, 3, 4, 5), ls(2, 2), ls(1, 1), ls(0, 0), ls(1, 1))),
                s("all-options", in -> a(in.nc(2, 5, 6), ls(3, 2), ls(1, 2), ls(1, 2), ls(2, 1))),
                s("expanded", in -> a(in.ex(2, 2, 4, 4), ls(2, 2), ls(1, 1), ls(1, 1), ls(2, 2))),
                s("too-large", in -> a(in.t(1, 1, 2, 2), ls(3, 3), ls(1, 1), ls(0, 0), ls(1, 1))),
                s("stride-zero", in -> a(in.t(1, 1, 4, 4), ls(2, 2), ls(1, 1), ls(0, 0), ls(0, 1)))));
        // (self, output_size, kernel_size, dilation, padding, stride)
        t.add(op(
                FoldOps.COL2IM,
                s("2x2", in -> a(in.t(2, 12, 12), ls(4, 5), ls(2, 2), ls(1, 1), ls(0, 0), ls(1, 1))),
                s("overlapping-transposed", in -> a(in.nc(8, 9), ls(4, 4), ls(2, 2), ls(1, 1), ls(1, 1), ls(2, 2))),
                s("not-divisible", in -> a(in.t(2, 11, 12), ls(4, 5), ls(2, 2), ls(1, 1), ls(0, 0), ls(1, 1))),
                s("blocks", in -> a(in.t(2, 12, 10), ls(4, 5), ls(2, 2), ls(1, 1), ls(0, 0), ls(1, 1)))));
        // (input, grid, interpolation_mode, padding_mode, align_corners)
        t.add(op(
                GridSampleOps.GRID_SAMPLER,
                s("bilinear-zeros", in -> a(in.t(2, 2, 3, 4), in.t(2, 2, 3, 2), 0L, 0L, false)),
                s("nearest-border", in -> a(in.nc(1, 2, 4, 3), in.t(1, 3, 2, 2), 1L, 1L, true)),
                s("bicubic-reflection", in -> a(in.t(1, 1, 3, 3), in.off(1, 2, 2, 2), 2L, 2L, false)),
                s("3d-bilinear", in -> a(in.t(1, 2, 2, 3, 2), in.t(1, 2, 1, 2, 3), 0L, 2L, true)),
                s("batch", in -> a(in.t(2, 2, 3, 4), in.t(1, 2, 3, 2), 0L, 0L, false)),
                s("bicubic-3d", in -> a(in.t(1, 2, 2, 3, 2), in.t(1, 2, 1, 2, 3), 2L, 0L, false))));
        // (theta, size, align_corners)
        t.add(op(
                GridSampleOps.AFFINE_GRID_GENERATOR,
                s("2d", in -> a(in.t(2, 2, 3), ls(2, 1, 3, 4), false)),
                s("3d-align", in -> a(in.nc(1, 3, 4), ls(1, 2, 2, 3, 2), true)),
                s("single-step", in -> a(in.t(1, 2, 3), ls(1, 1, 1, 3), false)),
                s("rank", in -> a(in.t(1, 2, 3), ls(1, 1, 3), false))));
    }
}
