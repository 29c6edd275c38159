package org.jtorch.compile.inductor.ir;

import java.util.Arrays;
import java.util.List;

/**
 * One kernel: a loop nest over {@code outer} then {@code inner} index variables.
 *
 * <p>Without reductions the kernel is pointwise: {@code outer} is empty and each point of {@code inner} evaluates the
 * {@link #elementStores()}. With reductions each point of {@code outer} is a row: the reductions run in order over the
 * row's {@code inner} points (a later one may read an earlier one's {@link Expr.RowValue}), then the
 * {@link #rowStores()} write per-row values and the element stores write per-element values of the row (a softmax row,
 * a layer norm row). A row's reductions run in index order on one thread whatever the thread count, so results are
 * bitwise the same on any number of threads.
 *
 * @param name a readable name (the fused ops), not part of what the kernel computes
 * @param outer the row dimensions (empty for a pointwise kernel)
 * @param inner the dimensions of a row, or of the whole loop nest of a pointwise kernel
 * @param buffers the element type of each buffer the kernel reads or writes, by index
 * @param reductions the reductions over each row, in order
 * @param rowStores per-row stores (their accesses have zero inner strides)
 * @param elementStores per-element stores
 */
public record LoopKernel(
        String name,
        long[] outer,
        long[] inner,
        List<Elem> buffers,
        List<Reduction> reductions,
        List<Store> rowStores,
        List<Store> elementStores) {
    /** Copies the arrays and lists. */
    public LoopKernel {
        outer = outer.clone();
        inner = inner.clone();
        buffers = List.copyOf(buffers);
        reductions = List.copyOf(reductions);
        rowStores = List.copyOf(rowStores);
        elementStores = List.copyOf(elementStores);
    }

    /** A reduction of {@code body} over a row's points, starting from {@code kind}'s identity. */
    public record Reduction(ReduceKind kind, Expr body) {}

    /** Writes {@code value} to buffer {@code buffer} at {@code access}. */
    public record Store(int buffer, Access access, Expr value) {}

    /** How a reduction combines. */
    public enum ReduceKind {
        /** Sum (of floats in float, of integers in long). */
        SUM,
        /** Maximum, NaN-propagating. */
        MAX,
        /** Minimum, NaN-propagating. */
        MIN,
        /** Logical and. */
        ALL,
        /** Logical or. */
        ANY
    }

    @Override
    public long[] outer() {
        return outer.clone();
    }

    @Override
    public long[] inner() {
        return inner.clone();
    }

    /** Whether the kernel is pointwise (no rows). */
    public boolean isPointwise() {
        return reductions.isEmpty();
    }

    /** The number of rows (1 for a pointwise kernel's whole loop). */
    public long rows() {
        long n = 1;
        for (long s : outer) n *= s;
        return n;
    }

    /** The number of points in a row (in the whole loop nest for a pointwise kernel). */
    public long rowLength() {
        long n = 1;
        for (long s : inner) n *= s;
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoopKernel k
                && Arrays.equals(outer, k.outer)
                && Arrays.equals(inner, k.inner)
                && buffers.equals(k.buffers)
                && reductions.equals(k.reductions)
                && rowStores.equals(k.rowStores)
                && elementStores.equals(k.elementStores);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(outer) * 31 + Arrays.hashCode(inner) * 17 + elementStores.hashCode();
    }

    @Override
    public String toString() {
        return "LoopKernel(" + name + ", outer=" + Arrays.toString(outer) + ", inner=" + Arrays.toString(inner) + ")";
    }
}
