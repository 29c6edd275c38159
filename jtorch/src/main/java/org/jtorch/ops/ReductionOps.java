package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.ValuesIndices;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.ReduceLoops;
import org.jtorch.kernels.cpu.ReduceLoops.Op;

/**
 * Reductions (sum, mean, prod, amax/amin, max/min, argmax/argmin, var/std, logsumexp, all/any, vector_norm, nansum,
 * nanmean), scans (cumsum, cumprod) and softmax/log_softmax. Each op is one {@link OpDef}; the meta rules own dims
 * normalisation, output dtypes and every error message, and the kernels are in {@link ReduceLoops}. The static methods
 * at the end are the Java entry points.
 *
 * <p>Dims: {@code null} or an empty array reduces every dim (PyTorch's {@code dim=None} and {@code dim=[]}); negative
 * dims wrap; a repeated dim is an error.
 */
public final class ReductionOps {
    private ReductionOps() {}

    /** What a reduction's meta rule hands its kernel: the reduced dims and the dtype whose domain computes. */
    record Plan(Op op, boolean[] mask, DType compute, double param) {}

    /** The result dtype and the dtype whose category selects the kernel's compute domain. */
    private record Types(DType out, DType compute) {
        static Types same(DType d) {
            return new Types(d, d);
        }
    }

    // ---- meta helpers -------------------------------------------------------------------------------

    /** The dims to reduce as a mask over the input's dims; {@code null} or empty means all. */
    static boolean[] mask(Tensor x, long[] dims) {
        int rank = x.dim();
        boolean[] mask = new boolean[rank];
        if (dims == null || dims.length == 0) {
            java.util.Arrays.fill(mask, true);
            return mask;
        }
        boolean[] seen = new boolean[Math.max(rank, 1)];
        for (long d : dims) {
            int w = Shapes.wrapDim(d, rank);
            if (seen[w]) throw new TorchException("dim " + w + " appears multiple times in the list of dims");
            seen[w] = true;
            if (rank > 0) mask[w] = true;
        }
        return mask;
    }

    static long[] outShape(Tensor x, boolean[] mask, boolean keepdim) {
        long[] shape = x.impl().shapeRef();
        int n = 0;
        for (boolean m : mask) if (!m || keepdim) n++;
        long[] out = new long[n];
        for (int i = 0, k = 0; i < shape.length; i++) {
            if (!mask[i]) out[k++] = shape[i];
            else if (keepdim) out[k++] = 1;
        }
        return out;
    }

    private static DType integralToLong(DType d) {
        return d.isIntegral(true) ? DType.INT64 : d;
    }

    private static boolean bool(Object o) {
        return o != null && (Boolean) o;
    }

    private static void checkOrdered(String op, Tensor x) {
        if (x.dtype().isComplex()) {
            throw new TorchTypeException(op + "(): ordering is not defined for complex numbers (got "
                    + x.dtype().cppName() + ")");
        }
    }

    /**
     * ATen's {@code zero_numel_check_dims}: an empty input cannot be reduced by an op without an identity over all dims
     * (RuntimeError) or over a zero-size dim (IndexError, naming the dim as given).
     */
    private static void checkNonEmpty(String op, Tensor x, long[] dims) {
        if (x.numel() != 0) return;
        if (dims == null || dims.length == 0) {
            throw new TorchException(op + "(): Expected reduction dim to be specified for input.numel() == 0. "
                    + "Specify the reduction dim with the 'dim' argument.");
        }
        for (long d : dims) {
            if (x.dim() > 0 && x.impl().shapeRef()[Shapes.wrapDim(d, x.dim())] == 0) {
                throw new IndexOutOfBoundsException(op + "(): Expected reduction dim " + d + " to have non-zero size.");
            }
        }
    }

    private static OpDef.Kernel reduceKernel() {
        return (args, outs, spec) -> {
            Plan p = (Plan) spec.plan();
            ReduceLoops.reduce(p.op(), outs[0].impl(), ((Tensor) args[0]).impl(), p.mask(), p.compute(), p.param());
        };
    }

    /**
     * A dims/keepdim reduction: args are (self, long[] dim, Boolean keepdim, ...); {@code rule} checks and picks
     * dtypes.
     */
    private static OpDef reduction(
            String schema, Op op, java.util.function.Function<Object[], Types> rule, OpDef.Flag... flags) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            boolean[] mask = mask(x, (long[]) args[1]);
            Types types = rule.apply(args);
            return Spec.of(
                    outShape(x, mask, bool(args[2])), types.out(), x.device(), new Plan(op, mask, types.compute(), 0));
        };
        return OpDef.structured(schema, meta, reduceKernel(), flags);
    }

    // ---- sums and products ----------------------------------------------------------------------------

    /**
     * {@code sum}: bool and integer inputs give int64 unless {@code dtype} is given. Args: (self, dim, keepdim, dtype).
     */
    public static final OpDef SUM = reduction(
                    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
                            + "ScalarType? dtype=None) -> Tensor",
                    Op.SUM,
                    args -> {
                        DType out = args[3] != null ? (DType) args[3] : integralToLong(((Tensor) args[0]).dtype());
                        return Types.same(out);
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.expandReduced(g[0], a)})
            .deriveJvp(Jvps::linear);

    /** {@code nansum}: NaN counts as zero. Args: (self, dim, keepdim, dtype). */
    public static final OpDef NANSUM = reduction(
                    "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
                    Op.NANSUM,
                    args -> {
                        Tensor x = (Tensor) args[0];
                        // 2.15: NotImplementedError (a definable but unimplemented case).
                        if (x.isComplex())
                            throw new UnsupportedOperationException("nansum on CPU does not support complex inputs");
                        // an integral dtype for a floating input is accepted: NaNs drop out, the others truncate
                        DType out = args[3] != null ? (DType) args[3] : integralToLong(x.dtype());
                        return Types.same(out);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.nansum(g[0], (Tensor) a[0], (long[]) a[1], bool(a[2]))})
            .deriveJvp(op -> Jvps.reduction(op, 1, 2));

    /**
     * {@code prod}: bool and integer inputs give int64 unless {@code dtype} is given. Args: (self, dim, keepdim,
     * dtype).
     */
    public static final OpDef PROD = reduction(
                    "prod.dim_int(Tensor self, int[1]? dim=None, bool keepdim=False, *, "
                            + "ScalarType? dtype=None) -> Tensor",
                    Op.PROD,
                    args -> {
                        DType out = args[3] != null ? (DType) args[3] : integralToLong(((Tensor) args[0]).dtype());
                        return Types.same(out);
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.prod(g[0], computed(a, 3), o[0], (long[]) a[1], bool(a[2]))})
            .deriveJvp(op -> Jvps.reduction(op, 1, 2));

    /** {@code mean}: floating and complex only. Args: (self, dim, keepdim, dtype). */
    public static final OpDef MEAN = reduction(
                    "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
                    Op.MEAN,
                    args -> {
                        Tensor x = (Tensor) args[0];
                        DType dtype = (DType) args[3];
                        DType out = dtype != null ? dtype : x.dtype();
                        if (!out.isFloatingPoint() && !out.isComplex()) {
                            throw new TorchException("mean(): could not infer output dtype. "
                                    + (dtype != null ? "Optional" : "Input")
                                    + " dtype must be either a floating point or complex dtype. Got: " + out.cppName());
                        }
                        return Types.same(out);
                    })
            // divide the reduced gradient, then expand it (a view, as sum's gradient is): the same values as dividing
            // the expanded one, without a pass over the full input shape
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {Grads.expandReduced(g[0].div((double) Grads.reducedCount(a)), a)})
            .deriveJvp(Jvps::linear);

    /** {@code nanmean}: the mean of the non-NaN elements; floating inputs only. Args: (self, dim, keepdim, dtype). */
    public static final OpDef NANMEAN = reduction(
                    "nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
                    Op.NANMEAN,
                    args -> {
                        Tensor x = (Tensor) args[0];
                        if (!x.isFloatingPoint() && !x.isComplex()) {
                            throw new TorchException("nanmean(): expected input to have floating point or complex "
                                    + "dtype but got " + x.dtype().cppName());
                        }
                        // complex passes the dtype check and then meets nansum's refusal, as in ATen
                        if (x.isComplex())
                            throw new UnsupportedOperationException("nansum on CPU does not support complex inputs");
                        DType out = args[3] != null ? (DType) args[3] : x.dtype();
                        if (!out.isFloatingPoint())
                            throw new TorchException("\"nansum_cpu\" not implemented for '" + out.cppName() + "'");
                        return Types.same(out);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.nanmean(g[0], (Tensor) a[0], (long[]) a[1], bool(a[2]))})
            .deriveJvp(op -> Jvps.reduction(op, 1, 2));

    // ---- extrema --------------------------------------------------------------------------------------

    private static OpDef extremum(String name, Op op) {
        return reduction(name + "(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", op, args -> {
                    Tensor x = (Tensor) args[0];
                    checkOrdered(name, x);
                    checkNonEmpty(name, x, (long[]) args[1]);
                    return Types.same(x.dtype());
                })
                .defineVjp(
                        OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {
                            ReduceGrads.evenlyDistribute(g[0], (Tensor) a[0], o[0], (long[]) a[1], bool(a[2]))
                        });
    }

    /** {@code amax}: NaN propagates. Args: (self, dim, keepdim). */
    public static final OpDef AMAX = extremum("amax", Op.AMAX).deriveJvp(op -> Jvps.reduction(op, 1, 2));

    /** {@code amin}: NaN propagates. Args: (self, dim, keepdim). */
    public static final OpDef AMIN = extremum("amin", Op.AMIN).deriveJvp(op -> Jvps.reduction(op, 1, 2));

    private static OpDef extremumAll(String name, Op op) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            checkOrdered(name, x);
            checkNonEmpty(name, x, null);
            return Spec.of(Shapes.SCALAR, x.dtype(), x.device(), new Plan(op, mask(x, null), x.dtype(), 0));
        };
        return OpDef.structured(name + "(Tensor self) -> Tensor", meta, reduceKernel())
                .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                        new Tensor[] {ReduceGrads.evenlyDistribute(g[0], (Tensor) a[0], o[0], null, false)});
    }

    /** {@code max()} over all elements (NaN propagates). Args: (self). */
    public static final OpDef MAX_ALL = extremumAll("max", Op.AMAX).deriveJvp(op -> Jvps.reduction(op, -1, -1));

    /** {@code min()} over all elements (NaN propagates). Args: (self). */
    public static final OpDef MIN_ALL = extremumAll("min", Op.AMIN).deriveJvp(op -> Jvps.reduction(op, -1, -1));

    private static OpDef extremumDim(String name, boolean max) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            long dim = (Long) args[1];
            int w = Shapes.wrapDim(dim, x.dim());
            checkOrdered(name, x);
            checkNonEmpty(name, x, new long[] {w});
            boolean[] mask = mask(x, new long[] {w});
            long[] shape = outShape(x, mask, bool(args[2]));
            return new Spec(
                    new long[][] {shape, shape},
                    new DType[] {x.dtype(), DType.INT64},
                    x.device(),
                    new Plan(null, mask, x.dtype(), 0));
        };
        OpDef.Kernel kernel = (args, outs, spec) -> {
            Plan p = (Plan) spec.plan();
            ReduceLoops.reduceWithIndex(
                    max, outs[0].impl(), outs[1].impl(), ((Tensor) args[0]).impl(), p.mask(), p.compute());
        };
        // The values' gradient goes to the returned index only (first occurrence on ties).
        return OpDef.structured(
                        name + ".dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
                        meta,
                        kernel)
                .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {
                    BackwardOps.valueSelectingReductionBackward(
                            g[0], (Long) a[1], o[1], ((Tensor) a[0]).shape(), bool(a[2]))
                });
    }

    /** {@code max(dim)}: values and int64 indices (first occurrence; a NaN wins). Args: (self, Long dim, keepdim). */
    public static final OpDef MAX_DIM = extremumDim("max", true).defineJvp(Jvps.selected(1, 2));

    /** {@code min(dim)}: values and int64 indices. Args: (self, Long dim, keepdim). */
    public static final OpDef MIN_DIM = extremumDim("min", false).defineJvp(Jvps.selected(1, 2));

    private static OpDef argExtremum(String name, boolean max) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            Long dim = (Long) args[1];
            checkOrdered(name, x);
            if (x.dtype() == DType.BOOL) {
                // PyTorch's message; 2.15 raises it as NotImplementedError (the kernel has no bool variant)
                throw new UnsupportedOperationException(name + "(): does not support bool input");
            }
            boolean[] mask;
            if (dim == null) {
                if (x.numel() == 0) {
                    throw new IndexOutOfBoundsException(
                            name + "(): Expected reduction dim to be specified for input.numel() == 0.");
                }
                mask = mask(x, null);
            } else {
                int w = Shapes.wrapDim(dim, x.dim());
                checkNonEmpty(name, x, new long[] {w});
                mask = mask(x, new long[] {w});
            }
            return Spec.of(
                    outShape(x, mask, bool(args[2])), DType.INT64, x.device(), new Plan(null, mask, x.dtype(), 0));
        };
        OpDef.Kernel kernel = (args, outs, spec) -> {
            Plan p = (Plan) spec.plan();
            ReduceLoops.reduceWithIndex(max, null, outs[0].impl(), ((Tensor) args[0]).impl(), p.mask(), p.compute());
        };
        return OpDef.structured(
                name + "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
                meta,
                kernel,
                OpDef.Flag.NOT_DIFFERENTIABLE);
    }

    /** {@code argmax}: the flat index without dim. Args: (self, Long dim or null, keepdim). */
    public static final OpDef ARGMAX = argExtremum("argmax", true);

    /** {@code argmin}. Args: (self, Long dim or null, keepdim). */
    public static final OpDef ARGMIN = argExtremum("argmin", false);

    // ---- statistics -----------------------------------------------------------------------------------

    private static OpDef varStd(String name, Op op) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            if (!x.isFloatingPoint() && !x.isComplex()) {
                throw new TorchException("std and var only support floating point and complex dtypes");
            }
            boolean[] mask = mask(x, (long[]) args[1]);
            double correction = args[2] == null ? 1 : ((Number) args[2]).doubleValue();
            return Spec.of(
                    outShape(x, mask, bool(args[3])),
                    x.dtype().toReal(),
                    x.device(),
                    new Plan(op, mask, x.dtype(), correction));
        };
        return OpDef.structured(
                name + ".correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
                        + "bool keepdim=False) -> Tensor",
                meta,
                reduceKernel());
    }

    /**
     * {@code var}: sum of squared deviations / max(0, N - correction); complex input gives a real result. Args: (self,
     * dim, correction, keepdim).
     */
    public static final OpDef VAR = varStd("var", Op.VAR)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.var(g[0], (Tensor) a[0], (long[]) a[1], a[2], bool(a[3]))})
            .deriveJvp(op -> Jvps.reduction(op, 1, 3));

    /** {@code std}: the square root of {@code var}. Args: (self, dim, correction, keepdim). */
    public static final OpDef STD = varStd("std", Op.STD)
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.std(g[0], (Tensor) a[0], o[0], (long[]) a[1], a[2], bool(a[3]))})
            .deriveJvp(op -> Jvps.reduction(op, 1, 3));

    /**
     * {@code logsumexp}: stable (running maximum); integer inputs compute in the default dtype. Args: (self, dim,
     * keepdim).
     */
    public static final OpDef LOGSUMEXP = reduction(
                    "logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", Op.LOGSUMEXP, args -> {
                        DType d = ((Tensor) args[0]).dtype();
                        DType out = d.isIntegral(true) ? DefaultDtype.get() : d;
                        return Types.same(out);
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.logsumexp(g[0], (Tensor) a[0], o[0], (long[]) a[1], bool(a[2]))})
            .deriveJvp(op -> Jvps.reduction(op, 1, 2));

    // ---- logical --------------------------------------------------------------------------------------

    private static OpDef logical(String name, Op op) {
        return reduction(
                name + ".dims(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor",
                op,
                args -> {
                    DType d = ((Tensor) args[0]).dtype();
                    // uint8 input gives uint8: a legacy rule PyTorch keeps for compatibility.
                    return new Types(d == DType.UINT8 ? DType.UINT8 : DType.BOOL, d);
                },
                OpDef.Flag.NOT_DIFFERENTIABLE);
    }

    /** {@code all}: bool result (uint8 for uint8 input); NaN is true. Args: (self, dim, keepdim). */
    public static final OpDef ALL = logical("all", Op.ALL);

    /** {@code any}: bool result (uint8 for uint8 input). Args: (self, dim, keepdim). */
    public static final OpDef ANY = logical("any", Op.ANY);

    // ---- norms ----------------------------------------------------------------------------------------

    /**
     * {@code linalg.vector_norm}: ord 2, 1, inf, -inf, 0 (count of non-zeros) or any p. Args: (self, Number ord, dim,
     * keepdim, dtype).
     */
    public static final OpDef VECTOR_NORM = OpDef.structured(
                    "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, "
                            + "*, ScalarType? dtype=None) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        double ord = args[1] == null ? 2 : ((Number) args[1]).doubleValue();
                        long[] dims = (long[]) args[2];
                        DType in = x.dtype();
                        if (!in.isFloatingPoint() && !in.isComplex()) {
                            throw new TorchException(
                                    "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                                            + in.cppName());
                        }
                        DType compute = in;
                        if (args[4] != null) {
                            compute = (DType) args[4];
                            checkNormDtype(in, compute);
                        }
                        boolean[] mask = mask(x, dims);
                        if (x.numel() == 0 && (ord < 0 || ord == Double.POSITIVE_INFINITY)) {
                            String ordStr = formatOrd(ord);
                            if (dims == null || dims.length == 0) {
                                throw new TorchException("linalg.vector_norm cannot compute the " + ordStr
                                        + " norm on an empty tensor because the operation does not have an identity");
                            }
                            for (long d : dims) {
                                if (x.dim() > 0 && x.impl().shapeRef()[Shapes.wrapDim(d, x.dim())] == 0) {
                                    // The missing space is PyTorch's.
                                    throw new TorchException("linalg.vector_norm cannot compute the " + ordStr
                                            + " norm on the dimension " + d
                                            + "because this dimension is empty and the operation "
                                            + "does not have an identity");
                                }
                            }
                        }
                        return Spec.of(
                                outShape(x, mask, bool(args[3])),
                                compute.toReal(),
                                x.device(),
                                new Plan(Op.NORM, mask, compute, ord));
                    },
                    reduceKernel())
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.vectorNorm(g[0], (Tensor) a[0], o[0], a[1], (long[]) a[2], bool(a[3]))})
            .deriveJvp(op -> Jvps.reduction(op, 2, 3));

    private static void checkNormDtype(DType in, DType dtype) {
        if (!dtype.isFloatingPoint() && !dtype.isComplex()) {
            throw new TorchException(
                    "linalg.vector_norm: dtype should be floating point or complex, but got " + dtype.cppName());
        }
        if (in.isComplex() && !dtype.isComplex()) {
            throw new TorchException(
                    "linalg.vector_norm: dtype should be complex for complex inputs, but got " + dtype.cppName());
        }
        if (!in.isComplex() && dtype.isComplex()) {
            throw new TorchException(
                    "linalg.vector_norm: dtype should be real for real inputs, but got " + dtype.cppName());
        }
        if (TypePromotion.promoteTypes(in, dtype) != dtype) {
            throw new TorchException("linalg.vector_norm: the dtype of the input (" + in.cppName()
                    + ") should be convertible without narrowing to the specified dtype (" + dtype.cppName() + ")");
        }
    }

    /** The order as C++ prints a Scalar: {@code 2}, {@code -1}, {@code 0.5}, {@code inf}. */
    static String formatOrd(double ord) {
        if (Double.isInfinite(ord)) return ord > 0 ? "inf" : "-inf";
        if (ord == Math.rint(ord) && Math.abs(ord) < 1e15) return Long.toString((long) ord);
        return new java.math.BigDecimal(ord)
                .round(new java.math.MathContext(6))
                .stripTrailingZeros()
                .toPlainString();
    }

    // ---- scans and softmax ----------------------------------------------------------------------------

    private static OpDef scan(String name, boolean prod) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            int dim = Shapes.wrapDim((Long) args[1], x.dim());
            DType out = args[2] != null ? (DType) args[2] : integralToLong(x.dtype());
            return Spec.of(x.impl().shapeRef(), out, x.device(), dim);
        };
        OpDef.Kernel kernel = (args, outs, spec) -> ReduceLoops.scan(
                prod, outs[0].impl(), ((Tensor) args[0]).impl(), (Integer) spec.plan(), spec.dtypes()[0]);
        return OpDef.structured(name + "(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", meta, kernel);
    }

    /**
     * The input as the op computed it: converted to the {@code dtype} argument at {@code dtypeArg} when one is given. A
     * product's gradient reads the factors, and a complex input with a real {@code dtype} is multiplied as its real
     * part (PyTorch casts first, discarding the imaginary part).
     */
    private static Tensor computed(Object[] args, int dtypeArg) {
        Tensor x = (Tensor) args[0];
        return args[dtypeArg] == null ? x : x.to((DType) args[dtypeArg]);
    }

    /**
     * {@code cumsum}: bool and integer inputs give int64 unless {@code dtype} is given. Args: (self, Long dim, dtype).
     */
    public static final OpDef CUMSUM = scan("cumsum", false)
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ReduceGrads.cumsum(g[0], (Tensor) a[0], (Long) a[1])})
            .deriveJvp(Jvps::linear);

    /**
     * {@code cumprod}; its gradient is right for inputs with zeros too (see {@link ReduceGrads#cumprod}). Args: (self,
     * Long dim, dtype).
     */
    public static final OpDef CUMPROD = scan("cumprod", true)
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.cumprod(g[0], computed(a, 2), o[0], (Long) a[1])})
            .deriveJvp(Jvps::transposedVjp);

    /** The running log-add-exp of {@code logcumsumexp}: ATen's {@code _log_add_exp_helper}, real and complex. */
    private static final Fns.Binary LOG_ADD_EXP =
            new Fns.Binary(PointwiseOps::logaddexp, null, null, PointwiseOps::logaddexp, null);

    /**
     * {@code logcumsumexp}: log Σ_{j≤i} e^{x_j} along dim, accumulated by log-add-exp (so no prefix under- or
     * overflows); floating and complex dtypes, float8 excepted, as ATen's CPU kernel. Args: (self, Long dim).
     */
    public static final OpDef LOGCUMSUMEXP = OpDef.structured(
                    "logcumsumexp(Tensor self, int dim) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        int dim = Shapes.wrapDim((Long) args[1], Math.max(1, x.dim()));
                        DType d = x.dtype();
                        if ((!d.isFloatingPoint() && !d.isComplex()) || d.isFloat8()) {
                            throw new UnsupportedOperationException(
                                    "\"logcumsumexp_out_cpu\" not implemented for '" + d.cppName() + "'");
                        }
                        return Spec.of(x.impl().shapeRef(), d, x.device(), dim);
                    },
                    (args, outs, spec) -> ReduceLoops.scan(
                            LOG_ADD_EXP, outs[0].impl(), ((Tensor) args[0]).impl(), (Integer) spec.plan()))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {ReduceGrads.logcumsumexp(g[0], (Tensor) a[0], o[0], (Long) a[1])})
            .defineJvp((a, o, t) -> new Tensor[] {ReduceGrads.logcumsumexpJvp((Tensor) a[0], t[0], (Long) a[1])});

    private static OpDef softmaxOp(String name, boolean log) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            int dim = Shapes.wrapDim((Long) args[1], x.dim());
            DType compute = args[2] != null ? (DType) args[2] : x.dtype();
            if (compute != DType.FLOAT32
                    && compute != DType.FLOAT64
                    && compute != DType.FLOAT16
                    && compute != DType.BFLOAT16) {
                boolean last = dim >= x.dim() - 1;
                throw new TorchException("\"" + name + (last ? "_lastdim_kernel_impl" : "_kernel_impl")
                        + "\" not implemented for '" + compute.cppName() + "'");
            }
            return Spec.of(x.impl().shapeRef(), compute, x.device(), dim);
        };
        OpDef.Kernel kernel = (args, outs, spec) ->
                ReduceLoops.softmax(log, outs[0].impl(), ((Tensor) args[0]).impl(), (Integer) spec.plan());
        return OpDef.structured(name + ".int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", meta, kernel);
    }

    /**
     * {@code softmax}: stable (subtracts the maximum); {@code dtype} casts the input first. Args: (self, Long dim,
     * dtype).
     */
    public static final OpDef SOFTMAX = softmaxOp("softmax", false)
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {ReduceGrads.softmax(g[0], o[0], (Long) a[1])})
            // d softmax = y * (t - Σ y t)
            .defineJvp((a, o, t) -> new Tensor[] {
                t[0] == null ? null : o[0].mul(t[0].sub(o[0].mul(t[0]).sum(new long[] {(Long) a[1]}, true)))
            });

    /** {@code log_softmax}. Args: (self, Long dim, dtype). */
    public static final OpDef LOG_SOFTMAX = softmaxOp("log_softmax", true)
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {ReduceGrads.logSoftmax(g[0], o[0], (Long) a[1])})
            // d log_softmax = t - Σ softmax · t
            .defineJvp((a, o, t) -> new Tensor[] {
                t[0] == null ? null : t[0].sub(o[0].exp().mul(t[0]).sum(new long[] {(Long) a[1]}, true))
            });

    /**
     * {@code _softmax_backward_data} / {@code _log_softmax_backward_data(grad_output, output, dim, input_dtype)}: the
     * gradient of softmax or log_softmax from the forward's output in one pass per row, as ATen's kernels (the
     * composite form made four passes and three temporaries over the logits-sized tensors). The result has
     * grad_output's dtype, except float16 for a float32 grad_output with {@code input_dtype} float16 (ATen's
     * half-to-float case). Their own VJPs are written with differentiable ops, so higher orders exist.
     */
    private static OpDef softmaxBackwardOp(String name, boolean log) {
        OpDef.Meta meta = args -> {
            Tensor grad = (Tensor) args[0], output = (Tensor) args[1];
            if (!java.util.Arrays.equals(grad.impl().shapeRef(), output.impl().shapeRef())) {
                throw new TorchException(name + ": grad_output of shape "
                        + java.util.Arrays.toString(grad.impl().shapeRef()) + " and output of shape "
                        + java.util.Arrays.toString(output.impl().shapeRef()) + " must have the same shape");
            }
            DType dtype = (DType) args[3];
            for (DType d : new DType[] {grad.dtype(), output.dtype(), dtype}) {
                if (!d.isFloatingPoint()) {
                    throw new TorchException("\"" + name + "\" not implemented for '" + d.cppName() + "'");
                }
            }
            // ATen's meta: grad_output's dtype, but float16 for a float32 grad of a float16 input (half_to_float)
            DType result = grad.dtype() == DType.FLOAT32 && dtype == DType.FLOAT16 ? DType.FLOAT16 : grad.dtype();
            int dim = Shapes.wrapDim((Long) args[2], Math.max(1, grad.dim()));
            return Spec.of(grad.impl().shapeRef(), result, Devices.common(name, grad, output), dim);
        };
        OpDef.Kernel kernel = (args, outs, spec) -> ReduceLoops.softmaxBackward(
                log, outs[0].impl(), ((Tensor) args[0]).impl(), ((Tensor) args[1]).impl(), (Integer) spec.plan());
        return OpDef.structured(
                name + "(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor", meta, kernel);
    }

    /** Args: (grad_output, output, Long dim, DType input_dtype). */
    public static final OpDef SOFTMAX_BACKWARD_DATA = softmaxBackwardOp("_softmax_backward_data", false)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> {
                Tensor grad = (Tensor) a[0], y = (Tensor) a[1];
                long[] dim = {(Long) a[2]};
                Tensor dGrad = mask.needs(0) ? softmaxBackwardData(g[0], y, (Long) a[2], g[0].dtype()) : null;
                // out = y·(grad - Σ grad·y): d/dy = u·(grad - Σ grad·y) - grad·Σ u·y
                Tensor dY = mask.needs(1)
                        ? g[0].mul(grad.sub(grad.mul(y).sum(dim, true)))
                                .sub(grad.mul(g[0].mul(y).sum(dim, true)))
                        : null;
                return new Tensor[] {dGrad, dY};
            })
            .deriveJvp(Jvps::transposedVjp);

    /** Args: (grad_output, output, Long dim, DType input_dtype). */
    public static final OpDef LOG_SOFTMAX_BACKWARD_DATA = softmaxBackwardOp("_log_softmax_backward_data", true)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> {
                Tensor grad = (Tensor) a[0], y = (Tensor) a[1];
                long[] dim = {(Long) a[2]};
                Tensor uExp = g[0].mul(y.exp());
                // out = grad - exp(y)·Σ grad: d/dgrad = u - Σ u·exp(y), d/dy = -u·exp(y)·Σ grad
                return new Tensor[] {
                    mask.needs(0) ? g[0].sub(uExp.sum(dim, true)) : null,
                    mask.needs(1) ? uExp.mul(grad.sum(dim, true)).neg() : null
                };
            })
            .deriveJvp(Jvps::transposedVjp);

    // ---- Java entry points ----------------------------------------------------------------------------

    private static long[] dims(long dim) {
        return new long[] {dim};
    }

    /** {@code torch.sum(x)}. */
    public static Tensor sum(Tensor x) {
        return SUM.call1(x, null, false, null);
    }

    /** {@code torch.sum(x, dtype=dtype)}. */
    public static Tensor sum(Tensor x, DType dtype) {
        return SUM.call1(x, null, false, dtype);
    }

    /** {@code torch.sum(x, dim)}. */
    public static Tensor sum(Tensor x, long dim) {
        return SUM.call1(x, dims(dim), false, null);
    }

    /** {@code torch.sum(x, dim, keepdim)}. */
    public static Tensor sum(Tensor x, long dim, boolean keepdim) {
        return SUM.call1(x, dims(dim), keepdim, null);
    }

    /** {@code torch.sum(x, dims, keepdim)}. */
    public static Tensor sum(Tensor x, long[] dims, boolean keepdim) {
        return SUM.call1(x, dims, keepdim, null);
    }

    /** {@code torch.sum(x, dims, keepdim, dtype=dtype)}. */
    public static Tensor sum(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return SUM.call1(x, dims, keepdim, dtype);
    }

    /** {@code torch.nansum(x)}. */
    public static Tensor nansum(Tensor x) {
        return NANSUM.call1(x, null, false, null);
    }

    /** {@code torch.nansum(x, dim)}. */
    public static Tensor nansum(Tensor x, long dim) {
        return NANSUM.call1(x, dims(dim), false, null);
    }

    /** {@code torch.nansum(x, dims, keepdim, dtype=dtype)}. */
    public static Tensor nansum(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return NANSUM.call1(x, dims, keepdim, dtype);
    }

    /** {@code torch.mean(x)}. */
    public static Tensor mean(Tensor x) {
        return MEAN.call1(x, null, false, null);
    }

    /** {@code torch.mean(x, dtype=dtype)}. */
    public static Tensor mean(Tensor x, DType dtype) {
        return MEAN.call1(x, null, false, dtype);
    }

    /** {@code torch.mean(x, dim)}. */
    public static Tensor mean(Tensor x, long dim) {
        return MEAN.call1(x, dims(dim), false, null);
    }

    /** {@code torch.mean(x, dim, keepdim)}. */
    public static Tensor mean(Tensor x, long dim, boolean keepdim) {
        return MEAN.call1(x, dims(dim), keepdim, null);
    }

    /** {@code torch.mean(x, dims, keepdim)}. */
    public static Tensor mean(Tensor x, long[] dims, boolean keepdim) {
        return MEAN.call1(x, dims, keepdim, null);
    }

    /** {@code torch.mean(x, dims, keepdim, dtype=dtype)}. */
    public static Tensor mean(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return MEAN.call1(x, dims, keepdim, dtype);
    }

    /** {@code torch.nanmean(x)}. */
    public static Tensor nanmean(Tensor x) {
        return NANMEAN.call1(x, null, false, null);
    }

    /** {@code torch.nanmean(x, dim)}. */
    public static Tensor nanmean(Tensor x, long dim) {
        return NANMEAN.call1(x, dims(dim), false, null);
    }

    /** {@code torch.nanmean(x, dims, keepdim, dtype=dtype)}. */
    public static Tensor nanmean(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return NANMEAN.call1(x, dims, keepdim, dtype);
    }

    /** {@code torch.prod(x)}. */
    public static Tensor prod(Tensor x) {
        return PROD.call1(x, null, false, null);
    }

    /** {@code torch.prod(x, dtype=dtype)}. */
    public static Tensor prod(Tensor x, DType dtype) {
        return PROD.call1(x, null, false, dtype);
    }

    /** {@code torch.prod(x, dim)}. */
    public static Tensor prod(Tensor x, long dim) {
        return PROD.call1(x, dims(dim), false, null);
    }

    /** {@code torch.prod(x, dim, keepdim)}. */
    public static Tensor prod(Tensor x, long dim, boolean keepdim) {
        return PROD.call1(x, dims(dim), keepdim, null);
    }

    /** {@code torch.prod(x, dim, keepdim, dtype=dtype)}. */
    public static Tensor prod(Tensor x, long dim, boolean keepdim, DType dtype) {
        return PROD.call1(x, dims(dim), keepdim, dtype);
    }

    /** {@code torch.amax(x)} over all dims. */
    public static Tensor amax(Tensor x) {
        return AMAX.call1(x, null, false);
    }

    /** {@code torch.amax(x, dim)}. */
    public static Tensor amax(Tensor x, long dim) {
        return AMAX.call1(x, dims(dim), false);
    }

    /** {@code torch.amax(x, dims, keepdim)}. */
    public static Tensor amax(Tensor x, long[] dims, boolean keepdim) {
        return AMAX.call1(x, dims, keepdim);
    }

    /** {@code torch.amin(x)} over all dims. */
    public static Tensor amin(Tensor x) {
        return AMIN.call1(x, null, false);
    }

    /** {@code torch.amin(x, dim)}. */
    public static Tensor amin(Tensor x, long dim) {
        return AMIN.call1(x, dims(dim), false);
    }

    /** {@code torch.amin(x, dims, keepdim)}. */
    public static Tensor amin(Tensor x, long[] dims, boolean keepdim) {
        return AMIN.call1(x, dims, keepdim);
    }

    /** {@code torch.max(x)}: the largest element (NaN if any). */
    public static Tensor max(Tensor x) {
        return MAX_ALL.call1(x);
    }

    /** {@code torch.max(x, dim)}: values and indices. */
    public static ValuesIndices max(Tensor x, long dim) {
        return max(x, dim, false);
    }

    /** {@code torch.max(x, dim, keepdim)}: values and indices. */
    public static ValuesIndices max(Tensor x, long dim, boolean keepdim) {
        return pair(Dispatcher.call(MAX_DIM, x, dim, keepdim));
    }

    /** {@code torch.min(x)}: the smallest element (NaN if any). */
    public static Tensor min(Tensor x) {
        return MIN_ALL.call1(x);
    }

    /** {@code torch.min(x, dim)}: values and indices. */
    public static ValuesIndices min(Tensor x, long dim) {
        return min(x, dim, false);
    }

    /** {@code torch.min(x, dim, keepdim)}: values and indices. */
    public static ValuesIndices min(Tensor x, long dim, boolean keepdim) {
        return pair(Dispatcher.call(MIN_DIM, x, dim, keepdim));
    }

    private static ValuesIndices pair(Object r) {
        Tensor[] t = (Tensor[]) r;
        return new ValuesIndices(t[0], t[1]);
    }

    /** {@code torch.argmax(x)}: the flat index of the largest element. */
    public static Tensor argmax(Tensor x) {
        return ARGMAX.call1(x, null, false);
    }

    /** {@code torch.argmax(x, keepdim=keepdim)}: flat index, shaped as x with every dim 1 when keepdim. */
    public static Tensor argmax(Tensor x, boolean keepdim) {
        return ARGMAX.call1(x, null, keepdim);
    }

    /** {@code torch.argmax(x, dim)}. */
    public static Tensor argmax(Tensor x, long dim) {
        return ARGMAX.call1(x, dim, false);
    }

    /** {@code torch.argmax(x, dim, keepdim)}. */
    public static Tensor argmax(Tensor x, long dim, boolean keepdim) {
        return ARGMAX.call1(x, dim, keepdim);
    }

    /** {@code torch.argmin(x)}. */
    public static Tensor argmin(Tensor x) {
        return ARGMIN.call1(x, null, false);
    }

    /** {@code torch.argmin(x, keepdim=keepdim)}. */
    public static Tensor argmin(Tensor x, boolean keepdim) {
        return ARGMIN.call1(x, null, keepdim);
    }

    /** {@code torch.argmin(x, dim)}. */
    public static Tensor argmin(Tensor x, long dim) {
        return ARGMIN.call1(x, dim, false);
    }

    /** {@code torch.argmin(x, dim, keepdim)}. */
    public static Tensor argmin(Tensor x, long dim, boolean keepdim) {
        return ARGMIN.call1(x, dim, keepdim);
    }

    /** {@code torch.var(x)} (correction 1). */
    public static Tensor var(Tensor x) {
        return VAR.call1(x, null, null, false);
    }

    /** {@code torch.var(x, unbiased)}. */
    public static Tensor var(Tensor x, boolean unbiased) {
        return VAR.call1(x, null, unbiased ? 1L : 0L, false);
    }

    /** {@code torch.var(x, dim)}. */
    public static Tensor var(Tensor x, long dim) {
        return VAR.call1(x, dims(dim), null, false);
    }

    /** {@code torch.var(x, dims, unbiased, keepdim)}. */
    public static Tensor var(Tensor x, long[] dims, boolean unbiased, boolean keepdim) {
        return VAR.call1(x, dims, unbiased ? 1L : 0L, keepdim);
    }

    /** {@code torch.var(x, dims, correction=correction, keepdim=keepdim)}. */
    public static Tensor var(Tensor x, long[] dims, double correction, boolean keepdim) {
        return VAR.call1(x, dims, correction, keepdim);
    }

    /** {@code torch.std(x)} (correction 1). */
    public static Tensor std(Tensor x) {
        return STD.call1(x, null, null, false);
    }

    /** {@code torch.std(x, unbiased)}. */
    public static Tensor std(Tensor x, boolean unbiased) {
        return STD.call1(x, null, unbiased ? 1L : 0L, false);
    }

    /** {@code torch.std(x, dim)}. */
    public static Tensor std(Tensor x, long dim) {
        return STD.call1(x, dims(dim), null, false);
    }

    /** {@code torch.std(x, dims, unbiased, keepdim)}. */
    public static Tensor std(Tensor x, long[] dims, boolean unbiased, boolean keepdim) {
        return STD.call1(x, dims, unbiased ? 1L : 0L, keepdim);
    }

    /** {@code torch.std(x, dims, correction=correction, keepdim=keepdim)}. */
    public static Tensor std(Tensor x, long[] dims, double correction, boolean keepdim) {
        return STD.call1(x, dims, correction, keepdim);
    }

    /** {@code torch.logsumexp(x, dim)}. */
    public static Tensor logsumexp(Tensor x, long dim) {
        return LOGSUMEXP.call1(x, dims(dim), false);
    }

    /** {@code torch.logsumexp(x, dim, keepdim)}. */
    public static Tensor logsumexp(Tensor x, long dim, boolean keepdim) {
        return LOGSUMEXP.call1(x, dims(dim), keepdim);
    }

    /** {@code torch.logsumexp(x, dims, keepdim)}. */
    public static Tensor logsumexp(Tensor x, long[] dims, boolean keepdim) {
        return LOGSUMEXP.call1(x, dims, keepdim);
    }

    /**
     * {@code _softmax_backward_data(grad_output, output, dim, input_dtype)}; a null input_dtype keeps grad_output's.
     */
    public static Tensor softmaxBackwardData(Tensor gradOutput, Tensor output, long dim, DType inputDtype) {
        return SOFTMAX_BACKWARD_DATA.call1(gradOutput, output, dim, orGradDtype(inputDtype, gradOutput));
    }

    /**
     * {@code _log_softmax_backward_data(grad_output, output, dim, input_dtype)}; a null input_dtype keeps
     * grad_output's.
     */
    public static Tensor logSoftmaxBackwardData(Tensor gradOutput, Tensor output, long dim, DType inputDtype) {
        return LOG_SOFTMAX_BACKWARD_DATA.call1(gradOutput, output, dim, orGradDtype(inputDtype, gradOutput));
    }

    /** The schema's input_dtype is required: an entry point given none passes grad_output's. */
    private static DType orGradDtype(DType inputDtype, Tensor gradOutput) {
        return inputDtype != null ? inputDtype : gradOutput.dtype();
    }

    /** {@code torch.softmax(x, dim)}. */
    public static Tensor softmax(Tensor x, long dim) {
        return SOFTMAX.call1(x, dim, null);
    }

    /** {@code torch.softmax(x, dim, dtype=dtype)}. */
    public static Tensor softmax(Tensor x, long dim, DType dtype) {
        return SOFTMAX.call1(x, dim, dtype);
    }

    /** {@code torch.log_softmax(x, dim)}. */
    public static Tensor logSoftmax(Tensor x, long dim) {
        return LOG_SOFTMAX.call1(x, dim, null);
    }

    /** {@code torch.log_softmax(x, dim, dtype=dtype)}. */
    public static Tensor logSoftmax(Tensor x, long dim, DType dtype) {
        return LOG_SOFTMAX.call1(x, dim, dtype);
    }

    /** {@code torch.cumsum(x, dim)}. */
    public static Tensor cumsum(Tensor x, long dim) {
        return CUMSUM.call1(x, dim, null);
    }

    /** {@code torch.cumsum(x, dim, dtype=dtype)}. */
    public static Tensor cumsum(Tensor x, long dim, DType dtype) {
        return CUMSUM.call1(x, dim, dtype);
    }

    /** {@code torch.cumprod(x, dim)}. */
    public static Tensor cumprod(Tensor x, long dim) {
        return CUMPROD.call1(x, dim, null);
    }

    /** {@code torch.cumprod(x, dim, dtype=dtype)}. */
    public static Tensor cumprod(Tensor x, long dim, DType dtype) {
        return CUMPROD.call1(x, dim, dtype);
    }

    /** {@code torch.all(x)}. */
    public static Tensor all(Tensor x) {
        return ALL.call1(x, null, false);
    }

    /** {@code torch.all(x, dim)}. */
    public static Tensor all(Tensor x, long dim) {
        return ALL.call1(x, dims(dim), false);
    }

    /** {@code torch.all(x, dims, keepdim)}. */
    public static Tensor all(Tensor x, long[] dims, boolean keepdim) {
        return ALL.call1(x, dims, keepdim);
    }

    /** {@code torch.any(x)}. */
    public static Tensor any(Tensor x) {
        return ANY.call1(x, null, false);
    }

    /** {@code torch.any(x, dim)}. */
    public static Tensor any(Tensor x, long dim) {
        return ANY.call1(x, dims(dim), false);
    }

    /** {@code torch.any(x, dims, keepdim)}. */
    public static Tensor any(Tensor x, long[] dims, boolean keepdim) {
        return ANY.call1(x, dims, keepdim);
    }

    /** {@code torch.linalg.vector_norm(x)} (the 2-norm of all elements). */
    public static Tensor vectorNorm(Tensor x) {
        return VECTOR_NORM.call1(x, 2.0, null, false, null);
    }

    /** {@code torch.logcumsumexp(x, dim)}. */
    public static Tensor logcumsumexp(Tensor x, long dim) {
        return LOGCUMSUMEXP.call1(x, dim);
    }

    /** {@code torch.linalg.vector_norm(x, ord)}. */
    public static Tensor vectorNorm(Tensor x, double ord) {
        return VECTOR_NORM.call1(x, ord, null, false, null);
    }

    /** {@code torch.linalg.vector_norm(x, ord, dims, keepdim)}. */
    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim) {
        return VECTOR_NORM.call1(x, ord, dims, keepdim, null);
    }

    /** {@code torch.linalg.vector_norm(x, ord, dims, keepdim, dtype=dtype)}. */
    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim, DType dtype) {
        return VECTOR_NORM.call1(x, ord, dims, keepdim, dtype);
    }
}
