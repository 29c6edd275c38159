package org.jtorch.testing;

import static org.jtorch.DType.FLOAT32;
import static org.jtorch.DType.INT32;
import static org.jtorch.DType.INT64;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PutOps;
import org.jtorch.ops.ScatterOps;

/**
 * The {@link OpDb} entries of the indexing family ({@link IndexingOps}, {@link ScatterOps}), in the table's format.
 * Index tensors hold valid positions on the CPU (zeros on meta, whose shapes are all that matters there); out-of-range
 * positions are data, which only the kernels see, and are tested in {@code IndexingOpsTest} against PyTorch's messages.
 */
public final class IndexingOpDb {
    private IndexingOpDb() {}

    /**
     * Ops whose output shape depends on the values (the positions of non-zero elements): on the meta device they refuse
     * with {@link UnsupportedOperationException}, as PyTorch's meta tensors cannot run them either. For
     * {@code index.Tensor} and {@code index_put} this holds for the samples with masks (labels starting with "mask");
     * their integer samples run on meta.
     */
    public static final Set<String> DATA_DEPENDENT_SHAPES =
            Set.of("nonzero", "nonzero_numpy", "where", "masked_select", "index.Tensor", "index_put");

    /** Every entry of the family. */
    public static List<OpDb.Entry> entries() {
        List<OpDb.Entry> t = new ArrayList<>();
        gatherScatter(t);
        indexSelectAddCopyFill(t);
        advanced(t);
        masksAndTake(t);
        return List.copyOf(t);
    }

    // ---- helpers ------------------------------------------------------------------------------------------

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

    /** An index tensor of {@code dtype} holding {@code values} (row-major) with {@code shape}; zeros on meta. */
    private static Tensor idx(SampleInputs in, DType dtype, long[] values, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, dtype, Device.META);
        return Torch.tensor(values).to(dtype).view(shape);
    }

    private static Tensor idx(SampleInputs in, long[] values, long... shape) {
        return idx(in, INT64, values, shape);
    }

    /** A dtype other than the swept one, for the dtype-mismatch samples. */
    private static DType other(SampleInputs in) {
        return in.dtype() == INT64 ? FLOAT32 : INT64;
    }

    // ---- gather / scatter ----------------------------------------------------------------------------------

    /** (self, Long dim, index, src-or-value...) samples shared by the scatter ops, followed by {@code extra}. */
    private static OpDb.Sample[] scatterSamples(boolean valueForm, Object... extra) {
        List<OpDb.Sample> list = new ArrayList<>(List.of(
                s(
                        "dim0-duplicates",
                        in -> cat(
                                a(in.t(3, 4), 0L, idx(in, ls(0, 2, 1, 2, 2, 0, 0, 1), 2, 4), src(in, valueForm, 2, 4)),
                                extra)),
                s(
                        "dim1-smaller",
                        in -> cat(a(in.t(3, 4), -1L, idx(in, ls(3, 3, 0, 1), 2, 2), src(in, valueForm, 2, 3)), extra)),
                s("0-d", in -> cat(a(in.t(), 0L, idx(in, ls(0)), src(in, valueForm)), extra)),
                s("empty-index", in -> cat(a(in.t(2, 3), 1L, idx(in, ls(), 2, 0), src(in, valueForm, 2, 0)), extra)),
                s(
                        "transposed",
                        in -> cat(
                                a(in.nc(3, 4), 1L, idx(in, ls(1, 1, 0, 2, 3, 3), 3, 2), valueForm ? 2L : in.nc(3, 4)),
                                extra)),
                s(
                        "offset",
                        in -> cat(a(in.off(2, 3), 0L, idx(in, ls(1, 0, 1), 1, 3), src(in, valueForm, 1, 3)), extra)),
                s("index-ndim", in -> cat(a(in.t(3, 4), 0L, idx(in, ls(0), 1), src(in, valueForm, 1)), extra)),
                s(
                        "index-too-big",
                        in -> cat(a(in.t(3, 4), 0L, idx(in, new long[5], 1, 5), src(in, valueForm, 1, 5)), extra)),
                s(
                        "index-int32",
                        in -> cat(a(in.t(3, 4), 0L, idx(in, INT32, ls(0), 1, 1), src(in, valueForm, 1, 1)), extra)),
                s(
                        "dim-out-of-range",
                        in -> cat(a(in.t(3, 4), 2L, idx(in, ls(0), 1, 1), src(in, valueForm, 1, 1)), extra))));
        if (!valueForm) {
            list.add(s("src-dtype", in -> cat(a(in.t(3, 4), 0L, idx(in, ls(0), 1, 1), in.t(other(in), 1, 1)), extra)));
            list.add(s("src-small", in -> cat(a(in.t(3, 4), 0L, idx(in, ls(0, 0), 1, 2), in.t(1, 1)), extra)));
            list.add(s(
                    "expanded-src",
                    in -> cat(a(in.t(3, 4), 1L, idx(in, ls(0, 1, 2, 3, 3, 2, 1, 0), 2, 4), in.ex(2, 4)), extra)));
        }
        return list.toArray(OpDb.Sample[]::new);
    }

    private static Object src(SampleInputs in, boolean valueForm, long... shape) {
        return valueForm ? 2L : in.t(shape);
    }

    private static Object[] cat(Object[] first, Object[] rest) {
        Object[] r = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, r, first.length, rest.length);
        return r;
    }

    private static void gatherScatter(List<OpDb.Entry> t) {
        // (self, Long dim, index, Boolean sparse_grad)
        t.add(op(
                ScatterOps.GATHER,
                s("dim1", in -> a(in.t(2, 3), 1L, idx(in, ls(2, 1, 0, 0, 2, 2), 2, 3), false)),
                s("dim0-smaller", in -> a(in.t(3, 4), 0L, idx(in, ls(2, 0, 1), 1, 3), false)),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), false)),
                s("0-d-1d-index", in -> a(in.t(), 0L, idx(in, ls(0, 0), 2), false)),
                s("empty-index", in -> a(in.t(2, 3), 1L, idx(in, ls(), 2, 0), false)),
                s("empty-self", in -> a(in.t(0, 3), 1L, idx(in, ls(), 0, 2), false)),
                s("transposed", in -> a(in.nc(3, 4), 1L, idx(in, ls(3, 0, 1, 1, 2, 3), 3, 2), false)),
                s("expanded", in -> a(in.ex(3, 4), 0L, idx(in, ls(2, 1, 0, 2), 1, 4), false)),
                s("offset", in -> a(in.off(2, 3), -1L, idx(in, ls(1, 2), 2, 1), false)),
                s("index-int32", in -> a(in.t(2, 3), 1L, idx(in, INT32, ls(0), 1, 1), false)),
                s("index-ndim", in -> a(in.t(2, 3), 1L, idx(in, ls(0), 1), false)),
                s("index-too-big", in -> a(in.t(2, 3), 1L, idx(in, new long[4], 4, 1), false)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 2L, idx(in, ls(0), 1, 1), false))));
        // (self, Long dim, index, src)
        t.add(op(ScatterOps.SCATTER, scatterSamples(false)));
        t.add(op(ScatterOps.SCATTER_ADD, scatterSamples(false)));
        // (self, Long dim, index, value)
        t.add(op(ScatterOps.SCATTER_VALUE, scatterSamples(true)));
        // (self, Long dim, index, src, String reduce, Boolean include_self)
        List<OpDb.Sample> reduce = new ArrayList<>();
        for (String r : List.of("sum", "prod", "mean", "amax", "amin")) {
            reduce.add(s(
                    r + "-self",
                    in -> a(in.t(3, 4), 0L, idx(in, ls(0, 2, 1, 2, 2, 0, 0, 1), 2, 4), in.t(2, 4), r, true)));
            reduce.add(s(
                    r + "-noself",
                    in -> a(in.nc(3, 4), 1L, idx(in, ls(0, 0, 3, 1, 1, 1), 3, 2), in.nc(3, 4), r, false)));
        }
        reduce.add(s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), in.t(), "sum", true)));
        reduce.add(s("empty-index", in -> a(in.t(2, 3), 1L, idx(in, ls(), 2, 0), in.t(2, 0), "mean", false)));
        reduce.add(s("bad-reduce", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1, 1), in.t(1, 1), "max", true)));
        reduce.add(s("src-dtype", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1, 1), in.t(other(in), 1, 1), "sum", true)));
        t.add(op(ScatterOps.SCATTER_REDUCE, reduce.toArray(OpDb.Sample[]::new)));
        // (grad): a copy, the src gradient of scatter_reduce("prod") that refuses a second backward
        t.add(op(
                ScatterOps.SCATTER_REDUCE_PROD_SRC_GRAD,
                s("2x3", in -> a(in.t(2, 3))),
                s("0-d", in -> a(in.t())),
                s("empty", in -> a(in.t(0, 3))),
                s("transposed", in -> a(in.nc(3, 4))),
                s("expanded", in -> a(in.ex(3, 4)))));
    }

    // ---- index_select / index_add / index_copy / index_fill ----------------------------------------------

    private static void indexSelectAddCopyFill(List<OpDb.Entry> t) {
        // (self, Long dim, index)
        t.add(op(
                ScatterOps.INDEX_SELECT,
                s("dim0", in -> a(in.t(3, 4), 0L, idx(in, ls(2, 0, 2), 3))),
                s("dim-neg", in -> a(in.t(2, 3, 4), -2L, idx(in, ls(1), 1))),
                s("int32", in -> a(in.t(3, 4), 1L, idx(in, INT32, ls(3, 0), 2))),
                s("0-d-index", in -> a(in.t(3, 4), 0L, idx(in, ls(1)))),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0), 1))),
                s("empty", in -> a(in.t(3, 4), 1L, idx(in, ls(), 0))),
                s("empty-self", in -> a(in.t(0, 4), 1L, idx(in, ls(3), 1))),
                s("transposed", in -> a(in.nc(3, 4), 1L, idx(in, ls(1, 1, 0), 3))),
                s("expanded", in -> a(in.ex(3, 4), 0L, idx(in, ls(2, 0), 2))),
                s("offset", in -> a(in.off(2, 3), 1L, idx(in, ls(2), 1))),
                s("2-d-index", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1, 1))),
                s("float-index", in -> a(in.t(3, 4), 0L, in.t(FLOAT32, 1))),
                s("0-d-two-indices", in -> a(in.t(), 0L, idx(in, ls(0, 0), 2)))));
        // (self, Long dim, index, source, alpha)
        t.add(op(
                ScatterOps.INDEX_ADD,
                s("dim0-duplicates", in -> a(in.t(3, 4), 0L, idx(in, ls(2, 0, 2), 3), in.t(3, 4), 1L)),
                s("dim1-alpha", in -> a(in.t(2, 3), 1L, idx(in, ls(1, 1), 2), in.t(2, 2), 2L)),
                s("broadcast-slice", in -> a(in.t(3, 4), 0L, idx(in, ls(1, 2), 2), in.t(2, 1), 1L)),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), in.t(), 1L)),
                s("1-d", in -> a(in.t(4), 0L, idx(in, ls(3, 3, 0), 3), in.t(3), 1L)),
                s("int32", in -> a(in.t(3, 4), 0L, idx(in, INT32, ls(1), 1), in.t(1, 4), 1L)),
                s("empty", in -> a(in.t(3, 4), 0L, idx(in, ls(), 0), in.t(0, 4), 1L)),
                s("transposed", in -> a(in.nc(3, 4), 1L, idx(in, ls(0, 3, 0), 3), in.nc(3, 3), 1L)),
                s("expanded-source", in -> a(in.t(3, 4), 1L, idx(in, ls(0, 2), 2), in.ex(3, 2), 1L)),
                s("source-dtype", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), in.t(other(in), 1, 4), 1L)),
                s("count", in -> a(in.t(3, 4), 0L, idx(in, ls(0, 1), 2), in.t(1, 4), 1L)),
                s("slice-shape", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), in.t(1, 3), 1L)),
                s("2-d-index", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1, 1), in.t(1, 4), 1L))));
        // (self, Long dim, index, source)
        t.add(op(
                ScatterOps.INDEX_COPY,
                s("dim0", in -> a(in.t(3, 4), 0L, idx(in, ls(2, 0), 2), in.t(2, 4))),
                s("dim1", in -> a(in.t(2, 3, 4), 1L, idx(in, ls(1), 1), in.t(2, 1, 4))),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), in.t())),
                s("scalar-source", in -> a(in.t(3), 0L, idx(in, ls(1), 1), in.t())),
                s("empty", in -> a(in.t(3, 4), 0L, idx(in, ls(), 0), in.t(0, 4))),
                s("transposed", in -> a(in.nc(3, 4), 1L, idx(in, ls(3, 1, 0), 3), in.nc(3, 3))),
                s("offset", in -> a(in.off(2, 3), 1L, idx(in, ls(0), 1), in.off(2, 1))),
                s("int32", in -> a(in.t(3, 4), 0L, idx(in, INT32, ls(0), 1), in.t(1, 4))),
                s("source-dtype", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), in.t(other(in), 1, 4))),
                s("slice-shape", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), in.t(1, 3))),
                s("ndim", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), in.t(4))),
                s("count", in -> a(in.t(3, 4), 0L, idx(in, ls(0, 1), 2), in.t(1, 4)))));
        // (self, Long dim, index, value)
        t.add(op(
                ScatterOps.INDEX_FILL,
                s("dim1", in -> a(in.t(3, 4), 1L, idx(in, ls(1, -1), 2), 2L)),
                s("float-value", in -> a(in.t(3, 4), 0L, idx(in, ls(2), 1), 1.5)),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), 1L)),
                s("empty", in -> a(in.t(3, 4), 0L, idx(in, ls(), 0), 1L)),
                s("transposed", in -> a(in.nc(3, 4), 0L, idx(in, ls(0, 2), 2), 1L)),
                s("expanded", in -> a(in.ex(3, 4), 1L, idx(in, ls(3), 1), 1L)),
                s("int32", in -> a(in.t(3, 4), 0L, idx(in, INT32, ls(0), 1), 1L)),
                s("2-d-index", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1, 1), 1L)),
                s("overflow", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), 1e300))));
        // (self, Long dim, index, Tensor value)
        t.add(op(
                ScatterOps.INDEX_FILL_TENSOR,
                s("same-dtype", in -> a(in.t(3, 4), 1L, idx(in, ls(0, 3), 2), in.t())),
                s("other-dtype", in -> a(in.t(3, 4), 0L, idx(in, ls(1), 1), in.value(INT64, 1))),
                s("transposed", in -> a(in.nc(3, 4), 1L, idx(in, ls(2), 1), in.t())),
                s("1-d-value", in -> a(in.t(3, 4), 0L, idx(in, ls(0), 1), in.t(1)))));
    }

    // ---- advanced indexing -----------------------------------------------------------------------------------

    private static Tensor[] ts(Tensor... t) {
        return t;
    }

    private static void advanced(List<OpDb.Entry> t) {
        t.add(op(
                IndexingOps.ALIAS,
                s("2x3", in -> a(in.t(2, 3))),
                s("0-d", in -> a(in.t())),
                s("empty", in -> a(in.t(0, 3))),
                s("transposed", in -> a(in.nc(3, 4))),
                s("expanded", in -> a(in.ex(3, 4))),
                s("offset", in -> a(in.off(2, 3)))));
        // (self, long[] dims, Tensor[] indices)
        t.add(op(
                IndexingOps.INDEX_INTEGER,
                s("one", in -> a(in.t(3, 4), ls(0), ts(idx(in, ls(2, 0, -1), 3)))),
                s(
                        "adjacent-broadcast",
                        in -> a(in.t(2, 3, 4), ls(1, 2), ts(idx(in, ls(0, 2), 2, 1), idx(in, ls(3, 1, 0), 3)))),
                s("separated", in -> a(in.t(2, 3, 4), ls(0, 2), ts(idx(in, ls(1, 0), 2), idx(in, ls(3, 2), 2)))),
                s("int32", in -> a(in.t(3, 4), ls(1), ts(idx(in, INT32, ls(3, 0), 2)))),
                s("empty-index", in -> a(in.t(3, 4), ls(0), ts(idx(in, ls(), 0)))),
                s("empty-dim", in -> a(in.t(0, 4), ls(1), ts(idx(in, ls(1), 1)))),
                s("size-0-dim", in -> a(in.t(0, 4), ls(0), ts(idx(in, ls(0), 1)))),
                s("none", in -> a(in.t(2, 3), ls(), ts())),
                s("transposed", in -> a(in.nc(3, 4), ls(0, 1), ts(idx(in, ls(2, 0), 2), idx(in, ls(3, 1), 2)))),
                s("expanded", in -> a(in.ex(3, 4), ls(1), ts(idx(in, ls(0, 0, 3), 3)))),
                s("offset", in -> a(in.off(2, 3), ls(0), ts(idx(in, ls(1), 1)))),
                s("bad-broadcast", in -> a(in.t(3, 4), ls(0, 1), ts(idx(in, ls(0, 1), 2), idx(in, ls(0, 1, 2), 3)))),
                s("float-index", in -> a(in.t(3, 4), ls(0), ts(in.t(FLOAT32, 2)))),
                s("bad-dims", in -> a(in.t(3, 4), ls(1, 0), ts(idx(in, ls(0), 1), idx(in, ls(0), 1))))));
        // (self, long[] dims, Tensor[] indices, values, Boolean accumulate)
        t.add(op(
                IndexingOps.INDEX_PUT_INTEGER,
                s("assign", in -> a(in.t(3, 4), ls(0), ts(idx(in, ls(2, 0), 2)), in.t(2, 4), false)),
                s(
                        "accumulate-duplicates",
                        in -> a(
                                in.t(3, 4),
                                ls(0, 1),
                                ts(idx(in, ls(1, 1, 1), 3), idx(in, ls(2, 2, 0), 3)),
                                in.t(3),
                                true)),
                s(
                        "broadcast-value",
                        in -> a(
                                in.t(2, 3, 4),
                                ls(0, 2),
                                ts(idx(in, ls(1, 0), 2), idx(in, ls(3, 2), 2)),
                                in.t(),
                                false)),
                s("transposed", in -> a(in.nc(3, 4), ls(1), ts(idx(in, ls(0, 3), 2)), in.nc(3, 2), true)),
                s("empty", in -> a(in.t(3, 4), ls(0), ts(idx(in, ls(), 0)), in.t(0, 4), false)),
                s("value-shape", in -> a(in.t(3, 4), ls(0), ts(idx(in, ls(0, 1), 2)), in.t(3), false)),
                s("value-dtype", in -> a(in.t(3, 4), ls(0), ts(idx(in, ls(0), 1)), in.t(other(in), 1, 4), false))));
        // (self, Tensor?[] indices)
        t.add(op(
                IndexingOps.INDEX,
                s("none-then-index", in -> a(in.t(2, 3, 4), ts(null, idx(in, ls(2, 0), 2)))),
                s("separated", in -> a(in.t(2, 3, 4), ts(idx(in, ls(1), 1), null, idx(in, ls(0, 3), 2)))),
                s("transposed", in -> a(in.nc(3, 4), ts(idx(in, ls(1, 2), 2)))),
                s("too-many", in -> a(in.t(3), ts(idx(in, ls(0), 1), idx(in, ls(0), 1)))),
                s("float-index", in -> a(in.t(3), ts(in.t(FLOAT32, 1)))),
                s("mask", in -> a(in.t(2, 3), ts(in.mask(2, 3)))),
                s("mask-partial", in -> a(in.nc(3, 4), ts(in.mask(3)))),
                s("mask-shape", in -> a(in.t(2, 3), ts(in.mask(3))))));
        // (self, Tensor?[] indices, values, Boolean accumulate)
        t.add(op(
                IndexingOps.INDEX_PUT,
                s("assign", in -> a(in.t(3, 4), ts(idx(in, ls(2, 0), 2)), in.t(2, 4), false)),
                s("accumulate", in -> a(in.nc(3, 4), ts(null, idx(in, ls(1, 1), 2)), in.t(3, 2), true)),
                s("value-dtype", in -> a(in.t(3, 4), ts(idx(in, ls(0), 1)), in.t(other(in), 4), false)),
                s("mask-fill", in -> a(in.t(3, 4), ts(in.mask(3, 4)), in.t(), false)),
                s("mask-values", in -> a(in.t(3, 4), ts(in.mask(3)), in.t(4), true))));
    }

    // ---- nonzero, masks, take -------------------------------------------------------------------------------

    private static void masksAndTake(List<OpDb.Entry> t) {
        // (self, long[] dims)
        t.add(op(
                IndexingOps.COUNT_NONZERO,
                s("all", in -> a(in.t(2, 3), ls())),
                s("dim", in -> a(in.t(2, 3, 4), ls(1))),
                s("0-d", in -> a(in.t(), ls())),
                s("empty", in -> a(in.t(0, 3), ls(0))),
                s("transposed", in -> a(in.nc(3, 4), ls(0)))));
        // (self, Long size, Long fill_value)
        t.add(op(
                IndexingOps.NONZERO_STATIC,
                s("padded", in -> a(in.t(2, 3), 8L, -1L)),
                s("truncated", in -> a(in.t(2, 3), 1L, 0L)),
                s("0-d", in -> a(in.t(), 2L, -1L)),
                s("empty", in -> a(in.t(0, 3), 2L, 5L)),
                s("transposed", in -> a(in.nc(3, 4), 12L, -1L)),
                s("negative-size", in -> a(in.t(2, 3), -1L, -1L))));
        for (OpDef op : List.of(IndexingOps.NONZERO, IndexingOps.NONZERO_NUMPY, IndexingOps.WHERE)) {
            t.add(op(
                    op,
                    s("2x3", in -> a(in.t(2, 3))),
                    s("0-d", in -> a(in.t())),
                    s("empty", in -> a(in.t(0, 3))),
                    s("transposed", in -> a(in.nc(3, 4))),
                    s("expanded", in -> a(in.ex(3, 4)))));
        }
        // (self, mask)
        t.add(op(
                IndexingOps.MASKED_SELECT,
                s("same", in -> a(in.t(2, 3), in.mask(2, 3))),
                s("broadcast", in -> a(in.t(3), in.mask(2, 3))),
                s("0-d", in -> a(in.t(), in.mask())),
                s("transposed", in -> a(in.nc(3, 4), in.mask(4))),
                s("mask-dtype", in -> a(in.t(3), in.t(3)))));
        // (self, mask, source)
        t.add(op(
                IndexingOps.MASKED_SCATTER,
                s("same", in -> a(in.t(2, 3), in.mask(2, 3), in.t(6))),
                s("broadcast", in -> a(in.t(3), in.mask(2, 3), in.t(2, 3))),
                s("0-d", in -> a(in.t(), in.mask(), in.t(1))),
                s("transposed", in -> a(in.nc(3, 4), in.mask(4), in.nc(3, 4))),
                s("empty", in -> a(in.t(0, 3), in.mask(3), in.t(0))),
                s("source-dtype", in -> a(in.t(3), in.mask(3), in.t(other(in), 3))),
                s("mask-dtype", in -> a(in.t(3), in.t(other(in), 3), in.t(3)))));
        // (self, index)
        t.add(op(
                IndexingOps.TAKE,
                s("2-d-index", in -> a(in.t(2, 3), idx(in, ls(0, -1, 5, 2), 2, 2))),
                s("0-d-index", in -> a(in.t(2, 3), idx(in, ls(4)))),
                s("0-d", in -> a(in.t(), idx(in, ls(0, 0), 2))),
                s("empty", in -> a(in.t(0), idx(in, ls(), 0))),
                s("empty-self", in -> a(in.t(0), idx(in, ls(0), 1))),
                s("transposed", in -> a(in.nc(3, 4), idx(in, ls(1, 4, 11), 3))),
                s("expanded", in -> a(in.ex(3, 4), idx(in, ls(0, 5, 10), 3))),
                s("int32", in -> a(in.t(3), idx(in, INT32, ls(0), 1)))));
        // (self, index, source, accumulate): assign samples keep positions distinct, where the gradient is defined
        t.add(op(
                PutOps.PUT,
                s("assign", in -> a(in.t(2, 3), idx(in, ls(4, -6, 2), 3), in.t(3), false)),
                s("accumulate-duplicates", in -> a(in.t(2, 3), idx(in, ls(1, 1, 5, 1), 2, 2), in.t(4), true)),
                s("transposed", in -> a(in.nc(3, 4), idx(in, ls(1, 11), 2), in.nc(1, 2), false)),
                s("0-d", in -> a(in.t(), idx(in, ls(0)), in.t(), true)),
                s("empty", in -> a(in.t(0), idx(in, ls(), 0), in.t(0), false)),
                s("int32", in -> a(in.t(3), idx(in, INT32, ls(0), 1), in.t(1), false)),
                s("source-dtype", in -> a(in.t(3), idx(in, ls(0), 1), in.t(other(in), 1), false))));
        // (self, indices, Long dim or null)
        t.add(op(
                IndexingOps.TAKE_ALONG_DIM,
                s("flat", in -> a(in.t(2, 3), idx(in, ls(5, 0), 2), null)),
                s("dim1", in -> a(in.t(2, 3), idx(in, ls(2, 0), 2, 1), 1L)),
                s("broadcast", in -> a(in.t(1, 3, 4), idx(in, ls(0, 3), 2, 1, 1), -1L)),
                s("transposed", in -> a(in.nc(3, 4), idx(in, ls(1, 0, 2), 3, 1), 1L)),
                s("flat-transposed", in -> a(in.nc(3, 4), idx(in, ls(0), 1), null)),
                s("ndim", in -> a(in.t(2, 3), idx(in, ls(0), 1), 1L)),
                s("int32", in -> a(in.t(2, 3), idx(in, INT32, ls(0), 1, 1), 1L))));
    }

    /**
     * Whether this sample's output shape depends on values, so that meta must refuse it (see
     * {@link #DATA_DEPENDENT_SHAPES}).
     */
    public static boolean refusesMetaForData(OpDb.Entry e, OpDb.Sample s) {
        String key = e.name();
        if (!DATA_DEPENDENT_SHAPES.contains(key)) return false;
        return !(key.equals("index.Tensor") || key.equals("index_put"))
                || s.label().startsWith("mask");
    }
}
