package org.jtorch.testing;

import static org.jtorch.DType.BFLOAT16;
import static org.jtorch.DType.BOOL;
import static org.jtorch.DType.COMPLEX128;
import static org.jtorch.DType.COMPLEX64;
import static org.jtorch.DType.FLOAT16;
import static org.jtorch.DType.FLOAT32;
import static org.jtorch.DType.FLOAT64;
import static org.jtorch.DType.FLOAT8_E4M3FN;
import static org.jtorch.DType.INT16;
import static org.jtorch.DType.INT32;
import static org.jtorch.DType.INT64;
import static org.jtorch.DType.INT8;
import static org.jtorch.DType.UINT64;
import static org.jtorch.DType.UINT8;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.ActivationOps;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.ArrangeOps.PadMode;
import org.jtorch.ops.AttentionOps;
import org.jtorch.ops.BackwardOps;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.ConvOps;
import org.jtorch.ops.CopyOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.DeviceCopyOps;
import org.jtorch.ops.DistanceOps;
import org.jtorch.ops.DtypeViewOps;
import org.jtorch.ops.EinsumOps;
import org.jtorch.ops.FeatureMetaOps;
import org.jtorch.ops.GridOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.LinalgOps;
import org.jtorch.ops.LinalgSolveOps;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.NormOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PadBackwardOps;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.PoolOps;
import org.jtorch.ops.RandomOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.ops.SearchOps;
import org.jtorch.ops.ShapeOps;
import org.jtorch.ops.SortOps;
import org.jtorch.ops.StatisticsOps;
import org.jtorch.ops.TernaryOps;
import org.jtorch.ops.ViewCopyOps;
import org.jtorch.ops.ViewScatterOps;

/**
 * The op table of every op outside the pointwise family (which {@code PointwiseOpTableTest} sweeps from
 * {@link PointwiseOps} itself): per op, the dtypes to sweep and samples that build the op's arguments in the order its
 * meta rule reads them. Samples cover the usual case, broadcasting where the op broadcasts, non-contiguous inputs
 * (transposed, expanded, at a storage offset), empty tensors, 0-d tensors where legal, and inputs the op must refuse
 * (identically on every device).
 *
 * <p>In the samples, {@code in.t(2, 3)} is a contiguous tensor of the swept dtype, {@code in.nc} a transposed one,
 * {@code in.ex} one expanded along dim 0, {@code in.off} one at a storage offset, {@code in.mask} a bool one and
 * {@code in.unit} one with values in [0, 1] (see {@link SampleInputs}); {@code a(...)} lists the op's arguments. The
 * indexing family's entries are in {@link IndexingOpDb}, the list ops' in {@link ForeachOpDb}. Random ops are swept
 * like the others, but the sweep compares none of their values.
 */
public final class OpDb {
    private OpDb() {}

    /** Dtypes every entry is swept over; an op refuses some of them, and must refuse them on meta too. */
    public static final List<DType> DTYPES = List.of(
            BOOL,
            UINT8,
            UINT64,
            INT8,
            INT32,
            INT64,
            FLOAT16,
            BFLOAT16,
            FLOAT32,
            FLOAT64,
            FLOAT8_E4M3FN,
            COMPLEX64,
            COMPLEX128);

    /** Builds one sample's arguments, in the op's argument order, from inputs of one dtype and device. */
    @FunctionalInterface
    public interface Args {
        Object[] build(SampleInputs in);
    }

    /**
     * A named sample. {@code layoutFree}: the values do not depend on the inputs' memory layout, so a non-contiguous
     * sample must give what its contiguous copy gives (false only for ops that read storage).
     */
    public record Sample(String label, Args args, boolean layoutFree) {}

    /** One op, the dtypes it is swept over, and its samples. */
    public record Entry(OpDef op, List<DType> dtypes, List<Sample> samples) {
        public String name() {
            return key(op);
        }
    }

    /** The op's name with its overload ({@code clamp.Tensor}), unique across the table. */
    public static String key(OpDef op) {
        return op.schema().operatorName();
    }

    /** Every entry. */
    public static final List<Entry> ALL = table();

    // ---- helpers that keep the table short ------------------------------------------------------------------

    private static Entry op(OpDef op, Sample[]... sampleGroups) {
        return new Entry(op, DTYPES, List.of(group(sampleGroups)));
    }

    private static Sample[] group(Sample[]... groups) {
        List<Sample> all = new ArrayList<>();
        for (Sample[] g : groups) all.addAll(Arrays.asList(g));
        return all.toArray(Sample[]::new);
    }

    private static Sample[] s(String label, Args args) {
        return new Sample[] {new Sample(label, args, true)};
    }

    /** A sample whose values legitimately depend on the layout (the op reads storage): shapes and errors only. */
    private static Sample[] shapesOnly(String label, Args args) {
        return new Sample[] {new Sample(label, args, false)};
    }

    private static Object[] a(Object... args) {
        return args;
    }

    private static long[] ls(long... values) {
        return values;
    }

    private static Tensor[] ts(Tensor... tensors) {
        return tensors;
    }

    private static Scalar sc(long v) {
        return Scalar.of(v);
    }

    private static Scalar sc(double v) {
        return Scalar.of(v);
    }

    /** {@code first}, then {@code rest}. */
    private static Object[] cat(Object[] first, Object[] rest) {
        Object[] r = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, r, first.length, rest.length);
        return r;
    }

    /** One tensor in the common shapes and layouts, followed by {@code extra}. */
    private static Sample[] unary(Object... extra) {
        return group(
                s("2x3", in -> cat(a(in.t(2, 3)), extra)),
                s("0-d", in -> cat(a(in.t()), extra)),
                s("empty", in -> cat(a(in.t(0, 3)), extra)),
                s("transposed", in -> cat(a(in.nc(3, 4)), extra)),
                s("expanded", in -> cat(a(in.ex(3, 4)), extra)),
                s("offset", in -> cat(a(in.off(2, 3)), extra)));
    }

    /** Matrix inputs: {@link #unary} plus a batch and a 1-d tensor. */
    private static Sample[] matrix(Object... extra) {
        return group(
                unary(extra), s("batched", in -> cat(a(in.t(2, 3, 4)), extra)), s("1-d", in -> cat(a(in.t(3)), extra)));
    }

    /** Two broadcasting operands: equal shapes, broadcast, a 0-d operand, empty, strided, incompatible. */
    private static Sample[] binary() {
        return group(
                s("same", in -> a(in.t(2, 3), in.t(2, 3))),
                s("broadcast", in -> a(in.t(2, 1, 3), in.t(4, 3))),
                s("0-d", in -> a(in.t(2, 3), in.t())),
                s("empty", in -> a(in.t(0, 3), in.t(1, 3))),
                s("transposed", in -> a(in.nc(3, 4), in.nc(3, 4))),
                s("expanded", in -> a(in.ex(3, 4), in.off(3, 4))),
                s("mismatch", in -> a(in.t(2, 3), in.t(4, 3))));
    }

    /** Three broadcasting operands, followed by {@code extra}. */
    private static Sample[] ternary(Object... extra) {
        return group(
                s("same", in -> cat(a(in.t(2, 3), in.t(2, 3), in.t(2, 3)), extra)),
                s("broadcast", in -> cat(a(in.t(3, 1), in.t(1, 4), in.t(4)), extra)),
                s("0-d", in -> cat(a(in.t(), in.t(), in.t()), extra)),
                s("empty", in -> cat(a(in.t(0, 2), in.t(1, 2), in.t(2)), extra)),
                s("transposed", in -> cat(a(in.nc(3, 4), in.t(4), in.nc(3, 4)), extra)),
                s("expanded", in -> cat(a(in.ex(3, 4), in.off(3, 4), in.ex(3, 4)), extra)),
                s("mismatch", in -> cat(a(in.t(2, 3), in.t(3, 2), in.t(3)), extra)));
    }

    /** How a dims/keepdim reduction lays out its arguments around the input, the dims and keepdim. */
    @FunctionalInterface
    private interface ReduceArgs {
        Object[] of(Tensor x, long[] dims, Boolean keepdim);
    }

    /** A reduction over dims: all, some, keepdim, 0-d, empty (with and without identity), strided, bad dims. */
    private static Sample[] reduce(ReduceArgs r) {
        return group(
                s("all", in -> r.of(in.t(2, 3), null, false)),
                s("dim-keepdim", in -> r.of(in.t(2, 3, 4), ls(1), true)),
                s("dims", in -> r.of(in.t(2, 3, 4), ls(0, -1), false)),
                s("0-d", in -> r.of(in.t(), null, false)),
                s("0-d-dim", in -> r.of(in.t(), ls(0), true)),
                s("empty-all", in -> r.of(in.t(0, 3), null, false)),
                s("empty-dim", in -> r.of(in.t(0, 3), ls(0), false)),
                s("empty-keep", in -> r.of(in.t(0, 3), ls(1), true)),
                s("transposed", in -> r.of(in.nc(3, 4), ls(1), false)),
                s("expanded", in -> r.of(in.ex(3, 4), ls(0), false)),
                s("offset", in -> r.of(in.off(2, 3), null, false)),
                s("repeated-dim", in -> r.of(in.t(2, 3), ls(0, -2), false)),
                s("dim-out-of-range", in -> r.of(in.t(2, 3), ls(2), false)));
    }

    /** How an op along one dim lays out its arguments around the input and the dim. */
    @FunctionalInterface
    private interface DimArgs {
        Object[] of(Tensor x, Long dim);
    }

    /** An op along one dim: last, negative, 0-d, empty (along a non-empty and an empty dim), strided, bad dim. */
    private static Sample[] alongDim(DimArgs r) {
        return group(
                s("dim1", in -> r.of(in.t(2, 3), 1L)),
                s("dim-neg", in -> r.of(in.t(2, 3, 4), -2L)),
                s("0-d", in -> r.of(in.t(), 0L)),
                s("empty", in -> r.of(in.t(0, 3), 1L)),
                s("empty-dim", in -> r.of(in.t(0, 3), 0L)),
                s("transposed", in -> r.of(in.nc(3, 4), 0L)),
                s("expanded", in -> r.of(in.ex(3, 4), 0L)),
                s("offset", in -> r.of(in.off(2, 3), 1L)),
                s("dim-out-of-range", in -> r.of(in.t(2, 3), 2L)));
    }

    /** (self, long[] size) for view and reshape: new shapes, -1, 0-d, empty, strides that do and do not view. */
    private static Sample[] reshapes() {
        return group(
                s("3x2", in -> a(in.t(2, 3), ls(3, 2))),
                s("infer", in -> a(in.t(2, 3, 4), ls(6, -1))),
                s("0-d", in -> a(in.t(), ls(1, 1))),
                s("to-0-d", in -> a(in.t(1), ls())),
                s("empty", in -> a(in.t(0, 3), ls(3, 0))),
                s("transposed", in -> a(in.nc(3, 4), ls(12))),
                s("rows", in -> a(in.rows(3, 4), ls(3, 2, 2))),
                s("expanded", in -> a(in.ex(3, 4), ls(3, 2, 2))),
                s("offset", in -> a(in.off(2, 3), ls(6))),
                s("bad-size", in -> a(in.t(2, 3), ls(4))),
                s("two-inferred", in -> a(in.t(2, 3), ls(-1, -1))),
                s("empty-inferred", in -> a(in.t(0, 3), ls(-1, 0))),
                s("size-overflow", in -> a(in.t(0, 3), ls(Long.MAX_VALUE, Long.MAX_VALUE, 0))));
    }

    /** (self, long[] size, extra...) for expand and broadcast_to. */
    private static Sample[] expands(Object... extra) {
        return group(
                s("3x4", in -> cat(a(in.t(3, 1), ls(3, 4)), extra)),
                s("leading", in -> cat(a(in.t(3), ls(2, 3)), extra)),
                s("keep", in -> cat(a(in.t(3, 1), ls(-1, 4)), extra)),
                s("0-d", in -> cat(a(in.t(), ls(2, 2)), extra)),
                s("empty", in -> cat(a(in.t(0, 1), ls(0, 4)), extra)),
                s("transposed", in -> cat(a(in.nc(1, 3), ls(4, 3)), extra)),
                s("expanded", in -> cat(a(in.ex(3, 1), ls(2, 3, 4)), extra)),
                s("offset", in -> cat(a(in.off(3, 1), ls(3, 4)), extra)),
                s("mismatch", in -> cat(a(in.t(2, 3), ls(3, 3)), extra)),
                s("fewer-dims", in -> cat(a(in.t(2, 3), ls(3)), extra)),
                s("leading-infer", in -> cat(a(in.t(3), ls(-1, 3)), extra)));
    }

    // ---- the table ---------------------------------------------------------------------------------------

    private static List<Entry> table() {
        List<Entry> t = new ArrayList<>();
        activations(t);
        statistics(t);
        grids(t);
        arrange(t);
        backward(t);
        clamp(t);
        complex(t);
        copyAndCreation(t);
        distance(t);
        // (self, device): to the device the inputs are on (CPU or meta); other devices in DeviceBackendTest
        t.add(op(
                DeviceCopyOps.TO_DEVICE,
                s("2x3", in -> a(in.t(2, 3), in.device())),
                s("0-d", in -> a(in.t(), in.device())),
                s("empty", in -> a(in.t(0, 3), in.device())),
                s("transposed", in -> a(in.nc(3, 4), in.device())),
                s("expanded", in -> a(in.ex(3, 4), in.device())),
                s("offset", in -> a(in.off(2, 3), in.device()))));
        einsum(t);
        t.addAll(IndexingOpDb.entries());
        t.addAll(ForeachOpDb.entries());
        t.addAll(FftOpDb.entries());
        join(t);
        matmul(t);
        linalg(t);
        linalgSolve(t);
        linalgLeastSquares(t);
        random(t);
        reductions(t);
        search(t);
        shapes(t);
        viewCopies(t);
        viewScatters(t);
        sort(t);
        ternaryOps(t);
        convolutionAndPooling(t);
        t.addAll(UpsampleOpDb.entries());
        t.addAll(SpatialOpDb.entries());
        t.addAll(Pool3dOpDb.entries());
        t.addAll(LossOpDb.entries());
        t.addAll(DistributionOpDb.entries());
        t.addAll(IndexReduceOpDb.entries());
        t.addAll(CloseOpDb.entries());
        return List.copyOf(t);
    }

    private static void activations(List<Entry> t) {
        t.add(op(ActivationOps.RELU6, unary()));
        t.add(op(ActivationOps.SELU, unary()));
        // (self, Long dim): the halved dim must be even; a 0-d input is refused
        t.add(op(
                ActivationOps.GLU,
                s("last", in -> a(in.t(3, 4), -1L)),
                s("dim0", in -> a(in.t(2, 3), 0L)),
                s("transposed", in -> a(in.nc(4, 2), 1L)),
                s("expanded", in -> a(in.ex(3, 4), 1L)),
                s("empty", in -> a(in.t(0, 4), 1L)),
                s("odd", in -> a(in.t(2, 3), 1L)),
                s("0-d", in -> a(in.t(), 0L)),
                s("dim-out-of-range", in -> a(in.t(2, 4), 2L))));
        // (x1, x2, Long dim, Double eps): broadcasting; integer pairs are refused
        t.add(op(
                ActivationOps.COSINE_SIMILARITY,
                s("rows", in -> a(in.t(3, 4), in.t(3, 4), 1L, 1e-8)),
                s("broadcast", in -> a(in.t(2, 1, 4), in.t(3, 4), -1L, 1e-8)),
                s("dim0", in -> a(in.nc(3, 4), in.off(3, 4), 0L, 1e-8)),
                s("expanded", in -> a(in.ex(3, 4), in.t(4), 1L, 0.5)),
                s("empty", in -> a(in.t(0, 4), in.t(0, 4), 1L, 1e-8)),
                s("mismatch", in -> a(in.t(2, 3), in.t(4, 3), 1L, 1e-8))));
        // (x1, x2, Double p, Double eps, Boolean keepdim): along the last broadcast dim
        t.add(op(
                ActivationOps.PAIRWISE_DISTANCE,
                s("p2", in -> a(in.t(3, 4), in.t(3, 4), 2.0, 1e-6, false)),
                s("p1-keepdim", in -> a(in.t(3, 4), in.t(4), 1.0, 1e-6, true)),
                s("p-inf", in -> a(in.nc(3, 4), in.ex(3, 4), Double.POSITIVE_INFINITY, 1e-6, false)),
                s("1-d", in -> a(in.t(4), in.off(4), 3.0, 0.0, false)),
                s("empty", in -> a(in.t(0, 4), in.t(0, 4), 2.0, 1e-6, false)),
                s("mismatch", in -> a(in.t(2, 3), in.t(4, 3), 2.0, 1e-6, false))));
    }

    private static void statistics(List<Entry> t) {
        // (self, Long dim or null, Boolean keepdim)
        t.add(op(
                StatisticsOps.AMINMAX,
                s("all", in -> a(in.t(2, 3), null, false)),
                s("all-keepdim", in -> a(in.t(2, 3), null, true)),
                s("dim", in -> a(in.t(2, 3, 4), 1L, false)),
                s("dim-keepdim-transposed", in -> a(in.nc(3, 4), -1L, true)),
                s("expanded", in -> a(in.ex(3, 4), 0L, false)),
                s("0-d", in -> a(in.t(), null, false)),
                s("0-d-dim", in -> a(in.t(), 0L, true)),
                s("empty-all", in -> a(in.t(0, 3), null, false)),
                s("empty-other-dim", in -> a(in.t(0, 3), 1L, false)),
                s("empty-dim", in -> a(in.t(2, 0), 1L, false)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 2L, false))));
        // (self, long[] dims or null, Number correction or null, Boolean keepdim)
        for (OpDef op : List.of(StatisticsOps.STD_MEAN, StatisticsOps.VAR_MEAN)) {
            t.add(op(
                    op,
                    reduce((x, d, k) -> a(x, d, null, k)),
                    s("correction-0", in -> a(in.t(2, 3), ls(1), 0L, false)),
                    s("correction-2.5", in -> a(in.t(3, 4), null, 2.5, true))));
        }
        // (self)
        for (OpDef op : List.of(StatisticsOps.MEDIAN, StatisticsOps.NANMEDIAN)) t.add(op(op, unary()));
        // (self, Long dim, Boolean keepdim)
        for (OpDef op : List.of(StatisticsOps.MEDIAN_DIM, StatisticsOps.NANMEDIAN_DIM)) {
            t.add(op(op, alongDim((x, d) -> a(x, d, false)), s("keepdim", in -> a(in.t(4, 3), 0L, true))));
        }
        // (self, q, Long dim or null, Boolean keepdim, String interpolation); q in [0, 1] of self's dtype
        for (OpDef op : List.of(StatisticsOps.QUANTILE, StatisticsOps.NANQUANTILE)) {
            t.add(op(
                    op,
                    s("all", in -> a(in.t(2, 3), in.unit(3), null, false, "linear")),
                    s("scalar-q", in -> a(in.t(2, 3), in.unit(), null, true, "lower")),
                    s("dim", in -> a(in.t(2, 3, 4), in.unit(2), 1L, false, "higher")),
                    s("dim-keepdim", in -> a(in.nc(3, 4), in.unit(2), 0L, true, "midpoint")),
                    s("expanded", in -> a(in.ex(3, 4), in.unit(1), -1L, false, "nearest")),
                    s("0-d", in -> a(in.t(), in.unit(2), 0L, true, "linear")),
                    s("empty", in -> a(in.t(0, 3), in.unit(2), null, false, "linear")),
                    s("q-2-d", in -> a(in.t(2, 3), in.unit(2, 2), null, false, "linear")),
                    s("bad-interpolation", in -> a(in.t(2, 3), in.unit(2), null, false, "cubic"))));
        }
        for (OpDef op : List.of(StatisticsOps.QUANTILE_SCALAR, StatisticsOps.NANQUANTILE_SCALAR)) {
            t.add(op(
                    op,
                    s("all", in -> a(in.t(2, 3), 0.25, null, false, "linear")),
                    s("dim", in -> a(in.t(2, 3, 4), 0.5, 1L, true, "midpoint")),
                    s("transposed", in -> a(in.nc(3, 4), 1.0, 0L, false, "nearest")),
                    s("q-out-of-range", in -> a(in.t(2, 3), 1.5, null, false, "linear"))));
        }
        // (self, Long correction, fweights or null, aweights or null)
        t.add(op(
                StatisticsOps.COV,
                s("2-d", in -> a(in.t(3, 5), 1L, null, null)),
                s("1-d", in -> a(in.t(4), 0L, null, null)),
                s("0-d", in -> a(in.t(), 1L, null, null)),
                s("transposed", in -> a(in.nc(3, 4), 1L, null, null)),
                s("fweights", in -> a(in.t(2, 3), 1L, in.t(INT64, 3).abs(), null)),
                s("aweights", in -> a(in.t(2, 3), 2L, null, in.unit(FLOAT64, 3).add(0.5))),
                s("3-d", in -> a(in.t(2, 2, 2), 1L, null, null))));
        t.add(op(
                StatisticsOps.CORRCOEF,
                s("2-d", in -> a(in.t(3, 5))),
                s("1-d", in -> a(in.t(4))),
                s("transposed", in -> a(in.nc(3, 4))),
                s("3-d", in -> a(in.t(2, 2, 2)))));
        // (self, Long dim)
        t.add(op(ReductionOps.LOGCUMSUMEXP, alongDim((x, d) -> a(x, d))));
        t.add(op(LinalgOps.TRACE, matrix()));
        t.add(op(
                LinalgOps.LOGDET,
                s("3x3", in -> a(in.t(3, 3))),
                s("batched-transposed", in -> a(in.nc(2, 3, 3))),
                s("empty", in -> a(in.t(2, 0, 0))),
                s("non-square", in -> a(in.t(3, 2)))));
    }

    private static void grids(List<Entry> t) {
        // (self, long[] dims): fewer dims than the input pad with leading 1s
        t.add(op(
                GridOps.TILE,
                s("2x3", in -> a(in.t(2, 3), ls(2, 1))),
                s("fewer-dims", in -> a(in.t(2, 3), ls(2))),
                s("more-dims", in -> a(in.t(3), ls(2, 2))),
                s("0-d", in -> a(in.t(), ls(3))),
                s("transposed", in -> a(in.nc(3, 4), ls(1, 2))),
                s("empty", in -> a(in.t(0, 3), ls(2, 2))),
                s("negative", in -> a(in.t(2), ls(-1)))));
        // (Tensor[] tensors, String indexing)
        t.add(op(
                GridOps.MESHGRID,
                s("ij", in -> a(ts(in.t(2), in.t(3)), "ij")),
                s("xy-three", in -> a(ts(in.t(2), in.t(3), in.off(4)), "xy")),
                s("0-d", in -> a(ts(in.t(), in.t(3)), "ij")),
                s("one", in -> a(ts(in.t(3)), "xy")),
                s("empty", in -> a(ts(in.t(0), in.t(2)), "ij")),
                s("2-d", in -> a(ts(in.t(2, 2)), "ij")),
                s("bad-indexing", in -> a(ts(in.t(2)), "ji"))));
        // (self, other)
        t.add(op(
                GridOps.KRON,
                s("2x2-2x3", in -> a(in.t(2, 2), in.t(2, 3))),
                s("ranks-differ", in -> a(in.t(3), in.t(2, 2))),
                s("0-d", in -> a(in.t(), in.t(2))),
                s("transposed", in -> a(in.nc(3, 2), in.ex(2, 2))),
                s("empty", in -> a(in.t(0, 2), in.t(2, 2)))));
        t.add(op(
                GridOps.CARTESIAN_PROD,
                s("two", in -> a((Object) ts(in.t(2), in.t(3)))),
                s("three", in -> a((Object) ts(in.t(2), in.off(2), in.t(1)))),
                s("one", in -> a((Object) ts(in.t(3)))),
                s("2-d", in -> a((Object) ts(in.t(2, 2), in.t(2))))));
        // (row, col, offset, dtype, device)
        for (OpDef op : List.of(GridOps.TRIL_INDICES, GridOps.TRIU_INDICES)) {
            t.add(op(
                    op,
                    s("3x4", in -> a(3L, 4L, 0L, in.dtype(), in.device())),
                    s("offset-1", in -> a(3L, 4L, 1L, null, in.device())),
                    s("offset-neg", in -> a(4L, 3L, -2L, null, in.device())),
                    s("empty", in -> a(0L, 4L, 0L, null, in.device())),
                    s("negative-row", in -> a(-1L, 4L, 0L, null, in.device()))));
        }
    }

    private static void distance(List<Entry> t) {
        // (x1, x2, p, compute_mode): batch dims broadcast; float16/bfloat16 only on the matrix-product route (p = 2)
        for (OpDef op : List.of(DistanceOps.CDIST, DistanceOps.CDIST_FORWARD)) {
            t.add(op(
                    op,
                    s("p2", in -> a(in.t(3, 2), in.t(4, 2), 2.0, null)),
                    s("p1", in -> a(in.t(3, 2), in.t(4, 2), 1.0, null)),
                    s("p0", in -> a(in.t(3, 2), in.t(4, 2), 0.0, 2L)),
                    s("p-inf", in -> a(in.t(3, 2), in.t(4, 2), Double.POSITIVE_INFINITY, null)),
                    s("p3-batch-broadcast", in -> a(in.t(2, 1, 3, 2), in.t(4, 2, 2), 3.0, null)),
                    s("mm", in -> a(in.t(3, 2), in.t(4, 2), 2.0, 1L)),
                    s("transposed", in -> a(in.nc(3, 4), in.nc(3, 5), 1.5, 2L)),
                    s("expanded", in -> a(in.ex(3, 4), in.off(2, 4), 2.0, 1L)),
                    s("empty", in -> a(in.t(0, 3), in.t(4, 3), 2.0, null)),
                    s("zero-columns", in -> a(in.t(3, 0), in.t(2, 0), 0.5, null)),
                    s("1-d", in -> a(in.t(3), in.t(4, 3), 2.0, null)),
                    s("columns", in -> a(in.t(3, 2), in.t(4, 3), 2.0, null)),
                    s("negative-p", in -> a(in.t(3, 2), in.t(4, 2), -1.0, null)),
                    s("bad-mode", in -> a(in.t(3, 2), in.t(4, 2), 2.0, 5L)),
                    s("mixed-dtypes", in -> a(in.t(3, 2), in.t(FLOAT64, 4, 2), 2.0, null)),
                    s("batch-mismatch", in -> a(in.t(2, 3, 2), in.t(3, 4, 2), 2.0, null))));
        }
        // (x1, x2)
        t.add(op(
                DistanceOps.EUCLIDEAN_DIST,
                s("3x2,4x2", in -> a(in.t(3, 2), in.t(4, 2))),
                s("batch-broadcast", in -> a(in.t(2, 1, 3, 2), in.t(4, 2, 2))),
                s("transposed", in -> a(in.nc(3, 4), in.nc(3, 5))),
                s("expanded", in -> a(in.ex(3, 4), in.off(2, 4))),
                s("empty", in -> a(in.t(0, 3), in.t(4, 3))),
                s("zero-columns", in -> a(in.t(3, 0), in.t(2, 0))),
                s("columns", in -> a(in.t(3, 2), in.t(4, 3)))));
        // (self, p)
        t.add(op(
                DistanceOps.PDIST_FORWARD,
                s("p2", in -> a(in.t(4, 3), 2.0)),
                s("p0", in -> a(in.t(4, 3), 0.0)),
                s("p-inf", in -> a(in.t(4, 3), Double.POSITIVE_INFINITY)),
                s("transposed", in -> a(in.nc(3, 4), 0.5)),
                s("expanded", in -> a(in.ex(3, 4), 1.0)),
                s("offset", in -> a(in.off(2, 3), 3.0)),
                s("one-row", in -> a(in.t(1, 3), 2.0)),
                s("empty", in -> a(in.t(0, 3), 2.0)),
                s("zero-columns", in -> a(in.t(3, 0), 2.0)),
                s("3-d", in -> a(in.t(2, 3, 2), 2.0)),
                s("negative-p", in -> a(in.t(3, 2), -1.0))));
    }

    private static void arrange(List<Entry> t) {
        // (self, Tensor repeats, Long dim, Long output_size): repeats hold valid counts on the CPU.
        t.add(op(
                ArrangeOps.REPEAT_INTERLEAVE_ALONG,
                s("dim0", in -> a(in.t(3, 2), idx(in, ls(1, 0, 2), 3), 0L, 3L)),
                s("dim-neg", in -> a(in.t(2, 3), idx(in, ls(2, 1, 0), 3), -1L, 3L)),
                s("int32-repeats", in -> a(in.t(2, 3), idx(in, INT32, ls(1, 1), 2), 0L, 2L)),
                s("one-slice", in -> a(in.t(1, 3), idx(in, ls(4), 1), 0L, 4L)),
                s("empty", in -> a(in.t(0, 3), idx(in, ls(), 0), 0L, 0L)),
                s("transposed", in -> a(in.nc(3, 4), idx(in, ls(0, 1, 2, 1), 4), 1L, 4L)),
                s("expanded", in -> a(in.ex(3, 4), idx(in, ls(1, 1, 1), 3), 0L, 3L)),
                s("offset", in -> a(in.off(2, 3), idx(in, ls(2, 0), 2), 0L, 2L)),
                s("0-d", in -> a(in.t(), idx(in, ls(1), 1), 0L, 1L)),
                s("repeats-length", in -> a(in.t(2, 3), idx(in, ls(1, 1, 1), 3), 0L, 3L)),
                s("float-repeats", in -> a(in.t(2, 3), in.t(FLOAT32, 2), 0L, 2L)),
                s("dim-out-of-range", in -> a(in.t(2, 3), idx(in, ls(1, 1), 2), 2L, 2L)),
                s("negative-repeats", in -> a(in.t(3, 2), idx(in, ls(2, -1, 2), 3), 0L, 3L)),
                s("wrong-output-size", in -> a(in.t(3, 2), idx(in, ls(1, 0, 2), 3), 0L, 4L))));
        // (Tensor repeats, Long output_size or null); without output_size the length is the data's.
        t.add(op(
                ArrangeOps.REPEAT_INTERLEAVE,
                s("repeats", in -> a(idx(in, ls(1, 0, 2), 3), null)),
                s("output-size", in -> a(idx(in, ls(1, 0, 2), 3), 3L)),
                s("int32-output-size", in -> a(idx(in, INT32, ls(2, 2), 2), 4L)),
                s("empty", in -> a(idx(in, ls(), 0), null)),
                s("2-d", in -> a(idx(in, ls(1, 1), 1, 2), 2L)),
                s("swept-dtype", in -> a(in.t(3), null)),
                s("swept-dtype-output-size", in -> a(in.unit(3), 2L))));
        // (self, Tensor repeats, Long dim or null, Long output_size or null)
        t.add(op(
                ArrangeOps.REPEAT_INTERLEAVE_SELF_TENSOR,
                s("flat", in -> a(in.t(2, 3), idx(in, ls(1, 0, 2, 1, 1, 0), 6), null, null)),
                s("dim1", in -> a(in.t(2, 3), idx(in, ls(2, 0, 1), 3), 1L, null)),
                s("output-size", in -> a(in.t(2, 3), idx(in, ls(2, 0, 1), 3), 1L, 3L)),
                s("0-d-repeats", in -> a(in.t(2, 3), idx(in, ls(2)), 0L, null)),
                s("one-element-repeats", in -> a(in.t(2, 3), idx(in, ls(3), 1), -1L, 9L)),
                s("empty-output-size", in -> a(in.t(0, 3), idx(in, ls(2)), 0L, 0L)),
                s("transposed", in -> a(in.nc(3, 4), idx(in, ls(1, 2, 0, 1), 4), 1L, null)),
                s("expanded", in -> a(in.ex(3, 4), idx(in, ls(1, 0, 3), 3), 0L, 4L)),
                s("0-d-flat", in -> a(in.t(), idx(in, ls(3)), null, null)),
                s("0-d-dim", in -> a(in.t(), idx(in, ls(3)), 0L, 3L)),
                s("repeats-length", in -> a(in.t(2, 3), idx(in, ls(1, 1), 2), 1L, null)),
                s("2-d-repeats", in -> a(in.t(2, 3), idx(in, ls(1, 1), 1, 2), 1L, null)),
                s("float-repeats", in -> a(in.t(2, 3), in.unit(FLOAT32, 3), 1L, 3L)),
                s("negative-repeats", in -> a(in.t(2, 3), idx(in, ls(2, -1, 1), 3), 1L, null)),
                s("dim-out-of-range", in -> a(in.t(2, 3), idx(in, ls(1)), 2L, null))));
        // (self, Long repeats, Long dim or null, Long output_size or null)
        t.add(op(
                ArrangeOps.REPEAT_INTERLEAVE_SELF_INT,
                s("flat", in -> a(in.t(2, 3), 2L, null, null)),
                s("dim0", in -> a(in.t(2, 3), 3L, 0L, null)),
                s("dim-neg", in -> a(in.t(2, 3, 4), 2L, -2L, 6L)),
                s("zero", in -> a(in.t(2, 3), 0L, 1L, null)),
                s("0-d", in -> a(in.t(), 2L, null, null)),
                s("0-d-dim", in -> a(in.t(), 2L, 0L, null)),
                s("empty", in -> a(in.t(0, 3), 2L, 0L, null)),
                s("transposed", in -> a(in.nc(3, 4), 2L, 1L, null)),
                s("expanded", in -> a(in.ex(3, 4), 2L, 0L, null)),
                s("offset", in -> a(in.off(2, 3), 2L, null, 12L)),
                s("negative", in -> a(in.t(2, 3), -1L, null, null)),
                s("bad-output-size", in -> a(in.t(2, 3), 2L, 0L, 5L)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 2L, 2L, null))));
        // (self, Long n, Long dim, Tensor prepend or null, Tensor append or null)
        t.add(op(
                ArrangeOps.DIFF,
                s("n1", in -> a(in.t(2, 5), 1L, -1L, null, null)),
                s("n2-dim0", in -> a(in.t(4, 3), 2L, 0L, null, null)),
                s("n-beyond", in -> a(in.t(2, 3), 5L, 1L, null, null)),
                s("n0", in -> a(in.t(2, 3), 0L, 1L, null, null)),
                s("prepend-append", in -> a(in.t(2, 3), 1L, 1L, in.t(2, 1), in.t(2, 2))),
                s("prepend", in -> a(in.t(2, 3), 2L, 0L, in.t(1, 3), null)),
                s("append", in -> a(in.t(3), 1L, 0L, null, in.t(2))),
                s("promote", in -> a(in.t(2, 3), 1L, 1L, in.t(FLOAT64, 2, 1), null)),
                s("empty-dim", in -> a(in.t(2, 0), 1L, 1L, null, null)),
                s("empty-other", in -> a(in.t(0, 3), 1L, 1L, null, null)),
                s("transposed", in -> a(in.nc(3, 4), 1L, 0L, null, in.nc(2, 4))),
                s("expanded", in -> a(in.ex(3, 4), 1L, 0L, null, null)),
                s("offset", in -> a(in.off(2, 3), 1L, 1L, null, null)),
                s("0-d", in -> a(in.t(), 1L, 0L, null, null)),
                s("negative-n", in -> a(in.t(2, 3), -1L, 1L, null, null)),
                s("prepend-ndim", in -> a(in.t(2, 3), 1L, 1L, in.t(3), null)),
                s("append-shape", in -> a(in.t(2, 3), 1L, 1L, null, in.t(3, 1))),
                s("dim-out-of-range", in -> a(in.t(2, 3), 1L, 2L, null, null))));
        // (self, Long diagonal)
        t.add(op(
                ArrangeOps.DIAG,
                s("vector", in -> a(in.t(3), 0L)),
                s("vector-above", in -> a(in.t(3), 2L)),
                s("vector-below", in -> a(in.nc(3), -1L)),
                s("matrix", in -> a(in.t(3, 4), 0L)),
                s("matrix-above", in -> a(in.t(3, 4), 1L)),
                s("matrix-far", in -> a(in.t(3, 4), -5L)),
                s("transposed", in -> a(in.nc(3, 4), 1L)),
                s("expanded", in -> a(in.ex(3, 4), 0L)),
                s("empty-vector", in -> a(in.t(0), 1L)),
                s("empty-matrix", in -> a(in.t(0, 3), 0L)),
                s("0-d", in -> a(in.t(), 0L)),
                s("3-d", in -> a(in.t(2, 2, 2), 0L)),
                s("huge-offset", in -> a(in.t(3), Long.MAX_VALUE))));
        // (self, Long offset, Long dim1, Long dim2)
        t.add(op(
                ArrangeOps.DIAG_EMBED,
                s("default", in -> a(in.t(2, 3), 0L, -2L, -1L)),
                s("above", in -> a(in.t(3), 1L, -2L, -1L)),
                s("below", in -> a(in.t(2, 3), -2L, -2L, -1L)),
                s("dims-swapped", in -> a(in.t(2, 3), 1L, 1L, 0L)),
                s("outer-dims", in -> a(in.t(2, 3), 0L, 0L, 2L)),
                s("empty", in -> a(in.t(0, 3), 0L, -2L, -1L)),
                s("empty-last", in -> a(in.t(2, 0), 1L, -2L, -1L)),
                s("transposed", in -> a(in.nc(3, 4), -1L, -2L, -1L)),
                s("expanded", in -> a(in.ex(3, 4), 0L, 0L, 1L)),
                s("offset", in -> a(in.off(2, 3), 2L, -1L, -2L)),
                s("0-d", in -> a(in.t(), 0L, -2L, -1L)),
                s("same-dims", in -> a(in.t(2, 3), 0L, 1L, 1L)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 0L, 3L, 0L)),
                s("huge-offset", in -> a(in.t(2, 3), Long.MAX_VALUE, -2L, -1L))));
        pad(t);
        // (self, Long num_classes): int64 indices; -1 infers the count from the data.
        t.add(op(
                ArrangeOps.ONE_HOT,
                s("classes", in -> a(idx(in, ls(0, 2, 1, 2), 4), 4L)),
                s("infer", in -> a(idx(in, ls(0, 2, 1, 2), 4), -1L)),
                s("2-d", in -> a(idx(in, ls(2, 0, 1, 1, 0, 2), 2, 3), 3L)),
                s("transposed", in -> a(idx(in, ls(2, 0, 1, 1, 0, 2), 2, 3).t(), 5L)),
                s("0-d", in -> a(idx(in, ls(1)), 3L)),
                s("empty", in -> a(idx(in, ls(), 0, 2), 3L)),
                s("empty-infer", in -> a(idx(in, ls(), 0), -1L)),
                s("swept-dtype", in -> a(in.t(2, 3), 12L)),
                s("class-too-large", in -> a(idx(in, ls(0, 5), 2), 3L))));
    }

    /** (self, long[] pad, PadMode mode, Double value or null): every mode, cropping, and each mode's refusals. */
    private static void pad(List<Entry> t) {
        PadMode constant = PadMode.CONSTANT,
                reflect = PadMode.REFLECT,
                replicate = PadMode.REPLICATE,
                circular = PadMode.CIRCULAR;
        List<Sample> samples = new ArrayList<>(List.of(group(
                s("constant-last", in -> a(in.t(2, 3), ls(1, 2), constant, null)),
                s("constant-value", in -> a(in.t(2, 3), ls(0, 1, 2, 0), constant, 1.5)),
                s("constant-every-dim", in -> a(in.t(2, 3, 2), ls(1, 0, 0, 1, 2, 1), constant, null)),
                s("constant-crop", in -> a(in.t(2, 3), ls(-1, 1, 1, -1), constant, null)),
                s("constant-crop-all", in -> a(in.t(2, 3), ls(-3, 0), constant, 2.0)),
                s("constant-0-d", in -> a(in.t(), ls(), constant, null)),
                s("constant-empty", in -> a(in.t(0, 3), ls(1, 1, 1, 1), constant, null)),
                s("constant-transposed", in -> a(in.nc(3, 4), ls(1, 2, 2, 1), constant, -1.0)),
                s("constant-expanded", in -> a(in.ex(3, 4), ls(1, 1), constant, null)),
                s("constant-offset", in -> a(in.off(2, 3), ls(0, 2), constant, null)),
                s("constant-value-range", in -> a(in.t(2, 3), ls(1, 1), constant, 1000.0)),
                s("constant-crop-too-much", in -> a(in.t(2, 3), ls(-2, -2), constant, null)),
                s("odd-length", in -> a(in.t(2, 3), ls(1), constant, null)),
                s("too-long", in -> a(in.t(3), ls(1, 1, 1, 1), constant, null)))));
        for (PadMode mode : List.of(reflect, replicate, circular)) {
            String m = mode.pyName();
            samples.addAll(List.of(group(
                    s(m + "-1d", in -> a(in.t(2, 5), ls(2, 1), mode, null)),
                    s(m + "-1d-batch", in -> a(in.t(2, 2, 4), ls(0, 3), mode, null)),
                    s(m + "-2d", in -> a(in.t(1, 3, 4), ls(1, 2, 2, 0), mode, null)),
                    s(m + "-3d", in -> a(in.t(1, 2, 3, 4), ls(1, 1, 0, 2, 1, 0), mode, null)),
                    s(m + "-crop", in -> a(in.t(2, 5), ls(-1, 2), mode, null)),
                    s(m + "-transposed", in -> a(in.nc(2, 3, 4), ls(1, 2, 2, 1), mode, null)),
                    s(m + "-expanded", in -> a(in.ex(3, 4), ls(3, 3), mode, null)),
                    s(m + "-empty-batch", in -> a(in.t(0, 3, 4), ls(1, 1), mode, null)),
                    s(m + "-empty-channel", in -> a(in.t(2, 0, 4), ls(1, 1), mode, null)),
                    s(m + "-too-large", in -> a(in.t(2, 3), ls(5, 0), mode, null)),
                    s(m + "-value", in -> a(in.t(2, 3), ls(1, 1), mode, 1.0)),
                    s(m + "-rank", in -> a(in.t(5), ls(1, 1), mode, null)),
                    s(m + "-four-dims", in -> a(in.t(1, 1, 2, 2, 2), ls(1, 1, 1, 1, 1, 1, 1, 1), mode, null)))));
        }
        t.add(new Entry(ArrangeOps.PAD, DTYPES, List.copyOf(samples)));
        // (grad_output, long[] input_sizes, long[] pad, PadMode mode): grad_output has the padded shape.
        t.add(op(
                PadBackwardOps.PAD_BACKWARD,
                s("reflect-1d", in -> a(in.t(2, 8), ls(2, 5), ls(2, 1), reflect)),
                s("replicate-2d", in -> a(in.t(1, 5, 6), ls(1, 3, 4), ls(1, 1, 1, 1), replicate)),
                s("circular-3d", in -> a(in.t(1, 2, 4, 5), ls(1, 1, 3, 3), ls(1, 1, 0, 1, 0, 1), circular)),
                s("circular-crop", in -> a(in.t(2, 6), ls(2, 5), ls(-1, 2), circular)),
                s("constant", in -> a(in.t(2, 6), ls(2, 3), ls(1, 2), constant)),
                s("transposed", in -> a(in.nc(2, 3, 6), ls(2, 3, 4), ls(1, 1), reflect)),
                s("expanded", in -> a(in.ex(3, 6), ls(3, 4), ls(1, 1), replicate)),
                s("empty-batch", in -> a(in.t(0, 3, 6), ls(0, 3, 4), ls(1, 1), reflect)),
                s("grad-mismatch", in -> a(in.t(2, 5), ls(2, 5), ls(1, 1), reflect)),
                s("too-large", in -> a(in.t(2, 11), ls(2, 3), ls(4, 4), reflect)),
                s("negative-size", in -> a(in.t(2, 6), ls(2, -1), ls(1, 1), replicate))));
    }

    private static void backward(List<Entry> t) {
        // (grad, long[] input_sizes, Long dim, Long index)
        t.add(op(
                BackwardOps.SELECT_BACKWARD,
                s("row", in -> a(in.t(3), ls(2, 3), 0L, 1L)),
                s("column", in -> a(in.t(2), ls(2, 3), 1L, -1L)),
                s("0-d-grad", in -> a(in.t(), ls(3), 0L, 2L)),
                s("empty", in -> a(in.t(0), ls(2, 0), 0L, 1L)),
                s("transposed", in -> a(in.nc(3, 4), ls(3, 5, 4), 1L, 2L)),
                s("expanded", in -> a(in.ex(3, 4), ls(3, 4, 2), 2L, 0L)),
                s("grad-mismatch", in -> a(in.t(5), ls(2, 3), 0L, 0L)),
                s("index-out-of-range", in -> a(in.t(3), ls(2, 3), 0L, 2L))));
        // (grad, long[] input_sizes, Long dim, Long start, Long end, Long step); slice's open end is INT64_MAX
        t.add(op(
                BackwardOps.SLICE_BACKWARD,
                s("rows", in -> a(in.t(1, 3), ls(4, 3), 0L, 1L, 2L, 1L)),
                s("step", in -> a(in.t(4, 2), ls(4, 3), 1L, 0L, Long.MAX_VALUE, 2L)),
                s("empty", in -> a(in.t(0, 3), ls(4, 3), 0L, 2L, 2L, 1L)),
                s("transposed", in -> a(in.nc(3, 4), ls(6, 4), 0L, 0L, 6L, 2L)),
                s("grad-mismatch", in -> a(in.t(2, 3), ls(4, 3), 0L, 0L, 3L, 1L))));
        // (grad, long[] input_sizes, Long offset, Long dim1, Long dim2)
        t.add(op(
                BackwardOps.DIAGONAL_BACKWARD,
                s("main", in -> a(in.t(3), ls(3, 4), 0L, 0L, 1L)),
                s("above", in -> a(in.t(2), ls(3, 4), 2L, 0L, 1L)),
                s("below, dims swapped", in -> a(in.t(3), ls(3, 4), -1L, 1L, 0L)),
                s("batched, transposed grad", in -> a(in.nc(2, 2), ls(3, 2, 4), 1L, -1L, 0L)),
                s("off the end", in -> a(in.t(0), ls(3, 4), 5L, 0L, 1L)),
                s("grad-mismatch", in -> a(in.t(4), ls(3, 4), 0L, 0L, 1L)),
                s("same-dims", in -> a(in.t(3), ls(3, 4), 0L, 1L, 1L))));
        // (grad, Long dim, int64 indices, long[] sizes, Boolean keepdim)
        t.add(op(
                BackwardOps.VALUE_SELECTING_REDUCTION_BACKWARD,
                s("rows", in -> a(in.t(2), 1L, idx(in, ls(2, 0), 2), ls(2, 3), false)),
                s("keepdim", in -> a(in.t(1, 3), 0L, idx(in, ls(1, 0, 1), 1, 3), ls(2, 3), true)),
                s(
                        "transposed grad",
                        in -> a(in.nc(3, 2), -1L, idx(in, ls(0, 3, 1, 2, 3, 0), 3, 2), ls(3, 2, 4), false)),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), ls(), false)),
                s("empty", in -> a(in.t(0), 1L, idx(in, ls(), 0), ls(0, 3), false)),
                s("grad-mismatch", in -> a(in.t(3), 1L, idx(in, ls(2, 0), 2), ls(2, 3), false)),
                s("int32-indices", in -> a(in.t(2), 1L, in.t(INT32, 2), ls(2, 3), false))));
        // (self, Long dim, int64 indices, Boolean keepdim)
        t.add(op(
                BackwardOps.VALUE_SELECTING_REDUCTION_GATHER,
                s("rows", in -> a(in.t(2, 3), 1L, idx(in, ls(2, 0), 2), false)),
                s("keepdim, transposed", in -> a(in.nc(2, 3), 0L, idx(in, ls(1, 0, 1), 1, 3), true)),
                s("expanded", in -> a(in.ex(3, 4), 0L, idx(in, ls(0, 1, 2, 0), 4), false)),
                s("0-d", in -> a(in.t(), 0L, idx(in, ls(0)), false)),
                s("indices-mismatch", in -> a(in.t(2, 3), 1L, idx(in, ls(2, 0, 1), 3), false))));
        // (src, long[] src_size, long[] src_stride, Long src_offset, long[] size, long[] stride, Long storage_offset)
        t.add(op(
                BackwardOps.AS_STRIDED_TRANSFER,
                s("windows", in -> a(in.t(2, 3), ls(2, 3), ls(2, 1), 0L, ls(5), ls(1), 0L)),
                s("back", in -> a(in.t(5), ls(5), ls(1), 0L, ls(2, 3), ls(2, 1), 0L)),
                s("transposed src", in -> a(in.nc(3, 4), ls(3, 4), ls(1, 3), 1L, ls(4, 3), ls(3, 1), 1L)),
                s("stride 0", in -> a(in.t(2, 3), ls(2, 3), ls(0, 1), 2L, ls(3), ls(1), 2L)),
                s("empty", in -> a(in.t(0, 3), ls(0, 3), ls(3, 1), 0L, ls(2), ls(1), 0L)),
                s("0-d", in -> a(in.t(), ls(), ls(), 4L, ls(3), ls(2), 0L)),
                s("src-mismatch", in -> a(in.t(2, 2), ls(2, 3), ls(3, 1), 0L, ls(6), ls(1), 0L))));
    }

    private static void clamp(List<Entry> t) {
        // Scalar bounds: (self, Scalar min, Scalar max); null = absent.
        t.add(op(
                ClampOps.CLAMP,
                s("both", in -> a(in.t(2, 3), sc(-0.5), sc(0.5))),
                s("int-min", in -> a(in.t(2, 3), sc(0), null)),
                s("max-0-d", in -> a(in.t(), null, sc(1.0))),
                s("empty", in -> a(in.t(0, 3), sc(-1), sc(1))),
                s("transposed", in -> a(in.nc(3, 4), sc(-0.5), sc(0.75))),
                s("min-overflow", in -> a(in.t(2, 3), sc(300), null)),
                s("no-bounds", in -> a(in.t(2, 3), null, null))));
        t.add(op(ClampOps.CLAMP_MIN, unary(sc(0.25)), s("int-bound", in -> a(in.t(2, 3), sc(1)))));
        t.add(op(ClampOps.CLAMP_MAX, unary(sc(0.25)), s("int-bound", in -> a(in.t(2, 3), sc(-300)))));
        t.add(op(ClampOps.HARDTANH, unary(sc(-1.0), sc(1.0)), s("int-bounds", in -> a(in.t(2, 3), sc(-2), sc(2)))));
        // Tensor bounds: (self, Tensor min, Tensor max); null = absent.
        t.add(op(
                ClampOps.CLAMP_TENSOR,
                s("both-broadcast", in -> a(in.t(2, 3), in.t(3), in.t(2, 1))),
                s("min-only", in -> a(in.t(2, 3), in.t(1, 3), null)),
                s("max-promote", in -> a(in.t(2, 3), null, in.t(FLOAT64, 3))),
                s("0-d", in -> a(in.t(), in.t(), in.t())),
                s("empty", in -> a(in.t(0, 3), in.t(3), in.t(1))),
                s("transposed", in -> a(in.nc(3, 4), in.t(4), in.nc(3, 4))),
                s("no-bounds", in -> a(in.t(2, 3), null, null)),
                s("mismatch", in -> a(in.t(2, 3), in.t(4), null))));
        t.add(op(ClampOps.CLAMP_MIN_TENSOR, binary(), s("promote", in -> a(in.t(2, 3), in.t(INT64, 3)))));
        t.add(op(ClampOps.CLAMP_MAX_TENSOR, binary(), s("promote", in -> a(in.t(2, 3), in.t(FLOAT32)))));
    }

    private static void complex(List<Entry> t) {
        // (self)
        for (OpDef op : List.of(
                ComplexOps.REAL,
                ComplexOps.IMAG,
                ComplexOps.VIEW_AS_REAL,
                ComplexOps.CONJ_PHYSICAL_KERNEL,
                ComplexOps.CONJ_PHYSICAL,
                ComplexOps.CONJ,
                ComplexOps.RESOLVE_CONJ,
                ComplexOps.ISREAL)) {
            t.add(op(op, unary(), s("batched", in -> a(in.t(2, 1, 3)))));
        }
        // view(dtype): a same-size, a smaller and a larger target; a strided input may be refused where its contiguous
        // copy is not (a last stride other than 1, an offset not divisible), so those samples check shapes and errors
        t.add(op(
                DtypeViewOps.VIEW_DTYPE,
                s("to-int32", in -> a(in.t(2, 8), INT32)),
                s("to-int8", in -> a(in.t(2, 8), INT8)),
                s("to-int16", in -> a(in.t(3, 16), INT16)),
                s("to-complex128", in -> a(in.t(2, 16), COMPLEX128)),
                s("0-d", in -> a(in.t(), FLOAT32)),
                s("empty", in -> a(in.t(0, 16), FLOAT64)),
                shapesOnly("offset", in -> a(in.off(2, 8), BFLOAT16)),
                shapesOnly("transposed", in -> a(in.nc(4, 4), INT32))));
        // _new_zeros_with_same_feature_meta(self, other, self_num_batch_dims): zeros laid out as other (strides,
        // offset, storage size) behind self's leading batch dims
        t.add(op(
                FeatureMetaOps.NEW_ZEROS_WITH_SAME_FEATURE_META,
                s("same-shape", in -> a(in.t(2, 3), in.t(2, 3), 0L)),
                s("batch-dim", in -> a(in.t(4, 2, 3), in.t(2, 3), 1L)),
                s("two-batch-dims", in -> a(in.t(2, 4, 3), in.t(3), 2L)),
                s("offset", in -> a(in.t(2, 3), in.off(2, 3), 0L)),
                s("transposed", in -> a(in.t(5, 3, 4), in.nc(3, 4), 1L)),
                s("empty", in -> a(in.t(0, 3), in.t(0, 3), 1L))));
        // A last dim of size 2 and stride 1, every other stride even: rows() keeps that, nc() does not.
        t.add(op(
                ComplexOps.VIEW_AS_COMPLEX,
                s("3x2", in -> a(in.t(3, 2))),
                s("to-0-d", in -> a(in.t(2))),
                s("empty", in -> a(in.t(0, 2))),
                s("rows", in -> a(in.rows(3, 2))),
                s("offset", in -> a(in.off(3, 2))),
                s("transposed", in -> a(in.nc(2, 2))),
                s("last-dim-3", in -> a(in.t(2, 3))),
                s("0-d", in -> a(in.t()))));
        // (real, imag) and (abs, angle)
        t.add(op(ComplexOps.COMPLEX, binary(), s("mixed-dtypes", in -> a(in.t(2, 3), in.t(FLOAT64, 2, 3)))));
        // (abs, angle); abs >= 0, where polar's derivative (PyTorch's, through sgn(result)) is the function's
        t.add(op(
                ComplexOps.POLAR,
                s("same", in -> a(in.positive(2, 3), in.t(2, 3))),
                s("broadcast", in -> a(in.positive(2, 1, 3), in.t(4, 3))),
                s("0-d", in -> a(in.positive(2, 3), in.t())),
                s("empty", in -> a(in.positive(0, 3), in.t(1, 3))),
                s("transposed", in -> a(in.positiveNc(3, 4), in.nc(3, 4))),
                s("mismatch", in -> a(in.positive(2, 3), in.t(4, 3))),
                s("mixed-dtypes", in -> a(in.positive(2, 3), in.t(FLOAT64, 2, 3)))));
        t.add(op(ComplexOps.MH, matrix()));
        t.add(op(ComplexOps.ADJOINT, matrix()));
    }

    private static void copyAndCreation(List<Entry> t) {
        // (self, DType dtype or null, long[] size or null)
        t.add(op(
                CopyOps.TO_COPY,
                s("clone", in -> a(in.t(2, 3), null, null)),
                s("to-float64", in -> a(in.t(2, 3), FLOAT64, null)),
                s("to-int64", in -> a(in.t(2, 3), INT64, null)),
                s("to-bool", in -> a(in.t(2, 3), BOOL, null)),
                s("to-complex64", in -> a(in.t(2, 3), COMPLEX64, null)),
                s("to-float16", in -> a(in.t(2, 3), FLOAT16, null)),
                s("broadcast", in -> a(in.t(3), null, ls(2, 3))),
                s("bad-size", in -> a(in.t(2, 3), null, ls(3))),
                s("0-d", in -> a(in.t(), INT64, null)),
                s("empty", in -> a(in.t(0, 3), FLOAT32, null)),
                s("transposed", in -> a(in.nc(3, 4), null, null)),
                s("transposed-convert", in -> a(in.nc(3, 4), FLOAT64, null)),
                s("expanded", in -> a(in.ex(3, 4), null, null)),
                s("offset-convert", in -> a(in.off(2, 3), INT64, null)),
                s("expanded-broadcast", in -> a(in.ex(3, 1), FLOAT32, ls(2, 3, 4)))));
        // (self, value): a Java number, Boolean or Scalar
        t.add(op(
                Creation.FILL,
                unary(1.5),
                s("int", in -> a(in.t(2, 3), 2L)),
                s("bool", in -> a(in.t(2, 3), true)),
                s("complex", in -> a(in.t(2, 3), Scalar.complex(1, 2)))));
        // Creation ops take the swept dtype and the device under test: (..., DType, Device).
        // (long[] size, Object fill, DType, Device)
        t.add(op(
                Creation.FULL,
                s("2x3", in -> a(ls(2, 3), 1.5, in.dtype(), in.device())),
                s("int-fill", in -> a(ls(2, 3), 2L, in.dtype(), in.device())),
                s("bool-fill", in -> a(ls(4), true, in.dtype(), in.device())),
                s("inferred-dtype", in -> a(ls(2), 2L, null, in.device())),
                s("0-d", in -> a(ls(), -1.0, in.dtype(), in.device())),
                s("empty", in -> a(ls(0, 3), 1.0, in.dtype(), in.device())),
                s("negative-size", in -> a(ls(-1, 2), 1.0, in.dtype(), in.device()))));
        // (Long n, Long m, DType, Device)
        t.add(op(
                Creation.EYE,
                s("3x4", in -> a(3L, 4L, in.dtype(), in.device())),
                s("square", in -> a(2L, 2L, in.dtype(), in.device())),
                s("empty", in -> a(0L, 3L, in.dtype(), in.device())),
                s("default-dtype", in -> a(2L, 3L, null, in.device())),
                s("negative", in -> a(-1L, 2L, in.dtype(), in.device()))));
        // (start, end, step, DType, Device): Long arguments are integral, Double fractional.
        t.add(op(
                Creation.ARANGE,
                s("ints", in -> a(0L, 5L, 1L, in.dtype(), in.device())),
                s("fractional", in -> a(0.0, 1.0, 0.25, in.dtype(), in.device())),
                s("descending", in -> a(5L, 0L, -2L, in.dtype(), in.device())),
                s("empty", in -> a(0L, 0L, 1L, in.dtype(), in.device())),
                s("inferred-dtype", in -> a(0L, 3L, 1L, null, in.device())),
                s("zero-step", in -> a(0L, 5L, 0L, in.dtype(), in.device())),
                s("wrong-sign", in -> a(0L, 5L, -1L, in.dtype(), in.device()))));
        // (start, end, Long steps, DType, Device)
        t.add(op(
                Creation.LINSPACE,
                s("5-steps", in -> a(0.0, 1.0, 5L, in.dtype(), in.device())),
                s("1-step", in -> a(2.0, 3.0, 1L, in.dtype(), in.device())),
                s("empty", in -> a(0.0, 1.0, 0L, in.dtype(), in.device())),
                s("inferred-dtype", in -> a(-1.0, 1.0, 3L, null, in.device())),
                s("negative-steps", in -> a(0.0, 1.0, -1L, in.dtype(), in.device()))));
        // schema order: (start, end, Long steps, Double base, DType, Device)
        t.add(op(
                Creation.LOGSPACE,
                s("5-steps", in -> a(0.0, 2.0, 5L, 10.0, in.dtype(), in.device())),
                s("base-2", in -> a(0.0, 3.0, 4L, 2.0, in.dtype(), in.device())),
                s("empty", in -> a(0.0, 1.0, 0L, 10.0, in.dtype(), in.device())),
                s("negative-steps", in -> a(0.0, 1.0, -1L, 10.0, in.dtype(), in.device()))));
    }

    private static void einsum(List<Entry> t) {
        // (String equation, Tensor[] operands)
        t.add(op(
                EinsumOps.EINSUM,
                s("matmul", in -> a("ij,jk->ik", ts(in.t(2, 3), in.t(3, 4)))),
                s("implicit", in -> a("ij,jk", ts(in.t(2, 3), in.t(3, 4)))),
                s("batched", in -> a("bij,bjk->bik", ts(in.t(2, 2, 3), in.t(2, 3, 4)))),
                s("three-operands", in -> a("ij,jk,kl->il", ts(in.t(2, 3), in.t(3, 2), in.t(2, 4)))),
                s("outer", in -> a("i,j->ij", ts(in.t(3), in.t(2)))),
                s("dot", in -> a("i,i", ts(in.t(3), in.t(3)))),
                s("trace", in -> a("ii", ts(in.t(3, 3)))),
                s("diagonal", in -> a("ii->i", ts(in.t(3, 3)))),
                s("sum", in -> a("ij->", ts(in.t(2, 3)))),
                s("permute", in -> a("ijk->kij", ts(in.t(2, 3, 4)))),
                s("ellipsis", in -> a("...ij,...jk->...ik", ts(in.t(2, 2, 3), in.t(3, 4)))),
                s("ellipsis-broadcast", in -> a("...i,...i->...", ts(in.t(2, 1, 3), in.t(4, 3)))),
                s("ellipsis-sum", in -> a("i...->...", ts(in.t(3, 2)))),
                s("uppercase-spaces", in -> a(" Ab , bC -> AC ", ts(in.t(2, 3), in.t(3, 4)))),
                s("scalar-operand", in -> a("i,->i", ts(in.t(3), in.t()))),
                s("empty", in -> a("ij,jk->ik", ts(in.t(0, 3), in.t(3, 4)))),
                s("empty-contraction", in -> a("ij,jk->ik", ts(in.t(2, 0), in.t(0, 3)))),
                s("transposed", in -> a("ij,jk->ki", ts(in.nc(2, 3), in.nc(3, 4)))),
                s("expanded", in -> a("bij,bjk->bik", ts(in.ex(2, 2, 3), in.off(2, 3, 4)))),
                s("size-1-broadcast", in -> a("ij,ij->ij", ts(in.t(2, 1), in.t(2, 3)))),
                s("mixed-dtypes", in -> a("ij,jk", ts(in.t(2, 3), in.t(FLOAT64, 3, 4)))),
                s("no-operands", in -> a("i", ts())),
                s("operand-count", in -> a("ij,jk->ik", ts(in.t(2, 3)))),
                s("label-count", in -> a("ijk", ts(in.t(2, 3)))),
                s("size-mismatch", in -> a("ij,jk", ts(in.t(2, 3), in.t(4, 5)))),
                s("bad-character", in -> a("i1", ts(in.t(2, 3)))),
                s("output-repeated", in -> a("ij->ii", ts(in.t(2, 3)))),
                s("output-unknown", in -> a("i->j", ts(in.t(2)))),
                s("two-ellipses", in -> a("......", ts(in.t(2))))));
        // (self, other, long[] dims_self, long[] dims_other)
        t.add(op(
                EinsumOps.TENSORDOT,
                s("two-dims", in -> a(in.t(2, 3, 4), in.t(3, 4, 5), ls(1, 2), ls(0, 1))),
                s("one-dim", in -> a(in.t(2, 3), in.t(3, 4), ls(1), ls(0))),
                s("none", in -> a(in.t(2, 3), in.t(4), ls(), ls())),
                s("negative-dims", in -> a(in.t(2, 3), in.t(4, 3), ls(-1), ls(-1))),
                s("size-1", in -> a(in.t(2, 1), in.t(3, 4), ls(1), ls(0))),
                s("0-d", in -> a(in.t(), in.t(3), ls(), ls())),
                s("empty", in -> a(in.t(0, 3), in.t(3, 2), ls(1), ls(0))),
                s("empty-contraction", in -> a(in.t(2, 0), in.t(0, 3), ls(1), ls(0))),
                s("transposed", in -> a(in.nc(3, 4), in.nc(4, 2), ls(1), ls(0))),
                s("expanded", in -> a(in.ex(3, 4), in.off(3, 2), ls(0), ls(0))),
                s("length-mismatch", in -> a(in.t(2, 3), in.t(3, 4), ls(1), ls(0, 1))),
                s(
                        "dtype-mismatch",
                        in -> a(in.t(2, 3), in.t(in.dtype() == FLOAT64 ? FLOAT32 : FLOAT64, 3), ls(1), ls(0))),
                s("size-mismatch", in -> a(in.t(2, 3), in.t(4, 2), ls(1), ls(0))),
                s("repeated-dim", in -> a(in.t(3, 3), in.t(3, 3), ls(0, 0), ls(0, 1))),
                s("dim-out-of-range", in -> a(in.t(2, 3), in.t(3), ls(2), ls(0)))));
    }

    private static void join(List<Entry> t) {
        // (Tensor[] tensors, Long dim)
        t.add(op(
                JoinOps.CAT,
                s("dim0", in -> a(ts(in.t(2, 3), in.t(1, 3)), 0L)),
                s("dim-neg", in -> a(ts(in.t(2, 3), in.t(2, 1)), -1L)),
                s("promote", in -> a(ts(in.t(2, 3), in.t(INT64, 2, 3)), 1L)),
                s("skip-1d-empty", in -> a(ts(in.t(0), in.t(2, 3)), 1L)),
                s("only-1d-empty", in -> a(ts(in.t(0), in.t(0)), 0L)),
                s("empty", in -> a(ts(in.t(0, 3), in.t(0, 3)), 0L)),
                s("transposed", in -> a(ts(in.nc(3, 4), in.t(2, 4)), 0L)),
                s("expanded", in -> a(ts(in.ex(2, 3), in.off(2, 3)), 1L)),
                s("offset", in -> a(ts(in.off(2, 3), in.off(1, 3)), 0L)),
                s("0-d", in -> a(ts(in.t(), in.t()), 0L)),
                s("mismatch", in -> a(ts(in.t(2, 3), in.t(2, 4)), 0L)),
                s("ranks", in -> a(ts(in.t(2, 3), in.t(3)), 0L)),
                s("no-tensors", in -> a(new Tensor[0], 0L))));
        t.add(op(
                JoinOps.STACK,
                s("dim0", in -> a(ts(in.t(2, 3), in.t(2, 3)), 0L)),
                s("dim-neg", in -> a(ts(in.t(2, 3), in.t(2, 3)), -1L)),
                s("0-d", in -> a(ts(in.t(), in.t(), in.t()), 0L)),
                s("empty", in -> a(ts(in.t(0, 3), in.t(0, 3)), 1L)),
                s("transposed", in -> a(ts(in.nc(3, 4), in.t(3, 4)), 1L)),
                s("expanded", in -> a(ts(in.ex(3, 4), in.off(3, 4)), 2L)),
                s("mismatch", in -> a(ts(in.t(2, 3), in.t(3, 2)), 0L)),
                s("no-tensors", in -> a(new Tensor[0], 0L))));
        // (self, Long diagonal)
        for (OpDef op : List.of(JoinOps.TRIL, JoinOps.TRIU)) {
            t.add(op(
                    op,
                    matrix(0L),
                    s("above", in -> a(in.t(3, 4), 2L)),
                    s("below", in -> a(in.t(2, 3, 4), -1L)),
                    s("far", in -> a(in.nc(3, 4), 100L)),
                    s("expanded-batch", in -> a(in.ex(2, 3, 4), -100L))));
        }
        // (self, long[] dims)
        t.add(op(
                JoinOps.FLIP,
                s("dim0", in -> a(in.t(2, 3), ls(0))),
                s("dims", in -> a(in.t(2, 3, 4), ls(0, -1))),
                s("0-d", in -> a(in.t(), ls(0))),
                s("no-dims", in -> a(in.t(2, 3), ls())),
                s("empty", in -> a(in.t(0, 3), ls(1))),
                s("transposed", in -> a(in.nc(3, 4), ls(0, 1))),
                s("expanded", in -> a(in.ex(3, 4), ls(0))),
                s("offset", in -> a(in.off(2, 3), ls(1))),
                s("repeated", in -> a(in.t(2, 3), ls(0, 0)))));
        // (self, long[] shifts, long[] dims)
        t.add(op(
                JoinOps.ROLL,
                s("flat", in -> a(in.t(2, 3), ls(1), ls())),
                s("dims", in -> a(in.t(2, 3), ls(1, -1), ls(0, 1))),
                s("transposed", in -> a(in.nc(3, 4), ls(2), ls(1))),
                s("transposed-flat", in -> a(in.nc(3, 4), ls(-5), ls())),
                s("empty", in -> a(in.t(0, 3), ls(1), ls(0))),
                s("0-d", in -> a(in.t(), ls(1), ls())),
                s("expanded-flat", in -> a(in.ex(3, 4), ls(5), ls())),
                s("offset", in -> a(in.off(2, 3), ls(1, 1), ls(0, 1))),
                s("misaligned", in -> a(in.t(2, 3), ls(1, 2), ls(0))),
                s("no-shifts", in -> a(in.t(2, 3), ls(), ls()))));
        // (self, long[] repeats)
        t.add(op(
                JoinOps.REPEAT,
                s("2x1", in -> a(in.t(2, 3), ls(2, 1))),
                s("new-dims", in -> a(in.t(3), ls(2, 1, 2))),
                s("0-d", in -> a(in.t(), ls(2, 3))),
                s("empty", in -> a(in.t(0, 3), ls(2, 2))),
                s("zero", in -> a(in.t(2, 3), ls(0, 1))),
                s("transposed", in -> a(in.nc(3, 4), ls(1, 2))),
                s("expanded", in -> a(in.ex(3, 4), ls(2, 1, 2))),
                s("offset", in -> a(in.off(2, 3), ls(2, 2))),
                s("too-few", in -> a(in.t(2, 3), ls(2))),
                s("size-overflow", in -> a(in.t(2, 3), ls(Long.MAX_VALUE, 2)))));
    }

    private static void linalg(List<Entry> t) {
        // (A, upper); a random A is rarely positive-definite: OpDbTest lists that error as data-dependent
        t.add(op(
                LinalgOps.CHOLESKY,
                s("3x3", in -> a(in.t(3, 3), false)),
                s("upper", in -> a(in.t(3, 3), true)),
                s("batched-transposed", in -> a(in.nc(2, 3, 3), false)),
                s("expanded", in -> a(in.ex(2, 3, 3), true)),
                s("offset", in -> a(in.off(2, 2), false)),
                s("empty", in -> a(in.t(2, 0, 0), false)),
                s("1-d", in -> a(in.t(3), false)),
                s("non-square", in -> a(in.t(2, 3), false))));
        // (A)
        for (OpDef op : List.of(LinalgOps.INV, LinalgOps.DET, LinalgOps.SLOGDET)) {
            t.add(op(
                    op,
                    s("3x3", in -> a(in.t(3, 3))),
                    s("batched-transposed", in -> a(in.nc(2, 3, 3))),
                    s("expanded", in -> a(in.ex(2, 3, 3))),
                    s("offset", in -> a(in.off(2, 2))),
                    s("empty", in -> a(in.t(2, 0, 0))),
                    s("empty-batch", in -> a(in.t(0, 2, 2))),
                    s("0-d", in -> a(in.t())),
                    s("non-square", in -> a(in.t(3, 2)))));
        }
        // (A, B, left); batch dims broadcast, a B shaped like A without its last dim is a batch of vectors
        t.add(op(
                LinalgOps.SOLVE,
                s("matrix", in -> a(in.t(3, 3), in.t(3, 2), true)),
                s("vector", in -> a(in.t(3, 3), in.t(3), true)),
                s("batch-of-vectors", in -> a(in.t(2, 3, 3), in.t(2, 3), true)),
                s("right", in -> a(in.t(3, 3), in.t(2, 3), false)),
                s("broadcast-transposed", in -> a(in.nc(2, 1, 3, 3), in.nc(4, 3, 2), true)),
                s("expanded-offset", in -> a(in.ex(2, 3, 3), in.off(3, 2), false)),
                s("empty", in -> a(in.t(0, 0), in.t(0, 2), true)),
                s("mismatch", in -> a(in.t(3, 3), in.t(2, 1), true)),
                s("batch-mismatch", in -> a(in.t(2, 3, 3), in.t(3, 3, 1), true)),
                s("mixed-dtypes", in -> a(in.t(3, 3), in.t(FLOAT64, 3, 1), true)),
                s("1-d-A", in -> a(in.t(3), in.t(3), true))));
        // decompositions and norms
        // (A, upper, check_errors); without check_errors a matrix that is not positive-definite is reported in info
        t.add(op(
                LinalgOps.CHOLESKY_EX,
                s("3x3", in -> a(in.t(3, 3), false, false)),
                s("upper", in -> a(in.t(3, 3), true, false)),
                s("batched-transposed", in -> a(in.nc(2, 3, 3), false, false)),
                s("expanded", in -> a(in.ex(2, 3, 3), true, false)),
                s("empty", in -> a(in.t(2, 0, 0), false, false)),
                s("1-d", in -> a(in.t(3), false, false)),
                s("non-square", in -> a(in.t(2, 3), false, true))));
        // (A, check_errors)
        t.add(op(
                LinalgOps.INV_EX,
                s("3x3", in -> a(in.t(3, 3), false)),
                s("batched-transposed", in -> a(in.nc(2, 3, 3), false)),
                s("expanded", in -> a(in.ex(2, 3, 3), false)),
                s("offset", in -> a(in.off(2, 2), false)),
                s("empty", in -> a(in.t(2, 0, 0), false)),
                s("0-d", in -> a(in.t(), false)),
                s("non-square", in -> a(in.t(3, 2), false))));
        // (A, B, left, check_errors)
        t.add(op(
                LinalgOps.SOLVE_EX,
                s("matrix", in -> a(in.t(3, 3), in.t(3, 2), true, false)),
                s("vector", in -> a(in.t(3, 3), in.t(3), true, false)),
                s("right", in -> a(in.t(3, 3), in.t(2, 3), false, false)),
                s("broadcast-transposed", in -> a(in.nc(2, 1, 3, 3), in.nc(4, 3, 2), true, false)),
                s("empty", in -> a(in.t(0, 0), in.t(0, 2), true, false)),
                s("mismatch", in -> a(in.t(3, 3), in.t(2, 1), true, false)),
                s("mixed-dtypes", in -> a(in.t(3, 3), in.t(FLOAT64, 3, 1), true, false))));
        // (A, UPLO); the input is read as Hermitian from one triangle whatever its values
        for (OpDef op : List.of(LinalgOps.EIGH, LinalgOps.EIGVALSH)) {
            t.add(op(
                    op,
                    s("3x3", in -> a(in.t(3, 3), "L")),
                    s("upper", in -> a(in.t(3, 3), "U")),
                    s("batched-transposed", in -> a(in.nc(2, 3, 3), "L")),
                    s("expanded", in -> a(in.ex(2, 3, 3), "U")),
                    s("offset", in -> a(in.off(2, 2), "L")),
                    s("empty", in -> a(in.t(2, 0, 0), "L")),
                    s("bad-uplo", in -> a(in.t(2, 2), "X")),
                    s("non-square", in -> a(in.t(2, 3), "L")),
                    s("1-d", in -> a(in.t(3), "L"))));
        }
        // (A, full_matrices)
        t.add(op(
                LinalgOps.SVD,
                s("tall-full", in -> a(in.t(4, 3), true)),
                s("wide-reduced", in -> a(in.t(3, 4), false)),
                s("batched-transposed", in -> a(in.nc(2, 3, 4), true)),
                s("expanded", in -> a(in.ex(2, 3, 3), false)),
                s("empty", in -> a(in.t(0, 3), true)),
                s("empty-batch", in -> a(in.t(0, 2, 2), false)),
                s("1-d", in -> a(in.t(3), true))));
        // (A)
        t.add(op(
                LinalgOps.SVDVALS,
                s("tall", in -> a(in.t(4, 3))),
                s("batched-transposed", in -> a(in.nc(2, 3, 4))),
                s("expanded", in -> a(in.ex(2, 3, 3))),
                s("empty", in -> a(in.t(3, 0))),
                s("1-d", in -> a(in.t(3)))));
        // (A, mode)
        t.add(op(
                LinalgOps.QR,
                s("tall-reduced", in -> a(in.t(4, 3), "reduced")),
                s("tall-complete", in -> a(in.t(4, 3), "complete")),
                s("wide-r", in -> a(in.t(3, 4), "r")),
                s("batched-transposed", in -> a(in.nc(2, 3, 4), "complete")),
                s("expanded", in -> a(in.ex(2, 3, 3), "reduced")),
                s("empty", in -> a(in.t(0, 3), "complete")),
                s("bad-mode", in -> a(in.t(3, 3), "x")),
                s("1-d", in -> a(in.t(3), "reduced"))));
        // (A); matrix_sqrth reads A's lower triangle as Hermitian and clamps negative eigenvalues
        t.add(op(
                LinalgOps.MATRIX_SQRTH,
                s("3x3", in -> a(in.t(3, 3))),
                s("batched-transposed", in -> a(in.nc(2, 3, 3))),
                s("expanded", in -> a(in.ex(2, 3, 3))),
                s("empty", in -> a(in.t(2, 0, 0))),
                s("non-square", in -> a(in.t(2, 3))),
                s("1-d", in -> a(in.t(3)))));
        t.add(op(
                LinalgOps.POLAR,
                s("square", in -> a(in.t(3, 3))),
                s("tall-batched-transposed", in -> a(in.nc(2, 4, 3))),
                s("expanded", in -> a(in.ex(2, 3, 3))),
                s("empty", in -> a(in.t(2, 0, 0))),
                s("wide", in -> a(in.t(2, 3))),
                s("1-d", in -> a(in.t(3)))));
        // (A, ord, dim, keepdim)
        t.add(op(
                LinalgOps.MATRIX_NORM,
                s("2", in -> a(in.t(3, 4), 2.0, ls(-2, -1), false)),
                s("-inf-keepdim", in -> a(in.nc(2, 3, 4), Double.NEGATIVE_INFINITY, ls(-2, -1), true)),
                s("1-dims", in -> a(in.ex(2, 3, 4), 1.0, ls(2, 0), false)),
                s("-2-dims-keepdim", in -> a(in.t(2, 3, 4), -2.0, ls(0, 2), true)),
                s("bad-ord", in -> a(in.t(3, 3), 3.0, ls(-2, -1), false)),
                s("same-dims", in -> a(in.t(3, 3), 1.0, ls(0, 0), false)),
                s("1-d", in -> a(in.t(3), 2.0, ls(-2, -1), false))));
        t.add(op(
                LinalgOps.MATRIX_NORM_STR,
                s("fro", in -> a(in.t(3, 4), "fro", ls(-2, -1), false)),
                s("nuc-keepdim", in -> a(in.nc(2, 3, 4), "nuc", ls(-2, -1), true)),
                s("fro-dims", in -> a(in.ex(2, 3, 4), "fro", ls(0, 2), true)),
                s("empty", in -> a(in.t(0, 3), "fro", ls(-2, -1), false)),
                s("bad-ord", in -> a(in.t(3, 3), "foo", ls(-2, -1), false))));
        // (A, atol, rtol, hermitian)
        for (OpDef op : List.of(LinalgOps.PINV, LinalgOps.MATRIX_RANK)) {
            t.add(op(
                    op,
                    s("tall", in -> a(in.t(4, 3), null, null, false)),
                    s("hermitian", in -> a(in.t(3, 3), null, null, true)),
                    s("atol", in -> a(in.nc(2, 3, 4), 0.5, null, false)),
                    s("rtol", in -> a(in.ex(2, 3, 3), null, 0.1, true)),
                    s("1-d", in -> a(in.t(3), null, null, false))));
        }
        // (A, p)
        t.add(op(
                LinalgOps.COND,
                s("default", in -> a(in.t(3, 4), null)),
                s("1", in -> a(in.t(3, 3), 1.0)),
                s("-2-batched", in -> a(in.nc(2, 3, 3), -2.0)),
                s("inf-expanded", in -> a(in.ex(2, 3, 3), Double.POSITIVE_INFINITY)),
                s("non-square", in -> a(in.t(2, 3), 1.0)),
                s("bad-p", in -> a(in.t(3, 3), 3.0))));
        t.add(op(
                LinalgOps.COND_STR,
                s("fro", in -> a(in.t(3, 3), "fro")),
                s("nuc-batched", in -> a(in.nc(2, 3, 3), "nuc")),
                s("bad-p", in -> a(in.t(3, 3), "foo")),
                s("non-square", in -> a(in.t(2, 3), "fro"))));
    }

    /** The solvers, factorizations and matrix functions of {@link LinalgSolveOps}. */
    private static void linalgSolve(List<Entry> t) {
        // (A)
        for (OpDef op : List.of(LinalgSolveOps.MATRIX_EXP, LinalgSolveOps.EIG, LinalgSolveOps.EIGVALS)) {
            t.add(op(
                    op,
                    s("3x3", in -> a(in.t(3, 3))),
                    s("batched-transposed", in -> a(in.nc(2, 3, 3))),
                    s("expanded", in -> a(in.ex(2, 3, 3))),
                    s("offset", in -> a(in.off(2, 2))),
                    s("1x1", in -> a(in.t(1, 1))),
                    s("empty", in -> a(in.t(2, 0, 0))),
                    s("empty-batch", in -> a(in.t(0, 2, 2))),
                    s("1-d", in -> a(in.t(3))),
                    s("non-square", in -> a(in.t(3, 2)))));
        }
        // (A, B, upper, left, unitriangular); batch dims broadcast
        t.add(op(
                LinalgSolveOps.SOLVE_TRIANGULAR,
                s("upper", in -> a(in.t(3, 3), in.t(3, 2), true, true, false)),
                s("lower-right-unit", in -> a(in.t(3, 3), in.t(2, 3), false, false, true)),
                s("broadcast-transposed", in -> a(in.nc(2, 1, 3, 3), in.nc(4, 3, 2), true, true, false)),
                s("expanded-offset", in -> a(in.ex(2, 3, 3), in.off(3, 2), false, true, false)),
                s("empty", in -> a(in.t(0, 0), in.t(0, 2), true, true, false)),
                s("mismatch", in -> a(in.t(3, 3), in.t(2, 1), true, true, false)),
                s("1-d-B", in -> a(in.t(3, 3), in.t(3), true, true, false)),
                s("mixed-dtypes", in -> a(in.t(3, 3), in.t(FLOAT64, 3, 1), true, true, false))));
        // (A, pivot, check_errors) and (A, pivot)
        t.add(op(
                LinalgSolveOps.LU_FACTOR_EX,
                s("3x3", in -> a(in.t(3, 3), true, false)),
                s("wide", in -> a(in.t(2, 4), true, true)),
                s("tall-batched-transposed", in -> a(in.nc(2, 4, 3), true, false)),
                s("expanded", in -> a(in.ex(2, 3, 3), true, false)),
                s("empty", in -> a(in.t(2, 0, 3), true, false)),
                s("1-d", in -> a(in.t(3), true, false)),
                s("no-pivot", in -> a(in.t(2, 2), false, false))));
        for (OpDef op : List.of(LinalgSolveOps.LU_FACTOR, LinalgSolveOps.LU)) {
            t.add(op(
                    op,
                    s("3x3", in -> a(in.t(3, 3), true)),
                    s("wide", in -> a(in.t(2, 4), true)),
                    s("tall-batched-transposed", in -> a(in.nc(2, 4, 3), true)),
                    s("offset", in -> a(in.off(3, 3), true)),
                    s("empty", in -> a(in.t(0, 3, 3), true)),
                    s("1-d", in -> a(in.t(3), true)),
                    s("no-pivot", in -> a(in.t(2, 2), false))));
        }
        // (LU, pivots, B, left, adjoint); pivots of ones are valid interchanges (row i with row 1)
        t.add(op(
                LinalgSolveOps.LU_SOLVE,
                s("left", in -> a(in.t(3, 3), ones32(in, 3), in.t(3, 2), true, false)),
                s("right-adjoint", in -> a(in.t(3, 3), ones32(in, 3), in.t(2, 3), false, true)),
                s("broadcast-transposed", in -> a(in.nc(2, 1, 3, 3), ones32(in, 2, 1, 3), in.nc(4, 3, 2), true, true)),
                s("expanded", in -> a(in.ex(2, 3, 3), ones32(in, 2, 3), in.off(3, 1), false, false)),
                s("empty", in -> a(in.t(0, 0), ones32(in, 0), in.t(0, 2), true, false)),
                s("pivots-int64", in -> a(in.t(3, 3), in.t(INT64, 3), in.t(3, 2), true, false)),
                s("pivots-shape", in -> a(in.t(3, 3), ones32(in, 2), in.t(3, 2), true, false)),
                s("mismatch", in -> a(in.t(3, 3), ones32(in, 3), in.t(2, 2), true, false))));
        // (A, n)
        t.add(op(
                LinalgSolveOps.MATRIX_POWER,
                s("square", in -> a(in.t(3, 3), 2L)),
                s("cube-transposed", in -> a(in.nc(2, 3, 3), 3L)),
                s("zero", in -> a(in.ex(2, 2, 2), 0L)),
                s("inverse", in -> a(in.off(3, 3), -1L)),
                s("one", in -> a(in.t(2, 2), 1L)),
                s("empty", in -> a(in.t(0, 2, 2), 5L)),
                s("non-square", in -> a(in.t(2, 3), 2L))));
        // (x, y, dim)
        t.add(op(
                LinalgSolveOps.CROSS,
                s("last", in -> a(in.t(2, 3), in.t(2, 3), -1L)),
                s("broadcast", in -> a(in.t(4, 1, 3), in.t(2, 3), -1L)),
                s("dim0-transposed", in -> a(in.nc(3, 4), in.t(3, 4), 0L)),
                s("expanded", in -> a(in.ex(2, 3), in.off(2, 3), 1L)),
                s("empty", in -> a(in.t(0, 3), in.t(0, 3), -1L)),
                s("length", in -> a(in.t(2, 2), in.t(2, 2), -1L)),
                s("ranks", in -> a(in.t(2, 3), in.t(3), -1L))));
        t.add(op(
                LinalgSolveOps.VECDOT,
                s("last", in -> a(in.t(2, 3), in.t(2, 3), -1L)),
                s("broadcast", in -> a(in.t(4, 1, 3), in.t(3), -1L)),
                s("dim0-transposed", in -> a(in.nc(3, 4), in.t(3, 4), 0L)),
                s("expanded", in -> a(in.ex(2, 3), in.off(2, 3), 1L)),
                s("empty", in -> a(in.t(0, 3), in.t(0, 3), -1L)),
                s("mixed-dtypes", in -> a(in.t(2, 3), in.t(FLOAT64, 2, 3), -1L))));
        // (tensors)
        t.add(op(
                LinalgSolveOps.MULTI_DOT,
                s("chain", in -> a((Object) ts(in.t(2, 3), in.t(3, 4), in.t(4, 2)))),
                s("vectors", in -> a((Object) ts(in.t(3), in.nc(3, 4), in.off(4)))),
                s("two", in -> a((Object) ts(in.ex(2, 3), in.t(3, 2)))),
                s("empty", in -> a((Object) ts(in.t(0, 3), in.t(3, 2)))),
                s("one", in -> a((Object) ts(in.t(2, 2)))),
                s("mismatch", in -> a((Object) ts(in.t(2, 3), in.t(2, 3)))),
                s("middle-1-d", in -> a((Object) ts(in.t(2, 3), in.t(3), in.t(3, 2))))));
    }

    /** householder_product and lstsq, continuing {@link #linalgSolve}. */
    private static void linalgLeastSquares(List<Entry> t) {
        // (input, tau)
        t.add(op(
                LinalgSolveOps.HOUSEHOLDER_PRODUCT,
                s("4x3", in -> a(in.t(4, 3), in.t(3))),
                s("fewer-reflectors", in -> a(in.t(4, 3), in.t(1))),
                s("batched-transposed", in -> a(in.nc(2, 4, 2), in.t(2, 2))),
                s("expanded", in -> a(in.ex(2, 3, 3), in.off(2, 2))),
                s("empty", in -> a(in.t(0, 3, 2), in.t(0, 2))),
                s("wide", in -> a(in.t(2, 3), in.t(2))),
                s("too-many-reflectors", in -> a(in.t(3, 2), in.t(3))),
                s("batch-mismatch", in -> a(in.t(2, 3, 2), in.t(3, 2))),
                s("mixed-dtypes", in -> a(in.t(3, 2), in.t(FLOAT64, 2)))));
        // (self, b, rcond, driver) with B a matrix
        t.add(op(
                LinalgSolveOps.LSTSQ_SOLVE,
                s("tall-gelsy", in -> a(in.t(4, 2), in.t(4, 3), null, "gelsy")),
                s("wide-gelsd", in -> a(in.t(2, 4), in.t(2, 1), null, "gelsd")),
                s("broadcast-gelss", in -> a(in.nc(2, 3, 3), in.t(3, 2), 1e-3, "gelss")),
                s("gels-expanded", in -> a(in.ex(2, 4, 3), in.off(4, 1), null, "gels")),
                s("empty", in -> a(in.t(0, 2), in.t(0, 1), null, "gelsy")),
                s("bad-driver", in -> a(in.t(3, 2), in.t(3, 1), null, "gesv")),
                s("rows", in -> a(in.t(3, 2), in.t(2, 1), null, "gelsy")),
                s("mixed-dtypes", in -> a(in.t(3, 2), in.t(FLOAT64, 3, 1), null, "gelsy"))));
        // (self, b, rcond, driver)
        t.add(op(
                LinalgSolveOps.LSTSQ,
                s("default", in -> a(in.t(4, 2), in.t(4, 3), null, null)),
                s("vector-gels", in -> a(in.t(4, 2), in.t(4), null, "gels")),
                s("batch-vectors-gelsd", in -> a(in.nc(2, 3, 3), in.t(2, 3), null, "gelsd")),
                s("1-d", in -> a(in.t(3), in.t(3), null, null)),
                s("bad-driver", in -> a(in.t(3, 2), in.t(3, 1), null, "x"))));
    }

    /** Every dim of {@code x}, in order. */
    private static long[] allDims(Tensor x) {
        return LongStream.range(0, x.dim()).toArray();
    }

    /** Valid LU pivots (all ones) of the given shape on the sample's device. */
    private static Tensor ones32(SampleInputs in, long... shape) {
        return Torch.ones(shape, INT32, in.device());
    }

    private static void matmul(List<Entry> t) {
        // (self, mat2)
        t.add(op(
                MatmulOps.MM,
                s("2x3@3x4", in -> a(in.t(2, 3), in.t(3, 4))),
                s("transposed", in -> a(in.nc(2, 3), in.nc(3, 4))),
                s("empty", in -> a(in.t(0, 3), in.t(3, 4))),
                s("k=0", in -> a(in.t(2, 0), in.t(0, 3))),
                s("expanded", in -> a(in.ex(2, 3), in.off(3, 4))),
                s("expanded-rhs", in -> a(in.off(2, 3), in.ex(3, 4))),
                s("mismatch", in -> a(in.t(2, 3), in.t(2, 3))),
                s("1-d", in -> a(in.t(3), in.t(3, 4))),
                s("mixed-dtypes", in -> a(in.t(2, 3), in.t(FLOAT64, 3, 4)))));
        // (self, mat1, mat2, beta, alpha); null = 1
        t.add(op(
                MatmulOps.ADDMM,
                s("broadcast", in -> a(in.t(4), in.t(2, 3), in.t(3, 4), null, null)),
                s("beta-alpha", in -> a(in.t(2, 4), in.t(2, 3), in.t(3, 4), 2L, 3L)),
                s("0-d", in -> a(in.t(), in.t(2, 3), in.t(3, 4), null, null)),
                s("transposed", in -> a(in.nc(2, 4), in.nc(2, 3), in.nc(3, 4), null, null)),
                s("expanded", in -> a(in.ex(2, 4), in.ex(2, 3), in.off(3, 4), 1L, 2L)),
                s("empty", in -> a(in.t(1), in.t(0, 3), in.t(3, 1), null, null)),
                s("bad-self", in -> a(in.t(3), in.t(2, 3), in.t(3, 4), null, null)),
                s("mismatch", in -> a(in.t(4), in.t(2, 3), in.t(2, 4), null, null))));
        // (self, mat2)
        t.add(op(
                MatmulOps.BMM,
                s("2x(2x3@3x4)", in -> a(in.t(2, 2, 3), in.t(2, 3, 4))),
                s("transposed", in -> a(in.nc(2, 2, 3), in.nc(2, 3, 4))),
                s("empty", in -> a(in.t(0, 2, 3), in.t(0, 3, 4))),
                s("expanded", in -> a(in.ex(2, 2, 3), in.off(2, 3, 4))),
                s("batch-mismatch", in -> a(in.t(2, 2, 3), in.t(3, 3, 4))),
                s("2-d", in -> a(in.t(2, 3), in.t(3, 4)))));
        // (self, batch1, batch2, beta, alpha); null = 1
        t.add(op(
                MatmulOps.BADDBMM,
                s("broadcast", in -> a(in.t(4), in.t(2, 2, 3), in.t(2, 3, 4), null, null)),
                s("beta-alpha", in -> a(in.t(2, 2, 4), in.t(2, 2, 3), in.t(2, 3, 4), 2L, 3L)),
                s("transposed", in -> a(in.nc(2, 2, 4), in.nc(2, 2, 3), in.nc(2, 3, 4), null, null)),
                s("expanded", in -> a(in.off(2, 2, 4), in.off(2, 2, 3), in.ex(2, 3, 4), 2L, 1L)),
                s("empty", in -> a(in.t(0, 2, 4), in.t(0, 2, 3), in.t(0, 3, 4), null, null)),
                s("bad-self", in -> a(in.t(3), in.t(2, 2, 3), in.t(2, 3, 4), null, null)),
                s("2-d", in -> a(in.t(2, 4), in.t(2, 3), in.t(3, 4), null, null))));
        // (self, vec)
        t.add(op(
                MatmulOps.MV,
                s("2x3@3", in -> a(in.t(2, 3), in.t(3))),
                s("transposed", in -> a(in.nc(2, 3), in.nc(3))),
                s("empty", in -> a(in.t(0, 3), in.t(3))),
                s("k=0", in -> a(in.t(2, 0), in.t(0))),
                s("expanded", in -> a(in.ex(2, 3), in.ex(3))),
                s("offset", in -> a(in.off(2, 3), in.off(3))),
                s("mismatch", in -> a(in.t(2, 3), in.t(2))),
                s("1-d", in -> a(in.t(3), in.t(3)))));
        // (self, other)
        for (OpDef op : List.of(MatmulOps.DOT, MatmulOps.VDOT)) {
            t.add(op(
                    op,
                    s("3", in -> a(in.t(3), in.t(3))),
                    s("strided", in -> a(in.nc(3), in.nc(3))),
                    s("empty", in -> a(in.t(0), in.t(0))),
                    s("expanded", in -> a(in.ex(3), in.off(3))),
                    s("mismatch", in -> a(in.t(3), in.t(2))),
                    s("2-d", in -> a(in.t(2, 3), in.t(3))),
                    s("mixed-dtypes", in -> a(in.t(3), in.t(FLOAT64, 3)))));
        }
        t.add(op(
                MatmulOps.OUTER,
                s("3x4", in -> a(in.t(3), in.t(4))),
                s("strided", in -> a(in.nc(3), in.nc(4))),
                s("empty", in -> a(in.t(0), in.t(4))),
                s("expanded", in -> a(in.ex(3), in.off(4))),
                s("promote", in -> a(in.t(3), in.t(INT64, 2))),
                s("0-d", in -> a(in.t(), in.t(3)))));
        // (self, other): every rank combination ATen's matmul distinguishes.
        t.add(op(
                MatmulOps.MATMUL,
                s("1x1", in -> a(in.t(3), in.t(3))),
                s("2x1", in -> a(in.t(2, 3), in.t(3))),
                s("1x2", in -> a(in.t(3), in.t(3, 4))),
                s("2x2", in -> a(in.t(2, 3), in.t(3, 4))),
                s("3x2-folded", in -> a(in.t(2, 2, 3), in.t(3, 4))),
                s("2x3", in -> a(in.t(2, 3), in.t(4, 3, 5))),
                s("3x1", in -> a(in.t(2, 2, 3), in.t(3))),
                s("1x3", in -> a(in.t(3), in.t(2, 3, 4))),
                s("broadcast-batch", in -> a(in.t(2, 1, 2, 3), in.t(3, 3, 4))),
                s("transposed", in -> a(in.nc(2, 2, 3), in.nc(3, 4))),
                s("transposed-batch", in -> a(in.nc(2, 2, 3), in.nc(2, 3, 4))),
                s("expanded-batch", in -> a(in.ex(2, 2, 3), in.off(3, 4))),
                s("expanded-rhs", in -> a(in.off(2, 3), in.ex(2, 3, 4))),
                s("empty", in -> a(in.t(0, 2, 3), in.t(3, 4))),
                s("0-d", in -> a(in.t(), in.t(3))),
                s("mismatch", in -> a(in.t(2, 3), in.t(2, 3)))));
    }

    /**
     * Random ops draw from this generator, so that the sweep leaves the default one alone; the sweep compares no values
     * of random ops, only the meta device's shapes, strides, dtypes and refusals.
     */
    private static final Generator GEN = new Generator();

    private static void random(List<Entry> t) {
        // Factories: (size, generator, dtype, device) with the swept dtype and the device under test.
        for (OpDef op : List.of(RandomOps.RAND, RandomOps.RANDN)) {
            t.add(op(
                    op,
                    s("2x3", in -> a(ls(2, 3), GEN, in.dtype(), in.device())),
                    s("0-d", in -> a(ls(), GEN, in.dtype(), in.device())),
                    s("empty", in -> a(ls(0, 3), GEN, in.dtype(), in.device())),
                    s("vectorised", in -> a(ls(40), GEN, in.dtype(), in.device())),
                    s("default-dtype", in -> a(ls(2), GEN, null, in.device())),
                    s("negative-size", in -> a(ls(2, -1), GEN, in.dtype(), in.device()))));
        }
        // (Double mean, Double std, size, generator, dtype, device)
        t.add(op(
                RandomOps.NORMAL_FLOAT_FLOAT,
                s("2x3", in -> a(1.0, 2.0, ls(2, 3), GEN, in.dtype(), in.device())),
                s("std-0", in -> a(0.0, 0.0, ls(3), GEN, in.dtype(), in.device())),
                s("empty", in -> a(0.0, 1.0, ls(0), GEN, in.dtype(), in.device())),
                s("default-dtype", in -> a(0.0, 1.0, ls(2), GEN, null, in.device())),
                s("negative-std", in -> a(0.0, -1.0, ls(2), GEN, in.dtype(), in.device())),
                s("negative-size", in -> a(0.0, 1.0, ls(-2), GEN, in.dtype(), in.device()))));
        // (Long low, Long high, size, generator, dtype, device)
        t.add(op(
                RandomOps.RANDINT,
                s("0-10", in -> a(0L, 10L, ls(2, 3), GEN, in.dtype(), in.device())),
                s("negative-low", in -> a(-3L, 3L, ls(4), GEN, in.dtype(), in.device())),
                s("empty", in -> a(0L, 2L, ls(0, 2), GEN, in.dtype(), in.device())),
                s("default-dtype", in -> a(0L, 5L, ls(2), GEN, null, in.device())),
                s("wide", in -> a(0L, 1000L, ls(3), GEN, in.dtype(), in.device())),
                s("low-not-below-high", in -> a(3L, 3L, ls(2), GEN, in.dtype(), in.device())),
                s("negative-size", in -> a(0L, 2L, ls(-1), GEN, in.dtype(), in.device()))));
        // (Long n, generator, dtype, device)
        t.add(op(
                RandomOps.RANDPERM,
                s("5", in -> a(5L, GEN, in.dtype(), in.device())),
                s("1", in -> a(1L, GEN, in.dtype(), in.device())),
                s("0", in -> a(0L, GEN, in.dtype(), in.device())),
                s("default-dtype", in -> a(4L, GEN, null, in.device())),
                s("beyond-int8", in -> a(200L, GEN, in.dtype(), in.device())),
                s("negative", in -> a(-1L, GEN, in.dtype(), in.device()))));
        // The functional forms of the in-place fills: (self, parameters..., generator)
        t.add(op(
                RandomOps.UNIFORM,
                unary(0.0, 1.0, GEN),
                s("range", in -> a(in.t(2, 3), -2.0, 3.0, GEN)),
                s("reversed", in -> a(in.t(2, 3), 2.0, 1.0, GEN)),
                s("infinite", in -> a(in.t(2, 3), 0.0, Double.POSITIVE_INFINITY, GEN)),
                s("beyond-float16", in -> a(in.t(2, 3), 0.0, 1e5, GEN))));
        t.add(op(
                RandomOps.NORMAL_FUNCTIONAL,
                unary(0.0, 1.0, GEN),
                s("std-0", in -> a(in.t(2, 3), 1.0, 0.0, GEN)),
                s("negative-std", in -> a(in.t(2, 3), 0.0, -1.0, GEN)),
                s("nan-std", in -> a(in.t(2, 3), 0.0, Double.NaN, GEN))));
        t.add(op(RandomOps.EXPONENTIAL, unary(1.5, GEN), s("zero-lambda", in -> a(in.t(2, 3), 0.0, GEN))));
        t.add(op(RandomOps.GEOMETRIC, unary(0.25, GEN), s("p-1", in -> a(in.t(2, 3), 1.0, GEN))));
        t.add(op(RandomOps.CAUCHY, unary(0.0, 2.0, GEN), s("zero-sigma", in -> a(in.t(2, 3), 0.0, 0.0, GEN))));
        t.add(op(RandomOps.LOG_NORMAL, unary(1.0, 2.0, GEN), s("zero-std", in -> a(in.t(2, 3), 1.0, 0.0, GEN))));
        t.add(op(
                RandomOps.BERNOULLI_P,
                unary(0.5, GEN),
                s("p-0", in -> a(in.t(2, 3), 0.0, GEN)),
                s("p-1.5", in -> a(in.t(2, 3), 1.5, GEN))));
        t.add(op(RandomOps.RANDOM, unary(GEN)));
        // (self, Long from, Long to or null, generator)
        t.add(op(
                RandomOps.RANDOM_FROM,
                unary(0L, 5L, GEN),
                s("to-max", in -> a(in.t(2, 3), 1L, null, GEN)),
                s("full-range", in -> a(in.t(2, 3), Long.MIN_VALUE, null, GEN)),
                s("negative-from", in -> a(in.t(2, 3), -3L, 3L, GEN)),
                s("wide", in -> a(in.t(2, 3), 0L, 1000L, GEN)),
                s("beyond-float-precision", in -> a(in.t(2, 3), 0L, (1L << 60) + 1, GEN)),
                s("from-not-below-to", in -> a(in.t(2, 3), 5L, 5L, GEN))));
        // (self, Tensor p, generator): p broadcasts to self; its values are checked on the data.
        t.add(op(
                RandomOps.BERNOULLI_TENSOR,
                s("same", in -> a(in.t(2, 3), in.unit(FLOAT32, 2, 3), GEN)),
                s("broadcast", in -> a(in.t(2, 3), in.unit(FLOAT64, 3), GEN)),
                s("0-d", in -> a(in.t(), in.unit(FLOAT32), GEN)),
                s("empty", in -> a(in.t(0, 3), in.unit(FLOAT32, 3), GEN)),
                s("transposed", in -> a(in.nc(3, 4), in.unit(FLOAT32, 3, 1), GEN)),
                s("swept-p", in -> a(in.t(FLOAT32, 2, 3), in.unit(2, 3), GEN)),
                s("p-out-of-range", in -> a(in.t(2, 3), in.t(FLOAT32, 2, 3), GEN)),
                s("mismatch", in -> a(in.t(2, 3), in.unit(FLOAT32, 4), GEN)),
                s("p-wider", in -> a(in.t(3), in.unit(FLOAT32, 2, 3), GEN))));
        // (self, generator): self holds the probabilities.
        t.add(op(
                RandomOps.BERNOULLI,
                s("2x3", in -> a(in.unit(2, 3), GEN)),
                s("0-d", in -> a(in.unit(), GEN)),
                s("empty", in -> a(in.unit(0, 3), GEN)),
                s("transposed", in -> a(in.unitNc(3, 4), GEN)),
                s("out-of-range", in -> a(in.t(2, 3), GEN))));
        // (self, Long num_samples, Boolean replacement, generator): rows of non-negative weights.
        t.add(op(
                RandomOps.MULTINOMIAL,
                s("rows", in -> a(in.unit(2, 4), 2L, false, GEN)),
                s("replacement", in -> a(in.unit(2, 3), 5L, true, GEN)),
                s("1-d", in -> a(in.unit(4), 3L, false, GEN)),
                s("one-sample", in -> a(in.unit(3), 1L, true, GEN)),
                s("transposed", in -> a(in.unitNc(3, 4), 2L, true, GEN)),
                s("empty-rows", in -> a(in.unit(0, 3), 2L, true, GEN)),
                s("negative-weights", in -> a(in.t(2, 3), 1L, false, GEN)),
                s("too-many", in -> a(in.unit(3), 4L, false, GEN)),
                s("zero-samples", in -> a(in.unit(3), 0L, true, GEN)),
                s("0-d", in -> a(in.unit(), 1L, true, GEN)),
                s("3-d", in -> a(in.unit(2, 2, 2), 1L, true, GEN))));
        // (Tensor mean, Double std, generator)
        t.add(op(
                RandomOps.NORMAL_TENSOR_FLOAT,
                unary(1.0, GEN),
                s("std-0", in -> a(in.t(2, 3), 0.0, GEN)),
                s("negative-std", in -> a(in.t(2, 3), -1.0, GEN))));
        // (Double mean, Tensor std, generator): std's values are checked on the data.
        t.add(op(
                RandomOps.NORMAL_FLOAT_TENSOR,
                s("2x3", in -> a(1.0, in.unit(2, 3), GEN)),
                s("0-d", in -> a(0.0, in.unit(), GEN)),
                s("empty", in -> a(0.0, in.unit(0, 3), GEN)),
                s("transposed", in -> a(0.0, in.unitNc(3, 4), GEN)),
                s("negative-std", in -> a(0.0, in.t(2, 3), GEN))));
        // (Tensor mean, Tensor std, generator): broadcast shape, mean's dtype.
        t.add(op(
                RandomOps.NORMAL_TENSOR_TENSOR,
                s("same", in -> a(in.t(2, 3), in.unit(2, 3), GEN)),
                s("broadcast", in -> a(in.t(2, 1), in.unit(FLOAT32, 3), GEN)),
                s("std-wider", in -> a(in.t(3), in.unit(FLOAT64, 2, 3), GEN)),
                s("0-d", in -> a(in.t(), in.unit(), GEN)),
                s("empty", in -> a(in.t(0, 3), in.unit(3), GEN)),
                s("transposed", in -> a(in.nc(3, 4), in.unitNc(3, 4), GEN)),
                s("negative-std", in -> a(in.t(2, 3), in.t(2, 3), GEN)),
                s("mismatch", in -> a(in.t(2, 3), in.unit(4), GEN))));
        // (self, generator, dtype or null, device or null): the factory with self's shape, dtype and device.
        for (OpDef op : List.of(RandomOps.RAND_LIKE, RandomOps.RANDN_LIKE)) {
            t.add(op(
                    op,
                    unary(GEN, null, null),
                    s("float64", in -> a(in.t(2, 3), GEN, FLOAT64, null)),
                    s("int64", in -> a(in.t(2, 3), GEN, INT64, null))));
        }
        // (self, Long low, Long high, generator, dtype or null, device or null)
        t.add(op(
                RandomOps.RANDINT_LIKE,
                unary(0L, 5L, GEN, null, null),
                s("float64", in -> a(in.t(2, 3), -2L, 2L, GEN, FLOAT64, null)),
                s("wide", in -> a(in.t(2, 3), 0L, 1000L, GEN, null, null)),
                s("low-not-below-high", in -> a(in.t(2, 3), 1L, 0L, GEN, null, null))));
    }

    private static void reductions(List<Entry> t) {
        // (self, long[] dims or null, Boolean keepdim, DType dtype or null)
        for (OpDef op : List.of(
                ReductionOps.SUM, ReductionOps.NANSUM, ReductionOps.PROD, ReductionOps.MEAN, ReductionOps.NANMEAN)) {
            t.add(op(
                    op,
                    reduce((x, d, k) -> a(x, d, k, null)),
                    s("dtype-float64", in -> a(in.t(2, 3), ls(0), false, FLOAT64)),
                    s("dtype-int32", in -> a(in.t(2, 3), null, false, INT32))));
        }
        // (self, long[] dims or null, Boolean keepdim)
        for (OpDef op : List.of(ReductionOps.AMAX, ReductionOps.AMIN, ReductionOps.ALL, ReductionOps.ANY)) {
            t.add(op(op, reduce((x, d, k) -> a(x, d, k))));
        }
        // (self, long[] dims, Boolean keepdim): its schema's dim is not optional, so "all dims" lists them
        t.add(op(ReductionOps.LOGSUMEXP, reduce((x, d, k) -> a(x, d != null ? d : allDims(x), k))));
        // (self)
        t.add(op(ReductionOps.MAX_ALL, unary()));
        t.add(op(ReductionOps.MIN_ALL, unary()));
        // (self, Long dim, Boolean keepdim) -> (values, indices)
        for (OpDef op : List.of(ReductionOps.MAX_DIM, ReductionOps.MIN_DIM)) {
            t.add(op(op, alongDim((x, d) -> a(x, d, false)), s("keepdim", in -> a(in.t(2, 3, 4), 1L, true))));
        }
        // (self, Long dim or null, Boolean keepdim)
        for (OpDef op : List.of(ReductionOps.ARGMAX, ReductionOps.ARGMIN)) {
            t.add(op(
                    op,
                    alongDim((x, d) -> a(x, d, false)),
                    s("flat", in -> a(in.t(2, 3), null, false)),
                    s("flat-keepdim", in -> a(in.t(2, 3), null, true)),
                    s("flat-empty", in -> a(in.t(0, 3), null, false))));
        }
        // (self, long[] dims or null, Number correction or null, Boolean keepdim)
        for (OpDef op : List.of(ReductionOps.VAR, ReductionOps.STD)) {
            t.add(op(
                    op,
                    reduce((x, d, k) -> a(x, d, null, k)),
                    s("correction-0", in -> a(in.t(2, 3), ls(1), 0L, false)),
                    s("correction-2.5", in -> a(in.t(3, 4), null, 2.5, true))));
        }
        // (self, Number ord, long[] dims or null, Boolean keepdim, DType dtype or null)
        double inf = Double.POSITIVE_INFINITY;
        t.add(op(
                ReductionOps.VECTOR_NORM,
                reduce((x, d, k) -> a(x, 2.0, d, k, null)),
                s("ord-1", in -> a(in.t(2, 3), 1.0, ls(1), false, null)),
                s("ord-inf", in -> a(in.nc(3, 4), inf, ls(0), false, null)),
                s("ord-0", in -> a(in.t(2, 3), 0.0, null, false, null)),
                s("ord-3.5", in -> a(in.t(2, 3), 3.5, null, true, null)),
                s("ord-inf-empty", in -> a(in.t(0, 3), inf, null, false, null)),
                s("ord-neg-empty-dim", in -> a(in.t(0, 3), -1.0, ls(0), false, null)),
                s("dtype-float64", in -> a(in.t(2, 3), 2.0, null, false, FLOAT64)),
                s("dtype-complex64", in -> a(in.t(2, 3), 2.0, null, false, COMPLEX64))));
        // (self, Long dim, DType dtype or null)
        for (OpDef op :
                List.of(ReductionOps.CUMSUM, ReductionOps.CUMPROD, ReductionOps.SOFTMAX, ReductionOps.LOG_SOFTMAX)) {
            t.add(op(
                    op,
                    alongDim((x, d) -> a(x, d, null)),
                    s("dtype-float64", in -> a(in.t(2, 3), 1L, FLOAT64)),
                    s("dtype-int64", in -> a(in.t(2, 3), 0L, INT64))));
        }
        // (grad_output, output, Long dim, DType input_dtype)
        for (OpDef op : List.of(ReductionOps.SOFTMAX_BACKWARD_DATA, ReductionOps.LOG_SOFTMAX_BACKWARD_DATA)) {
            t.add(op(
                    op,
                    s("dim1", in -> a(in.t(2, 3), in.unit(2, 3), 1L, in.dtype())),
                    s("dim-neg", in -> a(in.t(2, 3, 4), in.unit(2, 3, 4), -2L, in.dtype())),
                    s("0-d", in -> a(in.t(), in.unit(), 0L, in.dtype())),
                    s("empty", in -> a(in.t(0, 3), in.unit(0, 3), 1L, in.dtype())),
                    s("transposed", in -> a(in.nc(3, 4), in.unit(3, 4), 0L, in.dtype())),
                    s("expanded", in -> a(in.ex(3, 4), in.off(3, 4), 0L, in.dtype())),
                    s("input-dtype-float64", in -> a(in.t(2, 3), in.unit(2, 3), 1L, FLOAT64)),
                    s("shape-mismatch", in -> a(in.t(2, 3), in.unit(3, 2), 1L, in.dtype())),
                    s("dim-out-of-range", in -> a(in.t(2, 3), in.unit(2, 3), 2L, in.dtype()))));
        }
    }

    private static void search(List<Entry> t) {
        // (sorted_sequence, self, Boolean out_int32, Boolean right, String side or null, Tensor sorter or null)
        t.add(op(
                SearchOps.SEARCHSORTED,
                s("1-d", in -> a(in.t(5), in.t(2, 3), false, false, null, null)),
                s("right", in -> a(in.t(5), in.t(4), false, true, null, null)),
                s("side-right", in -> a(in.t(5), in.t(4), false, false, "right", null)),
                s("out-int32", in -> a(in.t(5), in.t(3), true, false, "left", null)),
                s("batched", in -> a(in.t(2, 4), in.t(2, 3), false, false, null, null)),
                s("sorter", in -> a(in.t(4), in.t(3), false, false, null, idx(in, ls(2, 0, 3, 1), 4))),
                s("promote", in -> a(in.t(5), in.t(FLOAT64, 3), false, false, null, null)),
                s("0-d-values", in -> a(in.t(5), in.t(), false, false, null, null)),
                s("empty-values", in -> a(in.t(5), in.t(0), false, false, null, null)),
                s("empty-sequence", in -> a(in.t(0), in.t(3), false, false, null, null)),
                s("transposed", in -> a(in.nc(3, 4), in.nc(3, 5), false, true, null, null)),
                s("expanded", in -> a(in.ex(3, 4), in.off(3, 2), false, false, null, null)),
                s("batch-mismatch", in -> a(in.t(2, 4), in.t(3, 3), false, false, null, null)),
                s("0-d-values-batched", in -> a(in.t(2, 4), in.t(), false, false, null, null)),
                s("0-d-sequence", in -> a(in.t(), in.t(3), false, false, null, null)),
                s("bad-side", in -> a(in.t(5), in.t(3), false, false, "middle", null)),
                s("side-conflict", in -> a(in.t(5), in.t(3), false, true, "left", null)),
                s("sorter-shape", in -> a(in.t(4), in.t(3), false, false, null, idx(in, ls(0, 1, 2), 3))),
                s("sorter-dtype", in -> a(in.t(4), in.t(3), false, false, null, idx(in, INT32, ls(0, 1, 2, 3), 4))),
                s("sorter-out-of-range", in -> a(in.t(4), in.t(3), false, false, null, idx(in, ls(0, 1, 2, 7), 4)))));
        // (sorted_sequence, Scalar self, Boolean out_int32, Boolean right, String side or null, Tensor sorter or null)
        t.add(op(
                SearchOps.SEARCHSORTED_SCALAR,
                s("int", in -> a(in.t(5), sc(1), false, false, null, null)),
                s("float-right", in -> a(in.t(5), sc(0.5), true, true, null, null)),
                s("sorter", in -> a(in.t(3), sc(0), false, false, "right", idx(in, ls(1, 2, 0), 3))),
                s("empty", in -> a(in.t(0), sc(2), false, false, null, null)),
                s("strided", in -> a(in.nc(4), sc(-1), false, false, null, null)),
                s("2-d-sequence", in -> a(in.t(2, 3), sc(1), false, false, null, null)),
                s("complex", in -> a(in.t(3), Scalar.complex(1, 1), false, false, null, null)),
                s("sorter-out-of-range", in -> a(in.t(3), sc(0), false, false, null, idx(in, ls(-1, 0, 1), 3)))));
        // (self, boundaries, Boolean out_int32, Boolean right)
        t.add(op(
                SearchOps.BUCKETIZE,
                s("2x3", in -> a(in.t(2, 3), in.t(4), false, false)),
                s("right-int32", in -> a(in.t(3), in.t(4), true, true)),
                s("0-d", in -> a(in.t(), in.t(3), false, false)),
                s("empty", in -> a(in.t(0, 2), in.t(3), false, false)),
                s("transposed", in -> a(in.nc(3, 4), in.nc(5), false, true)),
                s("promote", in -> a(in.t(3), in.t(FLOAT64, 4), false, false)),
                s("2-d-boundaries", in -> a(in.t(3), in.t(2, 2), false, false))));
        // (Scalar self, boundaries, Boolean out_int32, Boolean right)
        t.add(op(
                SearchOps.BUCKETIZE_SCALAR,
                s("int", in -> a(sc(1), in.t(4), false, false)),
                s("float-right", in -> a(sc(-0.5), in.nc(4), true, true)),
                s("empty", in -> a(sc(1), in.t(0), false, false)),
                s("0-d-boundaries", in -> a(sc(1), in.t(), false, false))));
        // (self, Long bins, Double min, Double max); min == max takes the data's range.
        t.add(op(
                SearchOps.HISTC,
                s("data-range", in -> a(in.t(2, 3), 4L, 0.0, 0.0)),
                s("range", in -> a(in.t(2, 3), 5L, -1.0, 1.0)),
                s("0-d", in -> a(in.t(), 3L, 0.0, 0.0)),
                s("empty", in -> a(in.t(0, 3), 2L, 0.0, 0.0)),
                s("transposed", in -> a(in.nc(3, 4), 3L, -1.0, 0.5)),
                s("expanded", in -> a(in.ex(3, 4), 4L, 0.0, 0.0)),
                s("zero-bins", in -> a(in.t(2, 3), 0L, 0.0, 1.0)),
                s("min-above-max", in -> a(in.t(2, 3), 4L, 1.0, 0.0)),
                s("infinite", in -> a(in.t(2, 3), 4L, 0.0, Double.POSITIVE_INFINITY))));
        // (self, Tensor weights or null, Long minlength): the length is the data's.
        t.add(op(
                SearchOps.BINCOUNT,
                s("counts", in -> a(in.unit(5), null, 0L)),
                s("weights", in -> a(in.unit(4), in.t(FLOAT32, 4), 0L)),
                s("weights-int", in -> a(in.unit(4), in.t(INT64, 4), 3L)),
                s("minlength", in -> a(in.unit(3), null, 6L)),
                s("empty", in -> a(in.unit(0), null, 2L)),
                s("transposed", in -> a(in.unitNc(6), in.nc(FLOAT64, 6), 0L)),
                s("negative-values", in -> a(in.t(5), null, 0L)),
                s("2-d", in -> a(in.unit(2, 3), null, 0L)),
                s("weights-length", in -> a(in.unit(4), in.t(FLOAT32, 3), 0L)),
                s("negative-minlength", in -> a(in.unit(4), null, -1L))));
    }

    /** The {@code *_copy} variants: the same samples as their view ops. */
    private static void viewCopies(List<Entry> t) {
        t.add(op(
                ViewCopyOps.VIEW_COPY,
                s("flat", in -> a(in.t(2, 3), ls(6))),
                s("infer", in -> a(in.t(2, 3), ls(3, -1)))));
        t.add(op(ViewCopyOps.PERMUTE_COPY, s("3-d", in -> a(in.t(2, 3, 4), ls(2, 0, 1)))));
        t.add(op(
                ViewCopyOps.TRANSPOSE_COPY,
                s("2-d", in -> a(in.t(2, 3), 0L, 1L)),
                s("negative", in -> a(in.t(2, 3, 4), -1L, 0L))));
        t.add(op(ViewCopyOps.T_COPY, s("2-d", in -> a(in.t(2, 3))), s("1-d", in -> a(in.t(3)))));
        t.add(op(
                ViewCopyOps.EXPAND_COPY,
                s("broadcast", in -> a(in.t(3, 1), ls(3, 4), false)),
                s("new dims", in -> a(in.t(3), ls(2, 3), false))));
        t.add(op(
                ViewCopyOps.SQUEEZE_COPY,
                s("all", in -> a(in.t(2, 1, 3), null)),
                s("dim", in -> a(in.t(2, 1, 3), ls(1)))));
        t.add(op(ViewCopyOps.UNSQUEEZE_COPY, s("front", in -> a(in.t(2, 3), 0L)), s("back", in -> a(in.t(2, 3), -1L))));
        t.add(op(
                ViewCopyOps.SELECT_COPY,
                s("row", in -> a(in.t(4, 3), 0L, 1L)),
                s("negative", in -> a(in.t(4, 3), 1L, -1L))));
        t.add(op(
                ViewCopyOps.SLICE_COPY,
                s("range", in -> a(in.t(4, 3), 0L, 1L, 3L, 1L)),
                s("step", in -> a(in.t(5, 2), 0L, 0L, 5L, 2L))));
        t.add(op(
                ViewCopyOps.DIAGONAL_COPY,
                s("main", in -> a(in.t(3, 4), 0L, 0L, 1L)),
                s("above", in -> a(in.t(3, 4), 1L, 0L, 1L))));
        t.add(op(ViewCopyOps.ALIAS_COPY, s("2x3", in -> a(in.t(2, 3))), s("0-d", in -> a(in.t()))));
    }

    /** The {@code *_scatter} inverses of the view ops: src has the view's shape, or the size check refuses it. */
    private static void viewScatters(List<Entry> t) {
        // (self, src, Long dim, Long start or null, Long end or null, Long step)
        t.add(op(
                ViewScatterOps.SLICE_SCATTER,
                s("range", in -> a(in.t(4, 3), in.t(2, 3), 0L, 1L, 3L, 1L)),
                s("step", in -> a(in.t(4, 5), in.t(4, 3), 1L, null, null, 2L)),
                s("transposed", in -> a(in.nc(4, 3), in.nc(2, 3), 0L, -2L, null, 1L)),
                s("empty", in -> a(in.t(4, 3), in.t(0, 3), 0L, 2L, 2L, 1L)),
                s("src-size", in -> a(in.t(4, 3), in.t(3, 3), 0L, 1L, 3L, 1L))));
        // (self, src, Long dim, Long index)
        t.add(op(
                ViewScatterOps.SELECT_SCATTER,
                s("row", in -> a(in.t(4, 3), in.t(3), 0L, 1L)),
                s("negative", in -> a(in.t(4, 3), in.t(4), 1L, -1L)),
                s("offset", in -> a(in.off(4, 3), in.t(3), 0L, 2L)),
                s("0-d src", in -> a(in.t(3), in.t(), 0L, 2L)),
                s("out-of-range", in -> a(in.t(4, 3), in.t(3), 0L, 4L))));
        // (self, src, Long offset, Long dim1, Long dim2)
        t.add(op(
                ViewScatterOps.DIAGONAL_SCATTER,
                s("main", in -> a(in.t(3, 4), in.t(3), 0L, 0L, 1L)),
                s("above", in -> a(in.t(3, 4), in.t(3), 1L, 0L, 1L)),
                s("below, batched", in -> a(in.t(2, 3, 4), in.t(4, 2), -1L, 1L, 0L)),
                s("src-size", in -> a(in.t(3, 4), in.t(4), 0L, 0L, 1L))));
    }

    private static void shapes(List<Entry> t) {
        // (self, long[] size)
        t.add(op(ShapeOps.VIEW, reshapes()));
        t.add(op(ShapeOps.RESHAPE, reshapes()));
        // (self, long[] dims)
        t.add(op(
                ShapeOps.PERMUTE,
                s("3-d", in -> a(in.t(2, 3, 4), ls(2, 0, 1))),
                s("negative", in -> a(in.t(2, 3, 4), ls(-1, 0, 1))),
                s("0-d", in -> a(in.t(), ls())),
                s("empty", in -> a(in.t(0, 3), ls(1, 0))),
                s("transposed", in -> a(in.nc(3, 4), ls(1, 0))),
                s("repeated", in -> a(in.t(2, 3), ls(0, 0))),
                s("wrong-length", in -> a(in.t(2, 3), ls(0)))));
        // (self, Long dim0, Long dim1)
        t.add(op(
                ShapeOps.TRANSPOSE,
                s("2-d", in -> a(in.t(2, 3), 0L, 1L)),
                s("negative", in -> a(in.t(2, 3, 4), -1L, 0L)),
                s("0-d", in -> a(in.t(), 0L, -1L)),
                s("empty", in -> a(in.t(0, 3), 0L, 1L)),
                s("transposed", in -> a(in.nc(3, 4), 1L, 0L)),
                s("out-of-range", in -> a(in.t(2, 3), 0L, 2L))));
        // (self)
        t.add(op(ShapeOps.T, matrix()));
        t.add(op(ShapeOps.MT, matrix()));
        // (self, long[] size, Boolean implicit) and (self, long[] size)
        t.add(op(ShapeOps.EXPAND, expands(false)));
        t.add(op(ShapeOps.BROADCAST_TO, expands()));
        // (self, long[] dims or null)
        t.add(op(
                ShapeOps.SQUEEZE,
                s("all", in -> a(in.t(2, 1, 3), null)),
                s("dim", in -> a(in.t(2, 1, 3), ls(1))),
                s("dims", in -> a(in.t(1, 1, 3), ls(0, -2, 2))),
                s("0-d", in -> a(in.t(), null)),
                s("0-d-dim", in -> a(in.t(), ls(0))),
                s("empty", in -> a(in.t(0, 1), null)),
                s("transposed", in -> a(in.nc(1, 3), ls(0))),
                s("expanded", in -> a(in.ex(3, 1), null)),
                s("repeated", in -> a(in.t(2, 1, 3), ls(1, 1))),
                s("out-of-range", in -> a(in.t(2, 3), ls(2)))));
        // (self, Long dim)
        t.add(op(
                ShapeOps.UNSQUEEZE,
                s("front", in -> a(in.t(2, 3), 0L)),
                s("back", in -> a(in.t(2, 3), 2L)),
                s("negative", in -> a(in.t(2, 3), -1L)),
                s("0-d", in -> a(in.t(), 0L)),
                s("empty", in -> a(in.t(0, 3), 1L)),
                s("transposed", in -> a(in.nc(3, 4), 1L)),
                s("expanded", in -> a(in.ex(3, 4), 1L)),
                s("out-of-range", in -> a(in.t(2, 3), 3L))));
        // (self, Long start_dim, Long end_dim)
        t.add(op(
                ShapeOps.FLATTEN,
                s("all", in -> a(in.t(2, 3, 4), 0L, -1L)),
                s("inner", in -> a(in.t(2, 3, 4), 1L, 2L)),
                s("one-dim", in -> a(in.t(2, 3, 4), 1L, 1L)),
                s("0-d", in -> a(in.t(), 0L, -1L)),
                s("empty", in -> a(in.t(0, 3, 2), 1L, 2L)),
                s("transposed", in -> a(in.nc(2, 3, 4), 1L, 2L)),
                s("expanded", in -> a(in.ex(2, 3, 4), 0L, 1L)),
                s("reversed", in -> a(in.t(2, 3, 4), 2L, 1L))));
        // (self, Long dim, long[] sizes)
        t.add(op(
                ShapeOps.UNFLATTEN,
                s("2x3", in -> a(in.t(2, 6), 1L, ls(2, 3))),
                s("infer", in -> a(in.t(2, 6), -1L, ls(-1, 3))),
                s("empty", in -> a(in.t(0, 6), 1L, ls(3, 2))),
                s("transposed", in -> a(in.nc(6, 2), 0L, ls(2, 3))),
                s("no-sizes", in -> a(in.t(2, 6), 1L, ls())),
                s("bad-sizes", in -> a(in.t(2, 6), 1L, ls(4, 2))),
                s("0-d", in -> a(in.t(), 0L, ls(1)))));
        // (self, Long dim, Long start or null, Long end or null, Long step)
        t.add(op(
                ShapeOps.SLICE,
                s("range", in -> a(in.t(4, 3), 0L, 1L, 3L, 1L)),
                s("step", in -> a(in.t(4, 3), 1L, null, null, 2L)),
                s("negative", in -> a(in.t(4, 3), 0L, -2L, null, 1L)),
                s("beyond", in -> a(in.t(4, 3), 0L, 2L, 100L, 1L)),
                s("empty", in -> a(in.t(0, 3), 0L, 0L, 1L, 1L)),
                s("transposed", in -> a(in.nc(4, 3), 1L, 1L, null, 1L)),
                s("offset", in -> a(in.off(4, 3), 0L, 1L, null, 2L)),
                s("0-d", in -> a(in.t(), 0L, 0L, 1L, 1L)),
                s("zero-step", in -> a(in.t(4, 3), 0L, null, null, 0L))));
        // (self, Long dim, Long start, Long length)
        t.add(op(
                ShapeOps.NARROW,
                s("range", in -> a(in.t(4, 3), 0L, 1L, 2L)),
                s("negative", in -> a(in.t(4, 3), -1L, -2L, 2L)),
                s("empty-at-end", in -> a(in.t(4, 3), 0L, 4L, 0L)),
                s("transposed", in -> a(in.nc(4, 3), 1L, 1L, 2L)),
                s("exceeds", in -> a(in.t(4, 3), 0L, 3L, 2L)),
                s("0-d", in -> a(in.t(), 0L, 0L, 1L))));
        // (self, Long dim, Long index)
        t.add(op(
                ShapeOps.SELECT,
                s("row", in -> a(in.t(4, 3), 0L, 1L)),
                s("negative", in -> a(in.t(4, 3), 1L, -1L)),
                s("empty", in -> a(in.t(0, 3), 1L, 0L)),
                s("transposed", in -> a(in.nc(4, 3), 1L, 2L)),
                s("expanded", in -> a(in.ex(4, 3), 0L, 2L)),
                s("out-of-range", in -> a(in.t(4, 3), 0L, 4L)),
                s("0-d", in -> a(in.t(), 0L, 0L))));
        // (self, Long split_size, Long dim) -> Tensor[]
        t.add(op(
                ShapeOps.SPLIT,
                s("uneven", in -> a(in.t(5, 2), 2L, 0L)),
                s("dim-neg", in -> a(in.t(2, 6), 3L, -1L)),
                s("large", in -> a(in.t(2, 3), 10L, 0L)),
                s("empty", in -> a(in.t(0, 3), 0L, 0L)),
                s("transposed", in -> a(in.nc(3, 4), 3L, 1L)),
                s("negative", in -> a(in.t(2, 3), -1L, 0L)),
                s("0-d", in -> a(in.t(), 1L, 0L))));
        // (self, long[] split_sizes, Long dim) -> Tensor[]
        t.add(op(
                ShapeOps.SPLIT_WITH_SIZES,
                s("2+3", in -> a(in.t(5, 2), ls(2, 3), 0L)),
                s("with-0", in -> a(in.t(2, 6), ls(1, 0, 5), 1L)),
                s("transposed", in -> a(in.nc(3, 4), ls(1, 3), 1L)),
                s("bad-sum", in -> a(in.t(5, 2), ls(2, 2), 0L)),
                s("negative", in -> a(in.t(5, 2), ls(6, -1), 0L)),
                s("0-d", in -> a(in.t(), ls(1), 0L))));
        // (self, Long chunks, Long dim) -> Tensor[]
        t.add(op(
                ShapeOps.CHUNK,
                s("2-of-5", in -> a(in.t(5, 2), 2L, 0L)),
                s("3-of-2", in -> a(in.t(5, 2), 3L, 1L)),
                s("empty", in -> a(in.t(0, 2), 3L, 0L)),
                s("transposed", in -> a(in.nc(3, 4), 2L, 1L)),
                s("zero-chunks", in -> a(in.t(5, 2), 0L, 0L)),
                s("0-d", in -> a(in.t(), 1L, 0L))));
        // (self, Long dim) -> Tensor[]
        t.add(op(
                ShapeOps.UNBIND,
                s("dim0", in -> a(in.t(2, 3), 0L)),
                s("dim-neg", in -> a(in.t(2, 3), -1L)),
                s("empty", in -> a(in.t(0, 3), 0L)),
                s("empty-other", in -> a(in.t(2, 0), 0L)),
                s("transposed", in -> a(in.nc(3, 4), 1L)),
                s("0-d", in -> a(in.t(), 0L))));
        // (self, Long offset, Long dim1, Long dim2)
        t.add(op(
                ShapeOps.DIAGONAL,
                s("main", in -> a(in.t(3, 4), 0L, 0L, 1L)),
                s("above", in -> a(in.t(3, 4), 1L, 0L, 1L)),
                s("below-batched", in -> a(in.t(2, 3, 4), -1L, 1L, 2L)),
                s("off-the-end", in -> a(in.t(3, 4), 10L, 0L, 1L)),
                s("empty", in -> a(in.t(0, 3), 0L, 0L, 1L)),
                s("transposed", in -> a(in.nc(3, 4), 1L, 1L, 0L)),
                s("offset", in -> a(in.off(3, 4), -1L, 0L, 1L)),
                s("same-dims", in -> a(in.t(3, 4), 0L, 1L, 1L)),
                s("1-d", in -> a(in.t(3), 0L, 0L, 1L))));
        // (self, long[] source, long[] destination)
        t.add(op(
                ShapeOps.MOVEDIM,
                s("one", in -> a(in.t(2, 3, 4), ls(0), ls(2))),
                s("two", in -> a(in.t(2, 3, 4), ls(0, 1), ls(-1, 0))),
                s("0-d", in -> a(in.t(), ls(0), ls(0))),
                s("empty", in -> a(in.t(0, 3), ls(0), ls(1))),
                s("transposed", in -> a(in.nc(3, 4), ls(1), ls(0))),
                s("lengths", in -> a(in.t(2, 3), ls(0), ls(0, 1))),
                s("repeated", in -> a(in.t(2, 3), ls(0, 0), ls(0, 1)))));
        // (self, long[] size, long[] stride, Long storage_offset or null). It reads storage, so a strided
        // input legitimately gives other values than its contiguous copy: shapes only.
        t.add(op(
                ShapeOps.AS_STRIDED,
                s("transpose", in -> a(in.t(2, 3), ls(3, 2), ls(1, 3), null)),
                s("offset", in -> a(in.t(2, 3), ls(2), ls(2), 1L)),
                s("empty", in -> a(in.t(2, 3), ls(0), ls(1), null)),
                s("0-d", in -> a(in.t(), ls(), ls(), null)),
                s("out-of-bounds", in -> a(in.t(2, 3), ls(3, 3), ls(3, 1), null)),
                shapesOnly("transposed", in -> a(in.nc(3, 4), ls(4), ls(3), null))));
    }

    private static void sort(List<Entry> t) {
        // (self, Boolean stable, Long dim, Boolean descending)
        for (OpDef op : List.of(SortOps.SORT, SortOps.ARGSORT)) {
            t.add(op(
                    op,
                    alongDim((x, d) -> a(x, false, d, false)),
                    s("descending", in -> a(in.t(2, 3), true, 0L, true)),
                    s("stable-descending-transposed", in -> a(in.nc(3, 4), true, -1L, true))));
        }
        t.add(op(SortOps.MSORT, unary(), s("batched", in -> a(in.t(3, 2, 2)))));
        // (self, Long k, Long dim, Boolean largest, Boolean sorted)
        t.add(op(
                SortOps.TOPK,
                s("k2", in -> a(in.t(2, 5), 2L, 1L, true, true)),
                s("smallest", in -> a(in.t(4, 3), 3L, 0L, false, true)),
                s("unsorted", in -> a(in.t(2, 3, 4), 2L, -2L, true, false)),
                s("k0", in -> a(in.t(2, 3), 0L, -1L, true, true)),
                s("all", in -> a(in.t(2, 3), 3L, -1L, false, true)),
                s("0-d", in -> a(in.t(), 1L, 0L, true, true)),
                s("empty", in -> a(in.t(0, 3), 2L, 1L, true, true)),
                s("empty-dim", in -> a(in.t(2, 0), 0L, 1L, true, true)),
                s("transposed", in -> a(in.nc(3, 4), 2L, 0L, true, true)),
                s("expanded", in -> a(in.ex(3, 4), 2L, 0L, false, true)),
                s("offset", in -> a(in.off(2, 3), 1L, 1L, true, true)),
                s("k-too-large", in -> a(in.t(2, 3), 4L, 1L, true, true)),
                s("k-negative", in -> a(in.t(2, 3), -1L, 1L, true, true)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 1L, 2L, true, true))));
        // (self, Long k, Long dim, Boolean keepdim)
        t.add(op(
                SortOps.KTHVALUE,
                s("k2", in -> a(in.t(2, 5), 2L, 1L, false)),
                s("keepdim", in -> a(in.t(4, 3), 4L, 0L, true)),
                s("dim-neg", in -> a(in.t(2, 3, 4), 1L, -2L, false)),
                s("0-d", in -> a(in.t(), 1L, 0L, false)),
                s("empty", in -> a(in.t(0, 3), 1L, 1L, false)),
                s("empty-dim", in -> a(in.t(2, 0), 1L, 1L, false)),
                s("transposed", in -> a(in.nc(3, 4), 2L, 0L, true)),
                s("expanded", in -> a(in.ex(3, 4), 3L, 0L, false)),
                s("k-too-large", in -> a(in.t(2, 3), 4L, 1L, false)),
                s("k-zero", in -> a(in.t(2, 3), 0L, 1L, false)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 1L, 2L, false))));
        // (self, Long dim)
        t.add(op(SortOps.CUMMAX, alongDim((x, d) -> a(x, d))));
        t.add(op(SortOps.CUMMIN, alongDim((x, d) -> a(x, d))));
        // The unique ops: no meta kernel (the number of groups is the data's). (self, Boolean sorted, inverse, counts)
        t.add(op(
                SortOps.UNIQUE,
                s("values", in -> a(in.t(2, 5), true, false, false)),
                s("inverse-counts", in -> a(in.t(2, 5), true, true, true)),
                s("0-d", in -> a(in.t(), true, true, true)),
                s("empty", in -> a(in.t(0, 3), false, true, true)),
                s("transposed", in -> a(in.nc(3, 4), true, true, false)),
                s("expanded", in -> a(in.ex(3, 4), true, false, true))));
        // (self, Long dim, Boolean sorted, Boolean return_inverse, Boolean return_counts)
        t.add(op(
                SortOps.UNIQUE_DIM,
                s("dim0", in -> a(in.ex(3, 4), 0L, true, true, true)),
                s("dim1", in -> a(in.t(2, 5), 1L, true, false, true)),
                s("dim-neg", in -> a(in.t(2, 3, 2), -1L, true, true, false)),
                s("transposed", in -> a(in.nc(3, 4), 1L, true, true, true)),
                s("empty-dim", in -> a(in.t(0, 3), 0L, true, true, true)),
                s("empty-other-dim", in -> a(in.t(0, 3), 1L, true, false, false)),
                s("0-d", in -> a(in.t(), 0L, true, false, false)),
                s("dim-out-of-range", in -> a(in.t(2, 3), 2L, true, false, false))));
        // (self, Boolean return_inverse, Boolean return_counts, Long dim or null)
        t.add(op(
                SortOps.UNIQUE_CONSECUTIVE,
                s("flat", in -> a(in.ex(3, 4), true, true, null)),
                s("1-d-dim0", in -> a(in.t(6), true, false, 0L)),
                s("dim0", in -> a(in.ex(3, 4), false, true, 0L)),
                s("dim1", in -> a(in.nc(3, 4), true, true, 1L)),
                s("0-d", in -> a(in.t(), true, true, null)),
                s("empty", in -> a(in.t(0, 3), true, true, null)),
                s("dim-out-of-range", in -> a(in.t(2, 3), false, false, 2L))));
    }

    private static void ternaryOps(List<Entry> t) {
        // (Tensor condition, self, other): self and other are tensors or Java scalars.
        t.add(op(
                TernaryOps.WHERE,
                s("same", in -> a(in.mask(2, 3), in.t(2, 3), in.t(2, 3))),
                s("broadcast", in -> a(in.mask(3, 1), in.t(1, 4), in.t(4))),
                s("scalar-other", in -> a(in.mask(2, 3), in.t(2, 3), 0L)),
                s("scalar-self", in -> a(in.mask(2, 3), 1.5, in.t(2, 3))),
                s("0-d", in -> a(in.mask(), in.t(), in.t())),
                s("empty", in -> a(in.mask(0, 3), in.t(3), in.t(0, 1))),
                s("transposed", in -> a(in.nc(BOOL, 3, 4), in.nc(3, 4), in.t(4))),
                s("expanded", in -> a(in.mask(3, 4), in.ex(3, 4), in.off(3, 4))),
                s("swept-condition", in -> a(in.t(2, 3), in.t(FLOAT32, 2, 3), in.t(FLOAT32, 2, 3))),
                s("mismatch", in -> a(in.mask(2, 3), in.t(3, 2), in.t(3)))));
        // (self, end, Number weight): self and end of one floating or complex dtype.
        t.add(op(
                TernaryOps.LERP,
                s("same", in -> a(in.t(2, 3), in.t(2, 3), 0.25)),
                s("broadcast", in -> a(in.t(2, 1, 3), in.t(4, 3), 0.75)),
                s("0-d", in -> a(in.t(), in.t(), 0.5)),
                s("empty", in -> a(in.t(0, 3), in.t(3), 0.5)),
                s("transposed", in -> a(in.nc(3, 4), in.nc(3, 4), 0.25)),
                s("expanded", in -> a(in.ex(3, 4), in.off(3, 4), 0.75)),
                s("mixed-dtypes", in -> a(in.t(2, 3), in.t(FLOAT64, 2, 3), 0.5)),
                s("mismatch", in -> a(in.t(2, 3), in.t(4, 3), 0.5))));
        // (self, end, Tensor weight)
        t.add(op(TernaryOps.LERP_TENSOR, ternary()));
        // (self, tensor1, tensor2, Number value)
        for (OpDef op : List.of(TernaryOps.ADDCMUL, TernaryOps.ADDCDIV)) {
            t.add(op(
                    op,
                    ternary(2L),
                    s("float-value", in -> a(in.t(2, 3), in.t(2, 3), in.t(2, 3), 0.5)),
                    s("promote", in -> a(in.t(2, 3), in.t(INT64, 2, 3), in.t(FLOAT32, 3), 1L))));
        }
        // (self, Tensor mask, Java scalar value)
        t.add(op(
                TernaryOps.MASKED_FILL,
                s("float", in -> a(in.t(2, 3), in.mask(2, 3), 1.5)),
                s("broadcast-mask", in -> a(in.t(2, 3), in.mask(3), 2L)),
                s("mask-wider", in -> a(in.t(3), in.mask(2, 3), true)),
                s("0-d", in -> a(in.t(), in.mask(), 0L)),
                s("empty", in -> a(in.t(0, 3), in.mask(3), 1L)),
                s("transposed", in -> a(in.nc(3, 4), in.nc(BOOL, 3, 4), -1L)),
                s("expanded", in -> a(in.ex(3, 4), in.mask(3, 4), 1L)),
                s("offset", in -> a(in.off(2, 3), in.mask(3), 1L)),
                s("overflow", in -> a(in.t(2, 3), in.mask(2, 3), 1000L)),
                s("swept-mask", in -> a(in.t(FLOAT32, 2, 3), in.t(2, 3), 1L))));
        // (self, Tensor mask, 0-d Tensor value)
        t.add(op(
                TernaryOps.MASKED_FILL_TENSOR,
                s("same-dtype", in -> a(in.t(2, 3), in.mask(2, 3), in.t())),
                s("float64-value", in -> a(in.t(2, 3), in.mask(3), in.t(FLOAT64))),
                s("0-d", in -> a(in.t(), in.mask(), in.t())),
                s("empty", in -> a(in.t(0, 3), in.mask(3), in.t())),
                s("transposed", in -> a(in.nc(3, 4), in.nc(BOOL, 3, 4), in.t())),
                s("overflowing-value", in -> a(in.t(2, 3), in.mask(2, 3), in.value(FLOAT64, 1000))),
                s("1-d-value", in -> a(in.t(2, 3), in.mask(2, 3), in.t(1)))));
    }

    // ---- convolution and pooling (ConvOps, PoolOps) ----------------------------------------------------------

    private static void convolutionAndPooling(List<Entry> t) {
        long[] one = ls(1), zero = ls(0);
        // (input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
        t.add(op(
                ConvOps.CONVOLUTION,
                s("2d", in -> a(in.t(2, 3, 5, 4), in.t(4, 3, 3, 2), in.t(4), one, one, one, false, zero, 1L)),
                s(
                        "2d-strided-groups",
                        in -> a(
                                in.t(1, 4, 6, 6),
                                in.t(2, 2, 3, 3),
                                null,
                                ls(2, 1),
                                ls(0, 1),
                                ls(1, 2),
                                false,
                                zero,
                                2L)),
                s("1d", in -> a(in.t(2, 2, 7), in.t(3, 2, 3), in.t(3), ls(2), one, ls(2), false, zero, 1L)),
                s("1x1", in -> a(in.t(2, 3, 2, 3), in.t(2, 3, 1, 1), null, one, zero, one, false, zero, 1L)),
                s("transposed", in -> a(in.nc(2, 3, 4, 5), in.nc(2, 3, 2, 2), null, one, one, one, false, zero, 1L)),
                s(
                        "expanded-offset",
                        in -> a(in.ex(2, 2, 4, 4), in.off(3, 2, 3, 3), in.off(3), one, one, one, false, zero, 1L)),
                s("empty-batch", in -> a(in.t(0, 3, 5, 4), in.t(4, 3, 3, 2), null, one, zero, one, false, zero, 1L)),
                s(
                        "no-in-channels",
                        in -> a(in.t(2, 0, 5, 4), in.t(4, 0, 3, 2), in.t(4), one, zero, one, false, zero, 1L)),
                s(
                        "conv-transpose-2d",
                        in -> a(
                                in.t(2, 4, 3, 4),
                                in.t(4, 3, 3, 2),
                                in.t(3),
                                ls(2, 1),
                                ls(1, 0),
                                ls(1, 2),
                                true,
                                ls(1, 0),
                                1L)),
                s(
                        "conv-transpose-1d-groups",
                        in -> a(in.t(2, 4, 5), in.t(4, 2, 3), null, ls(2), one, one, true, one, 2L)),
                s(
                        "conv-transpose-output-padding-over-stride",
                        in -> a(in.t(1, 2, 4), in.t(2, 3, 2), in.t(3), one, zero, ls(3), true, ls(2), 1L)),
                s(
                        "conv-transpose-non-contiguous",
                        in -> a(in.nc(2, 3, 4, 5), in.nc(3, 2, 2, 2), null, one, one, one, true, zero, 1L)),
                s(
                        "conv-transpose-output-padding-too-large",
                        in -> a(in.t(1, 2, 4, 4), in.t(2, 2, 2, 2), null, one, zero, one, true, one, 1L)),
                s(
                        "conv-transpose-channels-mismatch",
                        in -> a(in.t(1, 3, 4, 4), in.t(2, 2, 2, 2), null, one, zero, one, true, zero, 1L)),
                s(
                        "channels-mismatch",
                        in -> a(in.t(2, 3, 5, 4), in.t(4, 2, 3, 3), null, one, zero, one, false, zero, 1L)),
                s(
                        "groups-not-dividing",
                        in -> a(in.t(2, 4, 5, 5), in.t(3, 2, 3, 3), null, one, zero, one, false, zero, 2L)),
                s("rank-mismatch", in -> a(in.t(2, 3, 5), in.t(4, 3, 3, 3), null, one, zero, one, false, zero, 1L)),
                s(
                        "kernel-too-large",
                        in -> a(in.t(1, 1, 2, 2), in.t(1, 1, 3, 3), null, one, zero, one, false, zero, 1L)),
                s("bad-bias", in -> a(in.t(1, 1, 4, 4), in.t(2, 1, 3, 3), in.t(3), one, zero, one, false, zero, 1L)),
                s("zero-stride", in -> a(in.t(1, 1, 4, 4), in.t(1, 1, 3, 3), null, zero, zero, one, false, zero, 1L)),
                s(
                        "negative-padding",
                        in -> a(in.t(1, 1, 4, 4), in.t(1, 1, 3, 3), null, one, ls(-1), one, false, zero, 1L)),
                s(
                        "3d-weight",
                        in -> a(in.t(1, 1, 4, 4, 4), in.t(1, 1, 2, 2, 2), null, one, zero, one, false, zero, 1L)),
                s(
                        "3d-strided-groups",
                        in -> a(
                                in.t(2, 4, 4, 3, 5),
                                in.t(2, 2, 2, 2, 3),
                                in.t(2),
                                ls(2, 1, 2),
                                ls(1, 0, 1),
                                ls(1, 2, 1),
                                false,
                                zero,
                                2L)),
                s(
                        "conv-transpose-3d",
                        in -> a(
                                in.t(1, 4, 2, 3, 2),
                                in.t(4, 1, 2, 2, 3),
                                in.t(2),
                                ls(2, 1, 2),
                                ls(1, 0, 1),
                                ls(1, 2, 1),
                                true,
                                ls(1, 0, 1),
                                2L)),
                s(
                        "mixed-dtypes",
                        in -> a(in.t(1, 1, 4, 4), in.t(FLOAT64, 1, 1, 3, 3), null, one, zero, one, false, zero, 1L))));
        // (input, normalized_shape, weight, bias, eps)
        t.add(op(
                NormOps.NATIVE_LAYER_NORM,
                s("affine", in -> a(in.t(2, 3, 4), ls(4), in.t(4), in.t(4), 1e-5)),
                s("two-dims-no-affine", in -> a(in.t(2, 3, 4), ls(3, 4), null, null, 1e-5)),
                s("weight-only", in -> a(in.t(3, 5), ls(5), in.t(5), null, 1e-5)),
                s("bias-only", in -> a(in.t(3, 5), ls(5), null, in.t(5), 1e-5)),
                s("1-d", in -> a(in.t(6), ls(6), in.t(6), in.t(6), 1e-3)),
                s("transposed", in -> a(in.nc(3, 4), ls(4), in.t(4), null, 1e-5)),
                s("offset", in -> a(in.off(3, 4), ls(4), in.off(4), in.off(4), 1e-5)),
                s("empty-rows", in -> a(in.t(0, 4), ls(4), in.t(4), in.t(4), 1e-5)),
                s("empty-normalized-shape", in -> a(in.t(2, 3), ls(), null, null, 1e-5)),
                s("shape-mismatch", in -> a(in.t(2, 3), ls(4), null, null, 1e-5)),
                s("bad-weight", in -> a(in.t(2, 4), ls(4), in.t(3), null, 1e-5)),
                s("mixed-dtypes", in -> a(in.t(2, 4), ls(4), in.t(FLOAT64, 4), null, 1e-5))));
        // (query, key, value, dropout_p, is_causal, attn_mask, scale): float32 only
        t.add(op(
                AttentionOps.FLASH_ATTENTION,
                s("basic", in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 2), 0.0, false, null, null)),
                s("causal-4d", in -> a(in.t(1, 2, 5, 3), in.t(1, 2, 5, 3), in.t(1, 2, 5, 3), 0.0, true, null, null)),
                s("float-mask", in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 2), 0.0, false, in.t(3, 5), null)),
                s("bool-mask", in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 2), 0.0, false, in.mask(3, 5), 0.5)),
                s("transposed", in -> a(in.nc(4, 3), in.t(5, 3), in.nc(3, 5), 0.0, false, null, null)),
                s("offset", in -> a(in.off(3, 4), in.off(5, 4), in.off(5, 2), 0.0, true, null, null)),
                s("no-queries", in -> a(in.t(2, 0, 4), in.t(2, 5, 4), in.t(2, 5, 2), 0.0, false, null, null)),
                s("no-keys", in -> a(in.t(2, 3, 4), in.t(2, 0, 4), in.t(2, 0, 2), 0.0, false, null, null)),
                s("dropout", in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 2), 0.1, false, null, null)),
                s("head-dim-mismatch", in -> a(in.t(2, 3, 4), in.t(2, 5, 3), in.t(2, 5, 2), 0.0, false, null, null)),
                s("mask-shape", in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 2), 0.0, false, in.t(4, 5), null))));
        // (grad_out, query, key, value, out, logsumexp, dropout_p, is_causal, attn_mask, scale): float32 only
        t.add(op(
                AttentionOps.FLASH_ATTENTION_BACKWARD,
                s(
                        "basic",
                        in -> a(
                                in.t(2, 3, 2),
                                in.t(2, 3, 4),
                                in.t(2, 5, 4),
                                in.t(2, 5, 2),
                                in.t(2, 3, 2),
                                in.t(2, 3),
                                0.0,
                                false,
                                null,
                                null)),
                s(
                        "causal-4d",
                        in -> a(
                                in.t(1, 2, 5, 3),
                                in.t(1, 2, 5, 3),
                                in.t(1, 2, 5, 3),
                                in.t(1, 2, 5, 3),
                                in.t(1, 2, 5, 3),
                                in.t(1, 2, 5),
                                0.0,
                                true,
                                null,
                                null)),
                s(
                        "float-mask",
                        in -> a(
                                in.t(2, 3, 2),
                                in.t(2, 3, 4),
                                in.t(2, 5, 4),
                                in.t(2, 5, 2),
                                in.t(2, 3, 2),
                                in.t(2, 3),
                                0.0,
                                false,
                                in.t(3, 5),
                                0.5)),
                s(
                        "transposed",
                        in -> a(
                                in.nc(4, 5),
                                in.nc(4, 3),
                                in.t(5, 3),
                                in.nc(5, 5),
                                in.nc(4, 5),
                                in.t(4),
                                0.0,
                                false,
                                null,
                                null)),
                s(
                        "offset",
                        in -> a(
                                in.off(3, 2),
                                in.off(3, 4),
                                in.off(5, 4),
                                in.off(5, 2),
                                in.off(3, 2),
                                in.off(3),
                                0.0,
                                true,
                                null,
                                null)),
                s(
                        "no-queries",
                        in -> a(
                                in.t(2, 0, 2),
                                in.t(2, 0, 4),
                                in.t(2, 5, 4),
                                in.t(2, 5, 2),
                                in.t(2, 0, 2),
                                in.t(2, 0),
                                0.0,
                                false,
                                null,
                                null)),
                s(
                        "grad-shape",
                        in -> a(
                                in.t(2, 3, 3),
                                in.t(2, 3, 4),
                                in.t(2, 5, 4),
                                in.t(2, 5, 2),
                                in.t(2, 3, 2),
                                in.t(2, 3),
                                0.0,
                                false,
                                null,
                                null))));
        // (grad_output, weight, input_sizes, stride, padding, dilation, groups)
        t.add(op(
                ConvOps.CONVOLUTION_BACKWARD_INPUT,
                s("2d", in -> a(in.t(2, 4, 5, 3), in.t(4, 3, 3, 2), ls(2, 3, 5, 4), one, one, one, 1L)),
                s(
                        "strided-groups",
                        in -> a(in.t(1, 2, 2, 6), in.t(2, 2, 3, 3), ls(1, 4, 6, 6), ls(2, 1), ls(0, 1), ls(1, 2), 2L)),
                s("1d", in -> a(in.t(2, 3, 4), in.t(3, 2, 3), ls(2, 2, 7), ls(2), one, ls(2), 1L)),
                s("1x1-transposed", in -> a(in.nc(2, 2, 2, 3), in.nc(2, 3, 1, 1), ls(2, 3, 2, 3), one, zero, one, 1L)),
                s("empty", in -> a(in.t(0, 4, 3, 3), in.t(4, 3, 3, 2), ls(0, 3, 5, 4), one, zero, one, 1L)),
                s("grad-mismatch", in -> a(in.t(2, 4, 4, 4), in.t(4, 3, 3, 2), ls(2, 3, 5, 4), one, one, one, 1L))));
        // (grad_output, input, weight_sizes, stride, padding, dilation, groups)
        t.add(op(
                ConvOps.CONVOLUTION_BACKWARD_WEIGHT,
                s("2d", in -> a(in.t(2, 4, 5, 3), in.t(2, 3, 5, 4), ls(4, 3, 3, 2), one, one, one, 1L)),
                s(
                        "strided-groups",
                        in -> a(in.t(1, 2, 2, 6), in.t(1, 4, 6, 6), ls(2, 2, 3, 3), ls(2, 1), ls(0, 1), ls(1, 2), 2L)),
                s("1d", in -> a(in.t(2, 3, 4), in.t(2, 2, 7), ls(3, 2, 3), ls(2), one, ls(2), 1L)),
                s("expanded", in -> a(in.ex(2, 2, 2, 3), in.off(2, 3, 2, 3), ls(2, 3, 1, 1), one, zero, one, 1L)),
                s("empty", in -> a(in.t(0, 4, 3, 3), in.t(0, 3, 5, 4), ls(4, 3, 3, 2), one, zero, one, 1L)),
                s("grad-mismatch", in -> a(in.t(2, 4, 4, 4), in.t(2, 3, 5, 4), ls(4, 3, 3, 2), one, one, one, 1L))));
        // (self, kernel_size, stride, padding, dilation, ceil_mode)
        t.add(op(
                PoolOps.MAX_POOL2D_WITH_INDICES,
                s("2x2", in -> a(in.t(2, 3, 4, 5), ls(2), ls(), zero, one, false)),
                s("all-options", in -> a(in.t(1, 2, 7, 8), ls(3, 2), ls(2, 1), ls(1, 1), ls(1, 2), true)),
                s("unbatched-transposed", in -> a(in.nc(2, 5, 4), ls(2), ls(1), zero, one, false)),
                s("expanded", in -> a(in.ex(3, 4, 4), ls(2), ls(2), ls(1), one, false)),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4), ls(2), ls(), zero, one, false)),
                s("empty-plane", in -> a(in.t(1, 2, 0, 4), ls(2), ls(), zero, one, false)),
                s("pad-too-large", in -> a(in.t(1, 2, 6, 6), ls(3), ls(), ls(2), one, false)),
                s("too-small", in -> a(in.t(1, 1, 2, 2), ls(3), ls(), zero, one, false)),
                s("rank-2", in -> a(in.t(4, 4), ls(2), ls(), zero, one, false)),
                s("zero-kernel", in -> a(in.t(1, 1, 4, 4), ls(0), ls(1), zero, one, false))));
        // (grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices); indices are valid argmaxes
        t.add(op(
                PoolOps.MAX_POOL2D_WITH_INDICES_BACKWARD,
                s(
                        "2x2",
                        in -> a(
                                in.t(1, 2, 2, 2),
                                in.t(1, 2, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, ls(0, 3, 9, 15, 5, 2, 12, 10), 1, 2, 2, 2))),
                s(
                        "transposed",
                        in -> a(
                                in.nc(2, 2, 2),
                                in.nc(2, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, ls(0, 3, 9, 15, 5, 2, 12, 10), 2, 2, 2))),
                s(
                        "empty",
                        in -> a(
                                in.t(0, 2, 2, 2),
                                in.t(0, 2, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, ls(), 0, 2, 2, 2))),
                s(
                        "shape-mismatch",
                        in -> a(
                                in.t(1, 2, 3, 2),
                                in.t(1, 2, 4, 4),
                                ls(2),
                                ls(),
                                zero,
                                one,
                                false,
                                idx(in, ls(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), 1, 2, 3, 2)))));
        // (self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        t.add(op(
                PoolOps.AVG_POOL2D,
                s("2x2", in -> a(in.t(2, 3, 4, 5), ls(2), ls(), zero, false, true, null)),
                s("pad-exclude-ceil", in -> a(in.t(1, 2, 6, 7), ls(3), ls(2), ls(1), true, false, null)),
                s("divisor", in -> a(in.nc(2, 5, 4), ls(2, 3), ls(1, 2), ls(1, 1), false, true, 5L)),
                s("expanded", in -> a(in.ex(3, 4, 4), ls(2), ls(2), ls(1), false, true, null)),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4), ls(2), ls(), zero, false, true, null)),
                s("zero-divisor", in -> a(in.t(1, 2, 4, 4), ls(2), ls(), zero, false, true, 0L)),
                s("pad-too-large", in -> a(in.t(1, 2, 6, 6), ls(3), ls(), ls(2), false, true, null)),
                s("rank-5", in -> a(in.t(1, 1, 1, 4, 4), ls(2), ls(), zero, false, true, null))));
        // (grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        t.add(op(
                PoolOps.AVG_POOL2D_BACKWARD,
                s("2x2", in -> a(in.t(2, 3, 2, 2), in.t(2, 3, 4, 5), ls(2), ls(), zero, false, true, null)),
                s(
                        "pad-exclude-ceil",
                        in -> a(in.nc(1, 2, 4, 4), in.t(1, 2, 6, 7), ls(3), ls(2), ls(1), true, false, null)),
                s("empty", in -> a(in.t(0, 2, 2, 2), in.t(0, 2, 4, 4), ls(2), ls(), zero, false, true, null)),
                s("grad-mismatch", in -> a(in.t(2, 3, 3, 2), in.t(2, 3, 4, 5), ls(2), ls(), zero, false, true, null))));
        // (self, output_size)
        t.add(op(
                PoolOps.ADAPTIVE_AVG_POOL2D,
                s("3x2", in -> a(in.t(2, 3, 7, 5), ls(3, 2))),
                s("up-transposed", in -> a(in.nc(2, 3, 3), ls(4, 5))),
                s("expanded", in -> a(in.ex(3, 4, 4), ls(1, 1))),
                s("empty-batch", in -> a(in.t(0, 2, 4, 4), ls(2, 2))),
                s("zero-output", in -> a(in.t(1, 2, 4, 4), ls(0, 2))),
                s("empty-plane", in -> a(in.t(1, 2, 0, 4), ls(2, 2))),
                s("rank-2", in -> a(in.t(4, 4), ls(2, 2))),
                s("bad-output-size", in -> a(in.t(1, 2, 4, 4), ls(2, 2, 2)))));
        // (grad_output, self)
        t.add(op(
                PoolOps.ADAPTIVE_AVG_POOL2D_BACKWARD,
                s("3x2", in -> a(in.t(2, 3, 3, 2), in.t(2, 3, 7, 5))),
                s("transposed", in -> a(in.nc(2, 4, 5), in.nc(2, 3, 3))),
                s("empty", in -> a(in.t(0, 2, 2, 2), in.t(0, 2, 4, 4))),
                s("rank-mismatch", in -> a(in.t(3, 2), in.t(2, 3, 7, 5)))));
    }

    /** An int64 index tensor holding {@code values} on CPU (zeros on meta, which never reads them). */
    private static Tensor idx(SampleInputs in, long[] values, long... shape) {
        return idx(in, INT64, values, shape);
    }

    /** {@link #idx(SampleInputs, long[], long...)} of an integer dtype. */
    private static Tensor idx(SampleInputs in, DType dtype, long[] values, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, dtype, Device.META);
        return Torch.tensor(values).to(dtype).reshape(shape);
    }
}
