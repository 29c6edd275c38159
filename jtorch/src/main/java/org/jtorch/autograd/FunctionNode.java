package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/** The backward node of one {@link Function#applyAll} call: runs the user's backward on its context. */
final class FunctionNode extends Node {
    private final Function fn;
    private final Function.Ctx ctx;
    private final String name;
    /** Which forward arguments were tensors: backward returns one entry per argument, the node one per tensor. */
    private final boolean[] isTensorArg;

    /** What the node needs of the forward's tensor arguments, taken before forward can modify them. */
    record Inputs(Edge[] next, long[][] shapes, DType[] dtypes, boolean[] isTensorArg, Set<Tensor> tensors) {
        static Inputs of(Object[] args, boolean[] needsGrad) {
            List<Edge> next = new ArrayList<>();
            List<long[]> shapes = new ArrayList<>();
            List<DType> dtypes = new ArrayList<>();
            boolean[] isTensor = new boolean[args.length];
            Set<Tensor> tensors = Collections.newSetFromMap(new IdentityHashMap<>());
            for (int i = 0; i < args.length; i++) {
                if (!(args[i] instanceof Tensor t)) continue;
                isTensor[i] = true;
                tensors.add(t);
                next.add(needsGrad[i] ? Recorder.edgeOf(t) : null);
                shapes.add(t.impl().shapeRef());
                dtypes.add(t.dtype());
            }
            return new Inputs(
                    next.toArray(Edge[]::new),
                    shapes.toArray(long[][]::new),
                    dtypes.toArray(DType[]::new),
                    isTensor,
                    tensors);
        }
    }

    private FunctionNode(Function fn, Function.Ctx ctx, Inputs in, Tensor[] outs) {
        super(in.next(), in.shapes(), in.dtypes(), shapesOf(outs), dtypesOf(outs));
        this.fn = fn;
        this.ctx = ctx;
        this.name = fn.name();
        this.isTensorArg = in.isTensorArg();
    }

    private static long[][] shapesOf(Tensor[] ts) {
        long[][] s = new long[ts.length][];
        for (int i = 0; i < ts.length; i++) s[i] = ts[i].impl().shapeRef();
        return s;
    }

    private static DType[] dtypesOf(Tensor[] ts) {
        DType[] d = new DType[ts.length];
        for (int i = 0; i < ts.length; i++) d[i] = ts[i].dtype();
        return d;
    }

    /**
     * PyTorch's {@code _wrap_outputs}: gives the outputs their history and returns them. An output that is an input
     * (and not marked dirty), or that already has history, is returned as a fresh alias, so the caller's tensors never
     * change history; a dirty input gets the node as its new history.
     */
    static Tensor[] attach(Function fn, Function.Ctx ctx, Inputs in, Tensor[] outs) {
        Set<Tensor> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        returned.addAll(List.of(outs));
        for (Tensor d : ctx.dirtyTensors()) {
            if (!returned.contains(d)) {
                throw new TorchException(
                        "Some elements marked as dirty during the forward method were not returned as output. "
                                + "The inputs that are modified inplace must all be outputs of the Function.");
            }
        }
        FunctionNode node = new FunctionNode(fn, ctx, in, outs);
        Tensor[] result = new Tensor[outs.length];
        Set<Tensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int j = 0; j < outs.length; j++) {
            Tensor o = outs[j];
            boolean first = seen.add(o);
            boolean differentiable = !ctx.isNonDifferentiable(o) && (o.isFloatingPoint() || o.isComplex());
            boolean modified = first && ctx.isDirty(o);
            if (!differentiable) {
                result[j] = o.requiresGrad() ? o.detach() : o;
                continue;
            }
            if (modified) {
                if (o.isLeaf() && o.requiresGrad()) {
                    throw new TorchException(
                            "a leaf Variable that requires grad has been used in an in-place operation.");
                }
                Tensor base = o.viewBase();
                if (base != null && base.requiresGrad()) {
                    throw new TorchException(
                            node.name + ": marking dirty a view of a tensor that requires grad is not supported "
                                    + "yet; pass the base tensor, or a clone of the view");
                }
                o.impl().bumpVersion();
            } else if (!first || in.tensors().contains(o) || o.requiresGrad()) {
                o = o.detach();
            }
            o.setGradFn(node, j);
            result[j] = o;
        }
        ctx.freezeSaved(node.name);
        return result;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    boolean materializeGrads() {
        return ctx.materializeGrads();
    }

    @Override
    Tensor[] apply(Tensor[] gradOutputs) {
        Tensor[] r = fn.runBackward(ctx, gradOutputs);
        int n = isTensorArg.length;
        int got = r == null ? 0 : r.length;
        if (got > n) { // extra trailing Nones are dropped, as PyTorch does
            boolean allNull = true;
            for (int i = n; i < got; i++) allNull &= r[i] == null;
            if (allNull) got = n;
        }
        if (got != n) {
            throw new TorchException("function " + name + " returned an incorrect number of gradients (expected " + n
                    + ", got " + got + ")");
        }
        Tensor[] perInput = new Tensor[next.length];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (isTensorArg[i]) perInput[k++] = r[i];
            else if (r[i] != null) {
                throw new TorchException("function " + name + " returned a gradient different than None at position "
                        + (i + 1) + ", but the corresponding forward input was not a Variable");
            }
        }
        return perInput;
    }

    @Override
    void release() {
        ctx.release();
    }
}
