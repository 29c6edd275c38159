package org.jtorch.distributions;

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

    /** {@code constraints.real}: not NaN. */
    public static final Constraint REAL = new Constraint(0) {
        @Override
        Tensor elementwise(Tensor v) {
            return v.eq(v);
        }

        @Override
        public String toString() {
            return "Real()";
        }
    };

    /** {@code constraints.positive}: greater than 0. */
    public static final Constraint POSITIVE = greaterThan(0.0);

    /** {@code constraints.nonnegative}: at least 0. */
    public static final Constraint NONNEGATIVE = new Constraint(0) {
        @Override
        Tensor elementwise(Tensor v) {
            return v.ge(0.0);
        }

        @Override
        public String toString() {
            return "GreaterThanEq(lower_bound=0.0)";
        }
    };

    /** {@code constraints.unit_interval}: within [0, 1]. */
    public static final Constraint UNIT_INTERVAL = interval(0.0, 1.0);

    /** {@code constraints.boolean}: 0 or 1. */
    public static final Constraint BOOLEAN = new Constraint(0) {
        @Override
        Tensor elementwise(Tensor v) {
            return Torch.logicalOr(v.eq(0L), v.eq(1L));
        }

        @Override
        public boolean isDiscrete() {
            return true;
        }

        @Override
        public String toString() {
            return "Boolean()";
        }
    };

    /** {@code constraints.simplex}: the last dim non-negative and summing to 1 (within 1e-6). */
    public static final Constraint SIMPLEX = new Constraint(1) {
        @Override
        Tensor elementwise(Tensor v) {
            Tensor sumsToOne = v.sum(-1).sub(1.0).abs().lt(1e-6).unsqueeze(-1);
            return Torch.logicalAnd(v.ge(0.0), sumsToOne);
        }

        @Override
        public String toString() {
            return "Simplex()";
        }
    };

    /** {@code constraints.greater_than(lower_bound)}. */
    public static Constraint greaterThan(double lowerBound) {
        return new Constraint(0) {
            @Override
            Tensor elementwise(Tensor v) {
                return v.gt(lowerBound);
            }

            @Override
            public String toString() {
                return "GreaterThan(lower_bound=" + lowerBound + ")";
            }
        };
    }

    /** {@code constraints.less_than(upper_bound)} with a tensor bound. */
    static Constraint lessThan(Tensor upperBound) {
        return new Constraint(0) {
            @Override
            Tensor elementwise(Tensor v) {
                return v.lt(upperBound);
            }

            @Override
            public String toString() {
                return "LessThan(upper_bound=" + upperBound + ")";
            }
        };
    }

    /** {@code constraints.greater_than(lower_bound)} with a tensor bound. */
    static Constraint greaterThan(Tensor lowerBound) {
        return new Constraint(0) {
            @Override
            Tensor elementwise(Tensor v) {
                return v.gt(lowerBound);
            }

            @Override
            public String toString() {
                return "GreaterThan(lower_bound=" + lowerBound + ")";
            }
        };
    }

    /** {@code constraints.interval(lower_bound, upper_bound)}: the closed interval. */
    public static Constraint interval(double lowerBound, double upperBound) {
        return new Constraint(0) {
            @Override
            Tensor elementwise(Tensor v) {
                return Torch.logicalAnd(v.ge(lowerBound), v.le(upperBound));
            }

            @Override
            public String toString() {
                return "Interval(lower_bound=" + lowerBound + ", upper_bound=" + upperBound + ")";
            }
        };
    }

    /** {@code constraints.interval(low, high)} with tensor bounds (a distribution's dependent support). */
    static Constraint interval(Tensor low, Tensor high) {
        return new Constraint(0) {
            @Override
            Tensor elementwise(Tensor v) {
                return Torch.logicalAnd(v.ge(low), v.le(high));
            }

            @Override
            public String toString() {
                return "Interval(lower_bound=" + low + ", upper_bound=" + high + ")";
            }
        };
    }

    /** {@code constraints.integer_interval(lower_bound, upper_bound)}: whole numbers in the closed interval. */
    public static Constraint integerInterval(long lowerBound, long upperBound) {
        return new Constraint(0) {
            @Override
            Tensor elementwise(Tensor v) {
                Tensor whole = v.eq(v.floor());
                return Torch.logicalAnd(whole, Torch.logicalAnd(v.ge(lowerBound), v.le(upperBound)));
            }

            @Override
            public boolean isDiscrete() {
                return true;
            }

            @Override
            public String toString() {
                return "IntegerInterval(lower_bound=" + lowerBound + ", upper_bound=" + upperBound + ")";
            }
        };
    }

    /** {@code constraints.one_hot}: the last dim holds one 1 and zeros. */
    public static final Constraint ONE_HOT = new Constraint(1) {
        @Override
        Tensor elementwise(Tensor v) {
            Tensor binary = Torch.logicalOr(v.eq(0L), v.eq(1L));
            return Torch.logicalAnd(binary, v.sum(-1).eq(1L).unsqueeze(-1));
        }

        @Override
        public boolean isDiscrete() {
            return true;
        }

        @Override
        public String toString() {
            return "OneHot()";
        }
    };

    /** {@code constraints.real_vector}: real values, one event per last dim. */
    public static final Constraint REAL_VECTOR = new Constraint(1) {
        @Override
        Tensor elementwise(Tensor v) {
            return v.eq(v);
        }

        @Override
        public String toString() {
            return "IndependentConstraint(Real(), 1)";
        }
    };

    /** {@code constraints.lower_cholesky}: lower-triangular square matrices with a positive diagonal. */
    public static final Constraint LOWER_CHOLESKY = new Constraint(2) {
        @Override
        Tensor elementwise(Tensor v) {
            Tensor lower = v.tril().eq(v);
            Tensor positiveDiagonal = v.diagonal(0, -2, -1).gt(0.0).unsqueeze(-2);
            return Torch.logicalAnd(lower, positiveDiagonal);
        }

        @Override
        public String toString() {
            return "LowerCholesky()";
        }
    };

    /** {@code constraints.positive_definite}: symmetric matrices with a Cholesky factor. */
    public static final Constraint POSITIVE_DEFINITE = new Constraint(2) {
        @Override
        Tensor elementwise(Tensor v) {
            Tensor symmetric = v.sub(v.mT()).abs().le(1e-6);
            Tensor factorises = Linalg.choleskyEx(v).info().eq(0L).unsqueeze(-1).unsqueeze(-1);
            return Torch.logicalAnd(symmetric, factorises);
        }

        @Override
        public String toString() {
            return "PositiveDefinite()";
        }
    };
}
