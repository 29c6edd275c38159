package org.jtorch.compile.inductor.ir;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A scalar value computed for each point of a kernel's loop nest. Expressions are values (records): equal expressions
 * are one computation in generated code, and a kernel's source, built from them, is the key of the kernel cache.
 */
public sealed interface Expr {
    /** The Java type the value is computed in. */
    ScalarKind kind();

    /** The sub-expressions, in order. */
    List<Expr> children();

    /** This expression with each sub-expression replaced by {@code f} of it. */
    Expr map(UnaryOperator<Expr> f);

    /** Number of nodes in the tree (shared sub-trees counted each time): a bound on inlining. */
    default int nodeCount() {
        int n = 1;
        for (Expr c : children()) n += c.nodeCount();
        return n;
    }

    /** An element of buffer {@code buffer} (an index into the kernel's buffers) at {@code access}. */
    record Load(int buffer, Access access, Elem elem) implements Expr {
        @Override
        public ScalarKind kind() {
            return elem.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return this;
        }
    }

    /**
     * An element of a buffer at {@code access} plus {@code stride · index}, {@code index} read from data (a gather:
     * {@code index_select}, embedding); a negative index counts from {@code size}.
     */
    record IndirectLoad(int buffer, Access access, Elem elem, Expr index, long stride, long size) implements Expr {
        @Override
        public ScalarKind kind() {
            return elem.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(index);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new IndirectLoad(buffer, access, elem, f.apply(index), stride, size);
        }
    }

    /** The affine index {@code access} itself as a {@code long} ({@code arange}, masks built from positions). */
    record Index(Access access) implements Expr {
        @Override
        public ScalarKind kind() {
            return ScalarKind.LONG;
        }

        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return this;
        }
    }

    /** A constant of {@code kind} (integers and booleans as exact doubles: 0/1 for booleans). */
    record Constant(double value, ScalarKind kind) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return this;
        }
    }

    /** {@code op(x)}, of x's kind. */
    record Unary(UnaryOp op, Expr x) implements Expr {
        @Override
        public ScalarKind kind() {
            return op == UnaryOp.NOT ? ScalarKind.BOOL : x.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(x);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Unary(op, f.apply(x));
        }
    }

    /** {@code a op b}, both of one kind. */
    record Binary(BinaryOp op, Expr a, Expr b) implements Expr {
        @Override
        public ScalarKind kind() {
            return a.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(a, b);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Binary(op, f.apply(a), f.apply(b));
        }
    }

    /**
     * {@code a * b + c} rounded once ({@link Math#fma}), all of one floating kind: the fused multiply-add that ATen's
     * kernels (and JTorch's eager ones) compute for lerp, addcmul and the foreach axpy, so a compiled update can be
     * bitwise equal to the eager one.
     */
    record Fma(Expr a, Expr b, Expr c) implements Expr {
        @Override
        public ScalarKind kind() {
            return a.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(a, b, c);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Fma(f.apply(a), f.apply(b), f.apply(c));
        }
    }

    /** {@code a op b} as a boolean, both of one kind. */
    record Compare(CompareOp op, Expr a, Expr b) implements Expr {
        @Override
        public ScalarKind kind() {
            return ScalarKind.BOOL;
        }

        @Override
        public List<Expr> children() {
            return List.of(a, b);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Compare(op, f.apply(a), f.apply(b));
        }
    }

    /** {@code cond ? a : b}. */
    record Where(Expr cond, Expr a, Expr b) implements Expr {
        @Override
        public ScalarKind kind() {
            return a.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(cond, a, b);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Where(f.apply(cond), f.apply(a), f.apply(b));
        }
    }

    /** {@code x} converted to {@code kind} (C's conversions: truncation toward zero to integers, nonzero to bool). */
    record Cast(Expr x, ScalarKind kind) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(x);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Cast(f.apply(x), kind);
        }
    }

    /** {@code x} rounded to {@code elem}'s precision and back (a value eager code would have stored). */
    record Round(Expr x, Elem elem) implements Expr {
        @Override
        public ScalarKind kind() {
            return x.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(x);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Round(f.apply(x), elem);
        }
    }

    /**
     * {@code mask ? value : other}, evaluating {@code value} only where {@code mask} holds: a load that would fall
     * outside its buffer where the mask is false (padding, {@code slice_backward}) never runs there.
     */
    record Masked(Expr mask, Expr value, Expr other) implements Expr {
        @Override
        public ScalarKind kind() {
            return value.kind();
        }

        @Override
        public List<Expr> children() {
            return List.of(mask, value, other);
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return new Masked(f.apply(mask), f.apply(value), f.apply(other));
        }
    }

    /** The result of reduction number {@code reduction} of the kernel, for the current row. */
    record RowValue(int reduction, ScalarKind kind) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public Expr map(UnaryOperator<Expr> f) {
            return this;
        }
    }

    /** One-operand functions. */
    enum UnaryOp {
        NEG,
        ABS,
        EXP,
        LOG,
        LOG1P,
        EXPM1,
        SQRT,
        RSQRT,
        TANH,
        SIGMOID,
        SIN,
        COS,
        ERF,
        RECIPROCAL,
        RELU,
        NOT,
        SIGN,
        FLOOR,
        CEIL,
        TRUNC,
        ROUND
    }

    /** Two-operand functions. */
    enum BinaryOp {
        ADD,
        SUB,
        MUL,
        DIV,
        MAX,
        MIN,
        POW,
        AND,
        OR,
        XOR,
        /** Python's floor division for integers. */
        FLOOR_DIV,
        /** Python's remainder (the divisor's sign). */
        REMAINDER
    }

    /** Comparisons. */
    enum CompareOp {
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE
    }
}
