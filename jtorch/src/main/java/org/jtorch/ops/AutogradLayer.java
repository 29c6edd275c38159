package org.jtorch.ops;

import org.jtorch.Tensor;

/**
 * The autograd layer as an op runs it ({@link Execution}): below the interpreters of the dispatch state, above the
 * kernels, and consulted only while grad mode is on. The op layer declares what it needs here and
 * {@code org.jtorch.autograd} implements it, so that ops do not depend on autograd; the implementation is found with
 * {@link java.util.ServiceLoader} before the first op runs.
 */
public interface AutogradLayer {
    /**
     * Whether some tensor argument (elements of {@code Tensor[]} arguments included) requires grad, after bringing the
     * history of a view up to date with its base's.
     */
    boolean anyRequiresGrad(Object[] args);

    /**
     * Starts recording {@code op(args) → outs} before the kernel runs. For in-place and {@code out=} calls
     * ({@code inPlace}), {@code outs} alias some inputs: inputs the rule reads are saved before they are overwritten.
     */
    Recording begin(OpDef op, Object[] args, Tensor[] outs, boolean inPlace);

    /** A recording started by {@link #begin}. */
    interface Recording {
        /** Attaches the op's node to the outputs; call after the kernel ran and after any version bump. */
        void finish(Tensor[] outs);
    }

    /**
     * Before a write into {@code out} that autograd sees: refuses one it cannot follow (into a leaf that requires grad,
     * or into a view of one) rather than let it give wrong gradients.
     */
    void checkWrite(Tensor out);

    /**
     * After a recorded write into {@code outs}: every output that is a view passes the write on to its base's history
     * (PyTorch's {@code rebase_history}). {@code args} are the call's arguments.
     */
    void rebaseWrittenViews(Tensor[] outs, Object[] args);

    /**
     * The gradients of {@code outputs} seeded with {@code gradOutputs} with respect to {@code inputs}, recorded for a
     * further derivative (create_graph) and null for an input that the outputs do not depend on: how a JVP rule derived
     * from the VJP ({@link Jvps}) transposes it.
     */
    java.util.List<Tensor> gradWithGraph(
            java.util.List<Tensor> outputs, java.util.List<Tensor> gradOutputs, java.util.List<Tensor> inputs);
}
