package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.AutogradLayer;
import org.jtorch.ops.OpDef;
import org.jtorch.storage.TensorImpl;

/**
 * Records op calls: decides whether a call is recorded and builds its node ({@link RecordingLayer} is how the
 * dispatcher reaches it). Recording is two-phase ({@link #begin} before the kernel, {@link Pending#finish} after) so
 * that an in-place op can save the inputs its rule needs before overwriting them.
 *
 * <p>Public for vmap's interpreter (another package), which records the calls it batches; its arguments are op
 * definitions and the dispatcher's layer, which are not exported, so it is no API.
 */
@SuppressWarnings("exports")
public final class Recorder {
    private Recorder() {}

    /** Whether a call with these arguments must be recorded: grad mode on and some tensor input requires grad. */
    public static boolean needed(OpDef op, Object[] args) {
        return GradMode.isEnabled() && op.isDifferentiable() && anyRequiresGrad(args);
    }

    /** Whether some tensor argument requires grad; a stale view's history is refreshed first. */
    static boolean anyRequiresGrad(Object[] args) {
        for (Object a : args) {
            if (a instanceof Tensor t) {
                ViewRebase.refresh(t);
                if (t.requiresGrad()) return true;
            } else if (a instanceof Tensor[] ts) {
                for (Tensor t : ts) {
                    if (t == null) continue; // Tensor?[] may hold nulls
                    ViewRebase.refresh(t);
                    if (t.requiresGrad()) return true;
                }
            }
        }
        return false;
    }

    /** A recording started before the kernel ran. */
    public static final class Pending implements AutogradLayer.Recording {
        private final OpNode node;
        private final Object[] savedArgs;
        private final List<Tensor> checked;
        private final List<Integer> versions;
        private final OpDef.Save save;

        private Pending(
                OpNode node, Object[] savedArgs, List<Tensor> checked, List<Integer> versions, OpDef.Save save) {
            this.node = node;
            this.savedArgs = savedArgs;
            this.checked = checked;
            this.versions = versions;
            this.save = save;
        }

        /**
         * Attaches the node to the outputs (floating and complex ones only: integers carry no gradient). Call after the
         * kernel and after any version bump of the outputs.
         */
        @Override
        public void finish(Tensor[] outs) {
            Tensor[] savedOuts = null;
            if (save.outputs()) {
                savedOuts = outs.clone();
                for (Tensor o : outs) {
                    checked.add(o);
                    versions.add(o.version());
                }
            }
            int[] v = new int[versions.size()];
            for (int i = 0; i < v.length; i++) v[i] = versions.get(i);
            node.save(savedArgs, savedOuts, checked.toArray(Tensor[]::new), v);
            for (int j = 0; j < outs.length; j++) {
                Tensor o = outs[j];
                if ((o.dtype().isFloatingPoint() || o.dtype().isComplex())
                        && node.op().outputHasGrad(j)) {
                    o.setGradFn(node, j);
                }
            }
        }
    }

    /**
     * Starts recording {@code op(args) → outs}. For in-place and out= calls, {@code outs} alias some inputs: inputs the
     * rule reads are cloned here, before the kernel overwrites them.
     */
    public static Pending begin(OpDef op, Object[] args, Tensor[] outs, boolean inPlace) {
        List<Tensor> inputs = new ArrayList<>();
        for (Object a : args) {
            if (a instanceof Tensor t) inputs.add(t);
            else if (a instanceof Tensor[] ts) inputs.addAll(java.util.Arrays.asList(ts)); // nulls keep their slot
        }
        int n = inputs.size();
        Edge[] next = new Edge[n];
        long[][] shapes = new long[n][];
        DType[] dtypes = new DType[n];
        for (int i = 0; i < n; i++) {
            Tensor t = inputs.get(i);
            if (t == null) continue; // an absent optional tensor: no gradient slot to fill
            shapes[i] = t.impl().shapeRef();
            dtypes[i] = t.dtype();
            ViewRebase.refresh(t); // before the requiresGrad test: a stale view may have gained history
            if (t.requiresGrad()) next[i] = edgeOf(t);
        }
        long[][] outShapes = new long[outs.length][];
        DType[] outDtypes = new DType[outs.length];
        for (int j = 0; j < outs.length; j++) {
            outShapes[j] = outs[j].impl().shapeRef();
            outDtypes[j] = outs[j].dtype();
        }
        OpNode node = new OpNode(op, next, shapes, dtypes, outShapes, outDtypes);
        OpDef.Save save = op.vjpSaves();
        List<Tensor> checked = new ArrayList<>();
        List<Integer> versions = new ArrayList<>();
        Object[] saved = args.clone();
        Map<Tensor, Tensor> clones = new IdentityHashMap<>();
        for (int i = 0; i < saved.length; i++) {
            if (saved[i] instanceof Tensor t)
                saved[i] = save.inputs() ? keep(t, inPlace ? outs : NONE, clones, checked, versions) : shapeOnly(t);
            else if (saved[i] instanceof Tensor[] ts) {
                Tensor[] copy = new Tensor[ts.length];
                for (int k = 0; k < ts.length; k++) {
                    if (ts[k] == null) continue;
                    copy[k] = save.inputs()
                            ? keep(ts[k], inPlace ? outs : NONE, clones, checked, versions)
                            : shapeOnly(ts[k]);
                }
                saved[i] = copy;
            }
        }
        return new Pending(node, saved, checked, versions, save);
    }

    private static final Tensor[] NONE = new Tensor[0];

    /**
     * What a rule that does not read an input still gets: a meta tensor with its shape and dtype, so the input's data
     * can be freed while rules can still ask for {@code shape()} and {@code dtype()}.
     */
    private static Tensor shapeOnly(Tensor t) {
        return Tensor.of(TensorImpl.meta(t.impl().shapeRef(), t.dtype()));
    }

    private static Tensor keep(
            Tensor t, Tensor[] outs, Map<Tensor, Tensor> clones, List<Tensor> checked, List<Integer> versions) {
        for (Tensor o : outs) {
            if (o.impl().storage().sameMemory(t.impl().storage())) { // the kernel will overwrite it: save its value now
                // recorded (as PyTorch's original_self = self.clone()), so that a rule run under createGraph
                // differentiates through the old value's history
                return clones.computeIfAbsent(t, Tensor::clone);
            }
        }
        checked.add(t);
        versions.add(t.version());
        return t;
    }

    /** Where a gradient for {@code t} must go. */
    static Edge edgeOf(Tensor t) {
        ViewRebase.refresh(t);
        Node fn = Node.gradFnOf(t);
        if (fn != null) return new Edge(fn, t.outputNr());
        if (!t.requiresGrad()) throw new TorchException("internal: no edge for a tensor that does not require grad");
        return new Edge(Node.accumulatorOf(t), 0);
    }
}
