package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code torch.autograd.Function}: an op with a user-written forward and backward.
 *
 * <pre>{@code
 * class MyExp extends Function {
 *     protected Tensor[] forward(Ctx ctx, Object... args) {
 *         Tensor y = ((Tensor) args[0]).exp();
 *         ctx.saveForBackward(y);
 *         return new Tensor[] {y};
 *     }
 *     protected Tensor[] backward(Ctx ctx, Tensor... grads) {
 *         return new Tensor[] {grads[0].mul(ctx.savedTensors()[0])};
 *     }
 * }
 * Tensor y = new MyExp().apply(x);
 * }</pre>
 *
 * <p>{@code forward} runs with grad mode off and returns the outputs; when grad mode is on and some tensor argument
 * requires grad, the outputs get a node named {@code <ClassName>Backward} whose edges go to those arguments.
 * {@code backward} gets one gradient per output and returns one per forward argument ({@code null} for "no gradient",
 * and always for arguments that are not tensors). It runs in the engine's grad mode, so a backward written with
 * differentiable ops can be differentiated again; a backward that cannot extends {@link OnceDifferentiable} instead.
 */
public abstract class Function {
    /** For subclasses: a function keeps no state of its own; {@code ctx} carries what backward needs. */
    protected Function() {}

    /** The outputs of {@code args}; runs under no_grad. */
    protected abstract Tensor[] forward(Ctx ctx, Object... args);

    /** Gradients of the forward arguments (one per argument) from gradients of the outputs (one per output). */
    protected abstract Tensor[] backward(Ctx ctx, Tensor... grads);

    /**
     * {@code jvp}: output tangents (one per output, null = zero) from input tangents (one per forward argument, null
     * for arguments without one), for forward-mode AD; used when a dual tensor reaches the function. Optional; the
     * default refuses, as PyTorch does for a Function without {@code jvp}. An output modified in place
     * ({@link Ctx#markDirty}) should get its input's tangent updated in place.
     */
    protected Tensor[] jvp(Ctx ctx, Tensor... tangents) {
        throw new TorchException(
                "You must implement the jvp function for custom autograd.Function to use it with forward mode AD.");
    }

    /** {@code Function.apply(*args)} for a function with exactly one output. */
    public final Tensor apply(Object... args) {
        Tensor[] outs = applyAll(args);
        if (outs.length != 1) {
            throw new IllegalStateException(name() + ": forward returned " + outs.length + " outputs; use applyAll");
        }
        return outs[0];
    }

    /** {@code fn.apply(args)} as a static call: {@code Function.apply(new MyExp(), x)}. */
    public static Tensor apply(Function fn, Object... args) {
        return fn.apply(args);
    }

    /** {@code Function.apply(*args)}: all outputs of forward, with autograd history when it is recorded. */
    public final Tensor[] applyAll(Object... args) {
        Object[] frozen = args.clone(); // the node keeps them; the caller may reuse its array
        boolean recording = GradMode.isEnabled();
        boolean[] needs = new boolean[frozen.length];
        boolean any = false;
        for (int i = 0; i < frozen.length; i++) {
            if (recording && frozen[i] instanceof Tensor t && t.requiresGrad()) {
                needs[i] = true;
                any = true;
            }
        }
        Ctx ctx = new Ctx(needs);
        // Edges are taken before forward: an input that forward modifies in place gets the new node as history.
        FunctionNode.Inputs inputs = any ? FunctionNode.Inputs.of(frozen, needs) : null;
        DualLevel level = ForwardAD.currentLevel();
        Tensor[] tangents = level == null ? null : tangentsOf(frozen, level);
        Tensor[] outs;
        try (GradMode.Scope _ = GradMode.set(false)) {
            // With dual inputs, forward sees plain values: the tangents come from jvp, as in PyTorch.
            outs = tangents == null
                    ? forward(ctx, frozen)
                    : org.jtorch.dispatch.DispatchState.runBelow(level.mode(), () -> forward(ctx, frozen));
        }
        if (outs == null) throw new TorchException(name() + ": forward must return a Tensor[]");
        for (Tensor o : outs) if (o == null) throw new TorchException(name() + ": forward returned a null output");
        if (tangents != null) attachTangents(ctx, level, tangents, outs);
        return inputs == null ? outs : FunctionNode.attach(this, ctx, inputs, outs);
    }

    /**
     * Per forward argument, its tangent at {@code level} (null for non-tensors and plain tensors); null if none has
     * one.
     */
    private static Tensor[] tangentsOf(Object[] args, DualLevel level) {
        Tensor[] tangents = new Tensor[args.length];
        boolean any = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Tensor t && (tangents[i] = Tangents.get(t, level)) != null) any = true;
        }
        return any ? tangents : null;
    }

    /**
     * Runs {@link #jvp} (below the level, so its ops are differentiable for the levels outside) and gives each
     * differentiable output its tangent; an output modified in place keeps its tangent object, updated.
     */
    private void attachTangents(Ctx ctx, DualLevel level, Tensor[] tangents, Tensor[] outs) {
        Tensor[] outTangents =
                org.jtorch.dispatch.DispatchState.runBelow(level.mode(), () -> jvp(ctx, tangents.clone()));
        if (outTangents == null || outTangents.length != outs.length) {
            throw new TorchException(name() + ": jvp must return one tangent per output (" + outs.length + "), got "
                    + (outTangents == null ? "null" : String.valueOf(outTangents.length)));
        }
        for (int j = 0; j < outs.length; j++) {
            Tensor o = outs[j], t = outTangents[j];
            if (t == null || ctx.isNonDifferentiable(o) || !(o.isFloatingPoint() || o.isComplex())) continue;
            if (!java.util.Arrays.equals(t.impl().shapeRef(), o.impl().shapeRef())) {
                throw new TorchException(name() + ": jvp returned a tangent of shape "
                        + java.util.Arrays.toString(t.impl().shapeRef()) + " for output " + j + " of shape "
                        + java.util.Arrays.toString(o.impl().shapeRef()));
            }
            Tensor existing = Tangents.get(o, level);
            if (existing != null && existing != t) {
                org.jtorch.dispatch.DispatchState.runBelow(level.mode(), () -> existing.copy_(t));
            } else if (existing == null) {
                Tangents.set(o, level, t);
            }
        }
    }

    /** Runs {@link #backward} as the node does; {@link OnceDifferentiable} overrides it. */
    Tensor[] runBackward(Ctx ctx, Tensor[] grads) {
        return backward(ctx, grads);
    }

    /** The node's name: {@code <ClassName>Backward}, as PyTorch names the nodes of Python functions. */
    String name() {
        String simple = getClass().getSimpleName();
        if (simple.isEmpty()) { // anonymous: the binary name's tail, e.g. MyTest$1
            String n = getClass().getName();
            simple = n.substring(n.lastIndexOf('.') + 1);
        }
        return simple + "Backward";
    }

    /**
     * A function whose backward cannot itself be differentiated ({@code @once_differentiable}): its backward runs under
     * no_grad, and when a double backward reaches its results it raises.
     */
    public abstract static class OnceDifferentiable extends Function {
        static final String ERROR =
                "trying to differentiate twice a function that was marked with @once_differentiable";

        /** For subclasses. */
        protected OnceDifferentiable() {}

        @Override
        final Tensor[] runBackward(Ctx ctx, Tensor[] grads) {
            Tensor[] result;
            try (GradMode.Scope _ = GradMode.set(false)) {
                result = backward(ctx, grads);
            }
            if (result == null || !GradMode.isEnabled()) return result;
            boolean wrap = false;
            for (Tensor g : grads) wrap |= g != null && g.requiresGrad();
            return wrap ? DelayedErrorNode.wrap(ERROR, result) : result;
        }
    }

    /** {@code ctx}: what forward leaves for backward. */
    public static final class Ctx {
        private final boolean[] needsInputGrad;
        private Tensor[] saved = new Tensor[0];
        private int[] savedVersions;
        private boolean released;
        private String owner = "";
        private final Set<Tensor> dirty = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Tensor> nonDifferentiable = Collections.newSetFromMap(new IdentityHashMap<>());
        private boolean materializeGrads = true;
        private final Map<String, Object> attributes = new HashMap<>();
        private Runnable onRelease;

        Ctx(boolean[] needsInputGrad) {
            this.needsInputGrad = needsInputGrad;
        }

        /** {@code ctx.save_for_backward(*tensors)}: tensors backward reads, checked for in-place changes. */
        public void saveForBackward(Tensor... tensors) {
            saved = tensors.clone();
        }

        /**
         * {@code ctx.saved_tensors}: refuses tensors modified in place since they were saved, or freed by a backward.
         */
        public Tensor[] savedTensors() {
            if (released) throw Node.freedError();
            if (savedVersions != null) {
                for (int i = 0; i < saved.length; i++) {
                    if (saved[i] != null && saved[i].version() != savedVersions[i]) {
                        throw Node.modifiedError(saved[i], owner, savedVersions[i]);
                    }
                }
            }
            return saved.clone();
        }

        /** {@code ctx.mark_dirty(*tensors)}: inputs forward modified in place; they must be returned as outputs. */
        public void markDirty(Tensor... tensors) {
            dirty.clear();
            dirty.addAll(List.of(tensors));
        }

        /** {@code ctx.mark_non_differentiable(*tensors)}: outputs that get no history. */
        public void markNonDifferentiable(Tensor... tensors) {
            nonDifferentiable.clear();
            nonDifferentiable.addAll(List.of(tensors));
        }

        /**
         * {@code ctx.set_materialize_grads(value)}: false gives backward null for outputs that received no gradient.
         */
        public void setMaterializeGrads(boolean value) {
            materializeGrads = value;
        }

        /** {@code ctx.needs_input_grad[i]}: whether forward argument {@code i} is a tensor that needs a gradient. */
        public boolean needsInputGrad(int i) {
            return needsInputGrad[i];
        }

        /**
         * Runs {@code action} once the graph frees this node's saved tensors, after a backward through it that did not
         * retain the graph: from then on no backward can read them, so a function that saved buffers of its own (ones
         * it never returned) may reuse them. Never runs while the graph is retained or if it is never freed.
         */
        public void onRelease(Runnable action) {
            onRelease = action;
        }

        /** Keeps a non-tensor value for backward ({@code ctx.name = value}). */
        public void put(String name, Object value) {
            attributes.put(name, value);
        }

        /** A value kept by {@link #put}. */
        @SuppressWarnings("unchecked")
        public <T> T get(String name) {
            return (T) attributes.get(name);
        }

        boolean isDirty(Tensor t) {
            return dirty.contains(t);
        }

        List<Tensor> dirtyTensors() {
            return new ArrayList<>(dirty);
        }

        boolean isNonDifferentiable(Tensor t) {
            return nonDifferentiable.contains(t);
        }

        boolean materializeGrads() {
            return materializeGrads;
        }

        /** Called once outputs are wired: from now on saved tensors must keep their versions. */
        void freezeSaved(String nodeName) {
            owner = nodeName;
            savedVersions = new int[saved.length];
            for (int i = 0; i < saved.length; i++) savedVersions[i] = saved[i] == null ? 0 : saved[i].version();
        }

        void release() {
            released = true;
            saved = null;
            Runnable action = onRelease;
            onRelease = null;
            if (action != null) action.run();
        }
    }
}
