package org.jtorch.foreach;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.ForeachOps;

/**
 * {@code torch.foreach}: every op applied position by position over lists of tensors, in one call.
 *
 * <p>Out-of-place functions return an unmodifiable list (PyTorch's tuple) of new tensors; in-place functions
 * ({@code name_}) update every tensor of {@code inputs} and return that same list instance. Tensor lists must be
 * non-empty, and aligned lists (tensors or scalars) of equal length. The ops run through the dispatcher as
 * {@code _foreach_*} ops whose kernel makes one parallel pass over all dense float32 tensors of the call (see
 * {@code org.jtorch.kernels.cpu.ForeachLoops}); any other dtype or layout gets the single-tensor kernel at its
 * position, with identical semantics. Autograd and forward AD differentiate each op position by position with its
 * single-tensor op's derivative, as PyTorch does (second derivatives included); {@code copy_} and the functional
 * {@code _foreach_zero} have none, as in PyTorch. An in-place function under autograd records each position as the
 * single-tensor op's in-place call, with PyTorch's checks (a leaf that requires grad refuses the write, a saved tensor
 * written later fails the backward), made for the whole list before the first write. Under {@code no_grad}, as
 * optimizers call them, nothing of this runs.
 *
 * <p>An exponential moving average of model weights in two calls, {@code ema = d * ema + (1 - d) * params}:
 *
 * <pre>{@code
 * try (var _ = Torch.noGrad()) {
 *     Foreach.mul_(ema, decay);
 *     Foreach.add_(ema, params, 1 - decay);
 * }
 * }</pre>
 */
public final class Foreach {
    private Foreach() {}

    private static Tensor[] arr(List<Tensor> ts) {
        return ts.toArray(Tensor[]::new);
    }

    private static boolean recording(Object[] args) {
        if (!GradMode.isEnabled()) return false;
        for (Object a : args) {
            if (a instanceof Tensor t && t.requiresGrad()) return true;
            if (a instanceof Tensor[] ts) for (Tensor t : ts) if (t.requiresGrad()) return true;
        }
        return false;
    }

    /** The op's arguments: the {@code self} list, then the rest. */
    private static Object[] withSelf(Tensor[] self, Object[] rest) {
        Object[] args = new Object[rest.length + 1];
        args[0] = self;
        System.arraycopy(rest, 0, args, 1, rest.length);
        return args;
    }

    /**
     * The functional form: one new tensor per position. (A lone {@code Tensor[]} in {@code rest} must be cast to
     * Object, or Java would take it as the varargs array itself.)
     */
    private static List<Tensor> call(ForeachOps.Lifted op, Tensor[] self, Object... rest) {
        return callWith(op, withSelf(self, rest));
    }

    /** The functional form on the op's arguments in schema order. */
    private static List<Tensor> callWith(ForeachOps.Lifted op, Object[] args) {
        Object r = Dispatcher.call(op.op(), args);
        return r instanceof Tensor t ? List.of(t) : List.of((Tensor[]) r);
    }

    /** The in-place form: writes position i into {@code inputs[i]}; returns {@code inputs}. */
    private static List<Tensor> callIn(List<Tensor> inputs, ForeachOps.Lifted op, Tensor[] self, Object... rest) {
        Object[] args = withSelf(self, rest);
        ForeachOps.checkLists(args);
        if (recording(args)) ForeachOps.callInPlaceRecorded(op, self, args);
        else {
            Dispatcher.callOut(op.op(), self, args);
        }
        return inputs;
    }

    // ---- unary ----------------------------------------------------------------------------------------

    /** {@code foreach.abs(inputs)}. */
    public static List<Tensor> abs(List<Tensor> inputs) {
        return call(ForeachOps.ABS, arr(inputs));
    }

    /** {@code foreach.abs_(inputs)}. */
    public static List<Tensor> abs_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ABS, arr(inputs));
    }

    /** {@code foreach.acos(inputs)}. */
    public static List<Tensor> acos(List<Tensor> inputs) {
        return call(ForeachOps.ACOS, arr(inputs));
    }

    /** {@code foreach.acos_(inputs)}. */
    public static List<Tensor> acos_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ACOS, arr(inputs));
    }

    /** {@code foreach.asin(inputs)}. */
    public static List<Tensor> asin(List<Tensor> inputs) {
        return call(ForeachOps.ASIN, arr(inputs));
    }

    /** {@code foreach.asin_(inputs)}. */
    public static List<Tensor> asin_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ASIN, arr(inputs));
    }

    /** {@code foreach.atan(inputs)}. */
    public static List<Tensor> atan(List<Tensor> inputs) {
        return call(ForeachOps.ATAN, arr(inputs));
    }

    /** {@code foreach.atan_(inputs)}. */
    public static List<Tensor> atan_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ATAN, arr(inputs));
    }

    /** {@code foreach.ceil(inputs)}. */
    public static List<Tensor> ceil(List<Tensor> inputs) {
        return call(ForeachOps.CEIL, arr(inputs));
    }

    /** {@code foreach.ceil_(inputs)}. */
    public static List<Tensor> ceil_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.CEIL, arr(inputs));
    }

    /** {@code foreach.cos(inputs)}. */
    public static List<Tensor> cos(List<Tensor> inputs) {
        return call(ForeachOps.COS, arr(inputs));
    }

    /** {@code foreach.cos_(inputs)}. */
    public static List<Tensor> cos_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.COS, arr(inputs));
    }

    /** {@code foreach.cosh(inputs)}. */
    public static List<Tensor> cosh(List<Tensor> inputs) {
        return call(ForeachOps.COSH, arr(inputs));
    }

    /** {@code foreach.cosh_(inputs)}. */
    public static List<Tensor> cosh_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.COSH, arr(inputs));
    }

    /** {@code foreach.erf(inputs)}. */
    public static List<Tensor> erf(List<Tensor> inputs) {
        return call(ForeachOps.ERF, arr(inputs));
    }

    /** {@code foreach.erf_(inputs)}. */
    public static List<Tensor> erf_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ERF, arr(inputs));
    }

    /** {@code foreach.erfc(inputs)}. */
    public static List<Tensor> erfc(List<Tensor> inputs) {
        return call(ForeachOps.ERFC, arr(inputs));
    }

    /** {@code foreach.erfc_(inputs)}. */
    public static List<Tensor> erfc_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ERFC, arr(inputs));
    }

    /** {@code foreach.exp(inputs)}. */
    public static List<Tensor> exp(List<Tensor> inputs) {
        return call(ForeachOps.EXP, arr(inputs));
    }

    /** {@code foreach.exp_(inputs)}. */
    public static List<Tensor> exp_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.EXP, arr(inputs));
    }

    /** {@code foreach.expm1(inputs)}. */
    public static List<Tensor> expm1(List<Tensor> inputs) {
        return call(ForeachOps.EXPM1, arr(inputs));
    }

    /** {@code foreach.expm1_(inputs)}. */
    public static List<Tensor> expm1_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.EXPM1, arr(inputs));
    }

    /** {@code foreach.floor(inputs)}. */
    public static List<Tensor> floor(List<Tensor> inputs) {
        return call(ForeachOps.FLOOR, arr(inputs));
    }

    /** {@code foreach.floor_(inputs)}. */
    public static List<Tensor> floor_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.FLOOR, arr(inputs));
    }

    /** {@code foreach.frac(inputs)}. */
    public static List<Tensor> frac(List<Tensor> inputs) {
        return call(ForeachOps.FRAC, arr(inputs));
    }

    /** {@code foreach.frac_(inputs)}. */
    public static List<Tensor> frac_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.FRAC, arr(inputs));
    }

    /** {@code foreach.lgamma(inputs)}. */
    public static List<Tensor> lgamma(List<Tensor> inputs) {
        return call(ForeachOps.LGAMMA, arr(inputs));
    }

    /** {@code foreach.lgamma_(inputs)}. */
    public static List<Tensor> lgamma_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.LGAMMA, arr(inputs));
    }

    /** {@code foreach.log(inputs)}. */
    public static List<Tensor> log(List<Tensor> inputs) {
        return call(ForeachOps.LOG, arr(inputs));
    }

    /** {@code foreach.log_(inputs)}. */
    public static List<Tensor> log_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.LOG, arr(inputs));
    }

    /** {@code foreach.log10(inputs)}. */
    public static List<Tensor> log10(List<Tensor> inputs) {
        return call(ForeachOps.LOG10, arr(inputs));
    }

    /** {@code foreach.log10_(inputs)}. */
    public static List<Tensor> log10_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.LOG10, arr(inputs));
    }

    /** {@code foreach.log1p(inputs)}. */
    public static List<Tensor> log1p(List<Tensor> inputs) {
        return call(ForeachOps.LOG1P, arr(inputs));
    }

    /** {@code foreach.log1p_(inputs)}. */
    public static List<Tensor> log1p_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.LOG1P, arr(inputs));
    }

    /** {@code foreach.log2(inputs)}. */
    public static List<Tensor> log2(List<Tensor> inputs) {
        return call(ForeachOps.LOG2, arr(inputs));
    }

    /** {@code foreach.log2_(inputs)}. */
    public static List<Tensor> log2_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.LOG2, arr(inputs));
    }

    /** {@code foreach.neg(inputs)}. */
    public static List<Tensor> neg(List<Tensor> inputs) {
        return call(ForeachOps.NEG, arr(inputs));
    }

    /** {@code foreach.neg_(inputs)}. */
    public static List<Tensor> neg_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.NEG, arr(inputs));
    }

    /** {@code foreach.reciprocal(inputs)}. */
    public static List<Tensor> reciprocal(List<Tensor> inputs) {
        return call(ForeachOps.RECIPROCAL, arr(inputs));
    }

    /** {@code foreach.reciprocal_(inputs)}. */
    public static List<Tensor> reciprocal_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.RECIPROCAL, arr(inputs));
    }

    /** {@code foreach.round(inputs)}. */
    public static List<Tensor> round(List<Tensor> inputs) {
        return call(ForeachOps.ROUND, arr(inputs));
    }

    /** {@code foreach.round_(inputs)}. */
    public static List<Tensor> round_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ROUND, arr(inputs));
    }

    /** {@code foreach.rsqrt(inputs)}. */
    public static List<Tensor> rsqrt(List<Tensor> inputs) {
        return call(ForeachOps.RSQRT, arr(inputs));
    }

    /** {@code foreach.rsqrt_(inputs)}. */
    public static List<Tensor> rsqrt_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.RSQRT, arr(inputs));
    }

    /** {@code foreach.sigmoid(inputs)}. */
    public static List<Tensor> sigmoid(List<Tensor> inputs) {
        return call(ForeachOps.SIGMOID, arr(inputs));
    }

    /** {@code foreach.sigmoid_(inputs)}. */
    public static List<Tensor> sigmoid_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.SIGMOID, arr(inputs));
    }

    /** {@code foreach.sign(inputs)}. */
    public static List<Tensor> sign(List<Tensor> inputs) {
        return call(ForeachOps.SIGN, arr(inputs));
    }

    /** {@code foreach.sign_(inputs)}. */
    public static List<Tensor> sign_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.SIGN, arr(inputs));
    }

    /** {@code foreach.sin(inputs)}. */
    public static List<Tensor> sin(List<Tensor> inputs) {
        return call(ForeachOps.SIN, arr(inputs));
    }

    /** {@code foreach.sin_(inputs)}. */
    public static List<Tensor> sin_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.SIN, arr(inputs));
    }

    /** {@code foreach.sinh(inputs)}. */
    public static List<Tensor> sinh(List<Tensor> inputs) {
        return call(ForeachOps.SINH, arr(inputs));
    }

    /** {@code foreach.sinh_(inputs)}. */
    public static List<Tensor> sinh_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.SINH, arr(inputs));
    }

    /** {@code foreach.sqrt(inputs)}. */
    public static List<Tensor> sqrt(List<Tensor> inputs) {
        return call(ForeachOps.SQRT, arr(inputs));
    }

    /** {@code foreach.sqrt_(inputs)}. */
    public static List<Tensor> sqrt_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.SQRT, arr(inputs));
    }

    /** {@code foreach.tan(inputs)}. */
    public static List<Tensor> tan(List<Tensor> inputs) {
        return call(ForeachOps.TAN, arr(inputs));
    }

    /** {@code foreach.tan_(inputs)}. */
    public static List<Tensor> tan_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.TAN, arr(inputs));
    }

    /** {@code foreach.tanh(inputs)}. */
    public static List<Tensor> tanh(List<Tensor> inputs) {
        return call(ForeachOps.TANH, arr(inputs));
    }

    /** {@code foreach.tanh_(inputs)}. */
    public static List<Tensor> tanh_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.TANH, arr(inputs));
    }

    /** {@code foreach.trunc(inputs)}. */
    public static List<Tensor> trunc(List<Tensor> inputs) {
        return call(ForeachOps.TRUNC, arr(inputs));
    }

    /** {@code foreach.trunc_(inputs)}. */
    public static List<Tensor> trunc_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.TRUNC, arr(inputs));
    }

    // ---- binary ---------------------------------------------------------------------------------------

    /** {@code foreach.add(inputs, scalar)}. */
    public static List<Tensor> add(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.ADD_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.add_(inputs, scalar)}. */
    public static List<Tensor> add_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.ADD_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.add(inputs, scalar)}. */
    public static List<Tensor> add(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.ADD_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.add_(inputs, scalar)}. */
    public static List<Tensor> add_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.ADD_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.add(inputs, scalars)}. */
    public static List<Tensor> add(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.ADD_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.add_(inputs, scalars)}. */
    public static List<Tensor> add_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.ADD_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.add(inputs, other, alpha=alpha)}. */
    public static List<Tensor> add(List<Tensor> inputs, Tensor other, double alpha) {
        return call(ForeachOps.ADD_TENSOR, arr(inputs), other, alpha);
    }

    /** {@code foreach.add_(inputs, other, alpha=alpha)}. */
    public static List<Tensor> add_(List<Tensor> inputs, Tensor other, double alpha) {
        return callIn(inputs, ForeachOps.ADD_TENSOR, arr(inputs), other, alpha);
    }

    /** {@code foreach.add(inputs, other)}. */
    public static List<Tensor> add(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.ADD_LIST, arr(inputs), arr(other), null);
    }

    /** {@code foreach.add_(inputs, other)}. */
    public static List<Tensor> add_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.ADD_LIST, arr(inputs), arr(other), null);
    }

    /** {@code foreach.add(inputs, other, alpha=alpha)}. */
    public static List<Tensor> add(List<Tensor> inputs, List<Tensor> other, double alpha) {
        return call(ForeachOps.ADD_LIST, arr(inputs), arr(other), alpha);
    }

    /** {@code foreach.add_(inputs, other, alpha=alpha)}. */
    public static List<Tensor> add_(List<Tensor> inputs, List<Tensor> other, double alpha) {
        return callIn(inputs, ForeachOps.ADD_LIST, arr(inputs), arr(other), alpha);
    }

    /** {@code foreach.sub(inputs, scalar)}. */
    public static List<Tensor> sub(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.SUB_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.sub_(inputs, scalar)}. */
    public static List<Tensor> sub_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.SUB_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.sub(inputs, scalar)}. */
    public static List<Tensor> sub(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.SUB_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.sub_(inputs, scalar)}. */
    public static List<Tensor> sub_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.SUB_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.sub(inputs, scalars)}. */
    public static List<Tensor> sub(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.SUB_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.sub_(inputs, scalars)}. */
    public static List<Tensor> sub_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.SUB_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.sub(inputs, other)}. */
    public static List<Tensor> sub(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.SUB_LIST, arr(inputs), arr(other), null);
    }

    /** {@code foreach.sub_(inputs, other)}. */
    public static List<Tensor> sub_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.SUB_LIST, arr(inputs), arr(other), null);
    }

    /** {@code foreach.sub(inputs, other, alpha=alpha)}. */
    public static List<Tensor> sub(List<Tensor> inputs, List<Tensor> other, double alpha) {
        return call(ForeachOps.SUB_LIST, arr(inputs), arr(other), alpha);
    }

    /** {@code foreach.sub_(inputs, other, alpha=alpha)}. */
    public static List<Tensor> sub_(List<Tensor> inputs, List<Tensor> other, double alpha) {
        return callIn(inputs, ForeachOps.SUB_LIST, arr(inputs), arr(other), alpha);
    }

    /** {@code foreach.mul(inputs, scalar)}. */
    public static List<Tensor> mul(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.MUL_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.mul_(inputs, scalar)}. */
    public static List<Tensor> mul_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.MUL_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.mul(inputs, scalar)}. */
    public static List<Tensor> mul(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.MUL_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.mul_(inputs, scalar)}. */
    public static List<Tensor> mul_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.MUL_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.mul(inputs, scalars)}. */
    public static List<Tensor> mul(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.MUL_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.mul_(inputs, scalars)}. */
    public static List<Tensor> mul_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.MUL_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.mul(inputs, other)}. */
    public static List<Tensor> mul(List<Tensor> inputs, Tensor other) {
        return call(ForeachOps.MUL_TENSOR, arr(inputs), other);
    }

    /** {@code foreach.mul_(inputs, other)}. */
    public static List<Tensor> mul_(List<Tensor> inputs, Tensor other) {
        return callIn(inputs, ForeachOps.MUL_TENSOR, arr(inputs), other);
    }

    /** {@code foreach.mul(inputs, other)}. */
    public static List<Tensor> mul(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.MUL_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.mul_(inputs, other)}. */
    public static List<Tensor> mul_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.MUL_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.div(inputs, scalar)}. */
    public static List<Tensor> div(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.DIV_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.div_(inputs, scalar)}. */
    public static List<Tensor> div_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.DIV_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.div(inputs, scalar)}. */
    public static List<Tensor> div(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.DIV_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.div_(inputs, scalar)}. */
    public static List<Tensor> div_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.DIV_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.div(inputs, scalars)}. */
    public static List<Tensor> div(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.DIV_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.div_(inputs, scalars)}. */
    public static List<Tensor> div_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.DIV_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.div(inputs, other)}. */
    public static List<Tensor> div(List<Tensor> inputs, Tensor other) {
        return call(ForeachOps.DIV_TENSOR, arr(inputs), other);
    }

    /** {@code foreach.div_(inputs, other)}. */
    public static List<Tensor> div_(List<Tensor> inputs, Tensor other) {
        return callIn(inputs, ForeachOps.DIV_TENSOR, arr(inputs), other);
    }

    /** {@code foreach.div(inputs, other)}. */
    public static List<Tensor> div(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.DIV_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.div_(inputs, other)}. */
    public static List<Tensor> div_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.DIV_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.clamp_min(inputs, scalar)}. */
    public static List<Tensor> clampMin(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_min_(inputs, scalar)}. */
    public static List<Tensor> clampMin_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_min(inputs, scalar)}. */
    public static List<Tensor> clampMin(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_min_(inputs, scalar)}. */
    public static List<Tensor> clampMin_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_min(inputs, scalars)}. */
    public static List<Tensor> clampMin(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.CLAMP_MIN_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.clamp_min_(inputs, scalars)}. */
    public static List<Tensor> clampMin_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.clamp_min(inputs, other)}. */
    public static List<Tensor> clampMin(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.CLAMP_MIN_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.clamp_min_(inputs, other)}. */
    public static List<Tensor> clampMin_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.clamp_max(inputs, scalar)}. */
    public static List<Tensor> clampMax(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_max_(inputs, scalar)}. */
    public static List<Tensor> clampMax_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_max(inputs, scalar)}. */
    public static List<Tensor> clampMax(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_max_(inputs, scalar)}. */
    public static List<Tensor> clampMax_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.clamp_max(inputs, scalars)}. */
    public static List<Tensor> clampMax(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.CLAMP_MAX_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.clamp_max_(inputs, scalars)}. */
    public static List<Tensor> clampMax_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.clamp_max(inputs, other)}. */
    public static List<Tensor> clampMax(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.CLAMP_MAX_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.clamp_max_(inputs, other)}. */
    public static List<Tensor> clampMax_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.maximum(inputs, scalar)}. */
    public static List<Tensor> maximum(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.maximum_(inputs, scalar)}. */
    public static List<Tensor> maximum_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.maximum(inputs, scalar)}. */
    public static List<Tensor> maximum(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.maximum_(inputs, scalar)}. */
    public static List<Tensor> maximum_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.maximum(inputs, scalars)}. */
    public static List<Tensor> maximum(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.CLAMP_MIN_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.maximum_(inputs, scalars)}. */
    public static List<Tensor> maximum_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.CLAMP_MIN_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.maximum(inputs, other)}. */
    public static List<Tensor> maximum(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.MAXIMUM_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.maximum_(inputs, other)}. */
    public static List<Tensor> maximum_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.MAXIMUM_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.minimum(inputs, scalar)}. */
    public static List<Tensor> minimum(List<Tensor> inputs, double scalar) {
        return call(ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.minimum_(inputs, scalar)}. */
    public static List<Tensor> minimum_(List<Tensor> inputs, double scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.minimum(inputs, scalar)}. */
    public static List<Tensor> minimum(List<Tensor> inputs, long scalar) {
        return call(ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.minimum_(inputs, scalar)}. */
    public static List<Tensor> minimum_(List<Tensor> inputs, long scalar) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_SCALAR, arr(inputs), scalar);
    }

    /** {@code foreach.minimum(inputs, scalars)}. */
    public static List<Tensor> minimum(List<Tensor> inputs, double[] scalars) {
        return call(ForeachOps.CLAMP_MAX_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.minimum_(inputs, scalars)}. */
    public static List<Tensor> minimum_(List<Tensor> inputs, double[] scalars) {
        return callIn(inputs, ForeachOps.CLAMP_MAX_SCALARLIST, arr(inputs), scalars.clone());
    }

    /** {@code foreach.minimum(inputs, other)}. */
    public static List<Tensor> minimum(List<Tensor> inputs, List<Tensor> other) {
        return call(ForeachOps.MINIMUM_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.minimum_(inputs, other)}. */
    public static List<Tensor> minimum_(List<Tensor> inputs, List<Tensor> other) {
        return callIn(inputs, ForeachOps.MINIMUM_LIST, arr(inputs), (Object) arr(other));
    }

    /** {@code foreach.pow(inputs, exponent)}. */
    public static List<Tensor> pow(List<Tensor> inputs, double exponent) {
        return call(ForeachOps.POW_SCALAR, arr(inputs), exponent);
    }

    /** {@code foreach.pow_(inputs, exponent)}. */
    public static List<Tensor> pow_(List<Tensor> inputs, double exponent) {
        return callIn(inputs, ForeachOps.POW_SCALAR, arr(inputs), exponent);
    }

    /** {@code foreach.pow(inputs, exponent)}. */
    public static List<Tensor> pow(List<Tensor> inputs, long exponent) {
        return call(ForeachOps.POW_SCALAR, arr(inputs), exponent);
    }

    /** {@code foreach.pow_(inputs, exponent)}. */
    public static List<Tensor> pow_(List<Tensor> inputs, long exponent) {
        return callIn(inputs, ForeachOps.POW_SCALAR, arr(inputs), exponent);
    }

    /** {@code foreach.pow(inputs, exponents)}. */
    public static List<Tensor> pow(List<Tensor> inputs, double[] exponents) {
        return call(ForeachOps.POW_SCALARLIST, arr(inputs), exponents.clone());
    }

    /** {@code foreach.pow_(inputs, exponents)}. */
    public static List<Tensor> pow_(List<Tensor> inputs, double[] exponents) {
        return callIn(inputs, ForeachOps.POW_SCALARLIST, arr(inputs), exponents.clone());
    }

    /** {@code foreach.pow(inputs, exponents)}. */
    public static List<Tensor> pow(List<Tensor> inputs, List<Tensor> exponents) {
        return call(ForeachOps.POW_LIST, arr(inputs), (Object) arr(exponents));
    }

    /** {@code foreach.pow_(inputs, exponents)}. */
    public static List<Tensor> pow_(List<Tensor> inputs, List<Tensor> exponents) {
        return callIn(inputs, ForeachOps.POW_LIST, arr(inputs), (Object) arr(exponents));
    }

    /** {@code foreach.pow(base, exponents)}: a scalar raised to every tensor (no in-place form). */
    public static List<Tensor> pow(double base, List<Tensor> exponents) {
        return callWith(ForeachOps.POW_SCALAR_BASE, new Object[] {base, arr(exponents)});
    }

    /** {@code foreach.pow(base, exponents)} with an integer base. */
    public static List<Tensor> pow(long base, List<Tensor> exponents) {
        return callWith(ForeachOps.POW_SCALAR_BASE, new Object[] {base, arr(exponents)});
    }

    // ---- ternary --------------------------------------------------------------------------------------

    /** {@code foreach.addcmul(inputs, tensor1, tensor2)}, value 1. */
    public static List<Tensor> addcmul(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2) {
        return call(ForeachOps.ADDCMUL_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), 1L);
    }

    /** {@code foreach.addcmul(inputs, tensor1, tensor2, value=value)}. */
    public static List<Tensor> addcmul(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double value) {
        return call(ForeachOps.ADDCMUL_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), value);
    }

    /** {@code foreach.addcmul(inputs, tensor1, tensor2, value=values)}: one value per position. */
    public static List<Tensor> addcmul(
            List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double[] values) {
        return call(ForeachOps.ADDCMUL_SCALARLIST, arr(inputs), arr(tensor1), arr(tensor2), values.clone());
    }

    /** {@code foreach.addcmul(inputs, tensor1, tensor2, value=packed)}: a 1-D CPU tensor of one value per position. */
    public static List<Tensor> addcmul(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, Tensor values) {
        return call(
                ForeachOps.ADDCMUL_SCALARLIST, arr(inputs), arr(tensor1), arr(tensor2), unpack(values, inputs.size()));
    }

    /** {@code foreach.addcmul_(inputs, tensor1, tensor2)}, value 1. */
    public static List<Tensor> addcmul_(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2) {
        return callIn(inputs, ForeachOps.ADDCMUL_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), 1L);
    }

    /** {@code foreach.addcmul_(inputs, tensor1, tensor2, value=value)}. */
    public static List<Tensor> addcmul_(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double value) {
        return callIn(inputs, ForeachOps.ADDCMUL_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), value);
    }

    /** {@code foreach.addcmul_(inputs, tensor1, tensor2, value=values)}. */
    public static List<Tensor> addcmul_(
            List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double[] values) {
        return callIn(inputs, ForeachOps.ADDCMUL_SCALARLIST, arr(inputs), arr(tensor1), arr(tensor2), values.clone());
    }

    /** {@code foreach.addcmul_(inputs, tensor1, tensor2, value=packed)}. */
    public static List<Tensor> addcmul_(
            List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, Tensor values) {
        return callIn(
                inputs,
                ForeachOps.ADDCMUL_SCALARLIST,
                arr(inputs),
                arr(tensor1),
                arr(tensor2),
                unpack(values, inputs.size()));
    }

    /** {@code foreach.addcdiv(inputs, tensor1, tensor2)}, value 1. */
    public static List<Tensor> addcdiv(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2) {
        return call(ForeachOps.ADDCDIV_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), 1L);
    }

    /** {@code foreach.addcdiv(inputs, tensor1, tensor2, value=value)}. */
    public static List<Tensor> addcdiv(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double value) {
        return call(ForeachOps.ADDCDIV_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), value);
    }

    /** {@code foreach.addcdiv(inputs, tensor1, tensor2, value=values)}: one value per position. */
    public static List<Tensor> addcdiv(
            List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double[] values) {
        return call(ForeachOps.ADDCDIV_SCALARLIST, arr(inputs), arr(tensor1), arr(tensor2), values.clone());
    }

    /** {@code foreach.addcdiv(inputs, tensor1, tensor2, value=packed)}: a 1-D CPU tensor of one value per position. */
    public static List<Tensor> addcdiv(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, Tensor values) {
        return call(
                ForeachOps.ADDCDIV_SCALARLIST, arr(inputs), arr(tensor1), arr(tensor2), unpack(values, inputs.size()));
    }

    /** {@code foreach.addcdiv_(inputs, tensor1, tensor2)}, value 1. */
    public static List<Tensor> addcdiv_(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2) {
        return callIn(inputs, ForeachOps.ADDCDIV_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), 1L);
    }

    /** {@code foreach.addcdiv_(inputs, tensor1, tensor2, value=value)}. */
    public static List<Tensor> addcdiv_(List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double value) {
        return callIn(inputs, ForeachOps.ADDCDIV_SCALAR, arr(inputs), arr(tensor1), arr(tensor2), value);
    }

    /** {@code foreach.addcdiv_(inputs, tensor1, tensor2, value=values)}. */
    public static List<Tensor> addcdiv_(
            List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, double[] values) {
        return callIn(inputs, ForeachOps.ADDCDIV_SCALARLIST, arr(inputs), arr(tensor1), arr(tensor2), values.clone());
    }

    /** {@code foreach.addcdiv_(inputs, tensor1, tensor2, value=packed)}. */
    public static List<Tensor> addcdiv_(
            List<Tensor> inputs, List<Tensor> tensor1, List<Tensor> tensor2, Tensor values) {
        return callIn(
                inputs,
                ForeachOps.ADDCDIV_SCALARLIST,
                arr(inputs),
                arr(tensor1),
                arr(tensor2),
                unpack(values, inputs.size()));
    }

    /** ATen's check of a packed scalar tensor: 1-D, one value per position, on the CPU. */
    private static double[] unpack(Tensor values, int n) {
        if (values.dim() != 1) {
            throw new TorchException(
                    "Expected packed scalar Tensor to be of dimension 1. Got " + values.dim() + " instead.");
        }
        if (values.numel() != n) {
            throw new TorchException("Expected length of scalars to match input of length " + n + " but got "
                    + values.numel() + " instead.");
        }
        if (values.device() != org.jtorch.Device.CPU) {
            throw new TorchException("Expected scalars to be on CPU, got " + values.device() + " instead.");
        }
        return values.toDoubleArray();
    }

    /** {@code foreach.lerp(inputs, end, weight)}: {@code inputs[i] + weight * (end[i] - inputs[i])}. */
    public static List<Tensor> lerp(List<Tensor> inputs, List<Tensor> end, double weight) {
        return call(ForeachOps.LERP_SCALAR, arr(inputs), arr(end), weight);
    }

    /** {@code foreach.lerp(inputs, end, weights)} with one weight per position. */
    public static List<Tensor> lerp(List<Tensor> inputs, List<Tensor> end, double[] weights) {
        return call(ForeachOps.LERP_SCALARLIST, arr(inputs), arr(end), weights.clone());
    }

    /** {@code foreach.lerp(inputs, end, weights)} with a weight tensor per position. */
    public static List<Tensor> lerp(List<Tensor> inputs, List<Tensor> end, List<Tensor> weights) {
        return call(ForeachOps.LERP_LIST, arr(inputs), arr(end), arr(weights));
    }

    /** {@code foreach.lerp_(inputs, end, weight)}. */
    public static List<Tensor> lerp_(List<Tensor> inputs, List<Tensor> end, double weight) {
        return callIn(inputs, ForeachOps.LERP_SCALAR, arr(inputs), arr(end), weight);
    }

    /** {@code foreach.lerp_(inputs, end, weights)}. */
    public static List<Tensor> lerp_(List<Tensor> inputs, List<Tensor> end, double[] weights) {
        return callIn(inputs, ForeachOps.LERP_SCALARLIST, arr(inputs), arr(end), weights.clone());
    }

    /** {@code foreach.lerp_(inputs, end, weights)} with weight tensors. */
    public static List<Tensor> lerp_(List<Tensor> inputs, List<Tensor> end, List<Tensor> weights) {
        return callIn(inputs, ForeachOps.LERP_LIST, arr(inputs), arr(end), arr(weights));
    }

    // ---- reductions and the rest ----------------------------------------------------------------------

    /** {@code foreach.norm(inputs)}: the 2-norm of every tensor over all its elements, as 0-d tensors. */
    public static List<Tensor> norm(List<Tensor> inputs) {
        return call(ForeachOps.NORM, arr(inputs), 2.0, null);
    }

    /** {@code foreach.norm(inputs, ord=ord)} ({@code linalg.vector_norm} per tensor). */
    public static List<Tensor> norm(List<Tensor> inputs, double ord) {
        return call(ForeachOps.NORM, arr(inputs), ord, null);
    }

    /** {@code foreach.norm(inputs, ord=ord, dtype=dtype)}; a null dtype keeps each input's. */
    public static List<Tensor> norm(List<Tensor> inputs, double ord, DType dtype) {
        return call(ForeachOps.NORM, arr(inputs), ord, dtype);
    }

    /** {@code foreach.max(inputs)}: the maximum of every tensor, as 0-d tensors. */
    public static List<Tensor> max(List<Tensor> inputs) {
        return call(ForeachOps.MAX, arr(inputs));
    }

    /** {@code foreach.clone(inputs)}. */
    public static List<Tensor> clone(List<Tensor> inputs) {
        return call(ForeachOps.CLONE, arr(inputs));
    }

    /** {@code foreach.copy_(inputs, src)}: {@code inputs[i].copy_(src[i])}. */
    public static List<Tensor> copy_(List<Tensor> inputs, List<Tensor> src) {
        return callIn(inputs, ForeachOps.COPY, arr(inputs), (Object) arr(src));
    }

    /** {@code foreach.zero_(inputs)}. */
    public static List<Tensor> zero_(List<Tensor> inputs) {
        return callIn(inputs, ForeachOps.ZERO, arr(inputs));
    }

    /** {@code foreach.mm(inputs, mat2)}: {@code mm(inputs[i], mat2[i])}. */
    public static List<Tensor> mm(List<Tensor> inputs, List<Tensor> mat2) {
        return call(ForeachOps.MM, arr(inputs), (Object) arr(mat2));
    }
}
