package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.utils.hooks.RemovableHandle;

/**
 * A function in the backward graph ({@code grad_fn}): takes the gradients of its forward outputs and returns the
 * gradients of its forward tensor inputs, which the engine sends along {@link #next}. Its public view is
 * {@link org.jtorch.autograd.graph.Node}, the type {@link Tensor#gradFn()} returns; every such node is one of these.
 */
public abstract class Node implements org.jtorch.autograd.graph.Node<Tensor> {
    private static final AtomicLong SEQUENCE = new AtomicLong();

    /**
     * Creation order; the engine runs newer nodes first, as PyTorch's sequence numbers do. An {@link AccumulateGrad}
     * has the largest, as in PyTorch, so a gradient reaches {@code .grad} (and its post-accumulate hooks, DDP's bucket
     * triggers) as soon as it is complete rather than after the rest of backward.
     */
    final long sequenceNr;
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

    /** {@code register_prehook} hooks: see (and may replace) the output gradients before the node runs. */
    private List<java.util.function.UnaryOperator<Tensor[]>> nodePreHooks;
    /** {@code register_hook} hooks: see (and may replace) the input gradients the node produced. */
    private List<java.util.function.BinaryOperator<Tensor[]>> postHooks;

    /** A hook on the gradient arriving at output {@code outputNr} of this node. */
    record PreHook(int outputNr, UnaryOperator<Tensor> fn) {}

    Node(Edge[] next, long[][] inputShapes, DType[] inputDtypes, long[][] outputShapes, DType[] outputDtypes) {
        this(SEQUENCE.getAndIncrement(), next, inputShapes, inputDtypes, outputShapes, outputDtypes);
    }

    Node(
            long sequenceNr,
            Edge[] next,
            long[][] inputShapes,
            DType[] inputDtypes,
            long[][] outputShapes,
            DType[] outputDtypes) {
        this.sequenceNr = sequenceNr;
        this.next = next;
        this.inputShapes = inputShapes;
        this.inputDtypes = inputDtypes;
        this.outputShapes = outputShapes;
        this.outputDtypes = outputDtypes;
    }

    /**
     * The engine's node behind {@code t.gradFn()}, or null for a leaf. {@link Tensor} holds its {@code grad_fn} as the
     * public view {@link org.jtorch.autograd.graph.Node}, declared below it; the nodes it holds are made here.
     */
    static Node gradFnOf(Tensor t) {
        return engineNode(t.gradFn());
    }

    /** The accumulator {@code leaf} keeps ({@link Tensor#gradAccumulator()}), which autograd made. */
    static AccumulateGrad accumulatorOf(Tensor leaf) {
        return (AccumulateGrad) engineNode(leaf.gradAccumulator());
    }

    private static Node engineNode(org.jtorch.autograd.graph.Node<Tensor> node) {
        if (node == null || node instanceof Node) return (Node) node;
        throw new TorchException(node.getClass().getName()
                + " is not a node of the autograd engine: a tensor's history is made of the nodes autograd records");
    }

    /** PyTorch's node name, e.g. {@code MulBackward0}. */
    @Override
    public abstract String name();

    /** Gradients of the inputs from gradients of the outputs (each output gradient non-null). */
    abstract Tensor[] apply(Tensor[] gradOutputs);

    /** Drops saved tensors after a backward without {@code retainGraph}. */
    void release() {}

    /**
     * Whether the engine replaces missing output gradients by zeros before {@link #apply} (custom functions may opt
     * out).
     */
    boolean materializeGrads() {
        return true;
    }

    /** PyTorch's error for a node whose saved tensors were freed by an earlier backward. */
    static TorchException freedError() {
        return new TorchException(
                "Trying to backward through the graph a second time (or directly access saved tensors "
                        + "after they have already been freed). Saved intermediate values of the graph are "
                        + "freed when you call "
                        + "backward() or Autograd.grad(). Specify retainGraph = true (backward(gradient, retainGraph, "
                        + "createGraph), Autograd.GradOptions.retainGraph(true)) if you need to "
                        + "backward through the graph "
                        + "a second time or if you need to access saved tensors after calling backward.");
    }

    /** PyTorch's error for a saved tensor modified in place between forward and backward. */
    static TorchException modifiedError(Tensor t, String usedBy, int expectedVersion) {
        return new TorchException(
                "one of the variables needed for gradient computation has been modified by an inplace "
                        + "operation: [" + t.dtype().cppName() + " "
                        + org.jtorch.internal.Shapes.str(t.impl().shapeRef()) + "], which is "
                        + "used by " + usedBy + ", is at version " + t.version() + "; expected version "
                        + expectedVersion + " instead.");
    }

    /** The edges to the next nodes ({@code grad_fn.next_functions}), null where an input needs no gradient. */
    @Override
    public List<org.jtorch.autograd.graph.Edge<Tensor>> nextFunctions() {
        return java.util.Arrays.stream(next)
                .map(e -> e == null ? null : new org.jtorch.autograd.graph.Edge<Tensor>(e.node(), e.inputNr()))
                .toList();
    }

    /**
     * {@code Node.register_prehook(fn)}: {@code fn(gradOutputs)} runs before the node (after the tensor hooks of its
     * outputs) and may return replacement output gradients (null keeps them). Entries may be null.
     */
    @Override
    public synchronized RemovableHandle registerPrehook(java.util.function.UnaryOperator<Tensor[]> fn) {
        if (nodePreHooks == null) nodePreHooks = new CopyOnWriteArrayList<>();
        nodePreHooks.add(fn);
        return new RemovableHandle(() -> nodePreHooks.remove(fn));
    }

    /**
     * {@code Node.register_hook(fn)}: {@code fn(gradInputs, gradOutputs)} runs after the node and may return
     * replacement input gradients (null keeps them), one per forward tensor input.
     */
    @Override
    public synchronized RemovableHandle registerHook(java.util.function.BinaryOperator<Tensor[]> fn) {
        if (postHooks == null) postHooks = new CopyOnWriteArrayList<>();
        postHooks.add(fn);
        return new RemovableHandle(() -> postHooks.remove(fn));
    }

    Tensor[] runNodePreHooks(Tensor[] grads) {
        if (nodePreHooks == null) return grads;
        for (var h : nodePreHooks) {
            Tensor[] r = h.apply(grads.clone());
            if (r != null) {
                if (r.length != grads.length) {
                    throw new TorchException("hook '" + name() + "' has returned an incorrect number of values (got "
                            + r.length + ", but expected " + grads.length + ")");
                }
                grads = r;
            }
        }
        return grads;
    }

    Tensor[] runPostHooks(Tensor[] gradInputs, Tensor[] gradOutputs) {
        if (postHooks == null) return gradInputs;
        for (var h : postHooks) {
            Tensor[] r =
                    h.apply(gradInputs == null ? new Tensor[next.length] : gradInputs.clone(), gradOutputs.clone());
            if (r != null) {
                if (r.length != next.length) {
                    throw new TorchException("hook '" + name() + "' has returned an incorrect number of values (got "
                            + r.length + ", but expected " + next.length + ")");
                }
                gradInputs = r;
            }
        }
        return gradInputs;
    }

    /** Adds a tensor hook of output {@code outputNr}; the handle removes this registration (not an equal one). */
    RemovableHandle addPreHook(int outputNr, UnaryOperator<Tensor> fn) {
        if (preHooks == null) preHooks = new CopyOnWriteArrayList<>();
        PreHook hook = new PreHook(outputNr, fn);
        preHooks.add(hook);
        return new RemovableHandle(() -> preHooks.removeIf(h -> h == hook));
    }

    void addRetainGradHook(int outputNr, UnaryOperator<Tensor> fn) {
        if (retainHooks == null) retainHooks = new ArrayList<>();
        retainHooks.add(new PreHook(outputNr, fn));
    }

    /** Whether any hook of any kind (tensor, retain_grad, node pre- or post-hook) is registered on this node. */
    boolean hasHooks() {
        return (preHooks != null && !preHooks.isEmpty())
                || retainHooks != null
                || (nodePreHooks != null && !nodePreHooks.isEmpty())
                || (postHooks != null && !postHooks.isEmpty());
    }

    /** Hooks in the order they run: user hooks by registration, then retain_grad hooks. */
    List<PreHook> preHooks() {
        if (retainHooks == null) return preHooks == null ? List.of() : preHooks;
        List<PreHook> all = new ArrayList<>(preHooks == null ? List.of() : preHooks);
        all.addAll(retainHooks);
        return all;
    }

    @Override
    public String toString() {
        return "<" + name() + ">";
    }
}
