package org.jtorch.ops;

import static org.jtorch.ops.Pointwise.FLOATS;
import static org.jtorch.ops.Pointwise.NUMBERS;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ComplexMath;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.PointwiseLoops;
import org.jtorch.kernels.cpu.simd.MultiTensorSimd;
import org.jtorch.ops.Pointwise.Promotion;

/**
 * Pointwise ops of three operands: {@code where}, {@code lerp}, {@code addcmul}, {@code addcdiv}, and
 * {@code masked_fill} (self, mask, value).
 *
 * <p>Floating formulas follow ATen's CPU kernels operation for operation, in the dtype's op-math type (float for
 * float32, float16 and bfloat16; double for float64), including where ATen's compiled code fuses a multiply and an add
 * into one rounding ({@code lerp}, {@code addcmul}), so float results match PyTorch bit for bit rather than within a
 * tolerance.
 */
public final class TernaryOps {
    private TernaryOps() {}

    /** An op whose meta rule runs {@code checks} (ATen's extra argument checks) before the family's rule. */
    private static OpDef withChecks(OpDef base, Consumer<Object[]> checks) {
        return Pointwise.checked(base, checks::accept);
    }

    /** Whether a float dtype computes in float (float32 and the narrower formats) rather than double. */
    private static boolean floatOpMath(DType d) {
        return Pointwise.opMath(d) == DType.FLOAT32;
    }

    private static DType resultOf(Object[] args) {
        return TypePromotion.resultType(args[0], args[1], args[2]);
    }

    private static TorchException notImplemented(String kernel, DType d) {
        return new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    // ---- where ------------------------------------------------------------------------------------------

    private static void checkCondition(Tensor condition) {
        if (condition.dtype() == DType.UINT8) {
            Warnings.warn(
                    Warnings.Category.USER_WARNING,
                    "where received a uint8 condition tensor. This behavior is deprecated and "
                            + "will be removed in a future version of PyTorch. Use a boolean condition instead.");
        } else if (condition.dtype() != DType.BOOL) {
            throw new TorchException("where expected condition to be a boolean tensor, but got a tensor with dtype "
                    + condition.dtype().cppName());
        }
    }

    private static final Fns.Ternary SELECT =
            new Fns.Ternary((c, a, b) -> c != 0 ? a : b, (c, a, b) -> c != 0 ? a : b, (cr, ci, ar, ai, br, bi, o) -> {
                boolean take = cr != 0;
                o[0] = take ? ar : br;
                o[1] = take ? ai : bi;
            });

    /**
     * {@code where(condition, self, other)}: {@code self} where the condition holds, else {@code other}. {@code self}
     * and {@code other} may be tensors or Java scalars (weak for promotion); the result has their promoted dtype and
     * the broadcast shape of all three. A uint8 condition is accepted with PyTorch's deprecation warning.
     */
    public static final OpDef WHERE = OpDef.structured(
                    "where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
                    args -> {
                        Tensor condition = (Tensor) args[0];
                        checkCondition(condition);
                        DType result = TypePromotion.resultType(args[1], args[2]);
                        long[] shape = condition.impl().shapeRef();
                        for (int i = 1; i < 3; i++) {
                            if (args[i] instanceof Tensor t)
                                shape = Shapes.broadcast(shape, t.impl().shapeRef());
                            else ScalarConversion.check(Scalar.of(args[i]), result);
                        }
                        return Spec.of(shape, result, Devices.common("where", args[0], args[1], args[2]), null);
                    },
                    (args, outs, spec) -> {
                        DType compute = spec.dtypes()[0];
                        PointwiseLoops.ternary(
                                SELECT,
                                compute,
                                outs[0].impl(),
                                ((Tensor) args[0]).impl(),
                                Pointwise.operand(args[1], compute).impl(),
                                Pointwise.operand(args[2], compute).impl());
                    })
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> Grads.forTensorArgs(
                            a,
                            null,
                            TernaryOps.where((Tensor) a[0], g[0], 0L),
                            TernaryOps.where((Tensor) a[0], 0L, g[0])))
            .deriveJvp(Jvps.linearExcept(0));

    // ---- lerp -------------------------------------------------------------------------------------------

    private static final Set<DType> LERP_DTYPES =
            EnumSet.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128);

    private static void lerpChecks(Object[] args, String kernel) {
        Tensor self = (Tensor) args[0], end = (Tensor) args[1];
        if (end.dtype() != self.dtype()) {
            throw new TorchException("expected dtype " + ScalarConversion.typeMetaName(self.dtype())
                    + " for `end` but got dtype " + ScalarConversion.typeMetaName(end.dtype()));
        }
        if (args[2] instanceof Tensor w && w.dtype() != self.dtype()) {
            throw new TorchException("expected dtype " + ScalarConversion.typeMetaName(self.dtype())
                    + " for `weight` but got dtype " + ScalarConversion.typeMetaName(w.dtype()));
        }
        if (!LERP_DTYPES.contains(self.dtype())) throw notImplemented(kernel, self.dtype());
        if (!(args[2] instanceof Tensor)) ScalarConversion.check(Scalar.of(args[2]), Pointwise.opMath(self.dtype()));
    }

    /**
     * ATen's lerp: {@code |w| < 0.5 ? start + w * (end - start) : end - (end - start) * (1 - w)}, evaluated as the
     * fused {@code fma(w, diff, start)} / {@code fma(w - 1, diff, end)} that ATen's kernels compile to.
     */
    private static Fns.Ternary lerpFn(Object[] args) {
        DType dtype = ((Tensor) args[0]).dtype();
        Fns.ComplexTernary complex = (sr, si, er, ei, wr, wi, o) -> {
            boolean small = Math.hypot(wr, wi) < 0.5;
            ComplexMath.mul(small ? wr : wr - 1, wi, er - sr, ei - si, o);
            o[0] += small ? sr : er;
            o[1] += small ? si : ei;
        };
        if (floatOpMath(dtype)) {
            // A Scalar weight (lerp.Scalar, the optimizers' moving averages) is one value for the vector loop.
            Fns.FloatTernaryLoop simd = args[2] instanceof Tensor
                    ? null
                    : new Fns.FloatTernaryLoop(
                            true,
                            (a, ai, b, bi, c, ci, out, o, n) -> MultiTensorSimd.lerp(a, ai, b, bi, c[ci], out, o, n));
            return new Fns.Ternary(
                    (s, e, w) -> {
                        float fs = (float) s, fe = (float) e, fw = (float) w, diff = fe - fs;
                        return Math.abs(fw) < 0.5f ? Math.fma(fw, diff, fs) : Math.fma(fw - 1f, diff, fe);
                    },
                    null,
                    complex,
                    simd);
        }
        return new Fns.Ternary(
                (s, e, w) -> {
                    double diff = e - s;
                    return Math.abs(w) < 0.5 ? Math.fma(w, diff, s) : Math.fma(w - 1, diff, e);
                },
                null,
                complex);
    }

    /**
     * {@code lerp(start, end, weight)} with a Scalar weight; start and end must have the same floating or complex
     * dtype.
     */
    public static final OpDef LERP = withChecks(
                    Pointwise.ternary(
                            "lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor",
                            Promotion.DEFAULT,
                            FLOATS,
                            TernaryOps::lerpFn),
                    args -> lerpChecks(args, "lerp_kernel_scalar"))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {Grads.times(g[0], oneMinus(Scalar.of(a[2]))), Grads.times(g[0], a[2])})
            .deriveJvp(Jvps::elementwise);

    /** {@code lerp(start, end, weight)} with a Tensor weight of the same dtype, broadcast with start and end. */
    public static final OpDef LERP_TENSOR = withChecks(
                    Pointwise.ternary(
                            "lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor",
                            Promotion.DEFAULT,
                            FLOATS,
                            TernaryOps::lerpFn),
                    args -> lerpChecks(args, "lerp_kernel_tensor"))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor start = (Tensor) a[0], end = (Tensor) a[1], weight = (Tensor) a[2];
                return new Tensor[] {
                    Grads.times(g[0], weight.neg().add(1L)),
                    Grads.times(g[0], weight),
                    Grads.times(g[0], end.sub(start))
                };
            })
            .deriveJvp(Jvps::elementwise);

    /** {@code 1 - w} for a Scalar weight, complex or real. */
    private static Scalar oneMinus(Scalar w) {
        return w.isComplex() ? Scalar.complex(1 - w.doubleValue(), -w.imag()) : Scalar.of(1 - w.doubleValue());
    }

    // ---- addcmul / addcdiv ------------------------------------------------------------------------------

    private static Scalar value(Object[] args) {
        return args.length > 3 && args[3] != null ? Scalar.of(args[3]) : Scalar.of(1L);
    }

    /** Dtypes without an addcmul/addcdiv kernel in ATen: bool, the barebones unsigned types, float8. */
    private static void checkAddc(String kernel, Object[] args) {
        DType result = resultOf(args);
        if (result == DType.BOOL || result.isBarebonesUnsigned() || result.isFloat8())
            throw notImplemented(kernel, result);
        ScalarConversion.check(value(args), Pointwise.opMath(result));
    }

    /**
     * {@code self + value * t1 * t2}, fused as ATen's compiled kernel computes it: {@code fma(value * t1, t2, self)}.
     */
    private static Fns.Ternary addcmulFn(Object[] args) {
        DType dtype = resultOf(args);
        Scalar v = value(args);
        double vd = v.doubleValue(), vi = v.imag();
        long vl = ScalarConversion.toBits(v);
        Fns.ComplexTernary complex = (ar, ai, br, bi, cr, ci, o) -> {
            ComplexMath.mul(vd, vi, br, bi, o);
            ComplexMath.mul(o[0], o[1], cr, ci, o);
            o[0] += ar;
            o[1] += ai;
        };
        Fns.LongTernary integral = (a, b, c) -> a + vl * b * c;
        if (floatOpMath(dtype)) {
            float fv = (float) vd;
            return new Fns.Ternary(
                    (a, b, c) -> Math.fma(fv * (float) b, (float) c, (float) a),
                    integral,
                    complex,
                    new Fns.FloatTernaryLoop(
                            false,
                            (a, ai, b, bi, c, ci, out, o, n) ->
                                    MultiTensorSimd.addcmul(a, ai, b, bi, c, ci, fv, out, o, n)));
        }
        return new Fns.Ternary((a, b, c) -> Math.fma(vd * b, c, a), integral, complex);
    }

    /** {@code self + value * t1 / t2}, evaluated left to right as in ATen. */
    private static Fns.Ternary addcdivFn(Object[] args) {
        DType dtype = resultOf(args);
        Scalar v = value(args);
        double vd = v.doubleValue(), vi = v.imag();
        Fns.ComplexTernary complex = (ar, ai, br, bi, cr, ci, o) -> {
            ComplexMath.mul(vd, vi, br, bi, o);
            ComplexMath.div(o[0], o[1], cr, ci, o);
            o[0] += ar;
            o[1] += ai;
        };
        if (floatOpMath(dtype)) {
            float fv = (float) vd;
            return new Fns.Ternary(
                    (a, b, c) -> (float) a + fv * (float) b / (float) c,
                    null,
                    complex,
                    new Fns.FloatTernaryLoop(
                            false,
                            (a, ai, b, bi, c, ci, out, o, n) ->
                                    MultiTensorSimd.addcdiv(a, ai, b, bi, c, ci, fv, out, o, n)));
        }
        return new Fns.Ternary((a, b, c) -> a + vd * b / c, null, complex);
    }

    /**
     * {@code addcmul(self, tensor1, tensor2, value=1)}: {@code self + value * tensor1 * tensor2}, promoted and
     * broadcast.
     */
    public static final OpDef ADDCMUL = withChecks(
                    Pointwise.ternary(
                            "addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
                            Promotion.DEFAULT,
                            NUMBERS,
                            TernaryOps::addcmulFn),
                    args -> checkAddc("addcmul_cpu_out", args))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Object value = a.length > 3 ? a[3] : null;
                return new Tensor[] {
                    g[0], Grads.scaled(Grads.times(g[0], a[2]), value), Grads.scaled(Grads.times(g[0], a[1]), value)
                };
            })
            .deriveJvp(Jvps::elementwise);

    /**
     * {@code addcdiv(self, tensor1, tensor2, value=1)}: {@code self + value * tensor1 / tensor2}. Refused when both
     * tensor1 and tensor2 are integral (PyTorch removed the historic integer division).
     */
    public static final OpDef ADDCDIV = withChecks(
                    Pointwise.ternary(
                            "addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
                            Promotion.DEFAULT,
                            NUMBERS,
                            TernaryOps::addcdivFn),
                    args -> {
                        if (((Tensor) args[1]).dtype().isIntegral(true)
                                && ((Tensor) args[2]).dtype().isIntegral(true)) {
                            throw new TorchException(
                                    "Integer division with addcdiv is no longer supported, and in a future  "
                                            + "release addcdiv will perform a true division of tensor1 and "
                                            + "tensor2. The historic addcdiv "
                                            + "behavior can be implemented as (input + value * "
                                            + "torch.trunc(tensor1 / tensor2)).to(input.dtype) "
                                            + "for integer inputs and as (input + value * tensor1 / "
                                            + "tensor2) for float inputs. The future "
                                            + "addcdiv behavior is just the latter implementation: (input + "
                                            + "value * tensor1 / tensor2), for all dtypes.");
                        }
                        checkAddc("addcdiv_cpu_out", args);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Object value = a.length > 3 ? a[3] : null;
                Tensor t1 = (Tensor) a[1], t2 = (Tensor) a[2];
                return new Tensor[] {
                    g[0],
                    Grads.scaled(g[0].div(Grads.conj(t2)), value),
                    Grads.scaled(Grads.times(g[0], t1.div(t2.square())), value).neg()
                };
            })
            .deriveJvp(Jvps::elementwise);

    // ---- masked_fill ------------------------------------------------------------------------------------

    private static Spec maskedFillMeta(Object[] args) {
        Tensor self = (Tensor) args[0], mask = (Tensor) args[1];
        if (mask.dtype() != DType.BOOL) {
            throw new TorchException("masked_fill_ only supports boolean masks, but got mask with dtype "
                    + ScalarConversion.typeMetaName(mask.dtype()));
        }
        if (args[2] instanceof Tensor v) {
            if (v.dim() != 0) {
                throw new TorchException("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                        + v.dim() + " dimension(s).");
            }
        } else {
            ScalarConversion.check(Scalar.of(args[2]), self.dtype());
        }
        // The mask broadcasts with self (as ATen's expand_outplace(mask, self)); in place it must fit self.
        long[] shape = Shapes.broadcast(mask.impl().shapeRef(), self.impl().shapeRef());
        return Spec.of(shape, self.dtype(), Devices.common("masked_fill", self, mask), null);
    }

    /** The value of a 0-d tensor as the Scalar ATen's {@code value.item()} gives. */
    private static Scalar item(Tensor v) {
        DType d = v.dtype();
        if (d == DType.BOOL) return Scalar.of(v.longItem() != 0);
        if (d == DType.UINT64) return Scalar.ofUnsigned(v.longItem());
        if (d.isIntegral(false)) return Scalar.of(v.longItem());
        if (d.isComplex()) {
            double[] re = v.toDoubleArray();
            return Scalar.complex(re[0], re[1]);
        }
        return Scalar.of(v.item());
    }

    private static Fns.Binary fillFn(Scalar value, DType dtype) {
        double vd = value.doubleValue(), vi = value.imag();
        boolean nonZero = vd != 0 || vi != 0 || value.longValue() != 0;
        long vl = dtype == DType.BOOL ? (nonZero ? 1 : 0) : ScalarConversion.toBits(value);
        return new Fns.Binary(
                (a, m) -> m != 0 ? vd : a,
                (a, m) -> m != 0 ? vl : a,
                null,
                (ar, ai, mr, mi, o) -> {
                    boolean fill = mr != 0;
                    o[0] = fill ? vd : ar;
                    o[1] = fill ? vi : ai;
                },
                null);
    }

    private static final OpDef.Kernel MASKED_FILL_KERNEL = (args, outs, spec) -> {
        Tensor self = (Tensor) args[0];
        Scalar value;
        if (args[2] instanceof Tensor v) {
            value = item(v);
            ScalarConversion.check(value, self.dtype()); // the value is data: known only now
        } else {
            value = Scalar.of(args[2]);
        }
        PointwiseLoops.binary(
                fillFn(value, self.dtype()), self.dtype(), outs[0].impl(), self.impl(), ((Tensor) args[1]).impl());
    };

    /**
     * {@code masked_fill(self, mask, value)}: {@code value} where the bool mask is true; the result keeps self's dtype.
     */
    public static final OpDef MASKED_FILL = OpDef.structured(
                    "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
                    TernaryOps::maskedFillMeta,
                    MASKED_FILL_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {Grads.zeroWhere((Tensor) a[1], g[0]), null})
            // the filled places are constants: the tangent is self's with zeros there
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : maskedFill(t[0], (Tensor) a[1], 0L)});

    /**
     * {@code masked_fill(self, mask, value)} with a 0-d tensor value, which receives the sum of the filled positions'
     * gradients (the engine sums the masked gradient down to the value's 0-d shape).
     */
    public static final OpDef MASKED_FILL_TENSOR = OpDef.structured(
                    "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
                    TernaryOps::maskedFillMeta,
                    MASKED_FILL_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {Grads.zeroWhere((Tensor) a[1], g[0]), null, where((Tensor) a[1], g[0], 0L)})
            .deriveJvp(Jvps.linearExcept(1));

    // ---- entry points -------------------------------------------------------------------------------------

    private static Tensor inPlace(Tensor self, OpDef op, Object... args) {
        Dispatcher.callOut(op, new Tensor[] {self}, args);
        return self;
    }

    /**
     * {@code torch.where(condition, input, other)}: {@code input} and {@code other} are each a {@link Tensor} or a Java
     * number, {@link Boolean} or {@link Scalar}.
     */
    public static Tensor where(Tensor condition, Object input, Object other) {
        return WHERE.call1(condition, input, other);
    }

    /** {@code torch.lerp(start, end, weight)}. */
    public static Tensor lerp(Tensor start, Tensor end, double weight) {
        return LERP.call1(start, end, weight);
    }

    /** {@code torch.lerp(start, end, weight)} with a complex or otherwise exact Scalar weight. */
    public static Tensor lerp(Tensor start, Tensor end, Scalar weight) {
        return LERP.call1(start, end, weight);
    }

    public static Tensor lerp(Tensor start, Tensor end, Tensor weight) {
        return LERP_TENSOR.call1(start, end, weight);
    }

    /** {@code start.lerp_(end, weight)}. */
    public static Tensor lerp_(Tensor start, Tensor end, double weight) {
        return inPlace(start, LERP, start, end, weight);
    }

    public static Tensor lerp_(Tensor start, Tensor end, Tensor weight) {
        return inPlace(start, LERP_TENSOR, start, end, weight);
    }

    /** {@code torch.addcmul(self, tensor1, tensor2)}. */
    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2) {
        return ADDCMUL.call1(self, t1, t2, 1L);
    }

    /** {@code torch.addcmul(self, tensor1, tensor2, value=value)}; integral tensors take the value truncated. */
    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2, double value) {
        return ADDCMUL.call1(self, t1, t2, value);
    }

    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2, Scalar value) {
        return ADDCMUL.call1(self, t1, t2, value);
    }

    /** {@code self.addcmul_(tensor1, tensor2, value=value)}. */
    public static Tensor addcmul_(Tensor self, Tensor t1, Tensor t2, double value) {
        return inPlace(self, ADDCMUL, self, t1, t2, value);
    }

    /** {@code torch.addcdiv(self, tensor1, tensor2)}. */
    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2) {
        return ADDCDIV.call1(self, t1, t2, 1L);
    }

    /** {@code torch.addcdiv(self, tensor1, tensor2, value=value)}. */
    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2, double value) {
        return ADDCDIV.call1(self, t1, t2, value);
    }

    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2, Scalar value) {
        return ADDCDIV.call1(self, t1, t2, value);
    }

    /** {@code self.addcdiv_(tensor1, tensor2, value=value)}. */
    public static Tensor addcdiv_(Tensor self, Tensor t1, Tensor t2, double value) {
        return inPlace(self, ADDCDIV, self, t1, t2, value);
    }

    /**
     * {@code self.masked_fill(mask, value)}; {@code value} is a Java number, {@link Boolean}, {@link Scalar} or 0-d
     * tensor.
     */
    public static Tensor maskedFill(Tensor self, Tensor mask, Object value) {
        return (value instanceof Tensor ? MASKED_FILL_TENSOR : MASKED_FILL).call1(self, mask, value);
    }
}
