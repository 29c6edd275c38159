package org.jtorch.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.ForeachLoops;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.storage.TensorImpl;

/**
 * The {@code _foreach_*} op definitions. Each is the list form of an ordinary op (its "base"): position {@code i} of
 * the result is the base op applied to position {@code i} of the arguments. The meta rule is the base op's meta rule at
 * every position (so dtypes, broadcasting and errors are the base op's), and the kernel runs the multi-tensor loop of
 * {@link ForeachLoops} once over every position whose operands are dense float32, and the base op's own kernel at the
 * other positions. The derivatives are the base op's, position by position ({@link ForeachDerivatives}).
 *
 * <p>Arguments follow the op's schema: the first {@code Tensor[]} argument sets the list length (it is {@code self} but
 * for {@code _foreach_pow.ScalarAndTensor}, whose {@code self} is the scalar base); the same definition serves the
 * functional form ({@code Dispatcher.call}) and the in-place form ({@code Dispatcher.callOut} into {@code self}).
 */
public final class ForeachOps {
    private ForeachOps() {}

    /** The base op's arguments at position {@code i}. */
    @FunctionalInterface
    public interface Split {
        Object[] at(Object[] args, int i);
    }

    /** A multi-tensor kernel over positions {@code idx}, all of whose operands are dense float32. */
    @FunctionalInterface
    interface Fast {
        void run(Object[] args, Tensor[] outs, int[] idx);
    }

    /**
     * A foreach op with the base op and split that its derivatives and its in-place form under autograd replay position
     * by position.
     */
    public record Lifted(OpDef op, OpDef base, Split split, Derivatives derivatives) {}

    /**
     * Which derivatives a foreach op has. PyTorch 2.13 differentiates every foreach op with its base op's formula,
     * forward mode included, except those its derivatives.yaml leaves out: {@code _foreach_copy} (neither mode) and
     * {@code _foreach_pow.ScalarAndTensor} (no forward mode).
     */
    enum Derivatives {
        /** Both modes, from the base op's rules ({@link ForeachDerivatives}). */
        OF_BASE,
        /** Reverse mode from the base op's VJP; forward AD refuses the op. */
        REVERSE_OF_BASE,
        /**
         * None for the functional form (a backward through it raises), while the in-place form records its base op
         * position by position: {@code _foreach_zero_}, whose derivative PyTorch takes from {@code zero_}.
         */
        IN_PLACE_OF_BASE,
        /** None: autograd records the op, in either form, and a backward through it raises. */
        NOT_IMPLEMENTED
    }

    static Lifted lift(String schema, OpDef base, Split split, Fast fast) {
        return lift(schema, base, split, fast, Derivatives.OF_BASE);
    }

    static Lifted lift(String schema, OpDef base, Split split, Fast fast, Derivatives derivatives) {
        return lift(schema, base, split, fast, derivatives, false);
    }

    /**
     * {@code emptyLists}: whether the functional form takes lists that are all empty (and returns an empty list), as
     * PyTorch's generated functional {@code _foreach_copy} does; every other foreach op refuses them.
     */
    static Lifted lift(String schema, OpDef base, Split split, Fast fast, Derivatives derivatives, boolean emptyLists) {
        if (base.meta() == null) throw new IllegalArgumentException(base.name() + " is not a structured op");
        OpDef.Meta meta = args -> {
            int n = emptyLists && allListsEmpty(args) ? 0 : checkLists(args);
            Spec[] specs = new Spec[n];
            long[][] shapes = new long[n][];
            DType[] dtypes = new DType[n];
            Device device = null;
            for (int i = 0; i < n; i++) {
                specs[i] = base.meta().infer(split.at(args, i));
                shapes[i] = specs[i].shapes()[0];
                dtypes[i] = specs[i].dtypes()[0];
                if (device == null) device = specs[i].device();
                else if (!device.equals(specs[i].device())) {
                    throw new TorchException("Expected all tensors to be on the same device, but found at least two "
                            + "devices, " + device + " and " + specs[i].device() + "!");
                }
            }
            return new Spec(shapes, dtypes, device == null ? Device.CPU : device, specs);
        };
        OpDef.Kernel kernel = (args, outs, spec) -> {
            Spec[] specs = (Spec[]) spec.plan();
            List<Integer> fastIdx = new ArrayList<>();
            for (int i = 0; i < outs.length; i++) {
                Object[] at = split.at(args, i);
                if (fast != null && denseFloat(at, outs[i])) fastIdx.add(i);
                else base.kernel().run(at, new Tensor[] {outs[i]}, specs[i]);
            }
            if (!fastIdx.isEmpty())
                fast.run(
                        args, outs, fastIdx.stream().mapToInt(Integer::intValue).toArray());
        };
        OpDef.Flag[] flags =
                base.isDifferentiable() ? new OpDef.Flag[0] : new OpDef.Flag[] {OpDef.Flag.NOT_DIFFERENTIABLE};
        OpDef op = OpDef.structured(schema, meta, kernel, flags)
                .vmapFallsBack("a list of tensors of different shapes: each example's list runs as one call");
        if (!base.isDifferentiable()) return new Lifted(op, base, split, derivatives);
        boolean none = derivatives == Derivatives.NOT_IMPLEMENTED || derivatives == Derivatives.IN_PLACE_OF_BASE;
        if (none || base.vjp() == null) {
            op.derivativeNotImplemented(
                    none
                            ? "PyTorch defines no derivative for " + op.name()
                            : "its base op " + base.name() + " has no derivative");
            return new Lifted(op, base, split, derivatives);
        }
        // positions no gradient reached are skipped, so the rule takes missing gradients as null
        op.defineVjp(base.vjpSaves(), ForeachDerivatives.vjp(base, split)).vjpTakesMissingGrads();
        if (derivatives == Derivatives.OF_BASE) op.defineJvp(ForeachDerivatives.jvp(base, split));
        return new Lifted(op, base, split, derivatives);
    }

    /**
     * The in-place form while autograd records (grad mode on and some tensor requires grad). PyTorch records each
     * position as its base op's in-place call, with a node of its own, so that a position whose tensors need no
     * gradient stays out of the graph: here too each position is the base op's call into {@code self[i]}. The whole
     * call is checked before the first write (arguments, result shapes and dtypes, writes autograd refuses), so that an
     * error leaves every tensor as it was, as in PyTorch. An op without an in-place derivative records itself, so that
     * a backward through it raises.
     */
    public static void callInPlaceRecorded(Lifted op, Tensor[] self, Object[] args) {
        if (op.derivatives() == Derivatives.NOT_IMPLEMENTED) {
            op.op().callOut(self, args);
            return;
        }
        Spec spec = op.op().meta().infer(args);
        if (self.length != spec.outputs()) {
            throw new TorchException(
                    op.op().name() + "(): expected " + spec.outputs() + " out tensors, got " + self.length);
        }
        AutogradLayer autograd = Execution.autograd();
        Object[][] at = new Object[self.length][];
        for (int i = 0; i < self.length; i++) {
            Execution.checkOut(op.op(), self[i], spec.shapes()[i], spec.dtypes()[i], spec.device());
            at[i] = op.split().at(args, i);
            boolean record = op.base().isDifferentiable() && autograd.anyRequiresGrad(at[i]);
            if (record || self[i].requiresGrad() || self[i].viewWriteRefusal() != null) autograd.checkWrite(self[i]);
        }
        for (int i = 0; i < self.length; i++) op.base().callOut(new Tensor[] {self[i]}, at[i]);
    }

    private static boolean allListsEmpty(Object[] args) {
        for (Object a : args) if (a instanceof Tensor[] list && list.length > 0) return false;
        return true;
    }

    /**
     * ATen's {@code check_foreach_api_restrictions}: non-empty lists of equal lengths, measured against the first
     * tensor list; returns the length.
     */
    public static int checkLists(Object[] args) {
        int first = 0;
        while (!(args[first] instanceof Tensor[])) first++;
        Tensor[] self = (Tensor[]) args[first];
        if (self.length == 0) throw new TorchException("Tensor list must have at least one tensor.");
        for (int k = first + 1; k < args.length; k++) {
            if (args[k] instanceof Tensor[] other) {
                if (other.length == 0) throw new TorchException("Tensor list must have at least one tensor.");
                if (other.length != self.length) {
                    throw new TorchException("Tensor lists must have the same number of tensors, got " + self.length
                            + " and " + other.length);
                }
            } else if (args[k] instanceof double[] scalars && scalars.length != self.length) {
                throw new TorchException("Tensor list must have same number of elements as scalar list.");
            }
        }
        return self.length;
    }

    /** Whether every tensor of a position is dense float32 of the output's size, and no scalar is complex. */
    private static boolean denseFloat(Object[] at, Tensor out) {
        if (!ForeachLoops.isDenseFloat(out.impl())) return false;
        for (Object a : at) {
            if (a instanceof Tensor t && (!ForeachLoops.isDenseFloat(t.impl()) || t.numel() != out.numel()))
                return false;
            if (a instanceof Scalar s && s.isComplex()) return false;
        }
        return true;
    }

    // ---- argument helpers ---------------------------------------------------------------------------------

    private static Tensor at(Object[] args, int k, int i) {
        return ((Tensor[]) args[k])[i];
    }

    private static TensorImpl[] pick(Object arg, int[] idx) {
        Tensor[] ts = (Tensor[]) arg;
        TensorImpl[] out = new TensorImpl[idx.length];
        for (int j = 0; j < idx.length; j++) out[j] = ts[idx[j]].impl();
        return out;
    }

    /** One float per picked position: from a double[] scalar list, or a single scalar repeated. */
    private static float[] floats(Object arg, int[] idx) {
        float[] out = new float[idx.length];
        for (int j = 0; j < idx.length; j++)
            out[j] = (float)
                    (arg instanceof double[] d ? d[idx[j]] : Scalar.of(arg).doubleValue());
        return out;
    }

    /** Element {@code i} of a scalar list, or the scalar itself. */
    private static Object scalarAt(Object arg, int i) {
        return arg instanceof double[] d ? d[i] : arg;
    }

    private static double alpha(Object[] args, int k) {
        return args.length > k && args[k] != null ? Scalar.of(args[k]).doubleValue() : 1;
    }

    // ---- unary --------------------------------------------------------------------------------------------

    private static Lifted unary(String name, OpDef base, FloatSimd.Unary simd) {
        return lift(
                "_foreach_" + name + "(Tensor[] self) -> Tensor[]",
                base,
                (a, i) -> new Object[] {at(a, 0, i)},
                simd == null ? null : (a, outs, idx) -> ForeachLoops.unary(simd, pick(outs, idx), pick(a[0], idx)));
    }

    public static final Lifted ABS = unary("abs", PointwiseOps.ABS, FloatSimd.Unary.ABS);
    public static final Lifted ACOS = unary("acos", PointwiseOps.ACOS, null);
    public static final Lifted ASIN = unary("asin", PointwiseOps.ASIN, null);
    public static final Lifted ATAN = unary("atan", PointwiseOps.ATAN, null);
    public static final Lifted CEIL = unary("ceil", PointwiseOps.CEIL, null);
    public static final Lifted COS = unary("cos", PointwiseOps.COS, null);
    public static final Lifted COSH = unary("cosh", PointwiseOps.COSH, null);
    public static final Lifted ERF = unary("erf", PointwiseOps.ERF, null);
    public static final Lifted ERFC = unary("erfc", PointwiseOps.ERFC, null);
    public static final Lifted EXP = unary("exp", PointwiseOps.EXP, FloatSimd.Unary.EXP);
    public static final Lifted EXPM1 = unary("expm1", PointwiseOps.EXPM1, null);
    public static final Lifted FLOOR = unary("floor", PointwiseOps.FLOOR, null);
    public static final Lifted FRAC = unary("frac", PointwiseOps.FRAC, null);
    public static final Lifted LGAMMA = unary("lgamma", PointwiseOps.LGAMMA, null);
    public static final Lifted LOG = unary("log", PointwiseOps.LOG, null);
    public static final Lifted LOG10 = unary("log10", PointwiseOps.LOG10, null);
    public static final Lifted LOG1P = unary("log1p", PointwiseOps.LOG1P, null);
    public static final Lifted LOG2 = unary("log2", PointwiseOps.LOG2, null);
    public static final Lifted NEG = unary("neg", PointwiseOps.NEG, FloatSimd.Unary.NEG);
    public static final Lifted RECIPROCAL = unary("reciprocal", PointwiseOps.RECIPROCAL, FloatSimd.Unary.RECIPROCAL);
    public static final Lifted ROUND = unary("round", PointwiseOps.ROUND, null);
    public static final Lifted RSQRT = unary("rsqrt", PointwiseOps.RSQRT, FloatSimd.Unary.RSQRT);
    public static final Lifted SIGMOID = unary("sigmoid", PointwiseOps.SIGMOID, FloatSimd.Unary.SIGMOID);
    public static final Lifted SIGN = unary("sign", PointwiseOps.SIGN, null);
    public static final Lifted SIN = unary("sin", PointwiseOps.SIN, null);
    public static final Lifted SINH = unary("sinh", PointwiseOps.SINH, null);
    public static final Lifted SQRT = unary("sqrt", PointwiseOps.SQRT, FloatSimd.Unary.SQRT);
    public static final Lifted TAN = unary("tan", PointwiseOps.TAN, null);
    public static final Lifted TANH = unary("tanh", PointwiseOps.TANH, null);
    public static final Lifted TRUNC = unary("trunc", PointwiseOps.TRUNC, null);

    // ---- binary -------------------------------------------------------------------------------------------

    /** {@code op(self[i], scalar)} or {@code op(self[i], scalars[i])}; a scalar list arrives as double[]. */
    private static Lifted scalarForm(String schema, OpDef base, boolean boxScalar, FloatSimd.Binary simd) {
        return lift(
                schema,
                base,
                (a, i) -> new Object[] {at(a, 0, i), boxScalar ? Scalar.of(scalarAt(a[1], i)) : scalarAt(a[1], i)},
                simd == null
                        ? null
                        : (a, outs, idx) ->
                                ForeachLoops.binaryScalar(simd, pick(outs, idx), pick(a[0], idx), floats(a[1], idx)));
    }

    /** {@code op(self[i], other[i])}. */
    private static Lifted listForm(String schema, OpDef base, FloatSimd.Binary simd) {
        return lift(
                schema,
                base,
                (a, i) -> new Object[] {at(a, 0, i), at(a, 1, i)},
                simd == null
                        ? null
                        : (a, outs, idx) ->
                                ForeachLoops.binaryList(simd, pick(outs, idx), pick(a[0], idx), pick(a[1], idx)));
    }

    /** {@code op(self[i], other)} with a shared 0-d tensor. */
    private static Lifted tensorForm(String schema, OpDef base, boolean withAlpha) {
        return lift(
                schema,
                base,
                (a, i) -> {
                    Tensor other = (Tensor) a[1];
                    if (other.dim() != 0) {
                        throw new TorchException("scalar tensor expected to be 0 dim but it has " + other.dim()
                                + " dimensions and " + other.numel() + " elements.");
                    }
                    return withAlpha ? new Object[] {at(a, 0, i), other, a[2]} : new Object[] {at(a, 0, i), other};
                },
                null);
    }

    /** {@code self[i] + alpha * other[i]} (or minus), the alpha folded into one fused multiply-add. */
    private static Lifted alphaList(String schema, OpDef base, boolean subtract) {
        return lift(
                schema,
                base,
                (a, i) -> new Object[] {at(a, 0, i), at(a, 1, i), a[2]},
                (a, outs, idx) -> ForeachLoops.axpy(pick(outs, idx), pick(a[0], idx), pick(a[1], idx), (float)
                        (subtract ? -alpha(a, 2) : alpha(a, 2))));
    }

    public static final Lifted ADD_SCALAR = scalarForm(
            "_foreach_add.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]",
            PointwiseOps.ADD,
            false,
            FloatSimd.Binary.ADD);
    public static final Lifted ADD_SCALARLIST = scalarForm(
            "_foreach_add.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
            PointwiseOps.ADD,
            false,
            FloatSimd.Binary.ADD);
    public static final Lifted ADD_TENSOR = tensorForm(
            "_foreach_add.Tensor(Tensor[] self, Tensor other, *, Scalar alpha=1) -> Tensor[]", PointwiseOps.ADD, true);
    public static final Lifted ADD_LIST = alphaList(
            "_foreach_add.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]", PointwiseOps.ADD, false);
    public static final Lifted SUB_SCALAR = scalarForm(
            "_foreach_sub.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]",
            PointwiseOps.SUB,
            false,
            FloatSimd.Binary.SUB);
    public static final Lifted SUB_SCALARLIST = scalarForm(
            "_foreach_sub.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
            PointwiseOps.SUB,
            false,
            FloatSimd.Binary.SUB);
    public static final Lifted SUB_LIST = alphaList(
            "_foreach_sub.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]", PointwiseOps.SUB, true);
    public static final Lifted MUL_SCALAR = scalarForm(
            "_foreach_mul.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]",
            PointwiseOps.MUL,
            false,
            FloatSimd.Binary.MUL);
    public static final Lifted MUL_SCALARLIST = scalarForm(
            "_foreach_mul.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
            PointwiseOps.MUL,
            false,
            FloatSimd.Binary.MUL);
    public static final Lifted MUL_TENSOR =
            tensorForm("_foreach_mul.Tensor(Tensor[] self, Tensor other) -> Tensor[]", PointwiseOps.MUL, false);
    public static final Lifted MUL_LIST = listForm(
            "_foreach_mul.List(Tensor[] self, Tensor[] other) -> Tensor[]", PointwiseOps.MUL, FloatSimd.Binary.MUL);
    public static final Lifted DIV_SCALAR = scalarForm(
            "_foreach_div.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]",
            PointwiseOps.DIV,
            false,
            FloatSimd.Binary.DIV);
    public static final Lifted DIV_SCALARLIST = scalarForm(
            "_foreach_div.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
            PointwiseOps.DIV,
            false,
            FloatSimd.Binary.DIV);
    public static final Lifted DIV_TENSOR =
            tensorForm("_foreach_div.Tensor(Tensor[] self, Tensor other) -> Tensor[]", PointwiseOps.DIV, false);
    public static final Lifted DIV_LIST = listForm(
            "_foreach_div.List(Tensor[] self, Tensor[] other) -> Tensor[]", PointwiseOps.DIV, FloatSimd.Binary.DIV);
    public static final Lifted CLAMP_MIN_SCALAR = scalarForm(
            "_foreach_clamp_min.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]",
            ClampOps.CLAMP_MIN,
            true,
            FloatSimd.Binary.MAX);
    public static final Lifted CLAMP_MIN_SCALARLIST = scalarForm(
            "_foreach_clamp_min.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
            ClampOps.CLAMP_MIN,
            true,
            FloatSimd.Binary.MAX);
    public static final Lifted CLAMP_MIN_LIST = listForm(
            "_foreach_clamp_min.List(Tensor[] self, Tensor[] other) -> Tensor[]",
            ClampOps.CLAMP_MIN_TENSOR,
            FloatSimd.Binary.MAX);
    public static final Lifted CLAMP_MAX_SCALAR = scalarForm(
            "_foreach_clamp_max.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]",
            ClampOps.CLAMP_MAX,
            true,
            FloatSimd.Binary.MIN);
    public static final Lifted CLAMP_MAX_SCALARLIST = scalarForm(
            "_foreach_clamp_max.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
            ClampOps.CLAMP_MAX,
            true,
            FloatSimd.Binary.MIN);
    public static final Lifted CLAMP_MAX_LIST = listForm(
            "_foreach_clamp_max.List(Tensor[] self, Tensor[] other) -> Tensor[]",
            ClampOps.CLAMP_MAX_TENSOR,
            FloatSimd.Binary.MIN);
    public static final Lifted MAXIMUM_LIST = listForm(
            "_foreach_maximum.List(Tensor[] self, Tensor[] other) -> Tensor[]",
            PointwiseOps.MAXIMUM,
            FloatSimd.Binary.MAX);
    public static final Lifted MINIMUM_LIST = listForm(
            "_foreach_minimum.List(Tensor[] self, Tensor[] other) -> Tensor[]",
            PointwiseOps.MINIMUM,
            FloatSimd.Binary.MIN);
    public static final Lifted POW_SCALAR = scalarForm(
            "_foreach_pow.Scalar(Tensor[] self, Scalar exponent) -> Tensor[]", PointwiseOps.POW, false, null);
    public static final Lifted POW_SCALARLIST = scalarForm(
            "_foreach_pow.ScalarList(Tensor[] self, Scalar[] exponent) -> Tensor[]", PointwiseOps.POW, false, null);
    public static final Lifted POW_LIST =
            listForm("_foreach_pow.List(Tensor[] self, Tensor[] exponent) -> Tensor[]", PointwiseOps.POW, null);
    /**
     * {@code pow(self, exponent[i])}: args are (base, exponents), the base made a 0-d tensor of the result dtype as
     * torch.pow makes it.
     */
    public static final Lifted POW_SCALAR_BASE = lift(
            "_foreach_pow.ScalarAndTensor(Scalar self, Tensor[] exponent) -> Tensor[]",
            PointwiseOps.POW,
            (a, i) -> {
                Tensor e = at(a, 1, i);
                Scalar base = Scalar.of(a[0]);
                return new Object[] {Creation.scalarTensor(base, TypePromotion.resultType(e, base)), e};
            },
            null,
            Derivatives.REVERSE_OF_BASE);

    // ---- ternary ------------------------------------------------------------------------------------------

    private static Lifted addc(String name, OpDef base, boolean multiply, String overload, String valueType) {
        return lift(
                "_foreach_" + name + "." + overload + "(Tensor[] self, Tensor[] tensor1, Tensor[] tensor2, " + valueType
                        + ") -> Tensor[]",
                base,
                (a, i) -> new Object[] {at(a, 0, i), at(a, 1, i), at(a, 2, i), scalarAt(a[3], i)},
                (a, outs, idx) -> {
                    if (multiply)
                        ForeachLoops.addcmul(
                                pick(outs, idx), pick(a[0], idx), pick(a[1], idx), pick(a[2], idx), floats(a[3], idx));
                    else
                        ForeachLoops.addcdiv(
                                pick(outs, idx), pick(a[0], idx), pick(a[1], idx), pick(a[2], idx), floats(a[3], idx));
                });
    }

    public static final Lifted ADDCMUL_SCALAR = addc("addcmul", TernaryOps.ADDCMUL, true, "Scalar", "Scalar value=1");
    public static final Lifted ADDCMUL_SCALARLIST =
            addc("addcmul", TernaryOps.ADDCMUL, true, "ScalarList", "Scalar[] scalars");
    public static final Lifted ADDCDIV_SCALAR = addc("addcdiv", TernaryOps.ADDCDIV, false, "Scalar", "Scalar value=1");
    public static final Lifted ADDCDIV_SCALARLIST =
            addc("addcdiv", TernaryOps.ADDCDIV, false, "ScalarList", "Scalar[] scalars");

    private static Lifted lerpScalar(String overload, String weightType) {
        return lift(
                "_foreach_lerp." + overload + "(Tensor[] self, Tensor[] tensors1, " + weightType + ") -> Tensor[]",
                TernaryOps.LERP,
                (a, i) -> new Object[] {at(a, 0, i), at(a, 1, i), scalarAt(a[2], i)},
                (a, outs, idx) ->
                        ForeachLoops.lerp(pick(outs, idx), pick(a[0], idx), pick(a[1], idx), floats(a[2], idx)));
    }

    public static final Lifted LERP_SCALAR = lerpScalar("Scalar", "Scalar weight");
    public static final Lifted LERP_SCALARLIST = lerpScalar("ScalarList", "Scalar[] weight");
    public static final Lifted LERP_LIST = lift(
            "_foreach_lerp.List(Tensor[] self, Tensor[] tensors1, Tensor[] weights) -> Tensor[]",
            TernaryOps.LERP_TENSOR,
            (a, i) -> new Object[] {at(a, 0, i), at(a, 1, i), at(a, 2, i)},
            null);

    // ---- reductions, copies, matmul -----------------------------------------------------------------------

    /** Args: (self, Number ord, DType dtype or null). */
    public static final Lifted NORM = lift(
            "_foreach_norm.Scalar(Tensor[] self, Scalar ord=2, ScalarType? dtype=None) -> Tensor[]",
            ReductionOps.VECTOR_NORM,
            (a, i) -> new Object[] {at(a, 0, i), a[1], null, false, a[2]},
            null);

    public static final Lifted MAX = lift(
            "_foreach_max(Tensor[] self) -> Tensor[]",
            ReductionOps.MAX_ALL,
            (a, i) -> new Object[] {at(a, 0, i)},
            null);
    public static final Lifted CLONE = lift(
            "_foreach_clone(Tensor[] self) -> Tensor[]",
            CopyOps.TO_COPY,
            (a, i) -> new Object[] {at(a, 0, i), null, null},
            (a, outs, idx) -> ForeachLoops.copy(pick(outs, idx), pick(a[0], idx)));
    /**
     * Args: (self, src): {@code src[i]} broadcast to {@code self[i]}'s shape and converted to its dtype. Defined in
     * PyTorch's functional form, as the other foreach ops; {@code _foreach_copy_} is its call into {@code self}. Two
     * empty lists give an empty list (PyTorch's functional form clones an empty {@code self}); the in-place form still
     * refuses them, as ATen's does.
     */
    public static final Lifted COPY = lift(
            "_foreach_copy(Tensor[] self, Tensor[] src, bool non_blocking=False) -> Tensor[] self_out",
            CopyOps.TO_COPY,
            (a, i) -> new Object[] {
                at(a, 1, i), at(a, 0, i).dtype(), at(a, 0, i).impl().shapeRef()
            },
            (a, outs, idx) -> ForeachLoops.copy(pick(outs, idx), pick(a[1], idx)),
            Derivatives.NOT_IMPLEMENTED,
            true);
    /** Args: (self): zeros shaped as {@code self[i]}; {@code _foreach_zero_} is its call into {@code self}. */
    public static final Lifted ZERO = lift(
            "_foreach_zero(Tensor[] self) -> Tensor[] self_out",
            Creation.FILL,
            (a, i) -> new Object[] {at(a, 0, i), 0L},
            (a, outs, idx) -> ForeachLoops.fill(pick(outs, idx), 0f),
            Derivatives.IN_PLACE_OF_BASE);

    public static final Lifted MM = lift(
            "_foreach_mm(Tensor[] self, Tensor[] mat2) -> Tensor[]",
            MatmulOps.MM,
            (a, i) -> new Object[] {at(a, 0, i), at(a, 1, i)},
            null);
}
