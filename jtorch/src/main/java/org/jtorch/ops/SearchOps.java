package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.BucketKernels;
import org.jtorch.storage.TensorImpl;

/**
 * Bucketing and counting ops: {@code searchsorted} (Tensor and Scalar values), {@code bucketize}, {@code histc} and
 * {@code bincount}. Kernels are in {@link BucketKernels}; the static methods at the end are the Java entry points.
 *
 * <p>{@code searchsorted} compares boundaries and values in their promoted dtype (a Scalar value is a weak operand, as
 * ATen's wrapped number), with ATen's {@code >=}/{@code >} tests, so a NaN value goes after every boundary. A
 * {@code sorter} entry outside {@code [0, len)} is an error (checked on the data, as 2.15 does; 1.13 read out of
 * bounds).
 *
 * <p>{@code histc} output has the input's dtype (2.15 CPU rule, spec §6): integral input is not implemented, and an
 * {@code out} tensor of another dtype is refused instead of cast. float16/bfloat16 inputs compute the bin in their own
 * precision, one rounding per operation as ATen's {@code Half} arithmetic (unconfirmed for 2.15 CPU, where 1.13 had no
 * half kernel).
 *
 * <p>{@code bincount}'s output size depends on the data, so it is a composite that refuses meta tensors.
 */
public final class SearchOps {
    private SearchOps() {}

    private static boolean bool(Object o) {
        return o != null && (Boolean) o;
    }

    // ---- searchsorted -------------------------------------------------------------------------------

    /** What searchsorted's meta rule hands its kernel: the side and the dtype of the comparisons. */
    record SearchPlan(boolean right, DType compute) {}

    private static Spec searchMeta(Object[] args) {
        Tensor seq = (Tensor) args[0];
        Tensor values = args[1] instanceof Tensor t ? t : null;
        boolean outInt32 = bool(args[2]), right = bool(args[3]);
        String side = (String) args[4];
        Tensor sorter = (Tensor) args[5];
        long[] vShape = values == null ? Shapes.SCALAR : values.impl().shapeRef();
        Device device = Devices.common("searchsorted", seq, values, sorter);
        if (sorter != null) {
            if (!Arrays.equals(sorter.impl().shapeRef(), seq.impl().shapeRef())) {
                // ATen's message has no space before "and".
                throw new TorchException(
                        "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor "
                                + Shapes.str(seq.impl().shapeRef()) + "and got sorter tensor "
                                + Shapes.str(sorter.impl().shapeRef()));
            }
            if (sorter.dtype() != DType.INT64) {
                throw new TorchException("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                        + sorter.dtype().cppName());
            }
        }
        if (vShape.length == 0 && seq.dim() != 1) {
            throw new TorchException(
                    "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, "
                            + "but we got boundaries tensor dim(" + seq.dim() + ") and input value's dim(0) numel(1)");
        }
        if (seq.dim() == 0) {
            throw new TorchException(
                    "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
        }
        if (seq.dim() != 1 && !leadingDimsMatch(seq.impl().shapeRef(), vShape)) {
            throw new TorchException(
                    "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
                            + "boundaries tensor and input value tensor must match, but we got boundaries tensor "
                            + Shapes.str(seq.impl().shapeRef())
                            + " and input value tensor " + Shapes.str(vShape));
        }
        if (side != null) {
            if (!side.equals("left") && !side.equals("right")) {
                throw new TorchException("torch.searchsorted(): side can only be 'left' or 'right' but got " + side);
            }
            if (right && !side.equals("right")) {
                throw new TorchException("torch.searchsorted(): side and right can't be set to opposites, got side of "
                        + side + " while right was True");
            }
        }
        SortOps.checkOrdered("searchsorted", seq.dtype());
        if (values != null) SortOps.checkOrdered("searchsorted", values.dtype());
        else if (((Scalar) args[1]).isComplex()) SortOps.checkOrdered("searchsorted", DType.COMPLEX64);
        DType compute = TypePromotion.resultType(seq, args[1]);
        if (compute == DType.BOOL || compute.isFloat8()) throw SortOps.notImplemented("searchsorted_out_cpu", compute);
        boolean isRight = side != null ? side.equals("right") : right;
        return Spec.of(vShape, outInt32 ? DType.INT32 : DType.INT64, device, new SearchPlan(isRight, compute));
    }

    /** ATen's {@code searchsorted_dims_matched_before_last_dim}. */
    private static boolean leadingDimsMatch(long[] boundaries, long[] values) {
        if (boundaries.length != values.length) return false;
        for (int i = 0; i < boundaries.length - 1; i++) if (boundaries[i] != values[i]) return false;
        return true;
    }

    private static final OpDef.Kernel SEARCH_KERNEL = (args, outs, spec) -> {
        SearchPlan p = (SearchPlan) spec.plan();
        Tensor values = args[1] instanceof Tensor t ? t : exactScalarTensor((Scalar) args[1]);
        TensorImpl sorter = args[5] instanceof Tensor t ? t.impl() : null;
        BucketKernels.searchsorted(
                ((Tensor) args[0]).impl(), values.impl(), sorter, p.right(), p.compute(), outs[0].impl());
    };

    /** A 0-d tensor holding the Scalar exactly (the comparison dtype was already decided by promotion). */
    private static Tensor exactScalarTensor(Scalar s) {
        DType d =
                switch (s.kind()) {
                    case BOOL -> DType.BOOL;
                    case INT -> DType.INT64;
                    case UINT -> DType.UINT64;
                    default -> DType.FLOAT64;
                };
        return Creation.scalarTensor(s, d);
    }

    /**
     * {@code searchsorted}: insertion positions of {@code self} in the last dim of {@code sorted_sequence}. Args:
     * (sorted_sequence, self, Boolean out_int32, Boolean right, String side or null, Tensor sorter or null).
     */
    public static final OpDef SEARCHSORTED = OpDef.structured(
            "searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, "
                    + "bool right=False, str? side=None, "
                    + "Tensor? sorter=None) -> Tensor",
            SearchOps::searchMeta,
            SEARCH_KERNEL,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code searchsorted} of one Scalar: a 0-d result. Args as {@link #SEARCHSORTED}, with a {@link Scalar} self. */
    public static final OpDef SEARCHSORTED_SCALAR = OpDef.structured(
            "searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, "
                    + "bool right=False, str? side=None, "
                    + "Tensor? sorter=None) -> Tensor",
            SearchOps::searchMeta,
            SEARCH_KERNEL,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    private static void checkBoundaries(Tensor boundaries) {
        if (boundaries.dim() != 1) {
            throw new TorchException(
                    "bucketize(): boundaries tensor must be 1 dimension, but got dim(" + boundaries.dim() + ")");
        }
    }

    /**
     * {@code bucketize}: {@code searchsorted(boundaries, self)} with 1-D boundaries. Args: (self, boundaries, Boolean
     * out_int32, Boolean right).
     */
    public static final OpDef BUCKETIZE = OpDef.composite(
            "bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
            args -> {
                checkBoundaries((Tensor) args[1]);
                return SEARCHSORTED.call1(args[1], args[0], args[2], args[3], null, null);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code bucketize} of one Scalar. Args: (Scalar self, boundaries, Boolean out_int32, Boolean right). */
    public static final OpDef BUCKETIZE_SCALAR = OpDef.composite(
            "bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
            args -> {
                checkBoundaries((Tensor) args[1]);
                return SEARCHSORTED_SCALAR.call1(args[1], args[0], args[2], args[3], null, null);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- histc --------------------------------------------------------------------------------------

    /** What histc's meta rule hands its kernel. */
    record HistcPlan(long bins, double min, double max) {}

    /**
     * {@code histc}: equal-width histogram of all elements, in the input's dtype. Args: (self, Long bins, Double min,
     * Double max).
     */
    public static final OpDef HISTC = OpDef.structured(
                    "histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        HistcPlan plan = histcPlan(
                                x, (Long) args[1], ((Number) args[2]).doubleValue(), ((Number) args[3]).doubleValue());
                        return Spec.of(new long[] {plan.bins()}, x.dtype(), x.device(), plan);
                    },
                    (args, outs, spec) -> {
                        HistcPlan p = (HistcPlan) spec.plan();
                        BucketKernels.histc(((Tensor) args[0]).impl(), p.bins(), p.min(), p.max(), outs[0].impl());
                    },
                    OpDef.Flag.NOT_DIFFERENTIABLE)
            .vmapFallsBack("one histogram per example, over that example's own range");

    /** histc's data-free checks, in ATen's order. */
    private static HistcPlan histcPlan(Tensor x, long bins, double min, double max) {
        DType d = x.dtype();
        if (!d.isFloatingPoint() || d.isFloat8()) throw SortOps.notImplemented("histogram_cpu", d);
        if (min != max) BucketKernels.checkHistcRange(min, max);
        else if (x.numel() == 0) BucketKernels.checkHistcRange(min - 1, max + 1);
        if (bins <= 0) throw new TorchException("torch.histc(): bins must be > 0, but got " + bins);
        return new HistcPlan(bins, min, max);
    }

    // ---- bincount -----------------------------------------------------------------------------------

    /**
     * {@code bincount}: occurrences of each value of a 1-D non-negative integral tensor, or the sums of {@code weights}
     * (float32 weights give float32, any other dtype float64). Args: (self, Tensor weights or null, Long minlength).
     */
    public static final OpDef BINCOUNT = OpDef.composite(
            "bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor",
            args -> {
                Tensor x = (Tensor) args[0], weights = (Tensor) args[1];
                long minlength = (Long) args[2];
                DType d = x.dtype();
                if (!d.isIntegral(false) || d.isBarebonesUnsigned()) throw SortOps.notImplemented("bincount_cpu", d);
                if (minlength < 0)
                    throw new TorchException("bincount(): minlength should be >= 0, but got " + minlength);
                if (x.impl().isFake() || (weights != null && weights.impl().isFake()))
                    throw new DynamicOutputShapeException("aten::bincount");
                if (x.isMeta() || (weights != null && weights.isMeta())) {
                    throw new UnsupportedOperationException(
                            "bincount: the output size depends on the data, which a meta tensor does not have");
                }
                return Tensor.of(BucketKernels.bincount(x.impl(), weights == null ? null : weights.impl(), minlength));
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- Java entry points ----------------------------------------------------------------------------

    /** {@code torch.searchsorted(sorted_sequence, values)}: left insertion positions, int64. */
    public static Tensor searchsorted(Tensor sortedSequence, Tensor values) {
        return searchsorted(sortedSequence, values, false, false, null, null);
    }

    /** {@code torch.searchsorted(sorted_sequence, values, right=right)}. */
    public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean right) {
        return searchsorted(sortedSequence, values, false, right, null, null);
    }

    /**
     * {@code torch.searchsorted(sorted_sequence, values, out_int32=, right=, side=, sorter=)}; side and sorter may be
     * null.
     */
    public static Tensor searchsorted(
            Tensor sortedSequence, Tensor values, boolean outInt32, boolean right, String side, Tensor sorter) {
        return SEARCHSORTED.call1(sortedSequence, values, outInt32, right, side, sorter);
    }

    /** {@code torch.searchsorted(sorted_sequence, value)} for one number: a 0-d result. */
    public static Tensor searchsorted(Tensor sortedSequence, Scalar value) {
        return searchsorted(sortedSequence, value, false, false, null, null);
    }

    /** {@code torch.searchsorted(sorted_sequence, value)} for a floating number. */
    public static Tensor searchsorted(Tensor sortedSequence, double value) {
        return searchsorted(sortedSequence, Scalar.of(value));
    }

    /** {@code torch.searchsorted(sorted_sequence, value)} for an integer. */
    public static Tensor searchsorted(Tensor sortedSequence, long value) {
        return searchsorted(sortedSequence, Scalar.of(value));
    }

    /** {@code torch.searchsorted(sorted_sequence, value, out_int32=, right=, side=, sorter=)} for one number. */
    public static Tensor searchsorted(
            Tensor sortedSequence, Scalar value, boolean outInt32, boolean right, String side, Tensor sorter) {
        return SEARCHSORTED_SCALAR.call1(sortedSequence, value, outInt32, right, side, sorter);
    }

    /** {@code torch.bucketize(input, boundaries)}. */
    public static Tensor bucketize(Tensor input, Tensor boundaries) {
        return bucketize(input, boundaries, false, false);
    }

    /** {@code torch.bucketize(input, boundaries, out_int32=, right=)}. */
    public static Tensor bucketize(Tensor input, Tensor boundaries, boolean outInt32, boolean right) {
        return BUCKETIZE.call1(input, boundaries, outInt32, right);
    }

    /** {@code torch.bucketize(value, boundaries)} for one number: a 0-d result. */
    public static Tensor bucketize(Scalar input, Tensor boundaries) {
        return bucketize(input, boundaries, false, false);
    }

    /** {@code torch.bucketize(value, boundaries, out_int32=, right=)} for one number. */
    public static Tensor bucketize(Scalar input, Tensor boundaries, boolean outInt32, boolean right) {
        return BUCKETIZE_SCALAR.call1(input, boundaries, outInt32, right);
    }

    /** {@code torch.histc(x)}: 100 bins over the data's range. */
    public static Tensor histc(Tensor self) {
        return histc(self, 100, 0, 0);
    }

    /** {@code torch.histc(x, bins)} over the data's range. */
    public static Tensor histc(Tensor self, long bins) {
        return histc(self, bins, 0, 0);
    }

    /** {@code torch.histc(x, bins, min, max)}; {@code min == max} takes the data's range. */
    public static Tensor histc(Tensor self, long bins, double min, double max) {
        return HISTC.call1(self, bins, min, max);
    }

    /**
     * {@code torch.histc(x, bins, min, max, out=out)}: {@code out} must have shape {@code [bins]} and the input's
     * dtype.
     */
    public static Tensor histc(Tensor self, long bins, double min, double max, Tensor out) {
        // stricter than the general out= rule, which casts; the input's checks come first, as in ATen
        histcPlan(self, bins, min, max);
        if (out.dtype() != self.dtype()) {
            throw new TorchException(
                    "torch.histc: input tensor and hist tensor should have the same dtype, but got input "
                            + self.dtype().pyName() + " and hist " + out.dtype().pyName());
        }
        Dispatcher.callOut(HISTC, new Tensor[] {out}, self, bins, min, max);
        return out;
    }

    /** {@code torch.bincount(x)}. */
    public static Tensor bincount(Tensor self) {
        return bincount(self, null, 0);
    }

    /** {@code torch.bincount(x, weights)}; weights may be null. */
    public static Tensor bincount(Tensor self, Tensor weights) {
        return bincount(self, weights, 0);
    }

    /** {@code torch.bincount(x, weights, minlength)}; weights may be null. */
    public static Tensor bincount(Tensor self, Tensor weights, long minlength) {
        return BINCOUNT.call1(self, weights, minlength);
    }
}
