package org.jtorch.ops;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.DType.Category;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.PointwiseLoops;

/**
 * Factories for the pointwise family: broadcasting, type promotion, dtype support checks and the scalar operand
 * handling live here once; an op supplies its schema, promotion kind and formulas.
 */
public final class Pointwise {
    private Pointwise() {}

    /** How an op's result dtype follows from the promoted operand dtype (PyTorch's ELEMENTWISE_TYPE_PROMOTION_KIND). */
    public enum Promotion {
        /** result = common dtype. */
        DEFAULT,
        /** bool and integral inputs compute in the default float dtype. */
        INT_TO_FLOAT,
        /** computes in the common dtype, returns bool. */
        ALWAYS_BOOL,
        /** complex inputs give their real dtype (abs). */
        COMPLEX_TO_FLOAT,
        /** integral inputs compute in the default float dtype and complex inputs give their real dtype (angle). */
        INT_AND_COMPLEX_TO_FLOAT,
        /** as DEFAULT, but bool computes in int64: {@code square(x)} is {@code pow(x, 2)} with an int exponent. */
        BOOL_TO_INT64
    }

    /** Dtype categories with formulas. */
    public static final Set<Category> ALL = EnumSet.allOf(Category.class);

    public static final Set<Category> REAL = EnumSet.of(Category.BOOL, Category.INTEGRAL, Category.FLOATING);
    public static final Set<Category> FLOATS = EnumSet.of(Category.FLOATING, Category.COMPLEX);
    public static final Set<Category> REAL_FLOATS = EnumSet.of(Category.FLOATING);
    public static final Set<Category> INTS = EnumSet.of(Category.BOOL, Category.INTEGRAL);
    public static final Set<Category> NUMBERS = EnumSet.of(Category.INTEGRAL, Category.FLOATING, Category.COMPLEX);

    /** Plan handed from meta to kernel: the compute dtype. */
    record Plan(DType compute) {}

    static DType computeDtype(String op, DType common, Promotion p, Set<Category> supported, boolean ordered) {
        DType compute = common;
        if ((p == Promotion.INT_TO_FLOAT || p == Promotion.INT_AND_COMPLEX_TO_FLOAT)
                && !compute.isFloatingPoint()
                && !compute.isComplex()) {
            compute = DefaultDtype.get();
        }
        if (p == Promotion.BOOL_TO_INT64 && compute == DType.BOOL) compute = DType.INT64;
        if (ordered && compute.isComplex()) {
            throw new TorchTypeException(
                    op + "(): ordering is not defined for complex numbers (got " + compute.cppName() + ")");
        }
        if (!supported.contains(compute.category())) {
            throw new TorchException("\"" + op + "_cpu\" not implemented for '" + compute.cppName() + "'");
        }
        return compute;
    }

    static DType outDtype(DType compute, Promotion p) {
        return switch (p) {
            case ALWAYS_BOOL -> DType.BOOL;
            case COMPLEX_TO_FLOAT, INT_AND_COMPLEX_TO_FLOAT -> compute.toReal();
            default -> compute;
        };
    }

    /**
     * Builder of a unary op whose formula may depend on extra (scalar) arguments. Its tensor is the schema's one tensor
     * argument, wherever it stands ({@code polygamma(int n, Tensor self)} puts it second).
     */
    public static OpDef unary(
            String schema, Promotion p, Set<Category> supported, boolean ordered, Function<Object[], Fns.Unary> fn) {
        Schema parsed = Schema.parse(schema);
        String name = parsed.name();
        int self = tensorArgument(parsed);
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[self];
            DType compute = computeDtype(name, x.dtype(), p, supported, ordered);
            return Spec.of(x.impl().shapeRef(), outDtype(compute, p), x.device(), new Plan(compute));
        };
        OpDef.Kernel kernel = (args, outs, spec) -> PointwiseLoops.unary(
                fn.apply(args), ((Plan) spec.plan()).compute(), outs[0].impl(), ((Tensor) args[self]).impl());
        return OpDef.structured(parsed, meta, kernel, OpDef.Flag.POINTWISE);
    }

    /** The position of a unary op's tensor argument in its schema. */
    static int tensorArgument(Schema s) {
        List<Schema.Argument> args = s.arguments();
        for (int i = 0; i < args.size(); i++) if (args.get(i).type().isTensor()) return i;
        throw new IllegalArgumentException(s + ": a unary pointwise op needs a tensor argument");
    }

    public static OpDef unary(String schema, Promotion p, Set<Category> supported, Fns.Unary fn) {
        return unary(schema, p, supported, false, args -> fn);
    }

    /** A binary op: args are (Tensor self, Tensor-or-Scalar other, extra...). */
    public static OpDef binary(
            String schema, Promotion p, Set<Category> supported, boolean ordered, Function<Object[], Fns.Binary> fn) {
        Schema parsed = Schema.parse(schema);
        String name = parsed.name();
        OpDef.Meta meta = args -> {
            Tensor a = (Tensor) args[0];
            Object b = args[1];
            DType common = b instanceof Tensor tb
                    ? TypePromotion.resultType(a, tb)
                    : new TypePromotion.State().add(a).add(Scalar.of(b)).result();
            DType compute = computeDtype(name, common, p, supported, ordered);
            long[] shape = b instanceof Tensor tb
                    ? Shapes.broadcast(a.impl().shapeRef(), tb.impl().shapeRef())
                    : a.impl().shapeRef();
            Device device = b instanceof Tensor ? Devices.common(name, a, b) : a.device();
            return Spec.of(shape, outDtype(compute, p), device, new Plan(compute));
        };
        OpDef.Kernel kernel = (args, outs, spec) -> {
            DType compute = ((Plan) spec.plan()).compute();
            PointwiseLoops.binary(
                    fn.apply(args),
                    compute,
                    outs[0].impl(),
                    ((Tensor) args[0]).impl(),
                    operand(args[1], compute).impl());
        };
        return OpDef.structured(parsed, meta, kernel, OpDef.Flag.POINTWISE);
    }

    public static OpDef binary(String schema, Promotion p, Set<Category> supported, Fns.Binary fn) {
        return binary(schema, p, supported, false, args -> fn);
    }

    /** A ternary op over three broadcast operands (tensors or scalars). */
    public static OpDef ternary(
            String schema, Promotion p, Set<Category> supported, Function<Object[], Fns.Ternary> fn) {
        Schema parsed = Schema.parse(schema);
        String name = parsed.name();
        OpDef.Meta meta = args -> {
            TypePromotion.State st = new TypePromotion.State();
            long[] shape = Shapes.SCALAR;
            for (int i = 0; i < 3; i++) {
                st.add(args[i]);
                if (args[i] instanceof Tensor t)
                    shape = Shapes.broadcast(shape, t.impl().shapeRef());
            }
            DType compute = computeDtype(name, st.result(), p, supported, false);
            return Spec.of(
                    shape, outDtype(compute, p), Devices.common(name, args[0], args[1], args[2]), new Plan(compute));
        };
        OpDef.Kernel kernel = (args, outs, spec) -> {
            DType compute = ((Plan) spec.plan()).compute();
            PointwiseLoops.ternary(
                    fn.apply(args),
                    compute,
                    outs[0].impl(),
                    operand(args[0], compute).impl(),
                    operand(args[1], compute).impl(),
                    operand(args[2], compute).impl());
        };
        return OpDef.structured(parsed, meta, kernel, OpDef.Flag.POINTWISE);
    }

    /** An op-specific input check, run by the meta rule before the generic dtype rules, with PyTorch's own wording. */
    @FunctionalInterface
    public interface Check {
        void check(Object[] args);
    }

    /**
     * {@code op} with {@code check} run first by its meta rule (so on every device, meta included). The checked
     * definition takes the place of {@code op} in the registry, which is why it is applied at the declaration.
     */
    public static OpDef checked(OpDef op, Check check) {
        OpDef.Meta meta = op.meta();
        OpDef checkedOp = OpDef.Unregistered.structured(
                op.schema(),
                args -> {
                    check.check(args);
                    return meta.infer(args);
                },
                op.kernel(),
                op.flags());
        OpRegistry.replace(op, checkedOp);
        return checkedOp;
    }

    /**
     * A tensor operand for the kernel: tensors as they are; a Java scalar becomes a 0-d tensor of the compute dtype's
     * op-math type (float for half and bfloat16), as ATen reads a CPU scalar.
     */
    static Tensor operand(Object o, DType compute) {
        if (o instanceof Tensor t) return t;
        return Creation.scalarTensor(Scalar.of(o), opMath(compute));
    }

    /** The dtype ATen computes a dtype in on CPU. */
    public static DType opMath(DType d) {
        if (d == DType.COMPLEX32 || d == DType.BCOMPLEX32) return DType.COMPLEX64;
        if (d.isReducedPrecision()) return DType.FLOAT32;
        return d;
    }
}
