package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * A function in the backward graph ({@code grad_fn}): takes the gradients of its forward outputs and
 * returns the gradients of its forward tensor inputs, which the engine sends along {@link #next}.
 */
public abstract class Node {
    private static final AtomicLong SEQUENCE = new AtomicLong();

    /** Creation order; the engine runs newer nodes first, as PyTorch's sequence numbers do. */
    final long sequenceNr = SEQUENCE.getAndIncrement();
    /** One edge per forward tensor input, {@code null} where that input needs no gradient. */
    final Edge[] next;
    /** Shape and dtype of each forward input: gradients are summed to the shape and cast to the dtype. */
    final long[][] inputShapes;
    final DType[] inputDtypes;
    /** Shape and dtype of each forward output: missing output gradients are materialised as zeros. */
    final long[][] outputShapes;
    final DType[] outputDtypes;
    /** Where the forward op ran, kept only under {@link AnomalyMode} (capturing a stack trace is costly). */
    final StackTraceElement[] creationTrace = AnomalyMode.captureTrace();
    private List<PreHook> preHooks;
    /** retain_grad hooks run after every other hook, so {@code .grad} shows the final gradient (PyTorch ≥ 2.0). */
    private List<PreHook> retainHooks;

    /** A hook on the gradient arriving at output {@code outputNr} of this node. */
    record PreHook(int outputNr, UnaryOperator<Tensor> fn) {}

    Node(Edge[] next, long[][] inputShapes, DType[] inputDtypes, long[][] outputShapes, DType[] outputDtypes) {
        this.next = next;
        this.inputShapes = inputShapes;
        this.inputDtypes = inputDtypes;
        this.outputShapes = outputShapes;
        this.outputDtypes = outputDtypes;
    }

    /** PyTorch's node name, e.g. {@code MulBackward0}. */
    public abstract String name();

    /** Gradients of the inputs from gradients of the outputs (each output gradient non-null). */
    abstract Tensor[] apply(Tensor[] gradOutputs);

    /** Drops saved tensors after a backward without {@code retainGraph}. */
    void release() {}

    /** Whether the engine replaces missing output gradients by zeros before {@link #apply} (custom functions may opt out). */
    boolean materializeGrads() { return true; }

    /** PyTorch's error for a node whose saved tensors were freed by an earlier backward. */
    static TorchException freedError() {
        return new TorchException("Trying to backward through the graph a second time (or directly access saved tensors "
                + "after they have already been freed). Saved intermediate values of the graph are freed when you call "
                + ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph "
                + "a second time or if you need to access saved tensors after calling backward.");
    }

    /** PyTorch's error for a saved tensor modified in place between forward and backward. */
    static TorchException modifiedError(Tensor t, String usedBy, int expectedVersion) {
        return new TorchException("one of the variables needed for gradient computation has been modified by an inplace "
                + "operation: [" + t.dtype().cppName() + " " + org.jtorch.internal.Shapes.str(t.shapeRef()) + "], which is "
                + "used by " + usedBy + ", is at version " + t.version() + "; expected version " + expectedVersion + " instead.");
    }

    /** The edges to the next nodes ({@code grad_fn.next_functions}). */
    public List<Edge> nextFunctions() { return java.util.Arrays.asList(next.clone()); }

    void addPreHook(int outputNr, UnaryOperator<Tensor> fn) {
        if (preHooks == null) preHooks = new ArrayList<>();
        preHooks.add(new PreHook(outputNr, fn));
    }

    void addRetainGradHook(int outputNr, UnaryOperator<Tensor> fn) {
        if (retainHooks == null) retainHooks = new ArrayList<>();
        retainHooks.add(new PreHook(outputNr, fn));
    }

    /** Tensor hooks on this node's outputs, by registration. */
    List<PreHook> preHooks() { return preHooks == null ? List.of() : preHooks; }

    /** retain_grad hooks, which run after the tensor hooks and the node's pre-hooks. */
    List<PreHook> retainGradHooks() { return retainHooks == null ? List.of() : retainHooks; }

    // ---- node hooks (torch.autograd.graph.Node.register_prehook / register_hook) -----------------------

    private List<UnaryOperator<List<Tensor>>> nodePreHooks;
    private List<BiFunction<List<Tensor>, List<Tensor>, List<Tensor>>> postHooks;

    /**
     * {@code register_prehook(fn)}: {@code fn(gradOutputs)} runs before this node, after the tensor hooks of its
     * outputs; a non-null result replaces the gradient outputs.
     */
    public synchronized RemovableHandle registerPrehook(UnaryOperator<List<Tensor>> fn) {
        if (nodePreHooks == null) nodePreHooks = new CopyOnWriteArrayList<>();
        nodePreHooks.add(fn);
        return () -> nodePreHooks.remove(fn);
    }

    /**
     * {@code register_hook(fn)}: {@code fn(gradInputs, gradOutputs)} runs after this node has computed the
     * gradients of its inputs; a non-null result replaces them.
     */
    public synchronized RemovableHandle registerHook(BiFunction<List<Tensor>, List<Tensor>, List<Tensor>> fn) {
        if (postHooks == null) postHooks = new CopyOnWriteArrayList<>();
        postHooks.add(fn);
        return () -> postHooks.remove(fn);
    }

    Tensor[] runNodePreHooks(Tensor[] gradOutputs) {
        if (nodePreHooks == null) return gradOutputs;
        for (UnaryOperator<List<Tensor>> h : nodePreHooks) {
            List<Tensor> r = h.apply(Collections.unmodifiableList(Arrays.asList(gradOutputs.clone())));
            if (r != null) gradOutputs = replacement(r, gradOutputs.length, "pre-hook", "outputs");
        }
        return gradOutputs;
    }

    Tensor[] runPostHooks(Tensor[] gradInputs, Tensor[] gradOutputs) {
        if (postHooks == null) return gradInputs;
        for (BiFunction<List<Tensor>, List<Tensor>, List<Tensor>> h : postHooks) {
            List<Tensor> r = h.apply(Collections.unmodifiableList(Arrays.asList(gradInputs.clone())),
                    Collections.unmodifiableList(Arrays.asList(gradOutputs.clone())));
            if (r != null) gradInputs = replacement(r, gradInputs.length, "hook", "inputs");
        }
        return gradInputs;
    }

    private Tensor[] replacement(List<Tensor> r, int expected, String kind, String what) {
        if (r.size() != expected) {
            throw new TorchException(name() + ": " + kind + " returned " + r.size() + " gradients, expected " + expected
                    + " (one per gradient " + what + ")");
        }
        return r.toArray(Tensor[]::new);
    }

    @Override
    public String toString() { return "<" + name() + ">"; }
}
