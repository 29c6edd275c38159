package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.DefaultDtype;

/**
 * PyTorch's type promotion: {@code torch.promote_types} and {@code torch.result_type}.
 *
 * <p>Operands fall in three priority groups: dimensioned tensors, zero-dim tensors and Java scalars ("wrapped
 * numbers"). A lower group only decides the result when it belongs to a higher category (bool &lt; integral &lt;
 * floating &lt; complex), so {@code int32[dim] + 5} stays int32 while {@code int32[dim] + 5.5} becomes float32.
 */
public final class TypePromotion {
    private TypePromotion() {}

    /** {@code torch.promote_types(a, b)}. */
    public static DType promoteTypes(DType a, DType b) {
        if (a == b) return a;
        if (a.isFloat8() || b.isFloat8()) {
            throw new TorchException("Promotion for Float8 Types is not supported, attempted to promote " + a.cppName()
                    + " and " + b.cppName());
        }
        if (a.isBarebonesUnsigned() || b.isBarebonesUnsigned()) {
            if (a.isFloatingPoint()) return a;
            if (b.isFloatingPoint()) return b;
            throw new TorchException(
                    "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote " + a.cppName()
                            + " and " + b.cppName());
        }
        if (a == DType.BOOL) return b;
        if (b == DType.BOOL) return a;
        if (a.isComplex() || b.isComplex()) {
            DType complex = a.isComplex() ? a : b;
            DType other = a.isComplex() ? b : a;
            if (other.isIntegral(false)) return complex;
            return promoteReal(complex.toReal(), other.toReal()).toComplex();
        }
        return promoteReal(a, b);
    }

    /** Promotion among bool, integral and floating dtypes (no float8, no barebones unsigned). */
    private static DType promoteReal(DType a, DType b) {
        if (a == b) return a;
        boolean af = a.isFloatingPoint(), bf = b.isFloatingPoint();
        if (af && bf) {
            if ((a == DType.FLOAT16 && b == DType.BFLOAT16) || (a == DType.BFLOAT16 && b == DType.FLOAT16))
                return DType.FLOAT32;
            return a.itemSize() >= b.itemSize() ? a : b;
        }
        if (af) return a;
        if (bf) return b;
        // Both integral: uint8 pairs with a signed type of at least twice its width.
        if (a == DType.UINT8) return b == DType.INT8 ? DType.INT16 : b;
        if (b == DType.UINT8) return a == DType.INT8 ? DType.INT16 : a;
        return a.itemSize() >= b.itemSize() ? a : b;
    }

    /** Accumulates the three priority groups, as ATen's {@code ResultTypeState}. */
    public static final class State {
        private DType dimResult, zeroResult, wrappedResult;

        public State add(Tensor t) {
            if (t.dim() == 0) zeroResult = promoteSkipUndefined(zeroResult, t.dtype());
            else dimResult = promoteSkipUndefined(dimResult, t.dtype());
            return this;
        }

        public State add(Scalar s) {
            DType d =
                    switch (s.kind()) {
                        case BOOL -> DType.BOOL;
                        case INT -> DType.INT64;
                        case UINT -> DType.UINT64;
                        case FLOAT -> DefaultDtype.get();
                        case COMPLEX -> DefaultDtype.get().toComplex();
                    };
            wrappedResult = promoteSkipUndefined(wrappedResult, d);
            return this;
        }

        public State add(Object operand) {
            if (operand instanceof Tensor t) return add(t);
            return add(Scalar.of(operand));
        }

        public DType result() {
            DType r = combineCategories(dimResult, combineCategories(zeroResult, wrappedResult));
            if (r == null) throw new TorchException("result_type: no operands");
            return r;
        }
    }

    /** {@code torch.result_type} over tensors and scalars. */
    public static DType resultType(Object... operands) {
        State s = new State();
        for (Object o : operands) s.add(o);
        return s.result();
    }

    /** Result type of two tensors; the common fast path needs no state object. */
    public static DType resultType(Tensor a, Tensor b) {
        if (a.dtype() == b.dtype()) return a.dtype();
        return new State().add(a).add(b).result();
    }

    private static DType promoteSkipUndefined(DType a, DType b) {
        if (a == null) return b;
        if (b == null) return a;
        return promoteTypes(a, b);
    }

    private static DType combineCategories(DType higher, DType lower) {
        if (higher == null) return lower;
        if (lower == null) return higher;
        if (higher.isComplex()) return higher;
        if (lower.isComplex()) {
            // A floating tensor keeps its precision: float16 + 1j is complex32, not complex64.
            if (higher.isFloatingPoint()) return higher.toComplex();
            return lower;
        }
        if (higher.isFloatingPoint()) return higher;
        if (higher == DType.BOOL || lower.isFloatingPoint()) return promoteSkipUndefined(higher, lower);
        return higher;
    }

    /** Whether a value of dtype {@code from} may be written to {@code to} by an op ({@code can_cast}). */
    public static boolean canCast(DType from, DType to) {
        if (from.isComplex() && !to.isComplex()) return false;
        if (from.isFloatingPoint() && to.isIntegral(true)) return false;
        return from == DType.BOOL || to != DType.BOOL;
    }
}
