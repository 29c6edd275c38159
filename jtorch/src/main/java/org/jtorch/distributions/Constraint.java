package org.jtorch.distributions;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.linalg.Linalg;

/**
 * {@code torch.distributions.constraints}: a region of values, checked elementwise ({@link #check} gives a bool tensor
 * over the batch shape: an event is valid when all its elements are). {@link #toString} is PyTorch's repr, which the
 * validation errors quote.
 */
public abstract class Constraint {
    private final int eventDim;

    Constraint(int eventDim) {
        this.eventDim = eventDim;
    }

    /** How many rightmost dims form one event ({@code event_dim}). */
    public int eventDim() {
        return eventDim;
    }

    /** Whether the values are discrete ({@code is_discrete}). */
    public boolean isDiscrete() {
        return false;
    }

    /** Elementwise validity, reduced over the event dims: a bool tensor. */
    public Tensor check(Tensor value) {
        Tensor ok = elementwise(value);
        for (int i = 0; i < eventDim; i++) ok = ok.all(-1);
        return ok;
    }

    abstract Tensor elementwise(Tensor value);

    /** A constraint from its elementwise test and its repr (made when printed: it may format tensors). */
    private static Constraint of(int eventDim, boolean discrete, Supplier<String> repr, UnaryOperator<Tensor> test) {
        return new Constraint(eventDim) {
            @Override
            Tensor elementwise(Tensor value) {
                return test.apply(value);
            }

            @Override
            public boolean isDiscrete() {
                return discrete;
            }

            @Override
            public String toString() {
                return repr.get();
            }
        };
    }

    /** {@code constraints.real}: not NaN. */
    public static final Constraint REAL = of(0, false, () -> "Real()", v -> v.eq(v));

    /** {@code constraints.real_vector}: real values, one event per last dim. */
    public static final Constraint REAL_VECTOR = of(1, false, () -> "IndependentConstraint(Real(), 1)", v -> v.eq(v));

    /** {@code constraints.positive}: greater than 0. */
    public static final Constraint POSITIVE = greaterThan(0.0);

    /** {@code constraints.nonnegative}: at least 0. */
    public static final Constraint NONNEGATIVE = of(0, false, () -> "GreaterThanEq(lower_bound=0.0)", v -> v.ge(0.0));

    /** {@code constraints.nonnegative_integer}: whole numbers from 0. */
    public static final Constraint NONNEGATIVE_INTEGER =
            of(0, true, () -> "IntegerGreaterThan(lower_bound=0)", v -> Torch.logicalAnd(v.eq(v.floor()), v.ge(0L)));

    /** {@code constraints.independent(constraints.positive, 1)}: vectors of positive values. */
    public static final Constraint POSITIVE_VECTOR =
            of(1, false, () -> "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)", v -> v.gt(0.0));

    /** {@code constraints.unit_interval}: within [0, 1]. */
    public static final Constraint UNIT_INTERVAL = interval(0.0, 1.0);

    /** {@code constraints.boolean}: 0 or 1. */
    public static final Constraint BOOLEAN = of(0, true, () -> "Boolean()", v -> Torch.logicalOr(v.eq(0L), v.eq(1L)));

    /** {@code constraints.simplex}: the last dim non-negative and summing to 1 (within 1e-6). */
    public static final Constraint SIMPLEX = of(
            1,
            false,
            () -> "Simplex()",
            v -> Torch.logicalAnd(v.ge(0.0), v.sum(-1).sub(1.0).abs().lt(1e-6).unsqueeze(-1)));

    /** {@code constraints.one_hot}: the last dim holds one 1 and zeros. */
    public static final Constraint ONE_HOT = of(
            1,
            true,
            () -> "OneHot()",
            v -> Torch.logicalAnd(BOOLEAN.elementwise(v), v.sum(-1).eq(1L).unsqueeze(-1)));

    /** {@code constraints.lower_cholesky}: lower-triangular square matrices with a positive diagonal. */
    public static final Constraint LOWER_CHOLESKY = of(
            2,
            false,
            () -> "LowerCholesky()",
            v -> Torch.logicalAnd(v.tril().eq(v), v.diagonal(0, -2, -1).gt(0.0).unsqueeze(-2)));

    /** {@code constraints.positive_definite}: symmetric matrices with a Cholesky factor. */
    public static final Constraint POSITIVE_DEFINITE = of(
            2,
            false,
            () -> "PositiveDefinite()",
            v -> Torch.logicalAnd(
                    v.sub(v.mT()).abs().le(1e-6),
                    Linalg.choleskyEx(v).info().eq(0L).unsqueeze(-1).unsqueeze(-1)));

    /** {@code constraints.greater_than(lower_bound)}. */
    public static Constraint greaterThan(double lowerBound) {
        return of(0, false, () -> "GreaterThan(lower_bound=" + lowerBound + ")", v -> v.gt(lowerBound));
    }

    /** {@code constraints.interval(lower_bound, upper_bound)}: the closed interval. */
    public static Constraint interval(double lowerBound, double upperBound) {
        return of(
                0,
                false,
                () -> "Interval(lower_bound=" + lowerBound + ", upper_bound=" + upperBound + ")",
                v -> Torch.logicalAnd(v.ge(lowerBound), v.le(upperBound)));
    }

    /** {@code constraints.integer_interval(lower_bound, upper_bound)}: whole numbers in the closed interval. */
    public static Constraint integerInterval(long lowerBound, long upperBound) {
        return of(
                0,
                true,
                () -> "IntegerInterval(lower_bound=" + lowerBound + ", upper_bound=" + upperBound + ")",
                v -> Torch.logicalAnd(v.eq(v.floor()), Torch.logicalAnd(v.ge(lowerBound), v.le(upperBound))));
    }

    /** {@code constraints.integer_interval(lower_bound, upper_bound)} with a tensor upper bound. */
    static Constraint integerInterval(long lowerBound, Tensor upperBound) {
        return of(
                0,
                true,
                () -> "IntegerInterval(lower_bound=" + lowerBound + ", upper_bound=" + upperBound + ")",
                v -> Torch.logicalAnd(v.eq(v.floor()), Torch.logicalAnd(v.ge(lowerBound), v.le(upperBound))));
    }

    /** {@code constraints.greater_than(lower_bound)} with a tensor bound (a dependent constraint). */
    static Constraint greaterThan(Tensor lowerBound) {
        return of(0, false, () -> "GreaterThan(lower_bound=" + lowerBound + ")", v -> v.gt(lowerBound));
    }

    /** {@code constraints.less_than(upper_bound)} with a tensor bound. */
    static Constraint lessThan(Tensor upperBound) {
        return of(0, false, () -> "LessThan(upper_bound=" + upperBound + ")", v -> v.lt(upperBound));
    }

    /** {@code constraints.interval(low, high)} with tensor bounds (a distribution's dependent support). */
    static Constraint interval(Tensor low, Tensor high) {
        return of(
                0,
                false,
                () -> "Interval(lower_bound=" + low + ", upper_bound=" + high + ")",
                v -> Torch.logicalAnd(v.ge(low), v.le(high)));
    }
}
