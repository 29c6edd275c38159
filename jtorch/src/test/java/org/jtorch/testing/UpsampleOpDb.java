package org.jtorch.testing;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PixelShuffleOps;
import org.jtorch.ops.UpsampleOps;

/**
 * The {@link OpDb} entries of the upsampling family ({@link UpsampleOps}: every forward, backward and {@code .vec}
 * overload) and of {@link PixelShuffleOps}, in the table's format. Values are checked against PyTorch in
 * {@code ConvFamilyGoldenTest}; here the sweeps check meta against CPU, layouts, gradients, forward AD and vmap.
 */
public final class UpsampleOpDb {
    private UpsampleOpDb() {}

    /** Every entry of the family. */
    public static List<OpDb.Entry> entries() {
        List<OpDb.Entry> t = new ArrayList<>();
        forwards(t);
        backwards(t);
        vecs(t);
        pixelShuffles(t);
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

    // (self, output_size, [align_corners,] scales...)
    private static void forwards(List<OpDb.Entry> t) {
        for (OpDef op : List.of(UpsampleOps.UPSAMPLE_NEAREST1D, UpsampleOps.UPSAMPLE_NEAREST_EXACT1D)) {
            t.add(op(
                    op,
                    s("up", in -> a(in.t(2, 3, 4), ls(7), null)),
                    s("down-scale", in -> a(in.nc(2, 3, 5), ls(3), 0.6)),
                    s("empty-batch", in -> a(in.t(0, 2, 4), ls(6), null)),
                    s("zero-output", in -> a(in.t(1, 2, 4), ls(0), null)),
                    s("rank-4", in -> a(in.t(1, 2, 4, 4), ls(3), null))));
        }
        for (OpDef op : List.of(UpsampleOps.UPSAMPLE_NEAREST2D, UpsampleOps.UPSAMPLE_NEAREST_EXACT2D)) {
            t.add(op(
                    op,
                    s("up", in -> a(in.t(2, 2, 3, 4), ls(5, 8), null, null)),
                    s("scales", in -> a(in.nc(1, 3, 4, 5), ls(6, 2), 1.5, 0.5)),
                    s("expanded", in -> a(in.ex(2, 3, 4, 4), ls(3, 5), null, null)),
                    s("empty-plane", in -> a(in.t(1, 2, 0, 4), ls(3, 3), null, null)),
                    s("size-length", in -> a(in.t(1, 2, 4, 4), ls(3, 3, 3), null, null))));
        }
        for (OpDef op : List.of(UpsampleOps.UPSAMPLE_NEAREST3D, UpsampleOps.UPSAMPLE_NEAREST_EXACT3D)) {
            t.add(op(
                    op,
                    s("up", in -> a(in.t(1, 2, 2, 3, 2), ls(3, 4, 4), null, null, null)),
                    s("offset", in -> a(in.off(1, 1, 3, 2, 3), ls(2, 3, 1), null, null, null)),
                    s("rank-4", in -> a(in.t(1, 2, 3, 3), ls(3, 3, 3), null, null, null))));
        }
        t.add(op(
                UpsampleOps.UPSAMPLE_LINEAR1D,
                s("up", in -> a(in.t(2, 3, 4), ls(7), false, null)),
                s("align-down", in -> a(in.nc(2, 3, 5), ls(3), true, null)),
                s("scale", in -> a(in.t(1, 2, 4), ls(9), false, 2.25)),
                s("zero-output", in -> a(in.t(1, 2, 4), ls(0), false, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_BILINEAR2D,
                s("up", in -> a(in.t(2, 2, 3, 4), ls(5, 8), false, null, null)),
                s("align", in -> a(in.nc(1, 3, 4, 5), ls(7, 3), true, null, null)),
                s("scales", in -> a(in.t(1, 2, 3, 3), ls(6, 4), false, 2.0, 1.5)),
                s("expanded", in -> a(in.ex(2, 3, 4, 4), ls(2, 5), false, null, null)),
                s("empty-batch", in -> a(in.t(0, 2, 3, 3), ls(4, 4), false, null, null)),
                s("rank-3", in -> a(in.t(2, 3, 3), ls(4, 4), false, null, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_BICUBIC2D,
                s("up", in -> a(in.t(1, 2, 3, 4), ls(6, 7), false, null, null)),
                s("align-down", in -> a(in.nc(2, 1, 5, 6), ls(3, 2), true, null, null)),
                s("zero-output", in -> a(in.t(1, 2, 3, 3), ls(0, 2), false, null, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_TRILINEAR3D,
                s("up", in -> a(in.t(1, 2, 2, 3, 2), ls(3, 4, 4), false, null, null, null)),
                s("align-offset", in -> a(in.off(1, 1, 3, 2, 3), ls(2, 3, 5), true, null, null, null)),
                s("size-length", in -> a(in.t(1, 1, 3, 3, 3), ls(3, 3), false, null, null, null))));
    }

    // (grad_output, output_size, input_size, [align_corners,] scales...)
    private static void backwards(List<OpDb.Entry> t) {
        for (OpDef op :
                List.of(UpsampleOps.UPSAMPLE_NEAREST1D_BACKWARD, UpsampleOps.UPSAMPLE_NEAREST_EXACT1D_BACKWARD)) {
            t.add(op(
                    op,
                    s("up", in -> a(in.t(2, 3, 7), ls(7), ls(2, 3, 4), null)),
                    s("down-transposed", in -> a(in.nc(2, 3, 3), ls(3), ls(2, 3, 5), 0.6)),
                    s("grad-mismatch", in -> a(in.t(2, 3, 6), ls(7), ls(2, 3, 4), null))));
        }
        for (OpDef op :
                List.of(UpsampleOps.UPSAMPLE_NEAREST2D_BACKWARD, UpsampleOps.UPSAMPLE_NEAREST_EXACT2D_BACKWARD)) {
            t.add(op(
                    op,
                    s("up", in -> a(in.t(2, 2, 5, 8), ls(5, 8), ls(2, 2, 3, 4), null, null)),
                    s("expanded", in -> a(in.ex(2, 3, 3, 5), ls(3, 5), ls(2, 3, 4, 4), null, null)),
                    s("grad-rank", in -> a(in.t(2, 5, 8), ls(5, 8), ls(2, 2, 3, 4), null, null))));
        }
        for (OpDef op :
                List.of(UpsampleOps.UPSAMPLE_NEAREST3D_BACKWARD, UpsampleOps.UPSAMPLE_NEAREST_EXACT3D_BACKWARD)) {
            t.add(op(op, s("up", in -> a(in.t(1, 2, 3, 4, 4), ls(3, 4, 4), ls(1, 2, 2, 3, 2), null, null, null))));
        }
        t.add(op(
                UpsampleOps.UPSAMPLE_LINEAR1D_BACKWARD,
                s("up", in -> a(in.t(2, 3, 7), ls(7), ls(2, 3, 4), false, null)),
                s("align-transposed", in -> a(in.nc(2, 3, 3), ls(3), ls(2, 3, 5), true, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_BILINEAR2D_BACKWARD,
                s("up", in -> a(in.t(2, 2, 5, 8), ls(5, 8), ls(2, 2, 3, 4), false, null, null)),
                s("align-transposed", in -> a(in.nc(1, 3, 7, 3), ls(7, 3), ls(1, 3, 4, 5), true, null, null)),
                s("scales-offset", in -> a(in.off(1, 2, 6, 4), ls(6, 4), ls(1, 2, 3, 3), false, 2.0, 1.5)),
                s("empty", in -> a(in.t(0, 2, 4, 4), ls(4, 4), ls(0, 2, 3, 3), false, null, null)),
                s("grad-mismatch", in -> a(in.t(2, 2, 5, 7), ls(5, 8), ls(2, 2, 3, 4), false, null, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_BICUBIC2D_BACKWARD,
                s("up", in -> a(in.t(1, 2, 6, 7), ls(6, 7), ls(1, 2, 3, 4), false, null, null)),
                s("align-down", in -> a(in.nc(2, 1, 3, 2), ls(3, 2), ls(2, 1, 5, 6), true, null, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_TRILINEAR3D_BACKWARD,
                s("up", in -> a(in.t(1, 2, 3, 4, 4), ls(3, 4, 4), ls(1, 2, 2, 3, 2), false, null, null, null)),
                s("align", in -> a(in.t(1, 1, 2, 3, 5), ls(2, 3, 5), ls(1, 1, 3, 2, 3), true, null, null, null))));
    }

    // (input, output_size or null, [align_corners,] scale_factors or null)
    private static void vecs(List<OpDb.Entry> t) {
        double[] two = {2.0}, half = {0.5};
        t.add(op(
                UpsampleOps.UPSAMPLE_NEAREST1D_VEC,
                s("size", in -> a(in.t(2, 3, 4), ls(7), null)),
                s("scale", in -> a(in.t(2, 3, 4), null, new double[] {1.75})),
                s("both", in -> a(in.t(2, 3, 4), ls(7), two))));
        t.add(op(
                UpsampleOps.UPSAMPLE_NEAREST2D_VEC,
                s("scale", in -> a(in.nc(1, 2, 3, 4), null, new double[] {2.0, 1.5})),
                s("neither", in -> a(in.t(1, 2, 3, 4), null, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_NEAREST3D_VEC,
                s("scale", in -> a(in.t(1, 1, 2, 3, 2), null, new double[] {2.0, 1.0, 1.5}))));
        t.add(op(UpsampleOps.UPSAMPLE_NEAREST_EXACT1D_VEC, s("scale", in -> a(in.t(2, 3, 4), null, half))));
        t.add(op(
                UpsampleOps.UPSAMPLE_NEAREST_EXACT2D_VEC,
                s("size", in -> a(in.t(1, 2, 3, 4), ls(5, 5), null)),
                s("scale-length", in -> a(in.t(1, 2, 3, 4), null, two))));
        t.add(op(UpsampleOps.UPSAMPLE_NEAREST_EXACT3D_VEC, s("size", in -> a(in.t(1, 1, 2, 3, 2), ls(3, 3, 3), null))));
        t.add(op(UpsampleOps.UPSAMPLE_LINEAR1D_VEC, s("scale", in -> a(in.t(2, 3, 4), null, true, two))));
        t.add(op(
                UpsampleOps.UPSAMPLE_BILINEAR2D_VEC,
                s("size", in -> a(in.t(2, 2, 3, 4), ls(5, 8), false, null)),
                s("scale", in -> a(in.nc(1, 2, 4, 3), null, false, new double[] {2.5, 1.5}))));
        t.add(op(UpsampleOps.UPSAMPLE_BICUBIC2D_VEC, s("size", in -> a(in.t(1, 2, 3, 4), ls(6, 5), true, null))));
        t.add(op(
                UpsampleOps.UPSAMPLE_TRILINEAR3D_VEC,
                s("scale", in -> a(in.t(1, 1, 2, 3, 2), null, false, new double[] {1.5, 2.0, 1.0}))));
    }

    // (self, factor)
    private static void pixelShuffles(List<OpDb.Entry> t) {
        t.add(op(
                PixelShuffleOps.PIXEL_SHUFFLE,
                s("batched", in -> a(in.t(2, 8, 3, 2), 2L)),
                s("unbatched-transposed", in -> a(in.nc(9, 2, 3), 3L)),
                s("extra-batch", in -> a(in.t(2, 1, 4, 2, 2), 2L)),
                s("channels-not-divisible", in -> a(in.t(1, 6, 2, 2), 2L)),
                s("rank-2", in -> a(in.t(4, 4), 2L)),
                s("zero-factor", in -> a(in.t(1, 4, 2, 2), 0L))));
        t.add(op(
                PixelShuffleOps.PIXEL_UNSHUFFLE,
                s("batched", in -> a(in.t(2, 2, 4, 6), 2L)),
                s("unbatched-expanded", in -> a(in.ex(1, 6, 3), 3L)),
                s("height-not-divisible", in -> a(in.t(1, 1, 3, 4), 2L)),
                s("width-not-divisible", in -> a(in.t(1, 1, 4, 3), 2L)),
                s("negative-factor", in -> a(in.t(1, 1, 4, 4), -1L))));
    }
}
