package org.jtorch.testing;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.IndexReduceOps;
import org.jtorch.ops.IsinOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.UnfoldOps;

/**
 * The {@link OpDb} entries of {@link UnfoldOps}, {@link IsinOps} and {@link IndexReduceOps}: windows that overlap or
 * skip, 0-d and strided inputs, duplicate and negative indices, every reduction, and the arguments each refuses. Values
 * are checked against PyTorch in {@code IndexReduceGoldenTest}.
 */
final class IndexReduceOpDb {
    private IndexReduceOpDb() {}

    private static OpDb.Sample s(String label, OpDb.Args args) {
        return new OpDb.Sample(label, args, true);
    }

    private static Object[] a(Object... args) {
        return args;
    }

    private static OpDb.Entry entry(OpDef op, OpDb.Sample... samples) {
        return new OpDb.Entry(op, OpDb.DTYPES, List.of(samples));
    }

    /** An int64 index holding {@code values}; zeros on meta, where no value is read. */
    private static Tensor idx(SampleInputs in, long[] values, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, DType.INT64, Device.META);
        return Torch.tensor(values).view(shape);
    }

    private static long[] ls(long... v) {
        return v;
    }

    static List<OpDb.Entry> entries() {
        return List.of(
                entry(
                        UnfoldOps.UNFOLD,
                        s("overlapping", in -> a(in.t(2, 7), 1L, 3L, 2L)),
                        s("skipping", in -> a(in.t(9), 0L, 2L, 3L)),
                        s("transposed", in -> a(in.nc(4, 3), 0L, 2L, 1L)),
                        s("0-d", in -> a(in.t(), 0L, 1L, 1L)),
                        s("zero-size", in -> a(in.t(2, 3), -1L, 0L, 1L)),
                        s("too-large", in -> a(in.t(2, 3), 1L, 4L, 1L)),
                        s("zero-step", in -> a(in.t(2, 3), 1L, 2L, 0L))),
                entry(
                        IsinOps.ISIN,
                        s("matrix", in -> a(in.t(3, 4), in.t(5), false, false)),
                        s("invert", in -> a(in.nc(3, 2), in.t(2, 2), false, true)),
                        s("empty-test", in -> a(in.t(3), in.t(0), false, false))),
                entry(
                        IsinOps.ISIN_TENSOR_SCALAR,
                        s("scalar", in -> a(in.t(3, 2), 1L, false, false)),
                        s("invert", in -> a(in.t(4), 0L, false, true))),
                entry(
                        IsinOps.ISIN_SCALAR_TENSOR,
                        s("scalar", in -> a(1L, in.t(3, 2), false, false)),
                        s("invert-float", in -> a(0.5, in.t(4), false, true))),
                entry(
                        IndexReduceOps.INDEX_REDUCE,
                        s("prod", in -> a(in.t(4, 3), 0L, idx(in, ls(0, 2, 0), 3), in.t(3, 3), "prod", true)),
                        s("mean-exclude", in -> a(in.t(4, 3), 0L, idx(in, ls(1, 1, 3), 3), in.t(3, 3), "mean", false)),
                        s("amax-dim1", in -> a(in.nc(2, 4), 1L, idx(in, ls(3, 0), 2), in.t(2, 2), "amax", true)),
                        s("amin", in -> a(in.t(3, 2), 0L, idx(in, ls(2, 2), 2), in.t(2, 2), "amin", false)),
                        s("bad-reduce", in -> a(in.t(3, 2), 0L, idx(in, ls(0), 1), in.t(1, 2), "sum", true))),
                entry(
                        IndexReduceOps.SCATTER_REDUCE_LEGACY,
                        s("add", in -> a(in.t(3, 3), 0L, idx(in, ls(0, 1, 0, 0, 2, 2), 2, 3), in.t(2, 3), "add")),
                        s("multiply", in -> a(in.t(2, 3), 1L, idx(in, ls(0, 0, 1, 2), 2, 2), in.t(2, 2), "multiply")),
                        s("bad-reduce", in -> a(in.t(2, 3), 0L, idx(in, ls(0), 1, 1), in.t(1, 1), "mean"))),
                entry(
                        IndexReduceOps.SCATTER_VALUE_REDUCE,
                        s("add", in -> a(in.t(2, 3), 0L, idx(in, ls(0, 1, 0, 0), 2, 2), 2L, "add")),
                        s("multiply", in -> a(in.t(2, 3), 1L, idx(in, ls(2, 2), 2, 1), 3L, "multiply"))));
    }
}
