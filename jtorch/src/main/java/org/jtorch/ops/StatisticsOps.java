package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.MinMax;
import org.jtorch.RoundingMode;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ValuesIndices;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.Shapes;

/**
 * Statistics over tensors, as ATen composes them from other ops ({@code CompositeImplicitAutograd}), so that every rule
 * (meta, gradients of any order, forward AD, vmap) comes from their pieces: {@code aminmax},
 * {@code std_mean}/{@code var_mean}, {@code median}/{@code nanmedian} (whole tensor and along a dim, with positions),
 * {@code quantile}/{@code nanquantile} in every interpolation mode, {@code cov} and {@code corrcoef}.
 *
 * <p>The medians along a dim take ATen's order: the k-th of the (value, position) pairs, which a stable sort gives;
 * {@code median} returns the first NaN of a line that has one, {@code nanmedian} the median of the rest. The whole
 * tensor medians spread their gradient evenly over the elements equal to the result, as ATen's
 * {@code evenly_distribute_backward}.
 */
public final class StatisticsOps {
    private StatisticsOps() {}

    // ---- aminmax -------------------------------------------------------------------------------------------

    /** {@code aminmax}: (amin, amax) in one call; ties share the gradient evenly, as amin's and amax's do. */
    public static final OpDef AMINMAX = OpDef.composite(
            "aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)", args -> {
                Tensor x = (Tensor) args[0];
                Long dim = (Long) args[1];
                boolean keepdim = (Boolean) args[2];
                if (x.isComplex()) throw notImplemented("aminmax_cpu", x.dtype());
                long[] dims;
                if (dim == null) {
                    if (x.numel() == 0) {
                        throw new TorchException("aminmax(): cannot compute aminmax over an empty dimension as the "
                                + "operation has no identity.");
                    }
                    dims = allDims(x);
                } else {
                    int d = Shapes.wrapDim(dim, Math.max(1, x.dim()));
                    if (x.dim() > 0 && x.size(d) == 0) {
                        throw new IndexOutOfBoundsException(
                                "aminmax: Expected reduction dim " + d + " to have non-zero size.");
                    }
                    dims = new long[] {d};
                }
                if (x.dim() == 0) return new Tensor[] {x.clone(), x.clone()};
                return new Tensor[] {x.amin(dims, keepdim), x.amax(dims, keepdim)};
            });

    // ---- std_mean, var_mean ---------------------------------------------------------------------------------

    private static OpDef spreadAndMean(String name, OpDef spread) {
        return OpDef.composite(
                name + ".correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) "
                        + "-> (Tensor, Tensor)",
                args -> {
                    Tensor x = (Tensor) args[0];
                    if (!x.isFloatingPoint() && !x.isComplex())
                        throw new TorchException(name + " only support floating point and complex dtypes");
                    long[] dims = (long[]) args[1];
                    boolean keepdim = (Boolean) args[3];
                    Tensor s = spread.call1(x, dims, args[2], keepdim);
                    Tensor m = ReductionOps.MEAN.call1(x, dims != null ? dims : allDims(x), keepdim, null);
                    return new Tensor[] {s, m};
                });
    }

    /** {@code std_mean}: the standard deviation and the mean in one call. */
    public static final OpDef STD_MEAN = spreadAndMean("std_mean", ReductionOps.STD);

    /** {@code var_mean}: the variance and the mean in one call. */
    public static final OpDef VAR_MEAN = spreadAndMean("var_mean", ReductionOps.VAR);

    // ---- median, nanmedian -----------------------------------------------------------------------------------

    /**
     * The median of a whole tensor: the lower of the two middle values of its (value, position) order; NaN if the
     * tensor holds one (for {@code median}), or the median of the non-NaN values (for {@code nanmedian}; NaN if all
     * are). Empty gives NaN.
     */
    private static OpDef medianAll(String name, boolean ignoreNan) {
        return OpDef.composite(name + "(Tensor self) -> Tensor", args -> {
            Tensor x = (Tensor) args[0];
            checkMedianDtype("median_cpu", x);
            if (x.numel() == 0) return Creation.full(new long[0], Double.NaN, x.dtype(), x.device());
            Tensor flat = x.reshape(-1);
            Tensor value = selectMedian(flat, 0, ignoreNan).values().squeeze(0).detach();
            return evenlyDistributed(flat, value);
        });
    }

    /**
     * {@code value} (computed without gradient) made differentiable with ATen's gradient for whole-tensor medians: the
     * output gradient split evenly over the elements equal to it (over the NaNs when it is NaN). The added term is
     * {@code s - s} for {@code s} the sum of those elements, so the value stays exactly {@code value}.
     */
    private static Tensor evenlyDistributed(Tensor x, Tensor value) {
        if (!x.isFloatingPoint()) return value;
        Tensor mask = TernaryOps.where(value.isnan(), x.isnan(), x.eq(value));
        Tensor picked = TernaryOps.where(mask, x, 0.0).sum();
        return value.add(picked.sub(picked.detach()).div(mask.sum()));
    }

    /** The medians along {@code dim} and their positions, from a stable sort of each line. */
    private static ValuesIndices selectMedian(Tensor x, int dim, boolean ignoreNan) {
        ValuesIndices sorted = x.sort(true, dim, false);
        long n = x.size(dim);
        Tensor nans = x.isnan().sum(new long[] {dim}, true);
        // ATen's rank: (n - 1 - #NaN) / 2 truncated, 0 when all are NaN (nanmedian), the first NaN (median)
        Tensor k = ignoreNan
                ? nans.neg().add(n - 1).clampMin(0L).div(2L, RoundingMode.FLOOR)
                : TernaryOps.where(nans.gt(0L), nans.neg().add(n), (n - 1) / 2);
        return new ValuesIndices(
                sorted.values().gather(dim, k), sorted.indices().gather(dim, k));
    }

    private static OpDef medianDim(String name, boolean ignoreNan) {
        return OpDef.composite(
                name + ".dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", args -> {
                    Tensor x = (Tensor) args[0];
                    boolean keepdim = (Boolean) args[2];
                    checkMedianDtype("median_out", x);
                    int dim = Shapes.wrapDim((Long) args[1], Math.max(1, x.dim()));
                    if (x.dim() == 0) {
                        return new Tensor[] {x.clone(), Creation.full(new long[0], 0L, DType.INT64, x.device())};
                    }
                    if (x.size(dim) == 0) {
                        if (x.numel() == 0 && Arrays.stream(x.shape()).anyMatch(s -> s == 0) && x.size(dim) == 0) {
                            throw new IndexOutOfBoundsException(
                                    "median(): Expected reduction dim " + dim + " to have non-zero size.");
                        }
                    }
                    if (x.numel() == 0) {
                        long[] shape = reducedShape(x.shape(), dim, keepdim);
                        return new Tensor[] {
                            Creation.full(shape, 0.0, x.dtype(), x.device()),
                            Creation.full(shape, 0L, DType.INT64, x.device())
                        };
                    }
                    ValuesIndices m = selectMedian(x, dim, ignoreNan);
                    if (keepdim) return new Tensor[] {m.values(), m.indices()};
                    return new Tensor[] {m.values().squeeze(dim), m.indices().squeeze(dim)};
                });
    }

    /** {@code median}: of the whole tensor, NaN if it holds a NaN. */
    public static final OpDef MEDIAN = medianAll("median", false);

    /** {@code median.dim}: the lower median along a dim and its position; a line with a NaN gives its first NaN. */
    public static final OpDef MEDIAN_DIM = medianDim("median", false);

    /** {@code nanmedian}: the median of the non-NaN elements of the whole tensor. */
    public static final OpDef NANMEDIAN = medianAll("nanmedian", true);

    /** {@code nanmedian.dim}: the lower median of the non-NaN values along a dim and its position. */
    public static final OpDef NANMEDIAN_DIM = medianDim("nanmedian", true);

    private static void checkMedianDtype(String kernel, Tensor x) {
        if (x.isComplex() || x.dtype() == DType.BOOL) throw notImplemented(kernel, x.dtype());
    }

    // ---- quantile, nanquantile -------------------------------------------------------------------------------

    private static final java.util.List<String> INTERPOLATIONS =
            java.util.List.of("linear", "lower", "higher", "midpoint", "nearest");

    /**
     * ATen's {@code quantile_impl}: each line (the whole tensor, or along {@code dim}) sorted; the rank q·(n − 1) (of
     * the non-NaN count for nanquantile; the last index for a quantile line holding a NaN) rounded as the mode says,
     * and linear or midpoint modes interpolate with {@code lerp} between the values at floor and ceil of the rank. The
     * result's first dim is q's when q is 1-D.
     */
    private static Tensor quantile(
            String op, Tensor x, Tensor q, Long dim, boolean keepdim, String interpolation, boolean ignoreNan) {
        if (x.numel() == 0) throw new TorchException(op + "() input tensor must be non-empty");
        if (q.dim() > 1) throw new TorchException(op + "() q must be a scalar or 1D tensor");
        if (x.dtype() != DType.FLOAT32 && x.dtype() != DType.FLOAT64)
            throw new TorchException(op + "() input tensor must be either float or double dtype");
        if (q.dtype() != x.dtype()) throw new TorchException(op + "() q tensor must be same dtype as the input tensor");
        if (!INTERPOLATIONS.contains(interpolation)) {
            throw new TorchException(op + "() interpolation must be one of linear, lower, higher, midpoint or "
                    + "nearest, but got " + interpolation);
        }
        Devices.common(op, x, q);
        if (q.numel() > 0
                && isFalse(PointwiseOps.LOGICAL_AND.call1(q.ge(0.0), q.le(1.0)).all()))
            throw new TorchException(op + "() q values must be in the range [0, 1]");
        // the lines to reduce, last: the whole tensor flattened, or dim moved last (the other dims keep their order)
        long[] outShape;
        Tensor lines;
        if (dim == null || x.dim() == 0) {
            if (dim != null) Shapes.wrapDim(dim, 1);
            outShape = keepdim ? ones(x.dim()) : new long[0];
            lines = x.reshape(-1);
        } else {
            int d = Shapes.wrapDim(dim, x.dim());
            outShape = reducedShape(x.shape(), d, keepdim);
            lines = x.movedim(d, -1);
        }
        Tensor sorted = lines.sort(false, -1, false).values();
        long n = sorted.size(-1);
        int r = sorted.dim();
        // q along a new first dim, broadcast against the lines: ranks of shape (nq, lines..., 1)
        long[] qShape = ones(r + 1);
        qShape[0] = q.numel();
        Tensor qs = q.reshape(qShape);
        Tensor sortedQ = sorted.unsqueeze(0);
        Tensor ranks;
        if (ignoreNan) {
            Tensor valid = sortedQ.isnan().logicalNot().sum(new long[] {-1}, true);
            ranks = qs.mul(valid.sub(1L));
            ranks = ranks.maskedFill(ranks.lt(0.0), 0.0);
        } else {
            Tensor anyNan = sortedQ.isnan().any(new long[] {-1}, true);
            Tensor scaled = qs.mul((double) (n - 1));
            long[] shape = Shapes.broadcast(scaled.shape(), anyNan.shape());
            ranks = scaled.expand(shape).maskedFill(anyNan.expand(shape), (double) (n - 1));
        }
        switch (interpolation) {
            case "lower" -> ranks = ranks.floor();
            case "higher" -> ranks = ranks.ceil();
            case "nearest" -> ranks = ranks.round();
            default -> {}
        }
        long[] gatherShape = ranks.shape().clone();
        long[] expandShape = sortedQ.shape().clone();
        expandShape[0] = q.numel();
        for (int i = 1; i < r; i++) gatherShape[i] = expandShape[i];
        Tensor source = sortedQ.expand(expandShape);
        Tensor below = ranks.to(DType.INT64).expand(gatherShape);
        Tensor result = source.gather(r, below);
        if (interpolation.equals("linear") || interpolation.equals("midpoint")) {
            Tensor weights = interpolation.equals("midpoint")
                    ? Creation.full(ranks.shape(), 0.5, ranks.dtype(), ranks.device())
                    : ranks.sub(ranks.to(DType.INT64));
            Tensor above = source.gather(r, ranks.ceil().to(DType.INT64).expand(gatherShape));
            result = TernaryOps.lerp(result, above, weights.expand(gatherShape));
        }
        // (nq, lines..., 1) → (nq, out...) → out for a 0-d q
        long[] finalShape = new long[outShape.length + 1];
        finalShape[0] = q.numel();
        System.arraycopy(outShape, 0, finalShape, 1, outShape.length);
        result = result.reshape(finalShape);
        return q.dim() == 0 ? result.squeeze(0) : result;
    }

    private static OpDef quantileOp(String name, boolean ignoreNan, boolean scalarQ) {
        String q = scalarQ ? "float q" : "Tensor q";
        return OpDef.composite(
                name + (scalarQ ? ".scalar" : "") + "(Tensor self, " + q
                        + ", int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor",
                args -> {
                    Tensor x = (Tensor) args[0];
                    Tensor qs;
                    if (scalarQ) {
                        double v = ((Number) args[1]).doubleValue();
                        if (!(v >= 0 && v <= 1))
                            throw new TorchException(name + "() q must be in the range [0, 1] but got " + v);
                        qs = Creation.full(
                                new long[0], v, x.dtype().isFloatingPoint() ? x.dtype() : DType.FLOAT64, x.device());
                    } else {
                        qs = (Tensor) args[1];
                    }
                    return quantile(name, x, qs, (Long) args[2], (Boolean) args[3], (String) args[4], ignoreNan);
                });
    }

    /** {@code quantile}: the q-th quantiles of the whole tensor or along a dim; NaN where a line holds a NaN. */
    public static final OpDef QUANTILE = quantileOp("quantile", false, false);

    /** {@code quantile.scalar}: one quantile q in [0, 1]. */
    public static final OpDef QUANTILE_SCALAR = quantileOp("quantile", false, true);

    /** {@code nanquantile}: quantiles of the non-NaN values (NaN where a line has none). */
    public static final OpDef NANQUANTILE = quantileOp("nanquantile", true, false);

    /** {@code nanquantile.scalar}: one quantile of the non-NaN values. */
    public static final OpDef NANQUANTILE_SCALAR = quantileOp("nanquantile", true, true);

    // ---- cov, corrcoef -----------------------------------------------------------------------------------------

    /**
     * {@code cov}: ATen's estimate over the columns (observations) of a 2-D input (a 1-D input is one variable), with
     * integral frequency weights and floating observation weights; degrees of freedom ≤ 0 warn and give inf/NaN.
     */
    public static final OpDef COV = OpDef.composite(
            "cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor",
            args -> covariance((Tensor) args[0], (Long) args[1], (Tensor) args[2], (Tensor) args[3]));

    private static Tensor covariance(Tensor self, long correction, Tensor fweights, Tensor aweights) {
        if (self.dim() > 2) {
            throw new TorchException("cov(): expected input to have two or fewer dimensions but got an input with "
                    + self.dim() + " dimensions");
        }
        if (self.dtype() == DType.BOOL) throw new TorchException("cov(): bool dtype is not supported for input");
        Tensor in = self.dim() < 2 ? self.reshape(1, -1) : self;
        long observations = in.size(1);
        Tensor w = null;
        if (fweights != null) {
            checkWeights("fweights", fweights, observations);
            if (!isIntegral(fweights.dtype())) {
                throw new TorchException("cov(): expected fweights to have integral dtype but got fweights with "
                        + fweights.dtype().cppName() + " dtype");
            }
            if (observations > 0 && isFalse(fweights.min().ge(0L)))
                throw new TorchException("cov(): fweights cannot be negative");
            w = fweights;
        }
        if (aweights != null) {
            checkWeights("aweights", aweights, observations);
            if (!aweights.isFloatingPoint()) {
                throw new TorchException("cov(): expected aweights to have floating point dtype but got aweights "
                        + "with " + aweights.dtype().cppName() + " dtype");
            }
            if (observations > 0 && isFalse(aweights.min().ge(0L)))
                throw new TorchException("cov(): aweights cannot be negative");
            w = w == null ? aweights : w.mul(aweights);
        }
        Tensor wSum = w != null ? w.sum() : Creation.full(new long[0], observations, DType.INT64, in.device());
        if (w != null && isFalse(wSum.ne(0L)))
            throw new TorchException("cov(): weights sum to zero, can't be normalized");
        Tensor avg = (w != null ? in.mul(w) : in).sum(1L).div(wSum);
        Tensor normFactor = w != null && correction != 0 && aweights != null
                ? wSum.sub(w.mul(aweights).sum().mul(correction).div(wSum))
                : wSum.sub(correction);
        boolean noDegreesOfFreedom = w == null ? observations - correction <= 0 : isFalse(normFactor.gt(0L));
        if (noDegreesOfFreedom) {
            Warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                    + "observations.");
            normFactor = normFactor.mul(0L);
        }
        Tensor centered = in.sub(avg.unsqueeze(1));
        Tensor c = centered.mm((w != null ? centered.mul(w) : centered).t().conj());
        return c.div(normFactor).squeeze();
    }

    private static void checkWeights(String name, Tensor weights, long observations) {
        if (weights.dim() > 1) {
            throw new TorchException("cov(): expected " + name + " to have one or fewer dimensions but got " + name
                    + " with " + weights.dim() + " dimensions");
        }
        if (weights.numel() != observations) {
            throw new TorchException("cov(): expected " + name + " to have the same numel as there are observations "
                    + "in the input but got " + weights.numel() + " != " + observations);
        }
    }

    /**
     * {@code corrcoef}: the covariance normalised by the standard deviations, clipped to [-1, 1] (real and imaginary
     * parts apart); a single variable gives c/c (1, or NaN for a constant).
     */
    public static final OpDef CORRCOEF = OpDef.composite("corrcoef(Tensor self) -> Tensor", args -> {
        Tensor self = (Tensor) args[0];
        if (self.dim() > 2) {
            throw new TorchException("corrcoef(): expected input to have two or fewer dimensions but got an input "
                    + "with " + self.dim() + " dimensions");
        }
        Tensor c = covariance(self, 1, null, null);
        if (c.dim() == 0) return c.div(c);
        Tensor d = c.diagonal();
        Tensor stddev = (d.isComplex() ? d.real() : d).sqrt();
        c = c.div(stddev.reshape(-1, 1)).div(stddev.reshape(1, -1));
        if (!c.isComplex()) return ClampOps.clamp(c, -1.0, 1.0);
        return ComplexOps.complex(ClampOps.clamp(c.real(), -1.0, 1.0), ClampOps.clamp(c.imag(), -1.0, 1.0));
    });

    // ---- helpers -----------------------------------------------------------------------------------------------

    /**
     * Whether a bool check (a 0-d tensor) is known to be false. Its value cannot be read on the meta device, of a fake
     * tensor or under a transform; there the value checks (q in [0, 1], non-negative weights) are skipped, where
     * PyTorch's own {@code item()} would refuse the call instead.
     */
    private static boolean isFalse(Tensor check) {
        boolean readable = !check.isMeta() && !check.impl().isFake() && check.transformPayload() == null;
        return readable && check.item() == 0;
    }

    private static boolean isIntegral(DType d) {
        return !d.isFloatingPoint() && !d.isComplex() && d != DType.BOOL;
    }

    private static long[] allDims(Tensor x) {
        long[] dims = new long[x.dim()];
        for (int i = 0; i < dims.length; i++) dims[i] = i;
        return dims;
    }

    private static long[] ones(int n) {
        long[] s = new long[n];
        Arrays.fill(s, 1);
        return s;
    }

    private static long[] reducedShape(long[] shape, int dim, boolean keepdim) {
        if (keepdim) {
            long[] s = shape.clone();
            s[dim] = 1;
            return s;
        }
        long[] s = new long[shape.length - 1];
        for (int i = 0, j = 0; i < shape.length; i++) if (i != dim) s[j++] = shape[i];
        return s;
    }

    private static UnsupportedOperationException notImplemented(String kernel, DType d) {
        return new UnsupportedOperationException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    // ---- entry points -------------------------------------------------------------------------------------------

    /** {@code torch.aminmax(x, dim=dim, keepdim=keepdim)}; a null dim reduces every dim. */
    public static MinMax aminmax(Tensor x, Long dim, boolean keepdim) {
        Tensor[] r = (Tensor[]) Dispatcher.call(AMINMAX, x, dim, keepdim);
        return new MinMax(r[0], r[1]);
    }

    /** {@code torch.std_mean(x, dim, correction=, keepdim=)}: {std, mean}. */
    public static Tensor[] stdMean(Tensor x, long[] dim, Number correction, boolean keepdim) {
        return (Tensor[]) Dispatcher.call(STD_MEAN, x, dim, correction, keepdim);
    }

    /** {@code torch.var_mean(x, dim, correction=, keepdim=)}: {var, mean}. */
    public static Tensor[] varMean(Tensor x, long[] dim, Number correction, boolean keepdim) {
        return (Tensor[]) Dispatcher.call(VAR_MEAN, x, dim, correction, keepdim);
    }

    /** {@code torch.median(x)}. */
    public static Tensor median(Tensor x) {
        return MEDIAN.call1(x);
    }

    /** {@code torch.median(x, dim, keepdim)}. */
    public static ValuesIndices median(Tensor x, long dim, boolean keepdim) {
        Tensor[] r = (Tensor[]) Dispatcher.call(MEDIAN_DIM, x, dim, keepdim);
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code torch.nanmedian(x)}. */
    public static Tensor nanmedian(Tensor x) {
        return NANMEDIAN.call1(x);
    }

    /** {@code torch.nanmedian(x, dim, keepdim)}. */
    public static ValuesIndices nanmedian(Tensor x, long dim, boolean keepdim) {
        Tensor[] r = (Tensor[]) Dispatcher.call(NANMEDIAN_DIM, x, dim, keepdim);
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code torch.quantile(x, q, dim, keepdim, interpolation=)} with a tensor q. */
    public static Tensor quantile(Tensor x, Tensor q, Long dim, boolean keepdim, String interpolation) {
        return QUANTILE.call1(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.quantile(x, q, dim, keepdim, interpolation=)} with a float q. */
    public static Tensor quantile(Tensor x, double q, Long dim, boolean keepdim, String interpolation) {
        return QUANTILE_SCALAR.call1(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.nanquantile(x, q, dim, keepdim, interpolation=)} with a tensor q. */
    public static Tensor nanquantile(Tensor x, Tensor q, Long dim, boolean keepdim, String interpolation) {
        return NANQUANTILE.call1(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.nanquantile(x, q, dim, keepdim, interpolation=)} with a float q. */
    public static Tensor nanquantile(Tensor x, double q, Long dim, boolean keepdim, String interpolation) {
        return NANQUANTILE_SCALAR.call1(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.cov(x, correction=, fweights=, aweights=)}; null weights are absent. */
    public static Tensor cov(Tensor x, long correction, Tensor fweights, Tensor aweights) {
        return COV.call1(x, correction, fweights, aweights);
    }

    /** {@code torch.corrcoef(x)}. */
    public static Tensor corrcoef(Tensor x) {
        return CORRCOEF.call1(x);
    }
}
