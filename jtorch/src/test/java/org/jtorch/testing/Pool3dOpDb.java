package org.jtorch.testing;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.AdaptiveMaxPoolOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.Pool3dOps;

/**
 * The {@link OpDb} entries of 3-d pooling ({@link Pool3dOps}) and adaptive max pooling ({@link AdaptiveMaxPoolOps}).
 * Values are checked against PyTorch in {@code Pool3dGoldenTest}; here the sweeps check meta against CPU, layouts,
 * gradients, forward AD and vmap.
 */
public final class Pool3dOpDb {
    private Pool3dOpDb() {}

    /** Every entry of the family. */
    public static List<OpDb.Entry> entries() {
        List<OpDb.Entry> t = new ArrayList<>();
        pool3d(t);
        adaptiveMax(t);
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

    /**
     * An int64 index tensor of {@code shape} whose values lie in a plane of {@code plane} elements (zeros on meta,
     * which never reads them).
     */
    private static Tensor idx(SampleInputs in, long plane, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, DType.INT64, Device.META);
        long n = 1;
        for (long v : shape) n *= v;
        long[] values = new long[(int) n];
        for (int i = 0; i < n; i++) values[i] = (i * 7L) % plane;
        return Torch.tensor(values).reshape(shape);
    }

    private static void pool3d(List<OpDb.Entry> t) {
        long[] one = ls(1), zero = ls(0);
        // (self, kernel_size, stride, padding, dilation, ceil_mode)
        t.add(op(
                Pool3dOps.MAX_POOL3D_WITH_INDICES,
                s("2x2x2", in -> a(in.t(2, 2, 4, 4, 5), ls(2), ls(), zero, one, false)),
                s(
                        "all-options",
                        in -> a(in.t(1, 2, 5, 6, 7), ls(3, 2, 2), ls(2, 1, 2), ls(1, 1, 0), ls(1, 2, 1), true)),
                s("unbatched-transposed", in -> a(in.nc(2, 5, 4, 4), ls(2), ls(1), zero, one, false)),
                s("expanded", in -> a(in.ex(2, 4, 4, 4), ls(2), ls(2), ls(1), one, false)),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4, 4), ls(2), ls(), zero, one, false)),
                s("empty-plane", in -> a(in.t(1, 2, 0, 4, 4), ls(2), ls(), zero, one, false)),
                s("pad-too-large", in -> a(in.t(1, 2, 6, 6, 6), ls(3), ls(), ls(2), one, false)),
                s("too-small", in -> a(in.t(1, 1, 2, 2, 2), ls(3), ls(), zero, one, false)),
                s("rank-3", in -> a(in.t(4, 4, 4), ls(2), ls(), zero, one, false)),
                s("kernel-size", in -> a(in.t(1, 1, 4, 4, 4), ls(2, 2), ls(1), zero, one, false))));
        // (grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices)
        t.add(op(
                Pool3dOps.MAX_POOL3D_WITH_INDICES_BACKWARD,
                s(
                        "2x2x2",
                        in -> a(
                                in.t(1, 2, 2, 2, 2),
                                in.t(1, 2, 4, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, 64, 1, 2, 2, 2, 2))),
                s(
                        "transposed",
                        in -> a(
                                in.nc(2, 2, 2, 2),
                                in.nc(2, 4, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, 64, 2, 2, 2, 2))),
                s(
                        "empty",
                        in -> a(
                                in.t(0, 2, 2, 2, 2),
                                in.t(0, 2, 4, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, 64, 0, 2, 2, 2, 2))),
                s(
                        "shape-mismatch",
                        in -> a(
                                in.t(1, 2, 3, 2, 2),
                                in.t(1, 2, 4, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, 64, 1, 2, 3, 2, 2)))));
        // (self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        t.add(op(
                Pool3dOps.AVG_POOL3D,
                s("2x2x2", in -> a(in.t(2, 2, 4, 4, 5), ls(2), ls(), zero, false, true, null)),
                s("pad-exclude-ceil", in -> a(in.t(1, 2, 5, 6, 7), ls(3), ls(2), ls(1), true, false, null)),
                s("divisor", in -> a(in.nc(2, 5, 4, 4), ls(2, 3, 2), ls(1, 2, 1), ls(1, 1, 0), false, true, 5L)),
                s("expanded", in -> a(in.ex(2, 4, 4, 4), ls(2), ls(2), ls(1), false, true, null)),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4, 4), ls(2), ls(), zero, false, true, null)),
                s("zero-divisor", in -> a(in.t(1, 2, 4, 4, 4), ls(2), ls(), zero, false, true, 0L)),
                s("pad-too-large", in -> a(in.t(1, 2, 6, 6, 6), ls(3), ls(), ls(2), false, true, null)),
                s("kernel-larger", in -> a(in.t(1, 1, 1, 4, 4), ls(2), ls(), zero, false, true, null)),
                s("rank-3", in -> a(in.t(4, 4, 4), ls(2), ls(), zero, false, true, null))));
        // (grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        t.add(op(
                Pool3dOps.AVG_POOL3D_BACKWARD,
                s("2x2x2", in -> a(in.t(2, 2, 2, 2, 2), in.t(2, 2, 4, 4, 5), ls(2), ls(), zero, false, true, null)),
                s(
                        "pad-exclude-ceil",
                        in -> a(in.nc(1, 2, 3, 4, 4), in.t(1, 2, 5, 6, 7), ls(3), ls(2), ls(1), true, false, null)),
                s("empty", in -> a(in.t(0, 2, 2, 2, 2), in.t(0, 2, 4, 4, 4), ls(2), ls(), zero, false, true, null)),
                s(
                        "grad-mismatch",
                        in -> a(in.t(2, 2, 3, 2, 2), in.t(2, 2, 4, 4, 5), ls(2), ls(), zero, false, true, null))));
        // (self, output_size)
        t.add(op(
                Pool3dOps.ADAPTIVE_AVG_POOL3D,
                s("down", in -> a(in.t(2, 2, 5, 7, 6), ls(2, 3, 4))),
                s("up-transposed", in -> a(in.nc(2, 3, 3, 2), ls(4, 5, 3))),
                s("expanded", in -> a(in.ex(2, 4, 4, 4), ls(1, 1, 1))),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4, 4), ls(2, 2, 2))),
                s("zero-output", in -> a(in.t(1, 2, 4, 4, 4), ls(0, 2, 2))),
                s("empty-plane", in -> a(in.t(1, 2, 0, 4, 4), ls(2, 2, 2))),
                s("rank-3", in -> a(in.t(4, 4, 4), ls(2, 2, 2))),
                s("bad-output-size", in -> a(in.t(1, 2, 4, 4, 4), ls(2, 2)))));
        // (grad_output, self)
        t.add(op(
                Pool3dOps.ADAPTIVE_AVG_POOL3D_BACKWARD,
                s("down", in -> a(in.t(2, 2, 2, 3, 4), in.t(2, 2, 5, 7, 6))),
                s("transposed", in -> a(in.nc(2, 4, 5, 3), in.nc(2, 3, 3, 2))),
                s("empty", in -> a(in.t(0, 2, 2, 2, 2), in.t(0, 2, 4, 4, 4))),
                s("rank-mismatch", in -> a(in.t(3, 2, 2), in.t(2, 2, 5, 7, 6)))));
    }

    private static void adaptiveMax(List<OpDb.Entry> t) {
        // (self, output_size)
        t.add(op(
                AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL2D,
                s("3x2", in -> a(in.t(2, 3, 7, 5), ls(3, 2))),
                s("up-transposed", in -> a(in.nc(2, 3, 3), ls(4, 5))),
                s("expanded", in -> a(in.ex(3, 4, 4), ls(1, 1))),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4), ls(2, 2))),
                s("empty-plane", in -> a(in.t(1, 2, 0, 4), ls(2, 2))),
                s("rank-2", in -> a(in.t(4, 4), ls(2, 2))),
                s("bad-output-size", in -> a(in.t(1, 2, 4, 4), ls(2, 2, 2)))));
        t.add(op(
                AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL3D,
                s("down", in -> a(in.t(2, 2, 5, 7, 6), ls(2, 3, 4))),
                s("up-transposed", in -> a(in.nc(2, 3, 3, 2), ls(4, 5, 3))),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4, 4), ls(2, 2, 2))),
                s("empty-plane", in -> a(in.t(1, 2, 0, 4, 4), ls(2, 2, 2))),
                s("rank-3", in -> a(in.t(4, 4, 4), ls(2, 2, 2)))));
        t.add(op(
                AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL1D,
                s("down", in -> a(in.t(2, 3, 9), ls(4))),
                s("up-transposed", in -> a(in.nc(3, 4), ls(7))),
                s("rank", in -> a(in.t(5), ls(2))),
                s("output-size", in -> a(in.t(2, 3, 9), ls(2, 2)))));
        // (grad_output, self, indices)
        t.add(op(
                AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL2D_BACKWARD,
                s("3x2", in -> a(in.t(2, 3, 3, 2), in.t(2, 3, 7, 5), idx(in, 35, 2, 3, 3, 2))),
                s("transposed", in -> a(in.nc(2, 2, 2), in.nc(2, 4, 4), idx(in, 16, 2, 2, 2))),
                s("empty", in -> a(in.t(0, 2, 2, 2), in.t(0, 2, 4, 4), idx(in, 16, 0, 2, 2, 2))),
                s("rank-mismatch", in -> a(in.t(3, 2), in.t(2, 3, 7, 5), idx(in, 35, 3, 2)))));
        t.add(op(
                AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL3D_BACKWARD,
                s("down", in -> a(in.t(2, 2, 2, 3, 4), in.t(2, 2, 5, 7, 6), idx(in, 210, 2, 2, 2, 3, 4))),
                s("empty", in -> a(in.t(0, 2, 2, 2, 2), in.t(0, 2, 4, 4, 4), idx(in, 64, 0, 2, 2, 2, 2))),
                s("indices-mismatch", in -> a(in.t(1, 2, 2, 2, 2), in.t(1, 2, 4, 4, 4), idx(in, 64, 1, 2, 2, 2, 1)))));
    }
}
