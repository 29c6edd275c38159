package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * One op call seen by a vmap level, as a {@link OpDef.BatchRule} reads it: the logical arguments, the destinations of
 * an in-place/out= call, the level's batch size, and the ops below the level. The vmap interpreter
 * ({@code org.jtorch.func}) implements it; it is declared here so that a definition holds its batch rule while
 * {@code ops} stays below {@code func}.
 *
 * <p>"Logical" tensors are what the user's function sees (no batch dim); "physical" ones are their values below the
 * level, where a rule moves the batch dim first and runs plain ops with {@link #call}.
 */
public interface BatchCall {
    OpDef op();

    /** The logical arguments, in schema order. */
    Object[] args();

    /** Destinations of an in-place or out= call, else null. */
    Tensor[] outs();

    /** The level's batch size. */
    long batch();

    /** Whether {@code o} is a tensor batched at this level. */
    boolean batched(Object o);

    /** Whether argument {@code i} is batched. */
    boolean batched(int i);

    /** The physical tensor of a logical one: batch dimension first if batched, else the (unwrapped) tensor. */
    Tensor front(Object o);

    /** The physical tensor with the batch dimension first; an unbatched one is expanded to the batch size. */
    Tensor frontExpanded(Object o);

    /** {@link #front} of a batched tensor padded with size-1 dims after the batch dim to logical rank {@code rank}. */
    Tensor frontPadded(Object o, int rank);

    /**
     * The op's meta rule run on meta tensors of the logical shapes: every input check with PyTorch's message on the
     * shapes the user sees, and the logical output shapes. Null for ops without a meta rule.
     */
    Spec logicalSpec();

    /** Runs {@code op} on physical arguments below this level. */
    Object call(OpDef op, Object... args);

    Tensor call1(OpDef op, Object... args);

    /** Runs an in-place/out= {@code op} on physical destinations and arguments below this level. */
    void callOut(OpDef op, Tensor[] dest, Object... args);

    /** Runs {@code op} on logical arguments at this level again (a batching rule written with other ops). */
    Object dispatch(OpDef op, Object... args);

    Tensor dispatch1(OpDef op, Object... args);

    /** The per-example loop of this call (for rules that refuse or loop by design). */
    Object perExample();

    Tensor moveDim(Tensor t, int from, int to);

    Tensor unsqueeze(Tensor t, int d);

    Tensor expand(Tensor t, long[] size);

    Tensor reshape(Tensor t, long... size);

    /** {@code [B] + shape}. */
    long[] withBatch(long[] shape);

    /** A physical tensor with the batch dim first as a logical tensor of this level. */
    Tensor lift(Tensor physical);

    /** Wraps a physical result (batch first) of this op as logical results, reshaped to the logical spec if known. */
    Object wrap(Object physical);

    /** The result of an in-place/out= call: its destinations. */
    Object outsResult();

    /** A logical dim of a tensor of logical rank {@code rank}, wrapped, as a physical dim (batch first). */
    static long shift(long dim, int rank) {
        return Shapes.wrapDim(dim, rank) + 1L;
    }
}
