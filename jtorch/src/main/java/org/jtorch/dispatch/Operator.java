package org.jtorch.dispatch;

/**
 * An op as the dispatcher sees it: its schema, and how it runs once every interpreter has had its turn. The dispatcher
 * moves arguments and results as opaque values (as c10's boxed dispatcher moves a stack of {@code IValue}s), knows no
 * tensor type and no op definition, and so sits below {@code Tensor}. Every operator is an op definition of
 * {@code org.jtorch.ops}; interpreters, which live above that layer, may rely on it.
 */
public interface Operator {
    /** The typed schema, e.g. of {@code add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor}. */
    Schema schema();

    /** The op's name without overload ({@code add}), as errors and traces show it. */
    default String name() {
        return schema().name();
    }

    /**
     * Runs the op with no interpreter in effect ({@code state} is the calling thread's): returns a tensor, an array of
     * tensors, or what a composite returns.
     */
    Object callBelowInterpreters(DispatchState state, Object[] args);

    /** Runs the op into the existing tensors {@code outs} (PyTorch's {@code out=} and in-place forms), likewise. */
    void callOutBelowInterpreters(Object[] outs, Object[] args);
}
